#include "TraceDatHandle.h"

#include "Loader.h"
#include "TraceCmdApi.h"

#include <cerrno>
#include <cstring>
#include <mutex>

namespace tickscope {

void TraceDatHandle::silenceLibraries()
{
    static std::once_flag once;
    std::call_once(once, [] {
        // Errors reach the user as one LoadError line, not as library chatter on stderr.
        tracecmd_set_loglevel(TEP_LOG_NONE);
        tep_set_loglevel(TEP_LOG_NONE);
    });
}

TraceDatHandle::TraceDatHandle(const std::string &path) : path_(path)
{
    silenceLibraries();
    errno = 0;
    top_ = tracecmd_open(path.c_str(), TRACECMD_FL_LOAD_NO_PLUGINS);
    if (!top_) {
        const int err = errno < 0 ? -errno : errno; // libtracecmd leaves -EINVAL and the like in errno
        throw LoadError(path + ": not a readable trace.dat (libtracecmd cannot open it" +
                        (err ? std::string(": ") + std::strerror(err) : std::string()) + ")");
    }
}

TraceDatHandle::~TraceDatHandle()
{
    for (auto &[name, h] : instances_) tracecmd_close(h);
    if (top_) tracecmd_close(top_);
}

std::vector<std::string> TraceDatHandle::instanceNames() const
{
    std::vector<std::string> out;
    const int n = tracecmd_buffer_instances(top_);
    for (int i = 0; i < n; ++i) {
        if (const char *name = tracecmd_buffer_instance_name(top_, i)) out.emplace_back(name);
    }
    return out;
}

tracecmd_input *TraceDatHandle::instance(const std::string &name)
{
    if (name.empty()) return top_;
    if (auto it = instances_.find(name); it != instances_.end()) return it->second;
    const int n = tracecmd_buffer_instances(top_);
    for (int i = 0; i < n; ++i) {
        const char *iname = tracecmd_buffer_instance_name(top_, i);
        if (iname && name == iname) {
            tracecmd_input *h = tracecmd_buffer_instance_handle(top_, i);
            if (!h) throw LoadError(path_ + ": buffer instance '" + name + "' cannot be read");
            instances_.emplace(name, h);
            return h;
        }
    }
    throw LoadError(path_ + ": no buffer instance named '" + name + "'");
}

} // namespace tickscope
