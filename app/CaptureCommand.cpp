// SPDX-License-Identifier: GPL-3.0-or-later
// `tickscope-cli capture`: records this machine into a private tracefs instance and saves a trace.dat.
#include "CaptureCommand.h"
#include "CommandLine.h"

#include "analysis/CpuList.h"
#include "capture/Capture.h"
#include "capture/Tracefs.h"
#include "import/Loader.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace tickscope {

namespace {

std::atomic<int> gSignal{0};

void onSignal(int sig)
{
    gSignal.store(sig);
}

} // namespace

int runCapture(const std::vector<std::string> &args, const CaptureHooks &hooks)
{
    CaptureArgs a;
    CommandLine cl = captureCommandLine(a);
    parseCapture(cl, a, args); // (a UsageError or HelpRequest goes to the caller)
    if (a.cleanup) {
        const auto removed = removeStaleInstances();
        for (const auto &n : removed)
            std::printf("removed the stale tracefs instance %s\n", n.c_str());
        if (removed.empty()) std::printf("no stale tickscope instance\n");
        return 0;
    }
    CaptureOptions opt;
    double duration = 0;
    const std::string &out = a.out;
    const bool report = a.report;
    const std::vector<std::string> &command = a.command;
    if (cl.given("--duration")) {
        char *end = nullptr;
        duration = std::strtod(a.duration.c_str(), &end);
        if (a.duration.empty() || !end || *end || !(duration > 0) || duration > 86400)
            return hooks.usage("capture: --duration: expected seconds (0 < S <= 86400), got '" + a.duration +
                               "'");
    }
    if (cl.given("--cpus")) {
        auto cpus = parseCpuList(a.cpus);
        if (!cpus)
            return hooks.usage("capture: --cpus: expected a CPU list like 0-3,8, got '" + a.cpus + "'");
        opt.cpus = *cpus;
    }
    if (cl.given("--events")) opt.events = splitCommaList(a.events);
    opt.filters = a.filters;
    if (cl.given("--buffer-kb")) {
        const std::string &t = a.bufferKb;
        char *end = nullptr;
        const long kb = std::strtol(t.c_str(), &end, 10);
        if (t.empty() || !end || *end || kb < 64 || kb > (1L << 22))
            return hooks.usage("capture: --buffer-kb: expected 64 to 4194304, got '" + t + "'");
        opt.bufferKb = static_cast<int>(kb);
    }
    if (out.empty()) return hooks.usage("capture: --out FILE.dat is required");
    if (out.size() < 5 || out.compare(out.size() - 4, 4, ".dat") != 0)
        return hooks.usage("capture: --out: the file is written as trace.dat: name it FILE.dat");
    // Neither a duration nor a command: until SIGINT or SIGTERM (Ctrl-C). Either signal ends a capture
    // normally: the pages are saved and the instance removed.
    try {
        Capture cap(opt);
        for (const auto &m : cap.missing())
            std::fprintf(stderr, "tickscope-cli: note: this kernel has no %s: %s\n", m.event.c_str(),
                         m.cost.c_str());
        struct sigaction sa
        {
        };
        sa.sa_handler = onSignal;
        sigemptyset(&sa.sa_mask);
        struct sigaction oldInt
        {
        }, oldTerm{};
        sigaction(SIGINT, &sa, &oldInt);
        sigaction(SIGTERM, &sa, &oldTerm);
        cap.start();
        const auto t0 = std::chrono::steady_clock::now();
        pid_t child = -1;
        int childStatus = 0;
        if (!command.empty()) {
            child = ::fork();
            if (child == 0) {
                ::signal(SIGINT, SIG_DFL);
                ::signal(SIGTERM, SIG_DFL);
                ::setpgid(0, 0); // its own process group: stopping it stops its children too
                std::vector<char *> argv;
                argv.reserve(command.size() + 1);
                for (auto &c : command)
                    argv.push_back(const_cast<char *>(c.c_str()));
                argv.push_back(nullptr);
                ::execvp(argv[0], argv.data());
                std::fprintf(stderr, "tickscope-cli: capture: cannot run %s: %s\n", argv[0],
                             std::strerror(errno));
                ::_exit(127);
            }
            if (child > 0) ::setpgid(child, child); // also here: the group exists before any kill(-child)
        }
        std::fprintf(stderr, "tickscope-cli: recording %zu events on %zu CPUs into instance %s%s\n",
                     cap.enabled().size(), cap.cpus().size(), cap.instanceName().c_str(),
                     duration > 0      ? ""
                     : command.empty() ? " until Ctrl-C"
                                       : " until the command exits");
        for (;;) {
            if (gSignal.load()) break;
            if (child > 0) {
                const pid_t w = ::waitpid(child, &childStatus, WNOHANG);
                if (w == child) {
                    child = -1;
                    break;
                }
            }
            if (duration > 0 &&
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() >= duration)
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        cap.stop();
        if (child > 0) { // the duration ended first: the command and what it started are stopped
            ::kill(-child, SIGTERM);
            ::waitpid(child, &childStatus, 0);
        }
        uint64_t events = 0, lost = 0;
        for (size_t k = 0; k < cap.cpus().size(); ++k) {
            events += cap.live(k).events.load();
            lost += cap.live(k).lostPages.load();
        }
        cap.save(out); // a signal meanwhile only sets the flag: the file is completed, not left half-written
        sigaction(SIGINT, &oldInt, nullptr);
        sigaction(SIGTERM, &oldTerm, nullptr);
        std::fprintf(stderr, "tickscope-cli: %llu events on %zu CPUs in %.2f s%s -> %s\n",
                     static_cast<unsigned long long>(events), cap.cpus().size(),
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                     lost ? (", " + std::to_string(lost) + " pages with lost events before them").c_str()
                          : "",
                     out.c_str());
        gSignal.store(0);
        if (report) return hooks.report(out);
        return 0;
    } catch (const CaptureError &e) {
        std::fprintf(stderr, "tickscope-cli: capture: %s\n", e.what());
        return 1;
    }
}

} // namespace tickscope
