// SPDX-License-Identifier: GPL-3.0-or-later
// A scenario written as JSON (the GUI's Save) reads back into the same scenario: for every preset and
// variant the written file simulates to the same trace, event for event count and timestamps, and
// writing it again gives the same text. Every key's settingValue, set back, changes nothing.
#include "sim/Presets.h"
#include "sim/Scenario.h"
#include "sim/Simulator.h"

#include <gtest/gtest.h>

using namespace tickscope;
using namespace tickscope::sim;

namespace {

std::vector<std::string> everyPresetAndVariant()
{
    std::vector<std::string> specs;
    for (const Preset &p : presets()) {
        specs.emplace_back(p.name);
        for (const auto &v : loadScenario(std::string(p.name)).variants)
            specs.push_back(std::string(p.name) + ":" + v.first);
    }
    return specs;
}

} // namespace

TEST(SimScenarioWrite, EveryPresetAndVariantReadsBackAndSimulatesTheSame)
{
    const auto specs = everyPresetAndVariant();
    ASSERT_GE(specs.size(), 6u);
    for (const std::string &spec : specs) {
        SCOPED_TRACE(spec);
        Scenario s = loadScenario(spec);
        s.durationNs = std::min<int64_t>(s.durationNs, 300'000'000); // a short run is enough to compare
        const std::string text = scenarioJson(s);
        Scenario back;
        ASSERT_NO_THROW(back = parseScenario(text, spec + " (written)"));
        EXPECT_EQ(scenarioJson(back), text);
        // And the same simulation.
        const SimResult a = simulate(s, 7), b = simulate(back, 7);
        ASSERT_EQ(a.trace->cpuCount(), b.trace->cpuCount());
        EXPECT_EQ(a.trace->eventCount(), b.trace->eventCount());
        for (int c = 0; c < a.trace->cpuCount(); ++c) {
            ASSERT_EQ(a.trace->cpu(c).size(), b.trace->cpu(c).size()) << "CPU " << c;
            if (a.trace->cpu(c).size() == 0) continue;
            EXPECT_EQ(a.trace->cpu(c).ts(a.trace->cpu(c).size() - 1),
                      b.trace->cpu(c).ts(b.trace->cpu(c).size() - 1))
                << "CPU " << c;
        }
    }
}

TEST(SimScenarioWrite, EverySettingsValueSetBackChangesNothing)
{
    const Scenario s = loadScenario("seed003-rt-hrtimer");
    const std::string text = scenarioJson(s);
    int withValue = 0;
    for (const SettingInfo &info : settingInfos()) {
        SCOPED_TRACE(info.key);
        EXPECT_FALSE(info.meaning.empty());
        const auto v = settingValue(s, info.key);
        if (!v) {
            EXPECT_FALSE(info.kernel) << "every kernel key has a value";
            continue;
        }
        ++withValue;
        if (!info.choices.empty()) {
            EXPECT_NE(std::find(info.choices.begin(), info.choices.end(), *v), info.choices.end());
        }
        Scenario t = s;
        applySetting(t, info.key, *v);
        EXPECT_EQ(scenarioJson(t), text);
    }
    EXPECT_GE(withValue, 16);
}

TEST(SimScenarioWrite, AListFieldIsSetAsTheJsonWouldGiveIt)
{
    const Scenario s = loadScenario("seed000-nohzfull-poll");
    ASSERT_FALSE(s.irqs.empty());
    ASSERT_EQ(s.irqs[0].timers, 2);
    const Scenario q = withListField(s, "irqs", 0, "timeouts_ms", "3, 4.5");
    EXPECT_EQ(q.irqs[0].timeoutsNs, (std::vector<int64_t>{3'000'000, 4'500'000}));
    const Scenario t = withListField(s, "tasks", 0, "policy", "fifo");
    EXPECT_TRUE(t.tasks[0].rt);
    const Scenario u = withListField(s, "tasks", 0, "start_us", "2500.5");
    EXPECT_EQ(u.tasks[0].startNs, 2'500'500);
    EXPECT_THROW(withListField(s, "tasks", 0, "cpu", "99"), ScenarioError);
    EXPECT_THROW(withListField(s, "irqs", 0, "timeouts_ms", ""), ScenarioError); // timers need timeouts
    EXPECT_THROW(withListField(s, "tasks", 0, "count", "two"), ScenarioError);
    EXPECT_THROW(withListField(s, "tasks", 99, "cpu", "0"), ScenarioError);
    EXPECT_THROW(withListField(s, "tasks", 0, "no_such_field", "1"), ScenarioError);
    // everything else stays
    EXPECT_EQ(scenarioJson(withListField(s, "tasks", 0, "cpu", std::to_string(s.tasks[0].cpu))),
              scenarioJson(s));
}

TEST(SimScenarioWrite, AChangedSettingIsWrittenAndReadBack)
{
    Scenario s = loadScenario("seed000-nohzfull-poll");
    applySetting(s, "p1_reevaluate", "true");
    applySetting(s, "hz", "250");
    applySetting(s, "hog_cpus", "1");
    const Scenario back = parseScenario(scenarioJson(s), "written");
    EXPECT_TRUE(back.kernel.p1Reevaluate);
    EXPECT_EQ(back.kernel.hz, 250);
    EXPECT_EQ(back.tasks.size(), s.tasks.size());
    EXPECT_EQ(back.tasks.back().name, "busyloop");
}
