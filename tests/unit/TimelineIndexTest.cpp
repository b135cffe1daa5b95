// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline's level-of-detail summaries (core/view) against a direct walk over every event, interval
// and record of the real fixtures, at whole-trace zoom and at one column per event; the spurious-tick
// columns of the nohz_full lab traces; the navigation jumps; the range trees against brute force.
#include "TestUtil.h"

#include "analysis/StateCode.h"
#include "analysis/TickAnalysis.h"
#include "import/Loader.h"
#include "util/Gallop.h"
#include "view/LaneDetail.h"
#include "view/TimelineIndex.h"
#include "view/TimelinePick.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace tickscope {
namespace {

struct Fixture
{
    std::unique_ptr<Trace> trace;
    TickAnalysis analysis;
    TimelineIndex index;
};

std::unique_ptr<Fixture> load(const std::string &name)
{
    auto f = std::make_unique<Fixture>();
    f->trace = loadTrace(test::dataPath(name));
    f->analysis = TickAnalysis::run(*f->trace);
    f->index = TimelineIndex::build(*f->trace, f->analysis);
    return f;
}

// The same summary computed the slow way: every interval and record of the CPU distributed over the columns.
std::vector<ColumnSummary> directWalk(const Fixture &f, int cpu, int64_t start, int64_t end, int columns)
{
    std::vector<ColumnSummary> out(static_cast<size_t>(columns));
    const CpuEvents &ev = f.trace->cpu(cpu);
    const CpuAnalysis &a = f.analysis.cpus[cpu];
    std::vector<int64_t> b(static_cast<size_t>(columns) + 1);
    for (int j = 0; j <= columns; ++j)
        b[j] = start + (end - start) * j / columns;
    auto columnOf = [&](int64_t t) {
        return static_cast<int>(std::upper_bound(b.begin(), b.end(), t) - b.begin()) - 1;
    };
    auto inRange = [&](int j) { return j >= 0 && j < columns; };
    // Spread [t0, t1) in a state slot over the columns it overlaps.
    auto spread = [&](int64_t t0, int64_t t1, auto &&field) {
        for (int j = std::max(0, columnOf(t0)); j < columns && b[j] < t1; ++j) {
            const int64_t lo = std::max(t0, b[j]), hi = std::min(t1, b[j + 1]);
            if (hi > lo) field(out[j]) += hi - lo;
        }
    };
    // A CPU's last states last until the trace's end (a CPU idle to the end has no event after it).
    const int64_t traceEnd = f.trace->endTs();
    for (size_t i = 0; i < ev.size(); ++i) {
        const uint8_t ts = taskSlotOf(a.task.codeAt(i)), is = irqSlotOf(a.irq.codeAt(i));
        const int64_t next = i + 1 < ev.size() ? ev.ts(i + 1) : traceEnd;
        spread(ev.ts(i), next, [ts](ColumnSummary &c) -> int64_t & { return c.task[ts]; });
        spread(ev.ts(i), next, [is](ColumnSummary &c) -> int64_t & { return c.irq[is]; });
    }
    const auto &tl = a.tickLane.changes();
    for (size_t k = 0; k < tl.size(); ++k) {
        const int64_t t0 = ev.ts(tl[k].index);
        const int64_t t1 = k + 1 < tl.size() ? ev.ts(tl[k + 1].index) : traceEnd;
        const int s = static_cast<int>(tl[k].state);
        spread(t0, t1, [s](ColumnSummary &c) -> int64_t & { return c.tickState[s]; });
    }
    for (size_t i = 1; i < ev.size(); ++i) {
        const int j = columnOf(ev.ts(i));
        if (!inRange(j)) continue;
        out[j].taskChanges += a.task.changeAt(i) != a.task.changeAt(i - 1);
        out[j].irqChanges += a.irq.changeAt(i) != a.irq.changeAt(i - 1);
    }
    if (!ev.empty()) {
        const int j = columnOf(ev.ts(0));
        if (inRange(j)) {
            out[j].taskChanges += a.task.changeAt(0) != ChangeLane::npos;
            out[j].irqChanges += a.irq.changeAt(0) != ChangeLane::npos;
        }
    }
    for (const TickRecord &t : a.ticks) {
        const int j = columnOf(ev.ts(t.index));
        if (!inRange(j)) continue;
        ++out[j].ticks;
        out[j].spuriousTicks += (t.flags & TickFlag::Spurious) != 0;
        out[j].worstTick = std::max(out[j].worstTick, CpuTimelineIndex::tickClass(t));
    }
    for (size_t k = 0; k < a.timers.wakeups.size(); ++k) {
        const HrtimerWakeup &w = a.timers.wakeups[k];
        const int j = columnOf(ev.ts(w.index));
        if (!inRange(j)) continue;
        ++out[j].wakeups;
        out[j].maxLatenessNs = std::max(out[j].maxLatenessNs, w.latenessNs);
    }
    for (const TimerSoftirq &s : a.timers.timerSoftirqs) {
        const int j = columnOf(ev.ts(s.entry));
        if (inRange(j)) ++out[j].timerSoftirqs;
        if (!s.catchup || s.exit >= ev.size()) continue;
        for (int c = 0; c < columns; ++c)
            if (ev.ts(s.exit) >= b[c] && ev.ts(s.entry) < b[c + 1]) out[c].catchup = true;
    }
    for (const FailedStop &s : a.failedStops) {
        const int j = columnOf(ev.ts(s.index));
        if (!inRange(j)) continue;
        ++out[j].failedStops;
        out[j].dependencies |= s.dependency;
    }
    for (const LostRange &l : ev.lost)
        for (int c = 0; c < columns; ++c)
            if (l.to >= b[c] && l.from < b[c + 1]) out[c].lost = true;
    return out;
}

void expectEqual(const std::vector<ColumnSummary> &fast, const std::vector<ColumnSummary> &slow, int cpu)
{
    ASSERT_EQ(fast.size(), slow.size());
    for (size_t j = 0; j < fast.size(); ++j) {
        SCOPED_TRACE("cpu " + std::to_string(cpu) + " column " + std::to_string(j));
        const ColumnSummary &x = fast[j], &y = slow[j];
        ASSERT_EQ(x.task, y.task);
        ASSERT_EQ(x.irq, y.irq);
        ASSERT_EQ(x.taskChanges, y.taskChanges);
        ASSERT_EQ(x.irqChanges, y.irqChanges);
        ASSERT_EQ(x.tickState, y.tickState);
        ASSERT_EQ(x.ticks, y.ticks);
        ASSERT_EQ(x.spuriousTicks, y.spuriousTicks);
        ASSERT_EQ(x.worstTick, y.worstTick);
        ASSERT_EQ(x.wakeups, y.wakeups);
        ASSERT_EQ(x.maxLatenessNs, y.maxLatenessNs);
        ASSERT_EQ(x.timerSoftirqs, y.timerSoftirqs);
        ASSERT_EQ(x.catchup, y.catchup);
        ASSERT_EQ(x.failedStops, y.failedStops);
        ASSERT_EQ(x.dependencies, y.dependencies);
        ASSERT_EQ(x.lost, y.lost);
    }
}

void checkAgainstWalk(const std::string &name)
{
    const auto f = load(name);
    const int64_t first = f->trace->firstTs(), last = f->trace->lastTs();
    for (int cpu = 0; cpu < f->trace->cpuCount(); ++cpu) {
        const CpuEvents &ev = f->trace->cpu(cpu);
        if (ev.size() < 10) continue;
        // Whole trace, many events per column.
        std::vector<ColumnSummary> fast(1920);
        f->index.summarize(cpu, first, last + 1, 1920, fast.data());
        expectEqual(fast, directWalk(*f, cpu, first, last + 1, 1920), cpu);
        // One column per event around the middle of the CPU's events.
        const size_t a = ev.size() / 2, b = std::min(ev.size() - 1, a + 600);
        const int cols = static_cast<int>(b - a);
        std::vector<ColumnSummary> fine(static_cast<size_t>(cols));
        f->index.summarize(cpu, ev.ts(a), ev.ts(b), cols, fine.data());
        expectEqual(fine, directWalk(*f, cpu, ev.ts(a), ev.ts(b), cols), cpu);
        // Past the trace's end (the compare view's axis covers both runs), and many columns around two
        // events: most edges have no event since the one before, and are that edge plus the time between.
        const int64_t d = (last - first) / 20;
        std::vector<ColumnSummary> tail(1000), near(997);
        f->index.summarize(cpu, last - d, last + d, 1000, tail.data());
        expectEqual(tail, directWalk(*f, cpu, last - d, last + d, 1000), cpu);
        const size_t m = ev.size() / 3;
        f->index.summarize(cpu, ev.ts(m) - 1000, ev.ts(m + 2) + 1000, 997, near.data());
        expectEqual(near, directWalk(*f, cpu, ev.ts(m) - 1000, ev.ts(m + 2) + 1000, 997), cpu);
        // Some column holds time in more than one state at whole-trace zoom (the test is not vacuous).
        EXPECT_TRUE(std::any_of(fast.begin(), fast.end(), [](const ColumnSummary &c) {
            return std::count_if(c.task.begin(), c.task.end(), [](int64_t v) { return v > 0; }) > 1;
        }));
    }
}

TEST(TimelineIndex, EqualsDirectWalkNohzFullPoll)
{
    checkAgainstWalk("nohzfull-poll.dat");
}
TEST(TimelineIndex, EqualsDirectWalkNohzFullNoPoll)
{
    checkAgainstWalk("nohzfull-nopoll.dat");
}
TEST(TimelineIndex, EqualsDirectWalkHostCyclictest)
{
    checkAgainstWalk("host-6.18-cyclictest.dat");
}
TEST(TimelineIndex, EqualsDirectWalkLostEvents)
{
    checkAgainstWalk("host-lost.dat");
}

// A lane's columns computed in parts (the GUI splits a lane between threads) are those of one call over
// all of them, and a part writes its own columns only.
// A column with every field set to what no summary gives, so that a column a call writes must be written
// whole (ticks 12345: the columns a call does not write keep it).
ColumnSummary junkColumn()
{
    ColumnSummary c;
    c.task.fill(777);
    c.irq.fill(777);
    c.tickState.fill(777);
    c.worstCallNs = 777;
    c.taskChanges = c.irqChanges = c.spuriousTicks = 777;
    c.wakeups = c.softWakeups = c.timerSoftirqs = 777;
    c.failedStops = c.dependencies = 777;
    c.maxLatenessNs = 777;
    c.worstTick = TickClass::Spurious;
    c.catchup = c.lost = true;
    c.ticks = 12345;
    return c;
}

TEST(TimelineIndex, ColumnsInPartsEqualOneCallOverAll)
{
    std::mt19937 rng(5);
    bool calls = false;
    for (const char *name : {"nohzfull-poll.dat", "host-lost.dat", "fgraph-timers.dat"}) {
        const auto f = load(name);
        const int64_t first = f->trace->firstTs(), last = f->trace->lastTs();
        for (int cpu = 0; cpu < f->trace->cpuCount(); ++cpu) {
            for (const int width : {1920, 7, 1}) {
                // (the last two ranges reach before and after the trace: their columns there are empty)
                for (const auto &[a, b] : {std::pair{first, last + 1},
                                           std::pair{(first + last) / 2, (first + last) / 2 + 2'000'000},
                                           std::pair{first - 1'000'000, first + 3'000'000},
                                           std::pair{last - 3'000'000, last + 1'000'000}}) {
                    std::vector<ColumnSummary> whole(static_cast<size_t>(width));
                    f->index.summarize(cpu, a, b, width, whole.data());
                    for (const ColumnSummary &c : whole)
                        calls = calls || c.worstCallNs >= 0;
                    const ColumnSummary sentinel = junkColumn();
                    std::vector<ColumnSummary> parts(static_cast<size_t>(width), sentinel);
                    const int cut1 = static_cast<int>(rng() % static_cast<unsigned>(width + 1));
                    const int cut2 = cut1 + static_cast<int>(rng() % static_cast<unsigned>(width - cut1 + 1));
                    f->index.summarize(cpu, a, b, width, parts.data(), cut1, cut2);
                    for (int j = 0; j < width; ++j)
                        if (j < cut1 || j >= cut2) {
                            EXPECT_EQ(parts[j].ticks, 12345u) << name << " column " << j;
                        }
                    f->index.summarize(cpu, a, b, width, parts.data(), 0, cut1);
                    f->index.summarize(cpu, a, b, width, parts.data(), cut2);
                    EXPECT_TRUE(parts == whole)
                        << name << " CPU " << cpu << " width " << width << " cuts " << cut1 << ", " << cut2;
                }
            }
        }
    }
    EXPECT_TRUE(calls); // the function row's worst call is split too (fgraph-timers.dat has calls)
}

// A collapsed lane's columns (SummaryDetail::Collapsed) hold the task states, their changes and the lost
// ranges of the full columns, in whole and in parts, and nothing else.
TEST(TimelineIndex, CollapsedColumnsAreTheFullOnesTaskAndLostFields)
{
    size_t lost = 0, changes = 0;
    for (const char *name : {"nohzfull-poll.dat", "host-lost.dat", "fgraph-timers.dat"}) {
        const auto f = load(name);
        const int64_t first = f->trace->firstTs(), last = f->trace->lastTs();
        for (int cpu = 0; cpu < f->trace->cpuCount(); ++cpu) {
            for (const int width : {1920, 7, 1}) {
                // (the second range reaches before the trace: its columns there are empty in both)
                for (const auto &[a, b] :
                     {std::pair{first, last + 1}, std::pair{first - 1'000'000, first + 3'000'000},
                      std::pair{(first + last) / 2, (first + last) / 2 + 2'000'000}}) {
                    std::vector<ColumnSummary> full(static_cast<size_t>(width)),
                        thin(full.size(), junkColumn());
                    f->index.summarize(cpu, a, b, width, full.data());
                    const int cut = width / 3;
                    f->index.summarize(cpu, a, b, width, thin.data(), 0, cut, SummaryDetail::Collapsed);
                    f->index.summarize(cpu, a, b, width, thin.data(), cut, -1, SummaryDetail::Collapsed);
                    for (int j = 0; j < width; ++j) {
                        ColumnSummary expected;
                        expected.task = full[j].task;
                        expected.taskChanges = full[j].taskChanges;
                        expected.lost = full[j].lost;
                        ASSERT_TRUE(thin[j] == expected)
                            << name << " CPU " << cpu << " width " << width << " column " << j;
                        lost += full[j].lost;
                        changes += full[j].taskChanges;
                    }
                }
            }
        }
    }
    EXPECT_GT(lost, 0u); // (host-lost.dat has lost ranges)
    EXPECT_GT(changes, 0u);
}

size_t spuriousColumns(const Fixture &f, int cpu, size_t &spuriousTicks)
{
    std::vector<ColumnSummary> cols(1000);
    f.index.summarize(cpu, f.trace->firstTs(), f.trace->lastTs() + 1, 1000, cols.data());
    spuriousTicks = 0;
    size_t n = 0;
    for (const ColumnSummary &c : cols) {
        spuriousTicks += c.spuriousTicks;
        n += c.worstTick == TickClass::Spurious;
        EXPECT_EQ(c.worstTick == TickClass::Spurious, c.spuriousTicks > 0);
    }
    return n;
}

TEST(TimelineIndex, SpuriousTickColumnsOnlyWithPollingOrUserTicks)
{
    const auto poll = load("nohzfull-poll.dat");
    size_t ticks = 0;
    EXPECT_GT(spuriousColumns(*poll, 1, ticks), 50u);
    // The report's 208 spurious ticks lie inside the marker window; the whole trace has at least those.
    EXPECT_GE(ticks, 208u);
    EXPECT_EQ(spuriousColumns(*poll, 0, ticks), 0u); // a housekeeping CPU has none
    const auto nopoll = load("nohzfull-nopoll.dat");
    for (int cpu = 0; cpu < nopoll->trace->cpuCount(); ++cpu) {
        EXPECT_EQ(spuriousColumns(*nopoll, cpu, ticks), 0u) << "cpu " << cpu;
        EXPECT_EQ(ticks, 0u);
    }
}

TEST(TimelineIndex, JumpsVisitEverySpuriousTickInOrder)
{
    const auto f = load("nohzfull-poll.dat");
    std::vector<size_t> expected;
    for (const TickRecord &t : f->analysis.cpus[1].ticks)
        if (t.flags & TickFlag::Spurious) expected.push_back(t.index);
    ASSERT_FALSE(expected.empty());
    std::vector<size_t> forward, backward;
    int64_t t = f->trace->firstTs() - 1;
    while (auto h = f->index.jump(JumpTarget::SpuriousTick, {0, 1}, t, true)) {
        EXPECT_EQ(h->cpu, 1);
        forward.push_back(h->event);
        t = h->ts;
    }
    EXPECT_EQ(forward, expected);
    t = f->trace->lastTs() + 1;
    while (auto h = f->index.jump(JumpTarget::SpuriousTick, {1}, t, false)) {
        backward.push_back(h->event);
        t = h->ts;
    }
    std::reverse(backward.begin(), backward.end());
    EXPECT_EQ(backward, expected);
    EXPECT_FALSE(f->index.jump(JumpTarget::SpuriousTick, {0}, f->trace->firstTs(), true));
}

TEST(TimelineIndex, CatchupSoftirqJumpAndColumns)
{
    const auto f = load("nohzfull-poll.dat"); // CPU0 has one catch-up TIMER softirq (tickscope-cli report)
    std::vector<const TimerSoftirq *> catchups;
    for (const TimerSoftirq &s : f->analysis.cpus[0].timers.timerSoftirqs)
        if (s.catchup) catchups.push_back(&s);
    ASSERT_EQ(catchups.size(), 1u);
    const auto h = f->index.jump(JumpTarget::CatchupSoftirq, {0, 1}, f->trace->firstTs(), true);
    ASSERT_TRUE(h);
    EXPECT_EQ(h->cpu, 0);
    EXPECT_EQ(h->event, catchups[0]->entry);
    EXPECT_FALSE(f->index.jump(JumpTarget::CatchupSoftirq, {0, 1}, h->ts, true));
    const auto back = f->index.jump(JumpTarget::CatchupSoftirq, {0, 1}, f->trace->lastTs(), false);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->event, catchups[0]->entry);
    // Zoomed to the softirq, the columns it spans say so, and only those.
    const CpuEvents &ev = f->trace->cpu(0);
    const int64_t a = ev.ts(catchups[0]->entry), b = ev.ts(catchups[0]->exit);
    std::vector<ColumnSummary> cols(300);
    f->index.summarize(0, a - (b - a), b + (b - a), 300, cols.data());
    const auto n = std::count_if(cols.begin(), cols.end(), [](const ColumnSummary &c) { return c.catchup; });
    EXPECT_GE(n, 99);
    EXPECT_LE(n, 102);
}

TEST(TimelineIndex, LateWakeupJumpHonoursTheThreshold)
{
    const auto f = load("nohzfull-poll.dat");
    const auto &w = f->analysis.cpus[1].timers.wakeups;
    int32_t maxLat = INT32_MIN;
    for (size_t k = 0; k < w.size(); ++k)
        maxLat = std::max(maxLat, w[k].latencyNs);
    ASSERT_GT(maxLat, 0);
    const auto h = f->index.jump(JumpTarget::LateWakeup, {1}, f->trace->firstTs(), true, maxLat);
    ASSERT_TRUE(h);
    const auto &cpuW = f->analysis.cpus[1].timers.wakeups;
    const auto it = std::find_if(cpuW.data(), cpuW.data() + cpuW.size(),
                                 [&](const HrtimerWakeup &x) { return x.index == h->event; });
    ASSERT_NE(it, cpuW.data() + cpuW.size());
    EXPECT_EQ(it->latencyNs, maxLat);
    EXPECT_FALSE(f->index.jump(JumpTarget::LateWakeup, {1}, f->trace->firstTs(), true, maxLat + 1));
}

TEST(TimelineIndex, TickPeriodAndPickVerdict)
{
    const auto f = load("nohzfull-poll.dat");
    EXPECT_EQ(f->index.tickPeriodNs(), 4'000'000); // HZ=250 on the Debian kernel
    const CpuAnalysis &a = f->analysis.cpus[1];
    const auto it = std::find_if(a.ticks.begin(), a.ticks.end(),
                                 [](const TickRecord &t) { return t.flags & TickFlag::Spurious; });
    ASSERT_NE(it, a.ticks.end());
    const int64_t ts = f->trace->cpu(1).ts(it->index);
    const TimelinePickResult r = pickEvent(f->index, 1, TimelineRow::Tick, ts + 500, 1000);
    ASSERT_TRUE(r.found);
    EXPECT_EQ(r.event, it->index);
    EXPECT_NE(r.text.find("SPURIOUS"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("hrtimer_expire_entry"), std::string::npos) << r.text;
}

// Nothing near the pointer: the state in force, user or kernel only when the trace records modes.
TEST(TimelineIndex, PickedStateSaysWhenTheModeIsNotRecorded)
{
    const auto f = load("nohzfull-poll.dat");
    const CpuAnalysis &a = f->analysis.cpus[1];
    const CpuEvents &ev = f->trace->cpu(1);
    // the middle of the longest user stretch between two events of CPU 1
    int64_t best = 0, at = 0;
    for (size_t i = 0; i + 1 < ev.size(); ++i)
        if (StateCode::taskState(a.task.codeAt(i)) == TaskState::User && ev.ts(i + 1) - ev.ts(i) > best) {
            best = ev.ts(i + 1) - ev.ts(i);
            at = ev.ts(i) + best / 2;
        }
    ASSERT_GT(best, 100'000);
    const TimelinePickResult measured = pickEvent(f->index, 1, TimelineRow::State, at, 1000);
    EXPECT_FALSE(measured.found);
    EXPECT_NE(measured.text.find("  user"), std::string::npos) << measured.text;
    const TimelinePickResult unrecorded = pickEvent(f->index, 1, TimelineRow::State, at, 1000, false);
    EXPECT_NE(unrecorded.text.find("task (mode not recorded)"), std::string::npos) << unrecorded.text;
}

// The task stretches of a range agree with the pid of every event in it, cover it without gaps, and give
// up when there are more than asked for; the wakeup arrows are the wakeups with a known latency.
TEST(LaneDetail, TaskSpansAndWakeupArrows)
{
    const auto f = load("nohzfull-poll.dat");
    const CpuEvents &ev = f->trace->cpu(1);
    const int64_t from = f->trace->firstTs() + 1'000'000'000, to = from + 20'000'000;
    const auto spans = taskSpans(*f->trace, 1, from, to, 1000);
    ASSERT_TRUE(spans);
    ASSERT_FALSE(spans->empty());
    EXPECT_EQ(spans->front().from, from);
    EXPECT_EQ(spans->back().to, to);
    for (size_t k = 1; k < spans->size(); ++k) {
        EXPECT_EQ((*spans)[k].from, (*spans)[k - 1].to);
        EXPECT_NE((*spans)[k].pid, (*spans)[k - 1].pid);
    }
    const auto [lo, hi] = ev.indexRange(from, to);
    for (size_t i = lo; i < hi; ++i) {
        // the event lies in a stretch of its own pid (an event at a boundary: the later one)
        const int64_t t = ev.ts(i);
        auto it =
            std::find_if(spans->rbegin(), spans->rend(), [&](const TaskSpan &s) { return s.from <= t; });
        ASSERT_NE(it, spans->rend());
        const bool switchEdge = it->from == t && i + 1 < ev.size() && ev.pid(i + 1) == it->pid;
        EXPECT_TRUE(it->pid == ev.pid(i) || switchEdge) << "event " << i;
    }
    EXPECT_FALSE(taskSpans(*f->trace, 1, from, to, 1)); // more than one: gives up

    const auto arrows = wakeupArrows(*f->trace, f->analysis, 1, from, to, 1000);
    ASSERT_TRUE(arrows);
    size_t known = 0;
    const auto &wakeups = f->analysis.cpus[1].timers.wakeups;
    for (size_t k = 0; k < wakeups.size(); ++k) {
        const HrtimerWakeup &w = wakeups[k];
        const int64_t t = ev.ts(w.index);
        known += t >= from && t <= to && w.latencyNs != kUnknownNs && (w.flags & WakeupFlag::TaskKnown);
    }
    EXPECT_EQ(arrows->size(), known);
    EXPECT_GT(known, 0u);
    for (const WakeupArrow &a : *arrows)
        EXPECT_GT(a.latencyNs, 0);
}

TEST(Gallop, FromAnyGuessFindsTheFirstKeyNotBefore)
{
    // Sorted keys with runs of equal ones; every key between and around them, from every start at or
    // before the answer and guesses below, at and above it (both ways of galloping, and the clamps).
    std::vector<int> keys;
    for (int k = 0; k < 300; ++k)
        keys.push_back(k / 3 * 5);
    for (int t = -2; t <= keys.back() + 2; ++t) {
        const size_t want = static_cast<size_t>(std::lower_bound(keys.begin(), keys.end(), t) - keys.begin());
        auto before = [&](size_t i) { return keys[i] < t; };
        for (size_t from : {size_t{0}, want / 2, want})
            for (size_t guess :
                 {size_t{0}, from, want / 3, want, want + 1, want + 7, keys.size(), keys.size() + 5}) {
                ASSERT_EQ(gallop(keys.size(), from, guess, before), want) << t << " " << from << " " << guess;
                ASSERT_EQ(gallop(keys.size(), from, before), want) << t << " " << from;
            }
    }
}

TEST(RangeTree, MaxAndOrEqualBruteForce)
{
    // Every range of small arrays (sizes around the levels' group of 8 and its powers: the ragged ends, the
    // top level), then random ranges of a large one: short, a few groups, any.
    for (size_t small = 0; small <= 70; ++small) {
        std::vector<int32_t> v(small);
        for (size_t i = 0; i < small; ++i)
            v[i] = static_cast<int32_t>((i * 7919) % 101) - 50;
        const RangeTree<int32_t, MaxOp> tree(v, INT32_MIN);
        for (size_t lo = 0; lo <= small; ++lo)
            for (size_t hi = lo; hi <= small; ++hi) {
                int32_t mx = INT32_MIN;
                for (size_t i = lo; i < hi; ++i)
                    mx = std::max(mx, v[i]);
                ASSERT_EQ(tree.query(lo, hi), mx) << small << ": " << lo << ".." << hi;
            }
    }
    constexpr size_t n = 5000;
    std::mt19937 rng(7);
    std::vector<int32_t> v(n);
    for (auto &x : v)
        x = static_cast<int32_t>(rng() % 100000) - 50000;
    const RangeTree<int32_t, MaxOp> maxTree(v, INT32_MIN);
    std::vector<uint32_t> m(n);
    for (auto &x : m)
        x = 1u << (rng() % 20);
    const RangeTree<uint32_t, OrOp> orTree(m, 0u);
    for (int k = 0; k < 12000; ++k) {
        size_t lo = rng() % (n + 1), hi = rng() % (n + 1);
        if (lo > hi) std::swap(lo, hi);
        if (k % 3 == 1) hi = std::min<size_t>(n, lo + rng() % 80);   // short
        if (k % 3 == 2) hi = std::min<size_t>(n, lo + rng() % 1200); // a few groups
        int32_t mx = INT32_MIN;
        uint32_t o = 0;
        for (size_t i = lo; i < hi; ++i) {
            mx = std::max(mx, v[i]);
            o |= m[i];
        }
        ASSERT_EQ(maxTree.query(lo, hi), mx) << lo << ".." << hi;
        ASSERT_EQ(orTree.query(lo, hi), o) << lo << ".." << hi;
    }
}

} // namespace
} // namespace tickscope
