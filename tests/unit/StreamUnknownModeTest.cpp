// SPDX-License-Identifier: GPL-3.0-or-later
// `report --stream` on tasks of unknown user/kernel mode moving between CPUs at random: the loaded report,
// and what the stream keeps for the step across CPUs at the end.
#include "StreamTestUtil.h"
#include "TestUtil.h"
#include "import/Loader.h"
#include "write/TraceDatWriter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace tickscope;
using namespace tickscope::test;

namespace {

// Tasks whose user/kernel mode the trace does not show, preempted and moved between CPUs at random, with
// ticks on every CPU: now and then a syscall or a sleep tells a task's mode, and three tasks never do.
// Written as trace.dat to `path`.
struct MovingTasks
{
    size_t switchIns = 0; // of a task
    // Switch-ins of a task on a CPU it left preempted, after running elsewhere, where it slept or made a
    // syscall since: the chain of stretches it left there is not continued.
    size_t returnsChanged = 0;
};
MovingTasks writeMovingTasksOfUnknownMode(const std::string &path, int steps)
{
    constexpr int kCpus = 6, kTasks = 10;
    std::mt19937 rng(20261204);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<std::pair<double, std::string>> lines;
    char buf[512];
    auto ev = [&](int cpu, double ts, int pid, const std::string &e, const char *flags) {
        const std::string task = (pid ? "t" + std::to_string(pid) : "swapper") + "-" + std::to_string(pid);
        std::snprintf(buf, sizeof buf, "%22s [%03d] %s %12.6f: %s", task.c_str(), cpu, flags, ts, e.c_str());
        lines.emplace_back(ts, buf);
    };
    auto comm = [](int pid) { return pid ? "t" + std::to_string(pid) : std::string("swapper"); };
    std::vector<int> curr(kCpus, 0), on(kTasks + 1, -1);
    std::vector<double> nextTick(kCpus);
    for (int c = 0; c < kCpus; ++c)
        nextTick[static_cast<size_t>(c)] = 100.0 + 0.001 * (c + 1) / kCpus;
    double ts = 100.0;
    MovingTasks out;
    // per task: syscalls and sleeps so far; per task and CPU: that count when it left the CPU preempted
    std::vector<int> changes(kTasks + 1, 0), lastOn(kTasks + 1, -1);
    std::vector<std::vector<int>> leftAt(kTasks + 1, std::vector<int>(kCpus, -1));
    for (int k = 0; k < steps; ++k) {
        ts += u(rng) * 2e-5;
        for (int d = 0; d < kCpus; ++d) {
            for (double &t = nextTick[static_cast<size_t>(d)]; t < ts; t += 0.001) {
                const int pid = curr[static_cast<size_t>(d)];
                const std::string ptr = "ffff00000000100" + std::to_string(d);
                const std::string now = std::to_string(static_cast<long long>(t * 1e9) - 30000000);
                const std::string next = std::to_string(static_cast<long long>(t * 1e9) - 26000000);
                ev(d, t, pid, "local_timer_entry: vector=236", "d.h..");
                ev(d, t + 1e-7, pid,
                   "hrtimer_expire_entry: hrtimer=" + ptr + " function=tick_nohz_handler now=" + now,
                   "d.h..");
                ev(d, t + 2e-7, pid, "hrtimer_expire_exit: hrtimer=" + ptr, "d.h..");
                ev(d, t + 3e-7, pid,
                   "hrtimer_start: hrtimer=" + ptr + " function=tick_nohz_handler expires=" + next +
                       " softexpires=" + next + " mode=ABS was_armed=0",
                   "d.h..");
                ev(d, t + 4e-7, pid, "local_timer_exit: vector=236", "d.h..");
            }
        }
        const int c = static_cast<int>(rng() % kCpus);
        const int from = curr[static_cast<size_t>(c)];
        const bool silent = from >= 1 && from <= 3;   // loops that never sleep nor make a syscall
        if (from != 0 && !silent && u(rng) < 0.002) { // a task shows its mode
            ev(c, ts, from, u(rng) < 0.5 ? "sys_enter: NR 1 (1, 2, 3, 4, 5, 6)" : "sys_exit: NR 1 = 1",
               ".....");
            ++changes[static_cast<size_t>(from)];
            continue;
        }
        std::vector<int> free{0}; // the idle task, or a task not running elsewhere
        for (int p = 1; p <= kTasks; ++p)
            if (on[static_cast<size_t>(p)] < 0) free.push_back(p);
        const int to = free[rng() % free.size()];
        if (to == from) continue;
        const char *state = from == 0 ? "R" : silent || u(rng) < 0.95 ? "R+" : "S"; // mostly preempted
        ev(c, ts, from,
           "sched_switch: prev_comm=" + comm(from) + " prev_pid=" + std::to_string(from) +
               " prev_prio=120 prev_state=" + state + " ==> next_comm=" + comm(to) +
               " next_pid=" + std::to_string(to) + " next_prio=120",
           "d..2.");
        if (from) {
            on[static_cast<size_t>(from)] = -1;
            lastOn[static_cast<size_t>(from)] = c;
            changes[static_cast<size_t>(from)] += state[0] == 'S';
            leftAt[static_cast<size_t>(from)][static_cast<size_t>(c)] =
                state[0] == 'S' ? -1 : changes[static_cast<size_t>(from)];
        }
        if (to) {
            on[static_cast<size_t>(to)] = c;
            const int left = leftAt[static_cast<size_t>(to)][static_cast<size_t>(c)];
            out.returnsChanged +=
                lastOn[static_cast<size_t>(to)] != c && left >= 0 && changes[static_cast<size_t>(to)] > left;
        }
        curr[static_cast<size_t>(c)] = to;
        out.switchIns += to != 0;
    }
    std::stable_sort(lines.begin(), lines.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    std::string text = "# tracer: nop\n#\n";
    for (const auto &l : lines)
        text += l.second + '\n';
    const std::string textPath = path + ".txt";
    std::ofstream(textPath) << text;
    writeTraceDat(*loadTrace(textPath), path);
    return out;
}

// Each switch-in of such a task begins a stretch of unknown mode, continuing the task's last one on that
// CPU (a chain) or taking its mode from the CPU it left (a chain's head). The stream gives the loaded
// report, and what it keeps for the step across CPUs at the end does not grow with the switch-ins: the
// heads, and the stretches its readers are not past yet (it kept every stretch to the end, ~75 bytes
// each, with a sweep candidate and a task-lane code for each). A task that comes back to a CPU after a
// syscall or a sleep elsewhere does not continue the chain it left there, whose mode can then only come
// from the CPU the task came from before, at the end: that chain's head is kept to the end, and the return
// begins a chain of its own, kept until its mode shows: two per such return at most.
TEST(Stream, TasksOfUnknownModeMovingBetweenCpusKeepTheirChainsNotEveryStretch)
{
    struct Run
    {
        size_t switchIns = 0, returnsChanged = 0;
        uint64_t stretches = 0, candidates = 0;
    };
    auto run = [](int steps) {
        const std::string path = (tempDir() / ("moving-unknown-" + std::to_string(steps) + ".dat")).string();
        Run out;
        const MovingTasks moving = writeMovingTasksOfUnknownMode(path, steps);
        out.switchIns = moving.switchIns;
        out.returnsChanged = moving.returnsChanged;
        const auto loaded = loadTrace(path);
        const TickReport whole = TickReport::make(*loaded, TickAnalysis::run(*loaded), {});
        uint64_t user = 0, kernel = 0, unknown = 0;
        for (const CpuReport &c : whole.cpus) {
            user += c.ticks.user;
            kernel += c.ticks.kernel;
            unknown += c.ticks.unknown;
        }
        // every outcome happened: ticks of each mode, and some never known
        EXPECT_GT(user, 10u) << steps;
        EXPECT_GT(kernel, 500u) << steps;
        EXPECT_GT(unknown, 500u) << steps;
        for (int64_t slice : {100000, 1000000}) {
            StreamResult r;
            EXPECT_EQ(loadedJson(*loaded), streamedJson(path, *loaded, slice, SIZE_MAX, &r))
                << steps << " steps, " << slice << " ns slices";
            out.stretches = std::max(out.stretches, r.maxStretches);
            out.candidates = std::max(out.candidates, r.maxCandidates);
        }
        return out;
    };
    const Run shortRun = run(120000), longRun = run(480000);
    ASSERT_GT(longRun.switchIns, 3 * shortRun.switchIns);
    const size_t moreReturns = longRun.returnsChanged - shortRun.returnsChanged;
    // (each such return begins a chain of its own, kept until its mode shows, and leaves the one it left)
    EXPECT_LT(longRun.stretches, shortRun.stretches * 3 / 2 + 2 * moreReturns)
        << shortRun.switchIns << " switch-ins: " << shortRun.stretches << " stretches kept; "
        << longRun.switchIns << ": " << longRun.stretches << "; " << moreReturns
        << " more returns after a syscall or sleep elsewhere";
    // a candidate per chain head whose mode is not known yet: about one per CPU and task, and one per
    // return after a syscall or sleep elsewhere, at most
    EXPECT_LT(longRun.candidates, longRun.switchIns / 100 + longRun.returnsChanged)
        << longRun.candidates << " candidates kept for " << longRun.switchIns << " switch-ins, "
        << longRun.returnsChanged << " returns after a syscall or sleep elsewhere";
}

} // namespace
