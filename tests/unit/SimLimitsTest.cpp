// SPDX-License-Identifier: GPL-3.0-or-later
// The simulator's limits: every CPU a scenario names is checked against cpus once variants and --set keys
// are applied; a run is estimated before it starts and refused above the event limit (and the estimate
// holds on every preset and variant); interrupt sources, thread counts and JSON types are bounded and
// strict; the command line's numbers are checked. Every refusal is one line naming the key or option.
#include "SimTestUtil.h"
#include "TestUtil.h"
#include "sim/Simulator.h"
#include "util/Cancel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <fstream>

namespace tickscope {
namespace {

test::CommandResult cli(const std::string &args)
{
    return test::run("cd / && timeout 120 '" + std::string(TICKSCOPE_CLI) + "' " + args);
}

std::string file(const std::string &name, const std::string &text)
{
    const std::string p = (test::tempDir() / name).string();
    std::ofstream(p) << text;
    return p;
}

// One line on stderr, a non-zero exit and no crash, naming `what`, with none of the library's own words.
void expectRefused(const std::string &args, const std::string &what, int exitCode = 0)
{
    SCOPED_TRACE(args);
    const auto r = cli(args);
    EXPECT_EQ(r.signal, 0);
    if (exitCode)
        EXPECT_EQ(r.exitCode, exitCode) << r.err;
    else
        EXPECT_NE(r.exitCode, 0) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
    EXPECT_LT(r.err.size(), 400u) << r.err;
    for (const char *leak : {"json.exception", "basic_string", "stoi", "Unknown error", "free()"})
        EXPECT_EQ(r.err.find(leak), std::string::npos) << r.err;
}

std::string refusal(sim::Scenario s)
{
    try {
        sim::checkLimits(s);
    } catch (const sim::ScenarioError &e) {
        return e.what();
    }
    return "";
}

TEST(SimLimits, EstimateBoundsEveryPresetAndVariant)
{
    size_t runs = 0;
    for (const auto &p : sim::presets()) {
        const sim::Scenario base = sim::parseScenario(std::string(p.json), std::string(p.name));
        std::vector<std::string> variants{""};
        for (const auto &[v, kv] : base.variants)
            variants.push_back(v);
        for (const std::string &v : variants) {
            sim::Scenario s = base;
            sim::applyVariant(s, v);
            const sim::Estimate e = sim::estimate(s);
            const sim::SimResult r = sim::simulate(s, simtest::kSeed);
            const auto actual = static_cast<double>(r.trace->eventCount());
            std::printf("%-40s events %9.0f  estimate %9.0f  x%.2f\n", sim::label(s).c_str(), actual,
                        e.events, e.events / actual);
            EXPECT_GE(e.events, actual) << sim::label(s);
            EXPECT_LE(e.events, 3 * actual) << sim::label(s);
            for (int c = 0; c < r.trace->cpuCount(); ++c) // what the engine reserves per CPU
                EXPECT_GE(e.cpuEvents[static_cast<size_t>(c)] + 4096,
                          static_cast<double>(r.trace->cpu(c).size()))
                    << sim::label(s) << " CPU " << c;
            ++runs;
        }
    }
    EXPECT_GE(runs, 18u);
}

TEST(SimLimits, CpuReferencesCheckedAfterSettings)
{
    expectRefused("simulate seed000-nohzfull-poll --set cpus=2", "tasks[0].cpu is CPU 3 but cpus is 2", 1);
    expectRefused("simulate seed000-nohzfull-poll:p1p2_second_task --set cpus=1", "tasks[0].cpu", 1);
    expectRefused("simulate seed002-legacy-wheel --set cpus=12", "tasks[2].cpu is CPU 12 but cpus is 12", 1);
    expectRefused("simulate seed003-rt-hrtimer --set second_task=1 --set cpus=1", "tasks[1].cpu", 1);
    expectRefused("compare seed000-nohzfull-poll seed000-nohzfull-poll,cpus=3", "tasks[0].cpu is CPU 3", 1);
    const std::string wheel =
        file("wheel.json", R"({ "kernel": { "cpus": 4 }, "wheel_timers": [ { "cpu": 3 } ] })");
    expectRefused("simulate '" + wheel + "' --set cpus=2", "wheel_timers[0].cpu is CPU 3", 1);
    const std::string irq = file("irq.json", R"({ "kernel": { "cpus": 4, "nohz_full": "1-3" },
        "irqs": [ { "cpu": 2 } ] })");
    expectRefused("simulate '" + irq + "' --set cpus=2", "irqs[0].cpu is CPU 2", 1);
    sim::Scenario s = sim::scenarioFromSpec("seed000-nohzfull-poll");
    s.tasks.clear();
    s.irqs.clear();
    sim::applySetting(s, "cpus", "2");
    EXPECT_NE(refusal(s).find("kernel.nohz_full is CPU 2 but cpus is 2"), std::string::npos) << refusal(s);
    s = sim::scenarioFromSpec("seed002-legacy-wheel");
    s.tasks.clear();
    s.wheelTimers.clear();
    sim::applySetting(s, "cpus", "8");
    EXPECT_NE(refusal(s).find("initial_idle_jiffies has 14 entries"), std::string::npos) << refusal(s);
    expectRefused("simulate seed000-nohzfull-poll --set cpus=0",
                  "cpus: expected a whole number from 1 to 1024", 1);
    expectRefused("simulate seed000-nohzfull-poll --set cpus=1025", "cpus", 1);
}

TEST(SimLimits, TooLargeRunsAreRefusedBeforeTheyStart)
{
    sim::Scenario s = sim::scenarioFromSpec("seed003-rt-hrtimer");
    sim::applySetting(s, "duration_ms", "600000");
    const std::string why = refusal(s);
    EXPECT_NE(why.find("seed003-rt-hrtimer: duration_ms=600000 would make about"), std::string::npos) << why;
    EXPECT_NE(why.find("above the limit of 50 M"), std::string::npos) << why;
    const size_t at = why.find("use duration_ms <= ");
    ASSERT_NE(at, std::string::npos) << why;
    // the advice is right: the longest duration it names is accepted
    sim::applySetting(s, "duration_ms", why.substr(at + 19));
    EXPECT_EQ(refusal(s), "");
    EXPECT_LE(sim::estimate(s).events, sim::kMaxEvents);
    expectRefused("simulate seed003-rt-hrtimer --set duration_ms=600000", "duration_ms=600000", 1);
    expectRefused("simulate seed002-legacy-wheel --set cpus=1024 --set duration_ms=3600000", "duration_ms",
                  1);
}

TEST(SimLimits, InterruptSourcesAreBounded)
{
    auto irq = [](const std::string &fields) {
        return "simulate '" + file("irq.json", R"({ "duration_ms": 100, "irqs": [ { )" + fields + " } ] }") +
               "'";
    };
    expectRefused(irq(R"("count": 10000000, "every_ms": 0.000001)"), "irqs[0].count", 1);
    expectRefused(irq(R"("count": 1000, "every_ms": 0.000001)"), "irqs[0].every_ms", 1);
    expectRefused(irq(R"("count": 1000, "every_ms": 0)"), "irqs[0].every_ms", 1);
    expectRefused(irq(R"("count": 1000, "every_ms": -1)"), "irqs[0].every_ms", 1);
    expectRefused(irq(R"("count": 1000, "every_ms": 1e999)"), "not valid JSON", 1);
    expectRefused(irq(R"("count": 100000, "every_ms": 0.001, "timers": 2, "timeouts_ms": [1])"),
                  "irqs: 200000 timers", 1);
    // the densest source allowed runs, and within its estimate
    sim::Scenario s = sim::parseScenario(
        R"({ "duration_ms": 100, "irqs": [ { "count": 1000000, "every_ms": 0.001 } ] })", "dense");
    const sim::Estimate e = sim::estimate(s);
    const sim::SimResult r = sim::simulate(s, simtest::kSeed);
    EXPECT_GE(e.events, static_cast<double>(r.trace->eventCount()));
}

// A run cancelled while it simulates (from its first progress report, as the GUI's Cancel does while a
// simulation runs): simulate() throws Cancelled at its next check instead of simulating the rest.
TEST(SimLimits, ACancelWhileSimulatingStopsTheRun)
{
    const sim::Scenario s = sim::scenarioFromSpec("seed003-rt-hrtimer,duration_ms=3000");
    std::vector<double> whole;
    sim::SimControl all;
    all.progress = [&](double f) { whole.push_back(f); };
    ASSERT_TRUE(sim::simulate(s, simtest::kSeed, all).trace);
    ASSERT_GE(whole.size(), 3u) << "a whole run reports its progress as it goes";
    std::atomic<bool> cancel{false};
    std::vector<double> seen;
    sim::SimControl c;
    c.cancel = &cancel;
    c.progress = [&](double f) {
        seen.push_back(f);
        cancel = true;
    };
    EXPECT_THROW(sim::simulate(s, simtest::kSeed, c), Cancelled);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen.front(), whole.front()); // the same run until then
}

// Thousands of threads: the columns are reserved from the estimate, which no CPU can exceed, so the
// run fits in 2 GB of address space.
TEST(SimLimits, ThousandsOfThreadsReserveLittle)
{
    if (test::kSanitized) GTEST_SKIP() << "a sanitizer's shadow memory does not fit under ulimit -v";
    const std::string many = file("many.json", R"({ "duration_ms": 200, "kernel": { "cpus": 4 }, "tasks": [
        { "name": "s", "cpu": 0, "count": 1000, "program": "random_sleep", "min_us": 0, "max_us": 0 },
        { "name": "s", "cpu": 1, "count": 1000, "program": "random_sleep", "min_us": 0, "max_us": 0 },
        { "name": "s", "cpu": 2, "count": 1000, "program": "random_sleep", "min_us": 0, "max_us": 0 },
        { "name": "s", "cpu": 3, "count": 1000, "program": "random_sleep", "min_us": 0, "max_us": 0 } ] })");
    const auto r =
        test::run("ulimit -v 2000000; '" + std::string(TICKSCOPE_CLI) + "' simulate '" + many + "'");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    expectRefused("simulate '" + many + "' --set stress_threads=2000", "8000 threads in all", 1);
    expectRefused("simulate seed003-rt-hrtimer --set stress_threads=5000", "stress_threads", 1);
}

TEST(SimLimits, JsonTypesAreStrict)
{
    auto sim = [](const std::string &name, const std::string &text) {
        return "simulate '" + file(name, text) + "'";
    };
    expectRefused(sim("a.json", R"({ "kernel": { "cpus": 2.5 } })"),
                  "kernel.cpus: expected a whole number, got 2.5", 1);
    expectRefused(sim("b.json", R"({ "kernel": { "cpus": "4" } })"),
                  "kernel.cpus: expected a whole number, got \"4\"", 1);
    expectRefused(sim("c.json", R"({ "kernel": { "preempt_rt": 1 } })"),
                  "kernel.preempt_rt: expected true or false", 1);
    expectRefused(sim("d.json", R"({ "kernel": { "idle": 1 } })"), "kernel.idle: expected a string", 1);
    expectRefused(sim("e.json", R"({ "tasks": [ { "count": 1.5 } ] })"),
                  "tasks[0].count: expected a whole number", 1);
    expectRefused(sim("f.json", R"({ "tasks": [ { "cpu": "0" } ] })"),
                  "tasks[0].cpu: expected a whole number", 1);
    expectRefused(sim("g.json", R"({ "name": 5 })"), "name: expected a string", 1);
    expectRefused(sim("h.json", R"({ "duration_ms": 1e308 })"),
                  "duration_ms: 1e+308 is out of range (1 to 3600000)", 1);
    expectRefused(sim("i.json", R"({ "variants": { "v": { "hz": "250" } } })"),
                  "variants.v.hz: expected a whole number", 1);
    expectRefused(sim("j.json", "{\n  \"name\": \"x\",\n  \"tasks\": [ { \"cpu\": 1, } ]\n}"),
                  "not valid JSON at line 3 column", 1);
    expectRefused(sim("k.json", R"({ "irqs": [ { "timeouts_ms": [ "5" ], "timers": 1 } ] })"),
                  "irqs[0].timeouts_ms", 1);
}

TEST(SimLimits, CommandLineNumbersAreChecked)
{
    const std::string dat = std::string(TICKSCOPE_TEST_DATA) + "/nohzfull-poll.dat";
    for (const char *cmd : {"stats", "report"}) {
        for (const char *v : {"0", "-1", "abc", "5abc", "1e3", "2.5", "99999", "''"})
            expectRefused(std::string(cmd) + " '" + dat + "' --threads " + v,
                          "--threads: expected a whole number", 2);
    }
    expectRefused("report '" + dat + "' --window 5:1", "--window: A must be below B, got '5:1'", 2);
    expectRefused("report '" + dat + "' --window 0:1e308", "'1e308' is not a number of seconds", 2);
    for (const char *w : {"nan:1", "0:inf", "-1:2", "1:2abc", "abc", "' 1:2'"})
        expectRefused("report '" + dat + "' --window " + w, "--window", 2);
    for (const char *v : {"abc", "-3", "1e3", "99999999999999999999999", "5abc"})
        expectRefused(std::string("simulate seed000-nohzfull-poll --seed ") + v, "--seed", 2);
    const std::vector<std::pair<std::string, std::vector<std::string>>> keys{
        {"duration_ms", {"1e308", "nan", "inf", "-5", "0", "5abc", "abc", "''", "' 5'"}},
        {"cpus", {"2.5", "abc", "-1", "0", "1e9", "4abc", "99999999999"}},
        {"hz", {"2.5", "0", "-100", "1e308", "300", "nan"}},
        {"timekeeper", {"-1", "1.5", "abc", "4096"}},
        {"stress_threads", {"0", "-1", "2.5", "inf", "99999"}},
        {"sync_us", {"-1", "nan", "1e308", "5abc"}},
    };
    for (const auto &[key, values] : keys) {
        for (const std::string &v : values)
            expectRefused("simulate seed003-rt-hrtimer --set " + key + "=" + v,
                          "--set: " + key + ": expected", 1);
    }
    const auto r = cli("simulate seed000-nohzfull-poll --set duration_ms=1e308");
    EXPECT_NE(r.err.find("got '1e308'"), std::string::npos) << r.err;
}

} // namespace
} // namespace tickscope
