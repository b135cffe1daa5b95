// SPDX-License-Identifier: GPL-3.0-or-later
#include "Loader.h"

#include "FuncGraphText.h"

#include "InputFile.h"
#include "TextImporter.h"
#include "TraceDatImporter.h"
#include "util/ProcessStats.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tickscope {

namespace {
std::unique_ptr<Trace> finished(std::unique_ptr<Trace> t)
{
    for (int c = 0; c < t->cpuCount(); ++c)
        t->cpu(c).finishLoading();
    funcgraph::spansFromRecords(*t); // a trace.dat's function_graph records (text ones are spans already)
    t->functions.finish();
    return t;
}
std::vector<std::unique_ptr<Trace>> finished(std::vector<std::unique_ptr<Trace>> v)
{
    for (auto &t : v)
        t = finished(std::move(t));
    return v;
}
} // namespace

FileFormat detectFormat(const InputFile &in)
{
    const std::string_view head = in.bytes().substr(0, 10);
    if (head.empty()) throw LoadError(in.path() + ": empty file");
    static const char kMagic[10] = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};
    if (head.size() == sizeof kMagic && std::memcmp(head.data(), kMagic, sizeof kMagic) == 0) {
        if (in.isStream())
            throw LoadError(in.path() +
                            ": a trace.dat from a pipe cannot be read (it is read at random offsets); "
                            "save it to a file first");
        return FileFormat::TraceDat;
    }
    if (head.size() >= 3 && std::memcmp(head.data(), kMagic, 3) == 0)
        throw LoadError(in.path() + ": truncated trace.dat header");
    return FileFormat::Text;
}

namespace {

// Every failure of a load reaches the user as a LoadError naming the file. Anything else an importer
// throws is a defect of ours (the fuzzers look for it); the user still gets the file's name and what to do.
template <class Load> auto guarded(const std::string &path, Load &&load)
{
    try {
        return load();
    } catch (const LoadError &) {
        throw;
    } catch (const std::bad_alloc &) {
        throw LoadError(path + ": not enough memory to load it (" + std::to_string(currentRssBytes() >> 20) +
                        " MiB in use); close other documents or load one buffer instance with --instance");
    } catch (const std::exception &) {
        throw LoadError(path + ": " + kUnexpectedContent);
    }
}

// Every source of the file. A trace.dat's mapping is gone before its pages are decoded: they are read
// with pread, and the touched metadata pages would otherwise stay resident through the whole load.
std::vector<std::unique_ptr<Trace>> loadSources(const std::string &path, const LoadOptions &options,
                                                bool requireOne)
{
    std::optional<DatLayout> layout;
    uint64_t fileSize = 0;
    {
        const InputFile in(path, options.streamIdleTimeoutMs);
        if (detectFormat(in) == FileFormat::Text) {
            return finished(importText(in, options));
        }
        layout = traceDatLayout(in);
        fileSize = in.bytes().size();
    }
    return finished(importTraceDat(path, fileSize, std::move(*layout), options, requireOne));
}

} // namespace

std::vector<std::unique_ptr<Trace>> loadAll(const std::string &path, const LoadOptions &options)
{
    return guarded(path, [&] { return loadSources(path, options, false); });
}

LoadError severalInstancesError(const std::string &path, const std::vector<std::string> &instances)
{
    std::string list;
    for (const auto &n : instances)
        list += (list.empty() ? "" : ", ") + (n.empty() ? std::string("(top level)") : n);
    return LoadError(path + ": events in " + std::to_string(instances.size()) + " buffer instances (" + list +
                     "); choose one with --instance NAME");
}

std::unique_ptr<Trace> loadTrace(const std::string &path, const LoadOptions &options)
{
    auto all = guarded(path, [&] { return loadSources(path, options, true); });
    if (all.size() == 1) return std::move(all.front()); // a trace.dat's sources are one with requireOne
    if (options.instanceGiven) {
        for (auto &t : all) {
            if (t->meta.instance == options.instance) return std::move(t);
        }
        throw LoadError(path + ": no instance named '" + options.instance + "' in this text trace");
    }
    std::vector<std::string> names;
    names.reserve(all.size());
    for (const auto &t : all)
        names.push_back(t->meta.instance);
    throw severalInstancesError(path, names);
}

} // namespace tickscope
