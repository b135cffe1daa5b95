// SPDX-License-Identifier: GPL-3.0-or-later
// The ftrace text importer on real `trace-cmd report` output of the fixtures: checked against an independent
// count of the printed event names, across the report variants (-l, -t, -N), and against `report -R` raw
// field values.
#include "TextTestUtil.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace tickscope {
namespace {

using namespace texttest;

const char *const kFixtures[] = {"nohzfull-poll.dat", "nohzfull-nopoll.dat", "host-6.18-idle.dat"};

// ---- real trace-cmd report output ---------------------------------------------------------------------

class TraceCmdReport : public ::testing::TestWithParam<const char *>
{
protected:
    std::string dat() const { return dataFile(GetParam()); }
};

TEST_P(TraceCmdReport, CountsPerEventAndCpuMatchAnIndependentCount)
{
    const std::string txt = report(dat(), "");
    auto t = loadOne(txt);
    ASSERT_TRUE(t);
    EXPECT_EQ(countTrace(*t), countText(txt));
    EXPECT_EQ(t->meta.format, "trace-cmd report text");
    EXPECT_EQ(t->meta.cpuCount, 2);
    EXPECT_EQ(t->meta.fileBytes, fs::file_size(txt));
    EXPECT_EQ(t->meta.instance, std::string(GetParam()).starts_with("host") ? "ceo_capture_6410" : "");
    EXPECT_FALSE(hasUnparsedType(*t)) << "every known event decodes";
    EXPECT_FALSE(hasWarning(*t, "skipped"));
    // trace-cmd 3.1.6 prints flags=D|P|I for every timer_start (checked against `report -R` below)
    EXPECT_TRUE(hasWarning(*t, "all ")) << "the timer flags warning";
    EXPECT_GT(t->tasks.taskCount(), 10u);
}

TEST_P(TraceCmdReport, LatencyNanosecondAndNoPluginVariantsAgree)
{
    auto base = loadOne(report(dat(), ""));
    auto lat = loadOne(report(dat(), "-l"));
    auto ns = loadOne(report(dat(), "-t"));
    auto raw = loadOne(report(dat(), "-N")); // no plugins: the tracefs print formats
    ASSERT_TRUE(base && lat && ns && raw);
    EXPECT_FALSE(hasUnparsedType(*lat) || hasUnparsedType(*ns) || hasUnparsedType(*raw));
    size_t flagged = 0;
    for (int c = 0; c < base->cpuCount(); ++c) {
        const CpuEvents &b = base->cpu(c);
        ASSERT_EQ(lat->cpu(c).size(), b.size());
        ASSERT_EQ(ns->cpu(c).size(), b.size());
        ASSERT_EQ(raw->cpu(c).size(), b.size());
        for (size_t i = 0; i < b.size(); ++i) {
            ASSERT_EQ(lat->cpu(c).ts(i), b.ts(i));
            ASSERT_EQ((ns->cpu(c).ts(i) + 500) / 1000 * 1000, b.ts(i))
                << "the default rounds to the microsecond";
            ASSERT_EQ(b.flags(i), 0);
            flagged += lat->cpu(c).flags(i) != 0 || lat->cpu(c).preempt(i) != 0;
            const std::string d = describe(*base, c, i);
            ASSERT_EQ(describe(*lat, c, i), d);
            ASSERT_EQ(describe(*ns, c, i), d);
            ASSERT_EQ(describe(*raw, c, i, true), describe(*base, c, i, true));
        }
    }
    // report -l carries the irq flags: as many events have some as lines show a flags column other than
    // "....."
    size_t flaggedLines = 0;
    std::ifstream in(report(dat(), "-l"));
    for (std::string line; std::getline(in, line);) {
        const auto tok = split(line);
        for (size_t i = 1; i < tok.size(); ++i) {
            if (!isTsToken(tok[i])) continue;
            flaggedLines += tok[i - 1].substr(tok[i - 1].find_first_not_of("0123456789")) != ".....";
            break;
        }
    }
    EXPECT_EQ(flagged, flaggedLines);
    EXPECT_GT(flagged, 1000u);
}

// `report -R` prints the raw field values; compare what the plugin (default) and no-plugin (-N) texts decode
// to. The raw text is read the simple way: "key=value" tokens.
TEST_P(TraceCmdReport, DecodedFieldsMatchRawRecordValues)
{
    auto plugin = loadOne(report(dat(), ""));
    auto noPlugin = loadOne(report(dat(), "-N"));
    ASSERT_TRUE(plugin && noPlugin);
    std::ifstream in(report(dat(), "-R"));
    std::vector<size_t> next(2, 0);
    size_t checked = 0;
    for (std::string line; std::getline(in, line);) {
        const SimpleLine s = simpleParse(line);
        if (!s.event) continue;
        const size_t i = next.at(static_cast<size_t>(s.cpu))++;
        const CpuEvents &ev = plugin->cpu(s.cpu);
        const CpuEvents &evN = noPlugin->cpu(s.cpu);
        ASSERT_LT(i, ev.size());
        ASSERT_EQ(plugin->types()[ev.type(i)].name, s.name);
        auto raw = [&](const char *key) {
            const size_t p = line.find(std::string(" ") + key + "=");
            EXPECT_NE(p, std::string::npos) << key << " in " << line;
            return std::stoull(line.substr(p + std::strlen(key) + 2), nullptr, 0);
        };
        ++checked;
        if (s.name == "hrtimer_start") {
            auto p = ev.payload<HrtimerStartP>(i);
            EXPECT_EQ(plugin->strings.pointer(p.timer), raw("hrtimer"));
            EXPECT_EQ(uint64_t(p.expires), raw("expires"));
            EXPECT_EQ(uint64_t(p.softexpires), raw("softexpires"));
            EXPECT_EQ(val(p.mode), kModeUnknown) << "the plugin does not print the mode";
            auto n = evN.payload<HrtimerStartP>(i);
            EXPECT_EQ(val(n.mode), raw("mode"));
            EXPECT_EQ(uint64_t(n.wasArmed), raw("was_armed"));
        } else if (s.name == "sched_switch") {
            auto p = ev.payload<SchedSwitchP>(i);
            EXPECT_EQ(val(p.prevPid), int(raw("prev_pid")));
            EXPECT_EQ(val(p.nextPid), int(raw("next_pid")));
            EXPECT_EQ(val(p.prevPrio), int(raw("prev_prio")));
            EXPECT_EQ(val(p.prevState), raw("prev_state") & 0xff) << "plugin letters; it never prints 0x100";
            EXPECT_EQ(val(evN.payload<SchedSwitchP>(i).prevState), raw("prev_state")) << line;
        } else if (s.name == "timer_start") {
            auto p = ev.payload<TimerStartP>(i);
            EXPECT_EQ(val(p.expires), raw("expires"));
            EXPECT_EQ(val(p.now), raw("now"));
            EXPECT_EQ(p.flags & ~0x380000u, raw("flags") & ~0x380000u) << "cpu, idx and M; D|P|I misprinted";
        } else if (s.name == "timer_expire_entry") {
            auto p = ev.payload<TimerExpireEntryP>(i);
            EXPECT_EQ(val(p.now), raw("now"));
            EXPECT_EQ(val(p.baseclk), raw("baseclk"));
        } else if (s.name == "cpu_idle") {
            EXPECT_EQ(val(ev.payload<CpuIdleP>(i).state), raw("state"));
        } else if (s.name == "irq_handler_exit") {
            EXPECT_EQ(uint64_t(ev.payload<IrqExitP>(i).ret), raw("ret"));
        } else if (s.name.starts_with("softirq_")) {
            EXPECT_EQ(val(ev.payload<SoftirqP>(i).vec), raw("vec"));
        } else if (s.name == "sys_enter" || s.name == "sys_exit") {
            EXPECT_EQ(uint64_t(int64_t(ev.payload<SyscallP>(i).id)), raw("id"));
        } else if (s.name == "tick_stop") {
            EXPECT_EQ(val(ev.payload<TickStopP>(i).dependency), raw("dependency"));
        } else if (s.name == "sched_waking" || s.name == "sched_wakeup" || s.name == "sched_wakeup_new") {
            auto p = ev.payload<SchedWakeP>(i);
            EXPECT_EQ(val(p.pid), int(raw("pid")));
            EXPECT_EQ(val(p.targetCpu), int(raw("target_cpu")));
        } else if (s.name == "hrtimer_init") {
            auto p = ev.payload<HrtimerInitP>(i);
            EXPECT_EQ(uint64_t(p.clockid), raw("clockid"));
            EXPECT_EQ(val(p.mode), raw("mode"));
        } else {
            --checked;
        }
    }
    EXPECT_GT(checked, 2000u);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, TraceCmdReport, ::testing::ValuesIn(kFixtures));

} // namespace
} // namespace tickscope
