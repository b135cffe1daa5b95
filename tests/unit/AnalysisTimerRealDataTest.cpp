// SPDX-License-Identifier: GPL-3.0-or-later
// Timer softirqs and hrtimer wakeups on the 6.18 cyclictest fixture (cyclictest -t2 -p99 -i1000), against
// facts taken here from `trace-cmd report -t`: hrtimer_wakeup expiries and TIMER softirqs per CPU, and the
// lateness and wakeup latency of hand-picked wakeups computed from the report's own lines.
#include "TestUtil.h"

#include "analysis/TickAnalysis.h"
#include "import/Loader.h"
#include "report/TickReport.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace tickscope {
namespace {

struct Line
{
    int cpu = -1;
    int pid = -1;
    int64_t ts = 0; // ns
    std::string event, rest;
};

std::optional<Line> parse(const std::string &s)
{
    const size_t open = s.find(" [");
    if (open == std::string::npos || s.size() < open + 7 || s[open + 5] != ']') return std::nullopt;
    Line l;
    l.cpu = std::stoi(s.substr(open + 2, 3));
    const size_t dash = s.rfind('-', open);
    if (dash == std::string::npos) return std::nullopt;
    l.pid = std::atoi(s.c_str() + dash + 1);
    const size_t tsStart = s.find_first_not_of(' ', open + 6);
    const size_t dot = s.find('.', tsStart);
    const size_t colon = s.find(':', dot);
    if (tsStart == std::string::npos || dot == std::string::npos || colon == std::string::npos)
        return std::nullopt;
    l.ts = std::stoll(s.substr(tsStart, dot - tsStart)) * 1000000000LL +
           std::stoll(s.substr(dot + 1, colon - dot - 1));
    const size_t ev = s.find_first_not_of(' ', colon + 1);
    const size_t evEnd = s.find(':', ev);
    if (ev == std::string::npos || evEnd == std::string::npos) return std::nullopt;
    l.event = s.substr(ev, evEnd - ev);
    const size_t rest = s.find_first_not_of(' ', evEnd + 1);
    l.rest = rest == std::string::npos ? "" : s.substr(rest);
    return l;
}

int64_t field(const std::string &rest, const std::string &key)
{
    const size_t p = rest.find(key + "=");
    if (p == std::string::npos) return INT64_MIN;
    return std::stoll(rest.substr(p + key.size() + 1), nullptr, 0);
}
std::string word(const std::string &rest, const std::string &key)
{
    const size_t p = rest.find(key + "=");
    if (p == std::string::npos) return {};
    const size_t b = p + key.size() + 1;
    return rest.substr(b, rest.find(' ', b) - b);
}

struct Expected
{
    int cpu;
    int64_t ts;
    int64_t lateness, softLateness, latency;
    bool explicitSwitch;
};

TEST(AnalysisTimerRealData, CyclictestAgainstTraceCmdReport)
{
    if (!test::haveTraceCmd()) GTEST_SKIP() << "trace-cmd not installed";
    const std::string file = test::dataPath("host-6.18-cyclictest.dat");
    const auto out = test::run("trace-cmd report -t '" + file + "'");
    ASSERT_EQ(out.exitCode, 0) << out.err;
    std::vector<Line> lines;
    {
        std::istringstream in(out.out);
        std::string s;
        while (std::getline(in, s))
            if (auto l = parse(s)) lines.push_back(std::move(*l));
    }
    ASSERT_GT(lines.size(), 100000u);

    std::map<int, uint64_t> wakeups, timerSoftirqs, unpaired;
    std::map<std::string, std::pair<int64_t, int64_t>> starts; // pointer -> expires, softexpires
    std::vector<Expected> picked;
    int explicitPicked = 0, implicitPicked = 0, slackPicked = 0; // 2 + 1 + 1 (a sleeper with slack)
    for (size_t k = 0; k < lines.size(); ++k) {
        const Line &l = lines[k];
        if (l.event == "softirq_entry" && l.rest.rfind("vec=1 ", 0) == 0) ++timerSoftirqs[l.cpu];
        if (l.event == "hrtimer_start")
            starts[word(l.rest, "hrtimer")] = {field(l.rest, "expires"), field(l.rest, "softexpires")};
        if (l.event != "hrtimer_expire_entry" || word(l.rest, "function").rfind("hrtimer_wakeup", 0) != 0)
            continue;
        ++wakeups[l.cpu];
        if (!starts.count(word(l.rest, "hrtimer"))) ++unpaired[l.cpu]; // armed before the trace began
        if (explicitPicked >= 2 && implicitPicked >= 1 && slackPicked >= 1) continue;
        const auto st = starts.find(word(l.rest, "hrtimer"));
        if (st == starts.end()) continue;
        const bool slack = st->second.first != st->second.second;
        if (slack && slackPicked >= 1) continue;
        // the woken task: the first sched_waking on this CPU before hrtimer_expire_exit
        int pid = -1, target = -1;
        size_t j = k + 1;
        for (; j < lines.size(); ++j) {
            const Line &m = lines[j];
            if (m.cpu != l.cpu) continue;
            if (m.event == "hrtimer_expire_exit") break;
            if (m.event == "sched_waking" && pid < 0) {
                pid = static_cast<int>(field(m.rest, "pid"));
                target = static_cast<int>(field(m.rest, "target_cpu"));
            }
        }
        if (pid <= 0 || target != l.cpu) continue;
        // its switch-in on that CPU: a sched_switch "==> comm:pid", or its first event there (switch not
        // traced)
        const std::string into = ":" + std::to_string(pid) + " [";
        for (++j; j < lines.size(); ++j) {
            const Line &m = lines[j];
            if (m.cpu != l.cpu) continue;
            const size_t arrow = m.event == "sched_switch" ? m.rest.find("==> ") : std::string::npos;
            const bool sw = arrow != std::string::npos && m.rest.find(into, arrow) != std::string::npos;
            if (!sw && m.pid != pid) continue;
            if (!slack && (sw ? explicitPicked >= 2 : implicitPicked >= 1)) break;
            const int64_t now = field(l.rest, "now");
            picked.push_back({l.cpu, l.ts, now - st->second.first, now - st->second.second, m.ts - l.ts, sw});
            ++(slack ? slackPicked : sw ? explicitPicked : implicitPicked);
            break;
        }
    }
    ASSERT_EQ(picked.size(), 4u);

    const auto trace = loadTrace(file);
    const TickAnalysis a = TickAnalysis::run(*trace);
    const TickReport r = TickReport::make(*trace, a, {});
    ASSERT_EQ(a.cpus.size(), 2u);
    for (int c = 0; c < 2; ++c) {
        EXPECT_EQ(a.cpus[c].timers.wakeups.size(), wakeups[c]) << "CPU " << c;
        EXPECT_EQ(a.cpus[c].timers.timerSoftirqs.size(), timerSoftirqs[c]) << "CPU " << c;
        EXPECT_EQ(r.cpus[c].wakeup.count, wakeups[c]);
        EXPECT_EQ(r.cpus[c].timerSoftirq.count, timerSoftirqs[c]);
        EXPECT_GT(wakeups[c], 1000u);
        // cyclictest's SCHED_FIFO 99 sleepers are RT. This capture misses many switches out of idle (the
        // task just appears): those latencies are upper bounds, and counted as such.
        EXPECT_GT(r.cpus[c].wakeup.latencyRt.count, 1000u);
        EXPECT_GT(r.cpus[c].wakeup.latencyBounds, 0u);
        EXPECT_LT(r.cpus[c].wakeup.latencyBounds, r.cpus[c].wakeup.latency.count);
        EXPECT_LT(r.cpus[c].wakeup.latencyRt.p50, 100000); // a VM: tens of µs at most for the median
        EXPECT_EQ(r.cpus[c].wakeup.unpaired, unpaired[c]);
        EXPECT_LT(unpaired[c], 20u);
    }
    for (const Expected &e : picked) {
        const CpuTimers &t = a.cpus[static_cast<size_t>(e.cpu)].timers;
        const CpuEvents &ev = trace->cpu(e.cpu);
        bool found = false;
        for (size_t k = 0; k < t.wakeups.size(); ++k) {
            if (ev.ts(t.wakeups[k].index) != e.ts) continue;
            found = true;
            EXPECT_EQ(t.wakeups[k].latenessNs, e.lateness) << e.ts;
            EXPECT_EQ(t.softLateness->of(t.wakeups[k]), e.softLateness) << e.ts;
            // A switch-in the trace shows gives the latency; for a task that just appears, the latency to
            // its first event is an upper bound, and says so.
            EXPECT_EQ(t.wakeups[k].latencyNs, e.latency)
                << e.ts << (e.explicitSwitch ? " switch" : " first event");
            EXPECT_EQ((t.wakeups[k].flags & WakeupFlag::LatencyBound) != 0, !e.explicitSwitch) << e.ts;
        }
        EXPECT_TRUE(found) << "no wakeup at " << e.ts << " on CPU " << e.cpu;
    }
}

TEST(AnalysisTimerRealData, ReportJsonHasTheTimerKeys)
{
    const std::string file = test::dataPath("host-6.18-cyclictest.dat");
    const auto r = test::run("timeout 120 '" + std::string(TICKSCOPE_CLI) + "' report --json '" + file + "'");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto trace = loadTrace(file);
    const TickAnalysis a = TickAnalysis::run(*trace);
    const TickReport rep = TickReport::make(*trace, a, {});
    // Each CPU object: timer_softirq {count, max_ns, catchup, ...} and hrtimer_wakeup {count, lateness_ns
    // {..., p50, p90, p99, max}, ..., latency_ns {...}}, in that order, with the library's numbers.
    size_t pos = 0;
    for (const CpuReport &c : rep.cpus) {
        auto expect = [&](const std::string &text) {
            const size_t p = r.out.find(text, pos);
            EXPECT_NE(p, std::string::npos) << "CPU " << c.cpu << ": " << text;
            if (p != std::string::npos) pos = p + text.size();
        };
        expect("\"timer_softirq\": {\n        \"count\": " + std::to_string(c.timerSoftirq.count) +
               ",\n        \"max_ns\": " + std::to_string(c.timerSoftirq.maxNs) +
               ",\n        \"catchup\": " + std::to_string(c.timerSoftirq.catchup) + ",");
        expect("\"hrtimer_wakeup\": {\n        \"count\": " + std::to_string(c.wakeup.count) + ",");
        expect("\"lateness_ns\": {");
        expect("\"p50\": " + std::to_string(c.wakeup.lateness.p50) + ",");
        expect("\"p99\": " + std::to_string(c.wakeup.lateness.p99) + ",");
        expect("\"max\": " + std::to_string(c.wakeup.lateness.max));
        expect("\"latency_ns\": {");
        expect("\"p50\": " + std::to_string(c.wakeup.latency.p50) + ",");
        expect("\"p99\": " + std::to_string(c.wakeup.latency.p99) + ",");
        expect("\"max\": " + std::to_string(c.wakeup.latency.max));
        expect("\"latency_upper_bounds\": " + std::to_string(c.wakeup.latencyBounds));
        EXPECT_GT(c.wakeup.count, 1000u);
    }
}

} // namespace
} // namespace tickscope
