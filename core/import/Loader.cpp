#include "Loader.h"

#include "TextImporter.h"
#include "TraceDatImporter.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tickscope {

namespace {
std::unique_ptr<Trace> finished(std::unique_ptr<Trace> t)
{
    for (int c = 0; c < t->cpuCount(); ++c) t->cpu(c).finishLoading();
    return t;
}
std::vector<std::unique_ptr<Trace>> finished(std::vector<std::unique_ptr<Trace>> v)
{
    for (auto &t : v) t = finished(std::move(t));
    return v;
}
} // namespace

FileFormat detectFormat(const std::string &path)
{
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) throw LoadError(path + ": " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw LoadError(path + ": is a directory, not a trace file");
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw LoadError(path + ": " + std::strerror(errno));
    unsigned char head[10] = {};
    const ssize_t n = ::read(fd, head, sizeof head);
    ::close(fd);
    if (n < 0) throw LoadError(path + ": " + std::strerror(errno));
    if (n == 0) throw LoadError(path + ": empty file");
    static const unsigned char kMagic[10] = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};
    if (n == sizeof head && std::memcmp(head, kMagic, sizeof kMagic) == 0) return FileFormat::TraceDat;
    if (n >= 3 && std::memcmp(head, kMagic, 3) == 0) throw LoadError(path + ": truncated trace.dat header");
    return FileFormat::Text;
}

std::vector<std::unique_ptr<Trace>> loadAll(const std::string &path, const LoadOptions &options)
{
    if (detectFormat(path) == FileFormat::Text) return finished(importText(path, options));
    return finished(importTraceDat(path, options, false));
}

LoadError severalInstancesError(const std::string &path, const std::vector<std::string> &instances)
{
    std::string list;
    for (const auto &n : instances) list += (list.empty() ? "" : ", ") + (n.empty() ? std::string("(top level)") : n);
    return LoadError(path + ": events in " + std::to_string(instances.size()) + " buffer instances (" + list +
                     "); choose one with --instance NAME");
}

std::unique_ptr<Trace> loadTrace(const std::string &path, const LoadOptions &options)
{
    if (detectFormat(path) == FileFormat::TraceDat) return std::move(finished(importTraceDat(path, options, true)).front());
    auto all = finished(importText(path, options));
    if (all.size() == 1) return std::move(all.front());
    if (options.instanceGiven) {
        for (auto &t : all) {
            if (t->meta.instance == options.instance) return std::move(t);
        }
        throw LoadError(path + ": no instance named '" + options.instance + "' in this text trace");
    }
    std::vector<std::string> names;
    for (const auto &t : all) names.push_back(t->meta.instance);
    throw severalInstancesError(path, names);
}

} // namespace tickscope
