// SPDX-License-Identifier: GPL-3.0-or-later
// The parts of `report --stream` against a whole load: every trace.dat fixture decoded a slice of time at
// a time (a page, a millisecond, all at once) gives the same events, lost ranges, task names and
// warnings as loadTrace; the per-CPU pass advanced after each slice gives the same records as one run
// over the loaded CPU.
#include "StreamTestUtil.h"
#include "TestUtil.h"
#include "analysis/CpuPass.h"
#include "analysis/EventRoles.h"
#include "import/DatLayout.h"
#include "import/Loader.h"
#include "import/TraceDatStream.h"
#include "model/EventFormat.h"
#include "report/CpuFold.h"
#include "sim/Presets.h"
#include "sim/Scenario.h"
#include "sim/Simulator.h"
#include "sim/TextWriter.h"
#include "stream/StreamReport.h"
#include "util/Cancel.h"
#include "write/TraceDatWriter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <tuple>

using namespace tickscope;
using namespace tickscope::test;
namespace fs = std::filesystem;

namespace {

// How a stream is stepped: a page at a time (0), slices of `slice` ns, or everything at once.
constexpr int64_t kPageAtATime = 0;
constexpr int64_t kAllAtOnce = INT64_MAX;
const std::vector<std::pair<const char *, int64_t>> kSteps = {
    {"a page at a time", kPageAtATime}, {"1 ms slices", 1000000}, {"all at once", kAllAtOnce}};

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

// The events (TestUtil), then the lost ranges and the task table.
void expectSameStream(const Trace &a, const Trace &b, const std::string &what)
{
    expectSameEvents(a, b, what);
    for (int c = 0; c < a.cpuCount(); ++c) {
        const CpuEvents &x = a.cpu(c);
        const CpuEvents &y = b.cpu(c);
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
        EXPECT_EQ(std::make_tuple(p.first, p.count, p.soft, p.rtDelayed),
                  std::make_tuple(q.first, q.count, q.soft, q.rtDelayed))
            << what << " batch " << k;
    }
    ASSERT_EQ(x.rtDelays.size(), y.rtDelays.size()) << what;
    for (size_t k = 0; k < x.rtDelays.size(); ++k) {
        const RtDelay &p = x.rtDelays[k], &q = y.rtDelays[k];
        EXPECT_EQ(std::make_tuple(p.first, p.totalNs, p.maxNs), std::make_tuple(q.first, q.totalNs, q.maxNs))
            << what << " RT delay " << k;
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
                if (slice == kPageAtATime && loaded->eventCount() > 1000) {
                    EXPECT_GT(steps, 1u) << what;
                }
                expectSameStream(*loaded, s.trace(), what);
                EXPECT_EQ(loaded->warnings, s.trace().warnings) << what;
                EXPECT_EQ(loaded->meta.kernelCmdline, s.trace().meta.kernelCmdline) << what;
                EXPECT_EQ(loaded->meta.uname, s.trace().meta.uname) << what;
            }
        }
    }
}

// A stream cancelled while it runs (from another thread, as the GUI's Cancel does), not before it starts:
// streamReport() stops and throws Cancelled instead of returning a report.
TEST(Stream, ACancelWhileStreamingStopsIt)
{
    const std::string path = dataPath("rt-hrtimer-k32-fifo50.dat");
    StreamOptions so;
    so.sliceNs = 1'000'000; // (many steps: one check of the flag per step)
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_GT(streamReport(path, so).steps, 100u);
    EXPECT_TRUE(stopsWhenCancelledWhileRunning<Cancelled>(
        [&](const std::atomic<bool> *cancel) {
            StreamOptions c = so;
            c.analysis.cancel = cancel;
            streamReport(path, c);
        },
        std::chrono::steady_clock::now() - t0));
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

TEST(Stream, ReportIsTheLoadedReportOnEveryFixture)
{
    for (const std::string &path : datFixtures()) {
        for (const auto &loaded : loadAll(path)) {
            const std::string name = fs::path(path).filename().string() + " '" + loaded->meta.instance + "'";
            if (!loaded->functions.empty()) {
                // function_graph calls: their report needs the whole trace
                try {
                    streamedJson(path, *loaded, 1000000, SIZE_MAX);
                    ADD_FAILURE() << name << ": streamed a function_graph trace";
                } catch (const LoadError &e) {
                    EXPECT_NE(std::string(e.what()).find("function_graph"), std::string::npos) << e.what();
                }
                continue;
            }
            const std::string whole = loadedJson(*loaded);
            if (streamLeavesLanesUninferred(whole, streamedJson(path, *loaded, 1000000, SIZE_MAX))) continue;
            // slices of 100 us, 1 ms and 50 ms: every step boundary falls somewhere else
            for (int64_t slice : {100000, 1000000, 50000000}) {
                StreamResult r;
                EXPECT_EQ(whole, streamedJson(path, *loaded, slice, SIZE_MAX, &r))
                    << name << ", " << slice << " ns slices";
                if (loaded->eventCount() > 100000 && slice == 1000000) {
                    EXPECT_LT(r.maxLiveEvents * 4, loaded->eventCount())
                        << name << ": the stream held " << r.maxLiveEvents << " events at once";
                }
            }
            // a window of the trace: the same records fall in it
            const int64_t a = loaded->firstTs(), b = loaded->lastTs();
            ReportOptions w;
            w.from = a + (b - a) / 3;
            w.to = a + 2 * (b - a) / 3;
            w.windowSource = "window";
            EXPECT_EQ(loadedJson(*loaded, w), streamedJson(path, *loaded, 1000000, SIZE_MAX, nullptr, w))
                << name << ", a window";
        }
    }
}

// A simulation written as a trace.dat and streamed in slices of sliceNs with every value kept: its report
// must be the loaded one. Returns what the stream held and the events in all.
namespace {
std::pair<StreamResult, size_t> streamSimulated(const sim::Scenario &s, const std::string &name,
                                                int64_t sliceNs)
{
    const sim::SimResult run = sim::simulate(s, 1);
    const std::string path = (tempDir() / name).string();
    writeTraceDat(*run.trace, path);
    const auto loaded = loadTrace(path);
    StreamResult r;
    EXPECT_EQ(loadedJson(*loaded), streamedJson(path, *loaded, sliceNs, SIZE_MAX, &r)) << name;
    return {std::move(r), loaded->eventCount()};
}
} // namespace

TEST(Stream, HoldsAboutTheLookAheadWhenCpusStopSwitching)
{
    // nohz_full CPUs running one user loop each: after the first switch-in they never switch again, and
    // the memory held must not grow from that switch on (it did: every event after a CPU's last switch
    // was kept, for the wakeup latency's switch search and the cross-CPU mode sweep).
    sim::Scenario s = sim::loadScenario("seed000-nohzfull-poll");
    sim::applySetting(s, "cpus", "4");
    sim::applySetting(s, "nohz_full", "1-3");
    sim::applySetting(s, "duration_ms", "20000");
    const auto [r, events] = streamSimulated(s, "stops-switching.dat", 10000000);
    ASSERT_GT(events, 300000u);
    // 20 s of trace; what is held is ~100 ms of look-ahead, a slice and the 4096 events a CPU releases at
    // once: well under a tenth (one CPU of four kept from its last switch on was a quarter)
    EXPECT_LT(r.maxLiveEvents * 10, events) << "the stream held " << r.maxLiveEvents << " of " << events;
}

TEST(Stream, HoldsAboutTheLookAheadWhenAWokenTasksCpuGoesQuiet)
{
    // The scale benchmarks' 128-CPU server: each nohz_full CPU's user loop is woken once at the start, and
    // its CPU then shows a few events a second. A wakeup waited for the 256 events after it on its CPU
    // (those that may name what it woke) before its latency was measured, though its expiry had ended, and
    // every CPU's switches from the oldest wakeup not measured on were held, with their events: the whole
    // trace.
    sim::Scenario s = sim::loadScenario(dataPath("../bench/server128.json"));
    sim::applySetting(s, "duration_ms", "1500");
    const auto [r, events] = streamSimulated(s, "server128.dat", 100000000);
    ASSERT_GT(events, 1000000u);
    // 1.5 s of trace; held: the 100 ms look-ahead and a 100 ms slice
    EXPECT_LT(r.maxLiveEvents * 4, events) << "the stream held " << r.maxLiveEvents << " of " << events;
}

TEST(Stream, RecordsHeldDoNotGrowWithTheTrace)
{
    // Seed 002's legacy timer wheel with busy loops on its isolated CPUs: a TIMER softirq after every
    // tick, on a task whose user/kernel mode the trace never shows (its one syscall exit taken out). The
    // stream held every TIMER softirq record to the end, and every tick from the first of unknown mode:
    // 4 CPUs x 1000 per second. What it holds now is the same for 2 s and for 8 s of trace.
    auto streamed = [](const char *ms, bool compare) {
        sim::Scenario s = sim::loadScenario("seed002-legacy-wheel");
        sim::applyVariant(s, "busy_loop");
        sim::applySetting(s, "duration_ms", ms);
        const sim::SimResult run = sim::simulate(s, 1);
        const std::string text = (tempDir() / "busy-loops.txt").string();
        sim::writeFtraceText(*run.trace, text);
        std::string kept;
        size_t hidden = 0;
        {
            std::ifstream in(text);
            for (std::string line; std::getline(in, line);) {
                if (line.find("busyloop-") != std::string::npos &&
                    line.find(": sys_exit:") != std::string::npos) {
                    ++hidden;
                    continue;
                }
                kept += line + '\n';
            }
        }
        EXPECT_EQ(hidden, 4u) << "each busy loop's return from the sleep it started in";
        std::ofstream(text, std::ios::trunc) << kept;
        const std::string path = (tempDir() / "busy-loops.dat").string();
        writeTraceDat(*loadTrace(text), path);
        const auto loaded = loadTrace(path);
        StreamResult r;
        const std::string json = streamedJson(path, *loaded, 10000000, SIZE_MAX, &r);
        if (compare) {
            const TickReport whole = TickReport::make(*loaded, TickAnalysis::run(*loaded), {});
            uint64_t unknown = 0;
            for (const CpuReport &c : whole.cpus)
                unknown += c.ticks.unknown;
            EXPECT_GT(unknown, 30000u) << "the busy loops' ticks are of unknown mode";
            EXPECT_EQ(loadedJson(*loaded), json);
        }
        return r.maxRecordBytes;
    };
    const uint64_t shortRun = streamed("2000", false), longRun = streamed("8000", true);
    EXPECT_LT(longRun, shortRun + shortRun / 4) << "2 s: " << shortRun << " bytes held, 8 s: " << longRun;
}

TEST(Stream, TickLaneAndFailedStopsHeldDoNotGrowWithTheTrace)
{
    // CPU 1 (not nohz_full) stops its tick in every 3 ms sleep and restarts it after; CPU 3 (nohz_full)
    // fails to stop it on a POSIX CPU timer at every return to user mode. The stream kept every tick-lane
    // change and every failed stop to the end: 8 bytes a change, 12 a failed stop.
    const char *json = R"({
      "name": "tick-stop-cycles", "description": "tick stops and failed stops every few ms",
      "platform": "x86-vm", "duration_ms": 2000,
      "kernel": { "hz": 1000, "cpus": 4, "nohz_full": "2-3", "idle": "halt", "timekeeper": 0 },
      "tasks": [
        { "name": "sleeper", "cpu": 1, "program": "sleep_work", "sleep_us": 3000, "work_us": 700,
          "loops": 1000000, "start_us": 1000 },
        { "name": "timed", "cpu": 3, "program": "sleep_work", "sleep_us": 300, "work_us": 1700,
          "loops": 1000000, "start_us": 1000 } ] })";
    auto streamed = [&](const char *ms) {
        sim::Scenario s = sim::parseScenario(json, "test");
        sim::applySetting(s, "duration_ms", ms);
        sim::applySetting(s, "posix_cpu_timer", "3");
        const sim::SimResult run = sim::simulate(s, 1);
        const std::string path = (tempDir() / "tick-stop-cycles.dat").string();
        writeTraceDat(*run.trace, path);
        const auto loaded = loadTrace(path);
        const TickReport whole = TickReport::make(*loaded, TickAnalysis::run(*loaded), {});
        EXPECT_GT(whole.cpus[1].ticks.nohzWakeups, 400u) << ms << " ms: CPU 1 stops its tick in each sleep";
        uint64_t failed = whole.cpus[3].failuresOther;
        for (const uint64_t n : whole.cpus[3].failures)
            failed += n;
        EXPECT_GT(failed, 1500u) << ms << " ms: CPU 3 fails to stop it";
        StreamResult r;
        EXPECT_EQ(loadedJson(*loaded), streamedJson(path, *loaded, 10000000, SIZE_MAX, &r)) << ms << " ms";
        return r.maxRecordBytes;
    };
    const uint64_t shortRun = streamed("2000"), longRun = streamed("20000");
    EXPECT_LT(longRun, shortRun + shortRun / 4) << "2 s: " << shortRun << " bytes held, 20 s: " << longRun;
}

TEST(Stream, LostEventsFoundAtAStepBoundaryGiveTheLoadedReport)
{
    // A page flagged "events were lost before me" starts a gap whose first event is the page's first:
    // the pass then marks the last event of the page before (read in an earlier step) with a change of
    // its own. Every preset's simulation with pages flagged on every CPU, streamed with steps of a page
    // or less and of a few pages.
    for (const auto &preset : sim::presets()) {
        const std::string name(preset.name);
        sim::Scenario sc = sim::loadScenario(name);
        sim::applySetting(sc, "duration_ms", "500");
        const sim::SimResult run = sim::simulate(sc, 1);
        const std::string path = (tempDir() / "lost-at-boundaries.dat").string();
        writeTraceDat(*run.trace, path);
        std::string bytes;
        {
            std::ifstream in(path, std::ios::binary);
            bytes.assign(std::istreambuf_iterator<char>(in), {});
        }
        const auto layout = readDatLayout(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
        ASSERT_TRUE(layout && !layout->compressed() && layout->longSize == 8);
        int flagged = 0;
        for (const DatCpuData &c : layout->buffers.front().cpus) {
            for (uint64_t page = 2; (page + 1) * layout->pageSize <= c.size; page += 3) {
                // the page header's commit word (after the u64 timestamp): bit 31 is RB_MISSED_EVENTS
                bytes[c.offset + page * layout->pageSize + 8 + 3] |= static_cast<char>(0x80);
                ++flagged;
            }
        }
        ASSERT_GT(flagged, 5) << name;
        {
            std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
        }
        const auto loaded = loadTrace(path);
        size_t gaps = 0;
        for (int c = 0; c < loaded->cpuCount(); ++c)
            gaps += loaded->cpu(c).lost.size();
        ASSERT_GE(gaps, static_cast<size_t>(flagged)) << name;
        const std::string whole = loadedJson(*loaded);
        for (int64_t slice : {1, 20000, 300000})
            EXPECT_EQ(whole, streamedJson(path, *loaded, slice, SIZE_MAX))
                << name << ", " << slice << " ns slices";
    }
}

TEST(Stream, RefusesWhatItCannotStreamInOneLine)
{
    // a text trace, --markers, and a file that is not a trace: one line on stderr, exit 1
    const auto text = cli("report " + dataPath("host-trace.txt") + " --stream");
    EXPECT_EQ(text.exitCode, 1);
    EXPECT_NE(text.err.find("--stream reads trace.dat files"), std::string::npos) << text.err;
    const auto markers = cli("report " + dataPath("nohzfull-poll.dat") + " --stream --markers");
    EXPECT_EQ(markers.exitCode, 1);
    EXPECT_NE(markers.err.find("--window A:B"), std::string::npos) << markers.err;
    for (const auto *r : {&text, &markers})
        EXPECT_EQ(std::count(r->err.begin(), r->err.end(), '\n'), 1) << r->err;
    // the command line's report is the same as without --stream
    const auto a = cli("report " + dataPath("nohzfull-poll.dat") + " --json");
    const auto b = cli("report " + dataPath("nohzfull-poll.dat") + " --json --stream --stream-slice-us 500");
    ASSERT_EQ(a.exitCode, 0) << a.err;
    ASSERT_EQ(b.exitCode, 0) << b.err;
    auto timeless = [](std::string s) {
        std::string out;
        for (size_t p = 0, q; p < s.size(); p = q + 1) {
            q = s.find('\n', p);
            if (q == std::string::npos) q = s.size();
            const std::string line = s.substr(p, q - p);
            if (line.find("seconds") == std::string::npos && line.find("peak_rss") == std::string::npos &&
                line.find("derived_bytes") == std::string::npos)
                out += line + "\n";
        }
        return out;
    };
    EXPECT_EQ(timeless(a.out), timeless(b.out));
}
