#include "TraceDatHandle.h"

#include "Loader.h"
#include "TraceCmdApi.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

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

namespace {

constexpr int kProbeOpened = 0, kProbeRefused = 3; // a child's exit codes; anything else: it crashed
constexpr int kProbeTimeoutMs = 20000;

// libtracecmd's open has error paths that crash on some damaged files (a null dereference in
// tracecmd_close when tracecmd_open_fd fails part-way), and the file checks before it cannot foresee
// every one. So the open is tried first in a child process: if the child dies, the file is refused
// with one line and this process (a GUI session, maybe) lives on. The child only opens and closes
// (reading the headers, formats and symbols), which is where those paths are.
void probeOpen(const std::string &path)
{
    const pid_t pid = ::fork();
    if (pid < 0) return; // cannot probe: open in-process as before
    if (pid == 0) {
        const int devnull = ::open("/dev/null", O_WRONLY);
        if (devnull >= 0) ::dup2(devnull, STDERR_FILENO); // no library or sanitizer chatter
        // A crash here is the expected outcome for some files: the default action (no handler the parent
        // installed, such as a sanitizer's or a fuzzer's, which would report it as the parent's own;
        // no core file) is all the parent needs to see.
        for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
            ::signal(sig, SIG_DFL);
        const rlimit noCore{0, 0};
        ::setrlimit(RLIMIT_CORE, &noCore);
        tracecmd_input *h = tracecmd_open(path.c_str(), TRACECMD_FL_LOAD_NO_PLUGINS);
        if (!h) ::_exit(kProbeRefused);
        tracecmd_close(h);
        ::_exit(kProbeOpened);
    }
    int status = 0;
    for (int waited = 0;; waited += 5) {
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid) break;
        if (r < 0 && errno != EINTR) return;
        if (waited >= kProbeTimeoutMs) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            throw LoadError(path + ": not a readable trace.dat (libtracecmd does not finish opening it)");
        }
        ::usleep(5000);
    }
    if (WIFEXITED(status) && (WEXITSTATUS(status) == kProbeOpened || WEXITSTATUS(status) == kProbeRefused))
        return; // a clean refusal is reported by the real open below
    throw LoadError(path + ": not a readable trace.dat (libtracecmd crashes opening it: " +
                    (WIFSIGNALED(status) ? std::string(strsignal(WTERMSIG(status)))
                                         : "exit status " + std::to_string(WEXITSTATUS(status))) +
                    "; the file is damaged)");
}

} // namespace

TraceDatHandle::TraceDatHandle(const std::string &path) : path_(path)
{
    silenceLibraries();
    probeOpen(path);
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
    for (auto &[name, h] : instances_)
        tracecmd_close(h);
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
