// SPDX-License-Identifier: GPL-3.0-or-later
// The tick analysis on the real fixtures: the nohz_full lab traces (numbers of the fixtures' notes, and
// every tick against the independent ticks.csv), the 6.18 host traces against facts counted here from
// `trace-cmd report` (tick expiries, periodic re-arms, cpuidle state 0 / 1 intervals, tick stops), and a
// trace with lost events.
#include "TestUtil.h"

#include "analysis/TickAnalysis.h"
#include "import/Loader.h"
#include "report/TickReport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace tickscope {
namespace {

namespace fs = std::filesystem;
using test::dataPath;

struct Loaded
{
    std::unique_ptr<Trace> trace;
    TickAnalysis a;
};

Loaded load(const std::string &name, const AnalysisOptions &o = {})
{
    Loaded l{loadTrace(dataPath(name)), {}};
    l.a = TickAnalysis::run(*l.trace, o);
    return l;
}

TickReport markersReport(const Loaded &l)
{
    const auto w = markerWindow(*l.trace, l.a);
    EXPECT_TRUE(w);
    ReportOptions ro;
    if (w) {
        ro.from = w->first;
        ro.to = w->second;
        ro.windowSource = "markers";
    }
    return TickReport::make(*l.trace, l.a, ro);
}

TEST(AnalysisRealData, NohzFullPollMarkerWindow)
{
    const Loaded l = load("nohzfull-poll.dat");
    const TickReport r = markersReport(l);
    ASSERT_EQ(r.cpus.size(), 2u);
    const CpuReport &c1 = r.cpus[1];
    EXPECT_EQ(c1.ticks.total, 208u);
    EXPECT_EQ(c1.ticks.user, 200u);
    EXPECT_EQ(c1.ticks.polling, 8u);
    EXPECT_EQ(c1.ticks.kernel, 0u);
    EXPECT_EQ(c1.ticks.irq, 0u);
    EXPECT_EQ(c1.ticks.idle, 0u);
    EXPECT_EQ(c1.ticks.unknown, 0u);
    EXPECT_EQ(c1.ticks.spurious, 208u);
    EXPECT_EQ(c1.ticks.nohzWakeups, 0u);
    EXPECT_TRUE(c1.nohzFull);
    EXPECT_FALSE(r.cpus[0].nohzFull); // the housekeeping CPU: no context tracking, no stop in a task
    EXPECT_EQ(r.cpus[0].ticks.spurious, 0u);
    EXPECT_EQ(r.nohzFullSource, "inferred");
    EXPECT_EQ(l.a.polling, PollingKind::IdlePoll);
    EXPECT_EQ(l.a.tickFunction, "tick_sched_timer");
    // 200 tick stops, all while the workload ran (nohz_full: stopped at IRQ exit in user mode)
    EXPECT_EQ(l.a.cpus[1].evidence.stopsInTask, 200u);
    EXPECT_EQ(l.a.cpus[1].evidence.stopsInIdle, 0u);
    // The tick is stopped for most of each 10 ms busy phase and running while polling.
    EXPECT_GT(c1.tickStoppedNs, (r.to - r.from) / 2);
    EXPECT_LT(c1.tickStoppedNs, r.to - r.from);
    EXPECT_EQ(c1.laneKnownNs, r.to - r.from);
    EXPECT_EQ(r.markerFrom, "workload task 0 start cpu=1");
    EXPECT_EQ(r.markerTo, "workload task 0 end iters=200");
}

TEST(AnalysisRealData, NohzFullNoPollHasNoTicksOnTheIsolatedCpu)
{
    const Loaded l = load("nohzfull-nopoll.dat");
    const TickReport r = markersReport(l);
    ASSERT_EQ(r.cpus.size(), 2u);
    const CpuReport &c1 = r.cpus[1];
    EXPECT_EQ(c1.ticks.total, 0u);
    EXPECT_EQ(c1.ticks.spurious, 0u);
    EXPECT_TRUE(c1.nohzFull);
    EXPECT_EQ(c1.tickStoppedNs, r.to - r.from); // stopped for the whole run
    EXPECT_GT(r.cpus[0].ticks.total, 400u);     // the housekeeping CPU keeps its tick (timekeeping)
    // Outside the window CPU 1's stopped tick fires for its next events: nohz wakeups, not ticks.
    uint64_t wakeups = 0;
    for (const TickRecord &t : l.a.cpus[1].ticks)
        wakeups += !t.periodic();
    EXPECT_EQ(wakeups, l.a.cpus[1].ticks.size());
    EXPECT_GE(wakeups, 2u);
}

// The same scenarios on Debian's 6.12 backport kernel (tick callback tick_nohz_handler).
TEST(AnalysisRealData, NohzFullOn612)
{
    const Loaded nopoll = load("nohzfull-nopoll-6.12.dat");
    EXPECT_EQ(nopoll.a.tickFunction, "tick_nohz_handler");
    const TickReport a = markersReport(nopoll);
    ASSERT_EQ(a.cpus.size(), 2u);
    EXPECT_EQ(a.cpus[1].ticks.total, 0u);
    EXPECT_TRUE(a.cpus[1].nohzFull);
    EXPECT_EQ(a.cpus[1].tickStoppedNs, a.to - a.from);
    const Loaded poll = load("nohzfull-poll-6.12.dat");
    const TickReport b = markersReport(poll);
    EXPECT_EQ(b.cpus[1].ticks.total, 230u); // the ticks.csv's rows, each checked below
    EXPECT_EQ(b.cpus[1].ticks.user, 150u);
    EXPECT_EQ(poll.a.polling, PollingKind::IdlePoll);
}

// Every tick of CPU 1 in the marker window against the lab's ticks.csv (analyze.py, which reads the trace
// on its own): the same times within 1 us and the same context. The csv does not tell polling from other
// idle, nor a softirq from the kernel (it has no softirq context): a csv "kernel" tick that tickscope puts in
// an interrupt is counted and its number checked.
void everyTickAgreesWithTheCsv(const char *dat, const char *csv, size_t rows, size_t kernelAsIrq)
{
    const Loaded l = load(dat);
    const auto w = markerWindow(*l.trace, l.a);
    ASSERT_TRUE(w);
    std::vector<std::pair<int64_t, TickContext>> ours;
    const CpuEvents &ev = l.trace->cpu(1);
    for (const TickRecord &t : l.a.cpus[1].ticks) {
        const int64_t ts = ev.ts(t.index);
        if (t.periodic() && ts >= w->first && ts <= w->second) ours.emplace_back(ts, t.context);
    }
    std::ifstream in(dataPath(csv));
    ASSERT_TRUE(in);
    std::string line;
    std::getline(in, line);
    ASSERT_EQ(line.rfind("timestamp,cpu,context", 0), 0u);
    size_t row = 0, irq = 0;
    while (std::getline(in, line)) {
        std::stringstream ss(line);
        std::string ts, cpu, context;
        std::getline(ss, ts, ',');
        std::getline(ss, cpu, ',');
        std::getline(ss, context, ',');
        ASSERT_EQ(cpu, "1");
        ASSERT_LT(row, ours.size()) << "more ticks in the csv than found";
        const auto expect = static_cast<int64_t>(std::llround(std::stod(ts) * 1e9));
        EXPECT_LE(std::llabs(ours[row].first - expect), 1000) << "row " << row << " " << ts;
        const TickContext c = ours[row].second;
        if (context == "idle") // the csv does not tell polling from other idle
            EXPECT_TRUE(c == TickContext::Idle || c == TickContext::Polling) << "row " << row;
        else if (context == "kernel" && c == TickContext::Irq)
            ++irq;
        else
            EXPECT_EQ(tickContextName(c), context) << "row " << row << " " << ts;
        ++row;
    }
    EXPECT_EQ(row, rows);
    EXPECT_EQ(ours.size(), row);
    EXPECT_EQ(irq, kernelAsIrq);
}

TEST(AnalysisRealData, EveryTickAgreesWithTheLabTicksCsv)
{
    everyTickAgreesWithTheCsv("nohzfull-poll.dat", "nohzfull-poll.ticks.csv", 208, 0);
    // 6.12: one tick at 12.493493 s ran inside a TIMER softirq (12.493383-12.493691)
    everyTickAgreesWithTheCsv("nohzfull-poll-6.12.dat", "nohzfull-poll-6.12.ticks.csv", 230, 1);
}

// ---- facts from `trace-cmd report` ------------------------------------------------------------------------

struct ReportLine
{
    int cpu;
    int64_t ts;
    std::string name;
    std::string fields;
};

std::vector<ReportLine> reportLines(const std::string &file)
{
    const auto r = test::run("trace-cmd report '" + file + "'");
    std::vector<ReportLine> out;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);) {
        const size_t open = line.find(" [");
        const size_t close = line.find("] ", open);
        if (open == std::string::npos || close == std::string::npos) continue;
        ReportLine l;
        l.cpu = std::stoi(line.substr(open + 2, close - open - 2));
        std::istringstream rest(line.substr(close + 2));
        std::string ts;
        rest >> ts >> l.name;
        if (ts.empty() || ts.back() != ':' || l.name.empty() || l.name.back() != ':') continue;
        l.ts = std::llround(std::stod(ts.substr(0, ts.size() - 1)) * 1e9);
        l.name.pop_back();
        std::getline(rest, l.fields);
        out.push_back(std::move(l));
    }
    return out;
}

std::string fieldOf(const std::string &fields, const std::string &key)
{
    const size_t p = fields.find(key + "=");
    if (p == std::string::npos) return {};
    const size_t v = p + key.size() + 1;
    return fields.substr(v, fields.find(' ', v) - v);
}

struct HostFacts
{
    std::map<int, uint64_t> expiries, periodic, stops, enters0, enters1;
    std::map<int, int64_t> ns0, ns1; // time in cpuidle state 0 / 1
};

HostFacts hostFacts(const std::string &file)
{
    const auto lines = reportLines(file);
    HostFacts f;
    std::map<int, std::vector<const ReportLine *>> byCpu;
    for (const auto &l : lines)
        byCpu[l.cpu].push_back(&l);
    for (auto &[cpu, v] : byCpu) {
        int open = -1;
        int64_t since = 0;
        for (size_t k = 0; k < v.size(); ++k) {
            const ReportLine &l = *v[k];
            if (l.name == "hrtimer_expire_entry" &&
                l.fields.find("function=tick_nohz_handler") != std::string::npos) {
                ++f.expiries[cpu];
                // periodic: the line after its hrtimer_expire_exit re-arms the same hrtimer
                const std::string ptr = fieldOf(l.fields, "hrtimer");
                for (size_t j = k + 1; j < v.size(); ++j) {
                    if (v[j]->name == "hrtimer_expire_exit" && fieldOf(v[j]->fields, "hrtimer") == ptr) {
                        if (j + 1 < v.size() && v[j + 1]->name == "hrtimer_start" &&
                            fieldOf(v[j + 1]->fields, "hrtimer") == ptr)
                            ++f.periodic[cpu];
                        break;
                    }
                }
            } else if (l.name == "tick_stop" && fieldOf(l.fields, "success") == "1") {
                ++f.stops[cpu];
            } else if (l.name == "cpu_idle") {
                const std::string s = fieldOf(l.fields, "state");
                if (s == "4294967295") {
                    if (open == 0) f.ns0[cpu] += l.ts - since;
                    if (open == 1) f.ns1[cpu] += l.ts - since;
                    open = -1;
                } else {
                    open = std::stoi(s);
                    since = l.ts;
                    ++(open == 0 ? f.enters0 : f.enters1)[cpu];
                }
            }
        }
    }
    return f;
}

void checkHost(const std::string &name, PollingKind polling)
{
    if (!test::haveTraceCmd()) GTEST_SKIP() << "trace-cmd not installed";
    const HostFacts f = hostFacts(dataPath(name));
    const Loaded l = load(name);
    EXPECT_EQ(l.a.tickFunction, "tick_nohz_handler");
    EXPECT_EQ(l.a.polling, polling);
    uint64_t allExpiries = 0;
    for (const CpuAnalysis &c : l.a.cpus) {
        SCOPED_TRACE("CPU " + std::to_string(c.cpu));
        const auto get = [&](const std::map<int, uint64_t> &m) { return m.count(c.cpu) ? m.at(c.cpu) : 0; };
        const auto getNs = [&](const std::map<int, int64_t> &m) { return m.count(c.cpu) ? m.at(c.cpu) : 0; };
        uint64_t periodic = 0;
        for (const TickRecord &t : c.ticks)
            periodic += t.periodic();
        EXPECT_EQ(c.ticks.size(), get(f.expiries)); // every expiry of the tick hrtimer
        EXPECT_EQ(periodic, get(f.periodic));       // the ones that re-armed: periodic ticks
        allExpiries += c.ticks.size();
        EXPECT_EQ(c.evidence.stopsInIdle + c.evidence.stopsInTask, get(f.stops));
        EXPECT_EQ(c.evidence.stopsInTask, 0u); // NO_HZ_IDLE: the tick is only stopped in idle
        // cpuidle intervals: one task-lane change per entry, and the same time in each state
        uint64_t enters0 = 0, enters1 = 0;
        int64_t ns0 = 0, ns1 = 0;
        const CpuEvents &ev = l.trace->cpu(c.cpu);
        size_t prev = CpuAnalysis::npos;
        uint8_t prevCode = 0;
        auto close = [&](size_t upTo) {
            if (prev == CpuAnalysis::npos) return;
            const int64_t d = ev.ts(upTo) - ev.ts(prev);
            if (StateCode::taskState(prevCode) == TaskState::Poll) ns0 += d;
            if (StateCode::taskState(prevCode) == TaskState::Idle && StateCode::detail(prevCode) == 1)
                ns1 += d;
        };
        c.task.forEach([&](size_t i, uint8_t code) {
            close(i);
            enters0 += StateCode::taskState(code) == TaskState::Poll;
            enters1 += StateCode::taskState(code) == TaskState::Idle && StateCode::detail(code) == 1;
            prev = i;
            prevCode = code;
        });
        EXPECT_EQ(enters0, get(f.enters0));
        EXPECT_EQ(enters1, get(f.enters1));
        // report prints µs: allow 1 µs per interval end
        EXPECT_NEAR(static_cast<double>(ns0), static_cast<double>(getNs(f.ns0)), 1000.0 * (enters0 + 1));
        EXPECT_NEAR(static_cast<double>(ns1), static_cast<double>(getNs(f.ns1)), 1000.0 * (enters1 + 1));
        EXPECT_FALSE(l.a.isNohzFull(c.cpu)); // NO_HZ_IDLE only
        for (const TickRecord &t : c.ticks)
            EXPECT_FALSE(t.flags & TickFlag::Spurious);
    }
    EXPECT_GT(allExpiries, 100u);
}

TEST(AnalysisRealData, Host618IdleAgainstTraceCmdReport)
{
    checkHost("host-6.18-idle.dat", PollingKind::None);
}

TEST(AnalysisRealData, Host618CyclictestAgainstTraceCmdReport)
{
    checkHost("host-6.18-cyclictest.dat", PollingKind::CpuidlePoll);
}

void checkLanesSane(const std::string &name, uint64_t minGaps)
{
    SCOPED_TRACE(name);
    const Loaded l = load(name);
    uint64_t gaps = 0;
    size_t midTraceRanges = 0;
    for (int c = 0; c < l.trace->cpuCount(); ++c) {
        const CpuAnalysis &ca = l.a.cpus[static_cast<size_t>(c)];
        const CpuEvents &ev = l.trace->cpu(c);
        gaps += ca.evidence.gaps;
        for (const LostRange &r : ev.lost)
            midTraceRanges += r.from < r.to && ev.lowerBound(r.to) < ev.size();
        size_t last = 0;
        ca.task.forEach([&](size_t i, uint8_t code) {
            EXPECT_LT(i, ev.size());
            EXPECT_GE(i, last);
            last = i;
            EXPECT_LE(StateCode::state(code), static_cast<uint8_t>(TaskState::Poll));
        });
        ca.irq.forEach([&](size_t, uint8_t code) {
            EXPECT_LE(StateCode::state(code), static_cast<uint8_t>(IrqState::Unknown));
        });
        for (size_t k = 1; k < ca.ticks.size(); ++k)
            EXPECT_LT(ca.ticks[k - 1].index, ca.ticks[k].index);
        const auto &lane = ca.tickLane.changes();
        for (size_t k = 1; k < lane.size(); ++k)
            EXPECT_LT(lane[k - 1].index, lane[k].index);
        // each gap leaves an unknown stretch in the tick lane and in both state lanes
        size_t unknown = 0;
        for (const auto &ch : lane)
            unknown += ch.state == TickState::Unknown;
        EXPECT_GE(unknown, ca.evidence.gaps);
        for (const LostRange &r : ev.lost) {
            if (r.from >= r.to || ev.lowerBound(r.to) >= ev.size()) continue;
            const size_t before = ev.lowerBound(r.to) - 1;
            EXPECT_EQ(StateCode::taskState(ca.task.codeAt(before)), TaskState::Unknown);
            EXPECT_EQ(StateCode::irqState(ca.irq.codeAt(before)), IrqState::Unknown);
        }
    }
    EXPECT_EQ(gaps, midTraceRanges);
    EXPECT_GE(gaps, minGaps);
}

TEST(AnalysisRealData, LostEventsKeepTheLanesSane)
{
    checkLanesSane("host-lost.dat", 0);              // trace-cmd: the drops open each CPU's data
    checkLanesSane("text/tracefs-pipe-lost.txt", 1); // trace_pipe: "CPU:0 [LOST 84 EVENTS]" mid-trace
}

} // namespace
} // namespace tickscope
