// SPDX-License-Identifier: GPL-3.0-or-later
// MigrationSweep: which switch-ins bring a task back from another CPU, however the trace is cut into
// slices of time, parts per thread and steps of a stream.
#include "TestUtil.h"
#include "TextTraceBuilder.h"

#include "analysis/EventRoles.h"
#include "analysis/Migrations.h"
#include "import/Loader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace tickscope {
void PrintTo(const Migration &m, std::ostream *os) // (for gtest: index, changed)
{
    *os << "{" << m.index << " changed " << m.changed << (m.unseen ? " unseen}" : "}");
}
namespace {

class Switches : public test::TextTraceBuilder<Switches>
{
};

using Marks = Migrations;

// Three CPUs switching among six tasks at random (a quarter of them going to sleep), syscall lines between
// switches (six on CPU 0, one on the others), many switches at one microsecond (on one CPU and across
// CPUs). lossy: one step in 25 is lost (a "LOST" line before the CPU's next event).
std::unique_ptr<Trace> randomSwitches(unsigned seed, int steps, bool lossy = false)
{
    constexpr int kCpus = 3, kTasks = 6;
    std::mt19937 rng(seed);
    Switches s;
    std::vector<int> cur(kCpus, 0);
    std::vector<bool> lost(kCpus, false);
    double ts = 1.0;
    for (int k = 0; k < steps; ++k) {
        ts += (rng() % 3 == 0 ? 1e-6 : 0.0);
        const int c = static_cast<int>(rng() % kCpus);
        int next = static_cast<int>(rng() % (kTasks + 1)); // 0: idle
        for (int d = 0; d < kCpus; ++d)
            if (d != c && next != 0 && cur[d] == next) next = 0;
        const auto name = [](int p) { return p ? "t" + std::to_string(p) : std::string("swapper"); };
        const bool shown = !lossy || rng() % 25 != 0;
        if (shown && lost[static_cast<size_t>(c)]) s.lost(c, 3);
        lost[static_cast<size_t>(c)] = !shown;
        // (CPU 0 has most of the events: slices cut where its share of them ends, and a task's run spans
        // parts of the events; one run in four shows the task's mode with a syscall)
        const bool shows = rng() % 4 == 0;
        for (int k = 0; k < (c == 0 ? 6 : 1) && cur[c] && shown; ++k)
            s.ev(c, ts, name(cur[c]) + "-" + std::to_string(cur[c]),
                 shows && k == 0 ? "sys_exit: NR 0 = 0"
                                 : "sched_waking: comm=w pid=99 prio=120 target_cpu=000");
        const std::string state = rng() % 4 == 0 ? "S" : "R+";
        if (shown) s.sw(c, ts, name(cur[c]), cur[c], state, name(next), next);
        cur[c] = next;
    }
    return s.load();
}

// The switch-ins a plain search finds. Of a task's switches, "before" a switch-in are the earlier ones and
// those at its time on another CPU (the task cannot run on two); "earlier" ones are of an earlier time, or
// of its time on a lower CPU, or earlier on its CPU.
// - Marked, unseen (changed: its time): it was switched in on another CPU after its latest earlier
//   switch-out (or ever, without one), and not switched out before it on another CPU at its time; or it
//   was switched out before it, and some CPU lost events (between two of its events of different times, or
//   before its first) beginning before the switch-in and ending at or after that switch-out.
// - Else marked if its latest switch-out before (of two at one time, the lower CPU's; on one CPU the later
//   event's) was on another CPU and it was not switched out on this CPU earlier at that very time;
//   changed: the latest switch-out before that was a sleep or ended a run with a syscall or lost events in
//   it, or the latest earlier unseen switch-in.
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
        bool operator<(const Sw &o) const // earlier
        {
            return ts != o.ts ? ts < o.ts : cpu != o.cpu ? cpu < o.cpu : index < o.index;
        }
    };
    struct Gap
    {
        int64_t from, to;
    };
    std::vector<Sw> all;
    std::vector<Gap> gaps;
    for (int c = 0; c < trace.cpuCount(); ++c) {
        const CpuEvents &ev = trace.cpu(c);
        std::vector<size_t> after; // first events after lost events
        for (const LostRange &r : ev.lost) {
            if (r.opens) { // opens the CPU's data: it may have run any task before
                gaps.push_back({INT64_MIN, r.to});
                continue;
            }
            gaps.push_back({r.from, r.to}); // (from == to: between two events of one microsecond)
            after.push_back(r.next);
        }
        bool seen = false;
        for (size_t i = 0; i < ev.size(); ++i) {
            const Role r = roles.role(ev.type(i));
            seen |= r == Role::SysEnter || r == Role::SysExit || r == Role::UserEnter ||
                    r == Role::UserExit || std::find(after.begin(), after.end(), i) != after.end();
            if (r != Role::SchedSwitch) continue;
            const auto p = ev.payload<SchedSwitchP>(i);
            all.push_back({c, static_cast<uint32_t>(i), ev.ts(i), p.prevPid, p.nextPid,
                           (p.prevState & 0xff) == 0, seen});
            seen = false;
        }
    }
    std::sort(all.begin(), all.end());
    Marks marks(static_cast<size_t>(trace.cpuCount()));
    for (const Sw &in : all) {
        if (in.next == 0) continue;
        bool here = false, there = false;
        const Sw *last = nullptr, *lastIn = nullptr, *lastOut = nullptr;
        int64_t changed = INT64_MIN;
        for (const Sw &out : all) {
            if (out.next == in.next && out.ts < in.ts) lastIn = &out;
            if (out.prev != in.next) continue;
            if (out.ts < in.ts) lastOut = &out;
            // before the switch-in: earlier, or at its time on another CPU (the task cannot run on two)
            const bool before = out.ts < in.ts || (out.ts == in.ts && out.cpu != in.cpu);
            there |= out.ts == in.ts && out.cpu != in.cpu;
            if (before && (!out.runnable || out.showed)) changed = std::max(changed, out.ts);
            if (out.cpu == in.cpu && out.ts == in.ts && out.index < in.index) here = true;
            if (before && (!last || out.ts > last->ts ||
                           (out.ts == last->ts &&
                            (out.cpu < last->cpu || (out.cpu == last->cpu && out.index > last->index)))))
                last = &out;
        }
        if (here) continue;
        const bool outLost = !there && lastIn && lastIn->cpu != in.cpu && (!lastOut || *lastOut < *lastIn);
        const bool wasOut = there || lastOut;
        const int64_t left = there ? in.ts : lastOut ? lastOut->ts : 0;
        const bool dark = std::any_of(gaps.begin(), gaps.end(),
                                      [&](const Gap &g) { return g.from < in.ts && g.to >= left; });
        if (outLost || (wasOut && dark)) {
            marks[static_cast<size_t>(in.cpu)].push_back({in.index, in.ts, true});
            continue;
        }
        for (size_t c = 0; c < marks.size(); ++c) // earlier unseen switch-ins of the task
            for (const Migration &m : marks[c])
                if (m.unseen &&
                    trace.cpu(static_cast<int>(c)).payload<SchedSwitchP>(m.index).nextPid == in.next &&
                    Sw{static_cast<int>(c), m.index, m.changed, 0, 0, false, false} < in)
                    changed = std::max(changed, m.changed);
        if (there || (last && last->cpu != in.cpu))
            marks[static_cast<size_t>(in.cpu)].push_back({in.index, changed});
    }
    for (auto &m : marks)
        std::sort(m.begin(), m.end(),
                  [](const Migration &a, const Migration &b) { return a.index < b.index; });
    return marks;
}

// The sweep's marks equal the plain search's in one slice, in slices of 16 events (many cut between a
// task's switch-out and its switch-in elsewhere) with parts of five on three threads, and in a stream's
// steps of 37 microseconds (a step ends inside a run of switches at one time).
void expectPlainSearchMarks(const Trace &trace, const Marks &expected)
{
    const EventRoles roles(trace);
    Marks once;
    MigrationSweep().through(trace, roles, INT64_MAX, once);
    EXPECT_EQ(once, expected) << "one slice, one thread";

    Marks sliced;
    MigrationSweep(16, 5).through(trace, roles, INT64_MAX, sliced, 3);
    EXPECT_EQ(sliced, expected) << "slices of 16 events, parts of 5";

    Marks stepped;
    MigrationSweep steps(16, 5);
    int64_t first = INT64_MAX;
    for (int c = 0; c < trace.cpuCount(); ++c)
        first = std::min(first, trace.cpu(c).ts(0));
    for (int64_t t = first; t < first + 2'000'000; t += 37'000)
        steps.through(trace, roles, t, stepped, 2);
    steps.through(trace, roles, INT64_MAX, stepped, 2);
    EXPECT_EQ(stepped, expected) << "steps of 37 us";
}

TEST(MigrationSweep, MarksTheSwitchInsAPlainSearchFindsInAnySlicesPartsAndSteps)
{
    for (unsigned seed : {1u, 2u, 3u}) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const auto trace = randomSwitches(seed, 1500);
        const Marks expected = expectedMarks(*trace);
        size_t marked = 0, changed = 0;
        for (const auto &m : expected)
            for (const Migration &x : m) {
                ++marked;
                changed += x.changed != INT64_MIN;
            }
        ASSERT_GT(marked, 300u) << "the random trace moves tasks between CPUs";
        ASSERT_GT(changed, 100u) << "some after a sleep or a syscall";
        expectPlainSearchMarks(*trace, expected);
    }
}

// The same where CPUs lose events: a run with lost events in it counts as a change; a switch-in after the
// task's switch-out was lost, or after a CPU lost events while it was away, is unseen.
TEST(MigrationSweep, MarksWhatAPlainSearchFindsWhenCpusLoseEvents)
{
    for (unsigned seed : {1u, 2u, 3u}) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const auto trace = randomSwitches(seed, 1500, true);
        const Marks expected = expectedMarks(*trace);
        size_t marked = 0, unseen = 0, gaps = 0, ties = 0;
        for (const auto &m : expected)
            for (const Migration &x : m) {
                ++marked;
                unseen += x.unseen;
            }
        for (int c = 0; c < trace->cpuCount(); ++c)
            for (const LostRange &r : trace->cpu(c).lost) {
                ++gaps;
                ties += r.from == r.to && !r.opens;
            }
        ASSERT_GT(gaps, 30u);
        ASSERT_GT(ties, 2u) << "some between two events of one microsecond";
        ASSERT_GT(unseen, 50u);
        ASSERT_GT(marked - unseen, 100u);
        expectPlainSearchMarks(*trace, expected);
    }
}

// A CPU whose data opens with lost events (its buffer overwritten before its first event, which comes late)
// was dark from the start: a task switched in elsewhere after that may have run there unseen, whether the
// sweep's first slice reaches that CPU's first event or not.
TEST(MigrationSweep, ACpuWhoseDataOpensWithLostEventsIsDarkFromTheStartInEverySlice)
{
    const auto trace = loadTrace(test::dataPath("host-lost.dat"));
    ASSERT_TRUE(trace->cpu(0).opensData(0));
    ASSERT_GT(trace->cpu(0).ts(0), trace->cpu(1).ts(0) + 40'000'000) << "CPU 0's data begins 45 ms late";
    const EventRoles roles(*trace);
    Marks once;
    MigrationSweep().through(*trace, roles, INT64_MAX, once);
    size_t unseenBefore = 0; // switch-ins on CPU 1 before CPU 0's first event
    for (const Migration &m : once[1])
        unseenBefore += m.unseen && trace->cpu(1).ts(m.index) < trace->cpu(0).ts(0);
    EXPECT_GE(unseenBefore, 10u);
    for (const size_t slice : {size_t{3}, size_t{50}}) {
        Marks sliced;
        MigrationSweep(slice, 5).through(*trace, roles, INT64_MAX, sliced, 2);
        EXPECT_EQ(sliced, once) << "slices of " << slice << " events";
    }
}

} // namespace
} // namespace tickscope
