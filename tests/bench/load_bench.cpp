// SPDX-License-Identifier: GPL-3.0-or-later
// load_bench FILE [--runs N] [--no-trace-cmd]
// Loads FILE with `tickscope-cli stats` in fresh processes (so peak RSS is the load's own) and prints
// events, load wall time, events/s, CPU time, peak RSS and bytes/event; then times
// `trace-cmd report FILE > /dev/null` on the same file in the same run, and prints the ratio.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

struct ChildRun
{
    double wall = 0;
    double cpu = 0;
    long maxRssKb = 0;
    int status = 0;
    std::string out;
};

ChildRun runChild(const std::vector<std::string> &argv, bool captureOut)
{
    int pipefd[2] = {-1, -1};
    if (captureOut && pipe(pipefd) != 0) std::exit(3);
    std::fflush(stdout); // the child must not inherit (and later flush) our buffered output
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        if (captureOut) {
            dup2(pipefd[1], 1);
            close(pipefd[0]);
        } else {
            freopen("/dev/null", "w", stdout);
        }
        freopen("/dev/null", "w", stderr);
        std::vector<char *> args;
        for (const auto &a : argv)
            args.push_back(const_cast<char *>(a.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        _exit(127);
    }
    ChildRun r;
    if (captureOut) {
        close(pipefd[1]);
        char buf[65536];
        ssize_t n;
        while ((n = read(pipefd[0], buf, sizeof buf)) > 0)
            r.out.append(buf, static_cast<size_t>(n));
        close(pipefd[0]);
    }
    struct rusage ru
    {
    };
    wait4(pid, &r.status, 0, &ru);
    r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.cpu = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
            static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    r.maxRssKb = ru.ru_maxrss;
    return r;
}

double jsonNumber(const std::string &json, const std::string &key)
{
    const auto p = json.rfind("\"" + key + "\": ");
    return p == std::string::npos ? 0 : std::atof(json.c_str() + p + key.size() + 4);
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: load_bench FILE [--runs N] [--no-trace-cmd]\n");
        return 2;
    }
    const std::string file = argv[1];
    int runs = 5;
    bool traceCmd = true;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
        if (a == "--no-trace-cmd") traceCmd = false;
    }
    double bestLoad = 1e9, bestWall = 1e9, bestCpu = 1e9;
    long rssKb = 0;
    double events = 0;
    for (int i = 0; i < runs; ++i) {
        const auto r = runChild({TICKSCOPE_CLI, "stats", "--json", file}, true);
        if (!WIFEXITED(r.status) || WEXITSTATUS(r.status) != 0) {
            std::fprintf(stderr, "load_bench: tickscope-cli stats failed on %s\n", file.c_str());
            return 1;
        }
        events = jsonNumber(r.out, "events");
        bestLoad = std::min(bestLoad, jsonNumber(r.out, "load_seconds"));
        bestWall = std::min(bestWall, r.wall);
        bestCpu = std::min(bestCpu, r.cpu);
        rssKb = std::max(rssKb, r.maxRssKb);
    }
    std::printf("file:                 %s\n", file.c_str());
    std::printf("events:               %.0f\n", events);
    std::printf("load (in process):    %.3f s  (best of %d)\n", bestLoad, runs);
    std::printf("process wall / CPU:   %.3f s / %.3f s\n", bestWall, bestCpu);
    std::printf("events/s:             %.2f M\n", events / bestLoad / 1e6);
    std::printf("peak RSS:             %.1f MB\n", static_cast<double>(rssKb) / 1024.0);
    std::printf("bytes/event:          %.1f (target <= 25)\n", static_cast<double>(rssKb) * 1024.0 / events);
    // The same file through libtracecmd's record API (tickscope's reference path), for comparison.
    double refBest = 1e9;
    for (int i = 0; i < std::max(1, runs / 2); ++i) {
        const auto r = runChild({TICKSCOPE_CLI, "stats", "--json", "--record-api", file}, true);
        if (WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0)
            refBest = std::min(refBest, jsonNumber(r.out, "load_seconds"));
    }
    if (refBest < 1e9)
        std::printf("libtracecmd record API: %.3f s  (page decoder is %.1fx faster)\n", refBest,
                    refBest / bestLoad);
    if (traceCmd) {
        const auto t = runChild({"trace-cmd", "report", file}, false);
        std::printf("trace-cmd report:     %.3f s wall, %.3f s CPU  (tickscope is %.1fx faster)\n", t.wall,
                    t.cpu, t.wall / bestLoad);
    }
    return 0;
}
