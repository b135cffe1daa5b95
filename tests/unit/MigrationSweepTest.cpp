// MigrationSweep: which switch-ins bring a task back from another CPU, however the trace is cut into
// slices of time, parts per thread and steps of a stream.
#include "TextTraceBuilder.h"

#include "analysis/EventRoles.h"
#include "analysis/Migrations.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace tickscope {
void PrintTo(const Migration &m, std::ostream *os) // (for gtest: index, changed)
{
    *os << "{" << m.index << " changed " << m.changed << "}";
}
namespace {

class Switches : public test::TextTraceBuilder<Switches>
{
};

using Marks = Migrations;

// Three CPUs switching among six tasks at random (a quarter of them going to sleep), syscall lines between
// switches (six on CPU 0, one on the others), many switches at one microsecond (on one CPU and across
// CPUs).
std::unique_ptr<Trace> randomSwitches(unsigned seed, int steps)
{
    constexpr int kCpus = 3, kTasks = 6;
    std::mt19937 rng(seed);
    Switches s;
    std::vector<int> cur(kCpus, 0);
    double ts = 1.0;
    for (int k = 0; k < steps; ++k) {
        ts += (rng() % 3 == 0 ? 1e-6 : 0.0);
        const int c = static_cast<int>(rng() % kCpus);
        int next = static_cast<int>(rng() % (kTasks + 1)); // 0: idle
        for (int d = 0; d < kCpus; ++d)
            if (d != c && next != 0 && cur[d] == next) next = 0;
        const auto name = [](int p) { return p ? "t" + std::to_string(p) : std::string("swapper"); };
        // (CPU 0 has most of the events: slices cut where its share of them ends, and a task's run spans
        // parts of the events; one run in four shows the task's mode with a syscall)
        const bool shows = rng() % 4 == 0;
        for (int k = 0; k < (c == 0 ? 6 : 1) && cur[c]; ++k)
            s.ev(c, ts, name(cur[c]) + "-" + std::to_string(cur[c]),
                 shows && k == 0 ? "sys_exit: NR 0 = 0"
                                 : "sched_waking: comm=w pid=99 prio=120 target_cpu=000");
        s.sw(c, ts, name(cur[c]), cur[c], rng() % 4 == 0 ? "S" : "R+", name(next), next);
        cur[c] = next;
    }
    return s.load();
}

// The switch-ins a plain search finds: the task's latest switch-out before (earlier, or at the same time on
// another CPU; of two at one time, the lower CPU's; on one CPU the later event's) was on another CPU, and
// it was not switched out on this CPU earlier at that very time; changed:
// the latest switch-out strictly before that was a sleep or ended a run with a syscall in it.
Marks expectedMarks(const Trace &trace)
{
    const EventRoles roles(trace);
    struct Sw
    {
        int cpu;
        uint32_t index;
        int64_t ts;
        int32_t prev, next;
        bool runnable, showed;
    };
    std::vector<Sw> all;
    for (int c = 0; c < trace.cpuCount(); ++c) {
        const CpuEvents &ev = trace.cpu(c);
        bool seen = false;
        for (size_t i = 0; i < ev.size(); ++i) {
            const Role r = roles.role(ev.type(i));
            seen |= r == Role::SysEnter || r == Role::SysExit || r == Role::UserEnter || r == Role::UserExit;
            if (r != Role::SchedSwitch) continue;
            const auto p = ev.payload<SchedSwitchP>(i);
            all.push_back({c, static_cast<uint32_t>(i), ev.ts(i), p.prevPid, p.nextPid,
                           (p.prevState & 0xff) == 0, seen});
            seen = false;
        }
    }
    Marks marks(static_cast<size_t>(trace.cpuCount()));
    for (const Sw &in : all) {
        if (in.next == 0) continue;
        bool here = false;
        const Sw *last = nullptr;
        int64_t changed = INT64_MIN;
        for (const Sw &out : all) {
            if (out.prev != in.next) continue;
            // before the switch-in: earlier, or at its time on another CPU (the task cannot run on two)
            const bool before = out.ts < in.ts || (out.ts == in.ts && out.cpu != in.cpu);
            if (before && (!out.runnable || out.showed)) changed = std::max(changed, out.ts);
            if (out.cpu == in.cpu && out.ts == in.ts && out.index < in.index) here = true;
            if (before && (!last || out.ts > last->ts ||
                           (out.ts == last->ts &&
                            (out.cpu < last->cpu || (out.cpu == last->cpu && out.index > last->index)))))
                last = &out;
        }
        if (!here && last && last->cpu != in.cpu)
            marks[static_cast<size_t>(in.cpu)].push_back({in.index, changed});
    }
    return marks;
}

TEST(MigrationSweep, MarksTheSwitchInsAPlainSearchFindsInAnySlicesPartsAndSteps)
{
    for (unsigned seed : {1u, 2u, 3u}) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const auto trace = randomSwitches(seed, 1500);
        const EventRoles roles(*trace);
        const Marks expected = expectedMarks(*trace);
        size_t marked = 0, changed = 0;
        for (const auto &m : expected)
            for (const Migration &x : m) {
                ++marked;
                changed += x.changed != INT64_MIN;
            }
        ASSERT_GT(marked, 300u) << "the random trace moves tasks between CPUs";
        ASSERT_GT(changed, 100u) << "some after a sleep or a syscall";

        Marks once;
        MigrationSweep().through(*trace, roles, INT64_MAX, once);
        EXPECT_EQ(once, expected) << "one slice, one thread";

        // Slices of a few events (many cut between a task's switch-out and its switch-in elsewhere), parts
        // of five on three threads.
        Marks sliced;
        MigrationSweep(16, 5).through(*trace, roles, INT64_MAX, sliced, 3);
        EXPECT_EQ(sliced, expected) << "slices of 16 events, parts of 5";

        // A stream's steps: every 37 microseconds (a step ends inside a run of switches at one time).
        Marks stepped;
        MigrationSweep steps(16, 5);
        int64_t first = INT64_MAX;
        for (int c = 0; c < trace->cpuCount(); ++c)
            first = std::min(first, trace->cpu(c).ts(0));
        for (int64_t t = first; t < first + 2'000'000; t += 37'000)
            steps.through(*trace, roles, t, stepped, 2);
        steps.through(*trace, roles, INT64_MAX, stepped, 2);
        EXPECT_EQ(stepped, expected) << "steps of 37 us";
    }
}

} // namespace
} // namespace tickscope
