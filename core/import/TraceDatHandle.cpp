// SPDX-License-Identifier: GPL-3.0-or-later
#include "TraceDatHandle.h"

#include "Loader.h"
#include "TraceCmdApi.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <spawn.h>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

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

// A probe's exit codes; anything else: it crashed. Unreachable: the probe could not open the path (a
// name only this process can resolve), so it proves nothing and the fork probe runs instead.
constexpr int kProbeOpened = 0, kProbeRefused = 3, kProbeUnreachable = 4;
constexpr int kProbeTimeoutMs = 20000;

// libtracecmd's open has error paths that crash on some damaged files (a null dereference in
// tracecmd_close when tracecmd_open_fd fails part-way), and the file checks before it cannot foresee
// every one. So the open is tried first in another process: if it dies, the file is refused with one
// line and this process (a GUI session, maybe) lives on. The probe only opens and closes (reading the
// headers, formats and symbols), which is where those paths are.
//
// The probe is this same program started afresh (/proc/self/exe) with kProbeVariable naming the file: a
// static initializer below answers before main() and exits. A fresh process matters: a child forked from
// a process with other threads inherits whatever locks they held at that instant (an allocator's, with
// the sanitizers), and a probe that waits on one hangs until the timeout refuses a good file. Only when
// the program cannot be started again (no /proc) is the probe a plain fork.
constexpr const char *kProbeVariable = "TICKSCOPE_TRACECMD_PROBE";

[[noreturn]] void runProbe(const char *path)
{
    const int devnull = ::open("/dev/null", O_WRONLY);
    if (devnull >= 0) ::dup2(devnull, STDERR_FILENO); // no library or sanitizer chatter
    // A crash here is the expected outcome for some files: the default action (no handler a sanitizer
    // or a fuzzer installed, which would report it as its own; no core file) is all the parent needs.
    for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
        ::signal(sig, SIG_DFL);
    const rlimit noCore{0, 0};
    ::setrlimit(RLIMIT_CORE, &noCore);
    const int fd = ::open(path, O_RDONLY);
    if (fd < 0) ::_exit(kProbeUnreachable);
    ::close(fd);
    tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
    if (!h) ::_exit(kProbeRefused);
    tracecmd_close(h);
    ::_exit(kProbeOpened);
}

// The probe process' entry, before main().
[[maybe_unused]] const bool kProbeProcess = [] {
    if (const char *path = std::getenv(kProbeVariable)) runProbe(path);
    return false;
}();

// Starts the probe as a fresh process; -1 when it cannot. Names of this process' own descriptors
// (/proc/self/fd/N, /dev/fd/N, /dev/stdin: a memfd, a pipe's file) are given by this process' pid.
pid_t spawnProbe(std::string path)
{
    const std::string self = "/proc/" + std::to_string(::getpid());
    for (const auto &[from, to] : {std::pair<std::string, std::string>{"/proc/self/", self + "/"},
                                   {"/dev/fd/", self + "/fd/"},
                                   {"/dev/stdin", self + "/fd/0"}})
        if (path.compare(0, from.size(), from) == 0) path = to + path.substr(from.size());
    const std::string prefix = std::string(kProbeVariable) + "=";
    std::vector<std::string> env;
    for (char **e = environ; e && *e; ++e)
        if (std::strncmp(*e, prefix.c_str(), prefix.size()) != 0) env.emplace_back(*e);
    env.push_back(prefix + path);
    std::vector<char *> envp;
    envp.reserve(env.size() + 1);
    for (std::string &e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    char name[] = "tickscope-probe";
    char *argv[] = {name, nullptr};
    posix_spawn_file_actions_t actions;
    if (posix_spawn_file_actions_init(&actions) != 0) return -1;
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv, envp.data());
    posix_spawn_file_actions_destroy(&actions);
    return rc == 0 ? pid : -1;
}

int waitProbe(pid_t pid, const std::string &path);

void probeOpen(const std::string &path)
{
    pid_t pid = spawnProbe(path);
    int status = pid < 0 ? -1 : waitProbe(pid, path);
    if (pid < 0 || (WIFEXITED(status) && WEXITSTATUS(status) == kProbeUnreachable)) {
        pid = ::fork();
        if (pid < 0) return; // cannot probe: open in-process as before
        if (pid == 0) runProbe(path.c_str());
        status = waitProbe(pid, path);
    }
    if (WIFEXITED(status) && (WEXITSTATUS(status) == kProbeOpened || WEXITSTATUS(status) == kProbeRefused ||
                              WEXITSTATUS(status) == kProbeUnreachable))
        return; // a clean refusal (or a path no probe can reach) is reported by the real open below
    throw LoadError(path + ": not a readable trace.dat (libtracecmd crashes opening it: " +
                    (WIFSIGNALED(status) ? std::string(strsignal(WTERMSIG(status)))
                                         : "exit status " + std::to_string(WEXITSTATUS(status))) +
                    "; the file is damaged)");
}

// Waits for a probe (killed after kProbeTimeoutMs: the file is refused) and returns its wait status.
int waitProbe(pid_t pid, const std::string &path)
{
    int status = 0;
    for (int waited = 0;; waited += 5) {
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid) return status;
        if (r < 0 && errno != EINTR)
            return 0; // not ours to wait for (a SIGCHLD handler reaped it): no verdict
        if (waited >= kProbeTimeoutMs) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            throw LoadError(path + ": not a readable trace.dat (libtracecmd does not finish opening it)");
        }
        ::usleep(5000);
    }
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
