// The parts of `report --stream` against a whole load: every trace.dat fixture decoded a slice of time at
// a time (a page, a millisecond, all at once) gives the same events, lost ranges, task names and
// warnings as loadTrace; the per-CPU pass advanced after each slice gives the same records as one run
// over the loaded CPU.
#include "TestUtil.h"
#include "analysis/CpuPass.h"
#include "analysis/EventRoles.h"
#include "import/Loader.h"
#include "import/TraceDatStream.h"
#include "model/EventFormat.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

using namespace tickscope;
using namespace tickscope::test;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> datFixtures()
{
    std::vector<std::string> out;
    for (const auto &e : fs::directory_iterator(dataPath("")))
        if (e.path().extension() == ".dat") out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

// How a stream is stepped: a page at a time (0), slices of `slice` ns, or everything at once.
constexpr int64_t kPageAtATime = 0;
constexpr int64_t kAllAtOnce = INT64_MAX;
const std::vector<std::pair<const char *, int64_t>> kSteps = {
    {"a page at a time", kPageAtATime}, {"1 ms slices", 1000000}, {"all at once", kAllAtOnce}};

LoadOptions instanceOptions(const Trace &loaded)
{
    LoadOptions o;
    o.instance = loaded.meta.instance;
    o.instanceGiven = true;
    return o;
}

// Steps the stream to the end, calling after() after each step.
template <class After> void runStream(TraceDatStream &s, int64_t slice, After &&after)
{
    for (;;) {
        const int64_t t = s.nextPageTs();
        if (t == INT64_MAX) break;
        const int64_t to = slice == kAllAtOnce ? INT64_MAX : slice == kPageAtATime ? t : t + slice - 1;
        s.decodeThrough(to);
        after();
    }
    s.finish();
}

void expectSameEvents(const Trace &a, const Trace &b, const std::string &what)
{
    ASSERT_EQ(a.cpuCount(), b.cpuCount()) << what;
    for (int c = 0; c < a.cpuCount(); ++c) {
        const CpuEvents &x = a.cpu(c);
        const CpuEvents &y = b.cpu(c);
        ASSERT_EQ(x.size(), y.size()) << what << " CPU " << c;
        for (size_t i = 0; i < x.size(); ++i) {
            const std::string at = what + " CPU " + std::to_string(c) + " event " + std::to_string(i);
            ASSERT_EQ(x.ts(i), y.ts(i)) << at;
            ASSERT_EQ(a.types()[x.type(i)].name, b.types()[y.type(i)].name) << at;
            ASSERT_EQ(x.pid(i), y.pid(i)) << at;
            ASSERT_EQ(x.flags(i), y.flags(i)) << at;
            ASSERT_EQ(x.preempt(i), y.preempt(i)) << at;
            ASSERT_EQ(formatEventFields(a, c, i), formatEventFields(b, c, i)) << at;
            ASSERT_EQ(taskComm(a, c, i), taskComm(b, c, i)) << at;
        }
        ASSERT_EQ(x.lost.size(), y.lost.size()) << what << " CPU " << c;
        for (size_t k = 0; k < x.lost.size(); ++k) {
            EXPECT_EQ(x.lost[k].from, y.lost[k].from) << what << " CPU " << c << " lost range " << k;
            EXPECT_EQ(x.lost[k].to, y.lost[k].to) << what << " CPU " << c << " lost range " << k;
            EXPECT_EQ(x.lost[k].count, y.lost[k].count) << what << " CPU " << c << " lost range " << k;
        }
    }
    EXPECT_EQ(a.tasks.taskCount(), b.tasks.taskCount()) << what;
    EXPECT_EQ(a.tasks.entries().size(), b.tasks.entries().size()) << what;
}

std::vector<std::pair<size_t, uint8_t>> laneChanges(const ChangeLane &lane)
{
    std::vector<std::pair<size_t, uint8_t>> out;
    lane.forEach([&](size_t i, uint8_t code) { out.emplace_back(i, code); });
    return out;
}

// The records of one CPU's pass over a (the load) and b (the stream): field by field.
void expectSameRecords(const Trace &ta, const CpuAnalysis &a, const Trace &tb, const CpuAnalysis &b,
                       const std::string &what)
{
    ASSERT_EQ(a.ticks.size(), b.ticks.size()) << what;
    for (size_t k = 0; k < a.ticks.size(); ++k) {
        ASSERT_EQ(a.ticks[k].index, b.ticks[k].index) << what << " tick " << k;
        ASSERT_EQ(a.ticks[k].context, b.ticks[k].context) << what << " tick " << k;
        ASSERT_EQ(a.ticks[k].flags, b.ticks[k].flags) << what << " tick " << k;
    }
    ASSERT_EQ(a.localTimerTicks.size(), b.localTimerTicks.size()) << what;
    for (size_t k = 0; k < a.localTimerTicks.size(); ++k) {
        ASSERT_EQ(a.localTimerTicks[k].index, b.localTimerTicks[k].index) << what;
        ASSERT_EQ(a.localTimerTicks[k].flags, b.localTimerTicks[k].flags) << what;
    }
    EXPECT_EQ(laneChanges(a.task), laneChanges(b.task)) << what << " task lane";
    EXPECT_EQ(laneChanges(a.irq), laneChanges(b.irq)) << what << " irq lane";
    const auto &la = a.tickLane.changes(), &lb = b.tickLane.changes();
    ASSERT_EQ(la.size(), lb.size()) << what << " tick lane";
    for (size_t k = 0; k < la.size(); ++k) {
        EXPECT_EQ(la[k].index, lb[k].index) << what << " tick lane " << k;
        EXPECT_EQ(la[k].state, lb[k].state) << what << " tick lane " << k;
    }
    ASSERT_EQ(a.failedStops.size(), b.failedStops.size()) << what;
    for (size_t k = 0; k < a.failedStops.size(); ++k) {
        EXPECT_EQ(a.failedStops[k].index, b.failedStops[k].index) << what;
        EXPECT_EQ(a.failedStops[k].dependency, b.failedStops[k].dependency) << what;
    }
    EXPECT_EQ(a.tickTimer != 0, b.tickTimer != 0) << what;
    EXPECT_EQ(ta.strings.str(a.tickFunction), tb.strings.str(b.tickFunction)) << what;
    const CpuEvidence &ea = a.evidence, &eb = b.evidence;
    EXPECT_EQ(
        std::make_tuple(ea.contextTracking, ea.stopsInTask, ea.stopsInIdle, ea.failedStops, ea.pollEnters,
                        ea.deeperEnters, ea.pollReselects, ea.hrtimerStarts, ea.cancelNoise,
                        ea.unmatchedExits, ea.gaps, ea.switchesIntoIdle, ea.switchesOutOfIdle),
        std::make_tuple(eb.contextTracking, eb.stopsInTask, eb.stopsInIdle, eb.failedStops, eb.pollEnters,
                        eb.deeperEnters, eb.pollReselects, eb.hrtimerStarts, eb.cancelNoise,
                        eb.unmatchedExits, eb.gaps, eb.switchesIntoIdle, eb.switchesOutOfIdle))
        << what << " evidence";
    ASSERT_EQ(a.pendingModes.size(), b.pendingModes.size()) << what;
    for (size_t k = 0; k < a.pendingModes.size(); ++k) {
        const PendingMode &x = a.pendingModes[k], &y = b.pendingModes[k];
        EXPECT_EQ(std::make_tuple(x.switchIndex, x.pid, x.change, x.changeEnd, x.tick, x.tickEnd, x.prev),
                  std::make_tuple(y.switchIndex, y.pid, y.change, y.changeEnd, y.tick, y.tickEnd, y.prev))
            << what << " pending mode " << k;
    }
    EXPECT_EQ(a.firstPrint, b.firstPrint) << what;
    EXPECT_EQ(a.lastPrint, b.lastPrint) << what;
    const CpuTimers &x = a.timers, &y = b.timers;
    ASSERT_EQ(x.timerSoftirqs.size(), y.timerSoftirqs.size()) << what;
    for (size_t k = 0; k < x.timerSoftirqs.size(); ++k) {
        const TimerSoftirq &p = x.timerSoftirqs[k], &q = y.timerSoftirqs[k];
        EXPECT_EQ(std::make_tuple(p.entry, p.exit, p.durationNs, p.callbackNs, p.timers, p.idleNs,
                                  p.sincePrevNs, p.jiffiesBehind, p.jiffiesSincePrev, p.catchup),
                  std::make_tuple(q.entry, q.exit, q.durationNs, q.callbackNs, q.timers, q.idleNs,
                                  q.sincePrevNs, q.jiffiesBehind, q.jiffiesSincePrev, q.catchup))
            << what << " TIMER softirq " << k;
    }
    ASSERT_EQ(x.longSoftirqs.size(), y.longSoftirqs.size()) << what;
    ASSERT_EQ(x.wakeups.size(), y.wakeups.size()) << what;
    for (size_t k = 0; k < x.wakeups.size(); ++k) {
        const HrtimerWakeup &p = x.wakeups[k], &q = y.wakeups[k];
        ASSERT_EQ(std::make_tuple(p.index, p.flags, p.wakeOffset),
                  std::make_tuple(q.index, q.flags, q.wakeOffset))
            << what << " wakeup " << k;
    }
    ASSERT_EQ(x.otherLateness.size(), y.otherLateness.size()) << what;
    ASSERT_EQ(x.batches.size(), y.batches.size()) << what;
    for (size_t k = 0; k < x.batches.size(); ++k) {
        const WakeupBatch &p = x.batches[k], &q = y.batches[k];
        EXPECT_EQ(std::make_tuple(p.first, p.count, p.soft, p.rtDelayed, p.rtDelayNs, p.rtDelayMaxNs),
                  std::make_tuple(q.first, q.count, q.soft, q.rtDelayed, q.rtDelayNs, q.rtDelayMaxNs))
            << what << " batch " << k;
    }
    ASSERT_EQ(x.switches.size(), y.switches.size()) << what;
    for (size_t k = 0; k < x.switches.size(); ++k)
        ASSERT_EQ(std::make_tuple(x.switches[k].index, x.switches[k].nextPid),
                  std::make_tuple(y.switches[k].index, y.switches[k].nextPid))
            << what << " switch " << k;
}

} // namespace

TEST(Stream, DecodesTheEventsOfALoad)
{
    const auto files = datFixtures();
    ASSERT_GE(files.size(), 10u);
    for (const std::string &path : files) {
        for (const auto &loaded : loadAll(path)) {
            for (const auto &[name, slice] : kSteps) {
                const std::string what =
                    fs::path(path).filename().string() + " '" + loaded->meta.instance + "', " + name;
                TraceDatStream s(path, instanceOptions(*loaded));
                size_t steps = 0;
                runStream(s, slice, [&] { ++steps; });
                if (slice == kPageAtATime && loaded->eventCount() > 1000) EXPECT_GT(steps, 1u) << what;
                expectSameEvents(*loaded, s.trace(), what);
                EXPECT_EQ(loaded->warnings, s.trace().warnings) << what;
                EXPECT_EQ(loaded->meta.kernelCmdline, s.trace().meta.kernelCmdline) << what;
                EXPECT_EQ(loaded->meta.uname, s.trace().meta.uname) << what;
            }
        }
    }
}

TEST(Stream, PassAdvancedAfterEachSliceGivesTheRecordsOfOneRun)
{
    for (const std::string &path : datFixtures()) {
        for (const auto &loaded : loadAll(path)) {
            const EventRoles loadedRoles(*loaded);
            std::vector<CpuAnalysis> whole(static_cast<size_t>(loaded->cpuCount()));
            for (int c = 0; c < loaded->cpuCount(); ++c)
                CpuPass(*loaded, loadedRoles, c, whole[static_cast<size_t>(c)]).run();
            for (const auto &[name, slice] : kSteps) {
                const std::string what =
                    fs::path(path).filename().string() + " '" + loaded->meta.instance + "', " + name;
                TraceDatStream s(path, instanceOptions(*loaded));
                const Trace &trace = s.trace();
                EventRoles roles(trace);
                std::vector<CpuAnalysis> parts(static_cast<size_t>(trace.cpuCount()));
                std::vector<std::unique_ptr<CpuPass>> passes;
                for (int c = 0; c < trace.cpuCount(); ++c) {
                    passes.push_back(
                        std::make_unique<CpuPass>(trace, roles, c, parts[static_cast<size_t>(c)]));
                    passes.back()->start(0);
                }
                runStream(s, slice, [&] {
                    roles.refresh(trace);
                    for (auto &p : passes)
                        p->advance();
                });
                for (auto &p : passes)
                    p->finish();
                for (int c = 0; c < trace.cpuCount(); ++c)
                    expectSameRecords(*loaded, whole[static_cast<size_t>(c)], trace,
                                      parts[static_cast<size_t>(c)], what + " CPU " + std::to_string(c));
            }
        }
    }
}
