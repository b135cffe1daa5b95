// SPDX-License-Identifier: GPL-3.0-or-later
// `tickscope-cli simulate` and `compare` from the command line: the report with the ground truth, the
// written ftrace text re-imported into the same events, fields and tasks, and bad scenario input (one
// error line, non-zero exit, never a crash).
#include "SimTestUtil.h"
#include "TestUtil.h"

#include "import/Loader.h"
#include "model/EventFormat.h"

#include <gtest/gtest.h>

#include <fstream>

namespace tickscope {
namespace {

using test::run;

test::CommandResult cli(const std::string &args)
{
    return run("cd / && timeout 120 '" + std::string(TICKSCOPE_CLI) + "' " + args);
}

size_t lines(const std::string &s)
{
    return static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
}

TEST(SimCli, SimulatePrintsTheReportAndGroundTruth)
{
    const auto r = cli("simulate seed000-nohzfull-poll"); // from '/': the presets are built in
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("between the first and last ftrace print marker"), std::string::npos);
    EXPECT_NE(r.out.find("Ground truth (as simulated)"), std::string::npos);
    EXPECT_NE(r.out.find("  3  yes"), std::string::npos) << r.out;
    const auto list = cli("simulate --list");
    ASSERT_EQ(list.exitCode, 0);
    for (const char *p :
         {"seed000-nohzfull-poll", "seed002-legacy-wheel", "seed003-rt-hrtimer", "p2_without_kick"})
        EXPECT_NE(list.out.find(p), std::string::npos) << p;
    const auto json = cli("simulate seed000-nohzfull-poll:p1p2 --json");
    ASSERT_EQ(json.exitCode, 0) << json.err;
    EXPECT_NE(json.out.find("\"ground_truth\""), std::string::npos);
    EXPECT_NE(json.out.find("\"variant\": \"p1p2\""), std::string::npos);
}

TEST(SimCli, CompareBaselineWithPatched)
{
    const auto r =
        cli("compare seed000-nohzfull-poll seed000-nohzfull-poll,p1_reevaluate=1,p2_stop_tick_on_poll=1");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("CPU 3"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("ticks_user"), std::string::npos);
    EXPECT_NE(r.out.find("-> 0.000"), std::string::npos);
    const auto j = cli("compare seed003-rt-hrtimer seed003-rt-hrtimer:soft --json");
    ASSERT_EQ(j.exitCode, 0) << j.err;
    EXPECT_NE(j.out.find("\"wakeup_latency_max_us\""), std::string::npos);
}

// The ftrace text written by --out loads back into the same events, fields and tasks.
TEST(SimCli, TextRoundTrip)
{
    for (const char *spec : {"seed000-nohzfull-poll:p2_without_stopped_tick_fix", "seed003-rt-hrtimer:soft",
                             "seed002-legacy-wheel"}) {
        SCOPED_TRACE(spec);
        const std::string path = (test::tempDir() / "sim.txt").string();
        const auto r = cli("simulate " + std::string(spec) + " --set duration_ms=400 --out '" + path + "'");
        ASSERT_EQ(r.exitCode, 0) << r.err;
        sim::Scenario s = sim::scenarioFromSpec(spec);
        sim::applySetting(s, "duration_ms", "400");
        const sim::SimResult sim = sim::simulate(s, simtest::kSeed);
        const Trace &a = *sim.trace;
        const auto b = loadTrace(path);
        EXPECT_TRUE(b->warnings.empty()) << b->warnings.front();
        ASSERT_EQ(b->cpuCount(), a.cpuCount());
        ASSERT_EQ(b->eventCount(), a.eventCount());
        for (int c = 0; c < a.cpuCount(); ++c) {
            const CpuEvents &x = a.cpu(c);
            const CpuEvents &y = b->cpu(c);
            ASSERT_EQ(x.size(), y.size()) << "CPU " << c;
            for (size_t i = 0; i < x.size(); ++i) {
                ASSERT_EQ(x.ts(i), y.ts(i)) << "CPU " << c << " event " << i;
                ASSERT_EQ(a.types()[x.type(i)].name, b->types()[y.type(i)].name)
                    << "CPU " << c << " event " << i;
                ASSERT_EQ(x.pid(i), y.pid(i)) << "CPU " << c << " event " << i;
                ASSERT_EQ(x.flags(i), y.flags(i)) << "CPU " << c << " event " << i;
                ASSERT_EQ(x.preempt(i), y.preempt(i)) << "CPU " << c << " event " << i;
                ASSERT_EQ(formatEventFields(a, c, i), formatEventFields(*b, c, i))
                    << "CPU " << c << " event " << i;
            }
        }
        // tasks: every pid that appears has the same name
        for (int c = 0; c < a.cpuCount(); ++c) {
            const CpuEvents &x = a.cpu(c);
            for (size_t i = 0; i < x.size(); i += 97) {
                const int32_t pid = x.pid(i);
                if (pid == 0) continue;
                EXPECT_EQ(a.strings.str(a.tasks.comm(pid, x.ts(i))),
                          b->strings.str(b->tasks.comm(pid, x.ts(i))));
            }
        }
    }
}

TEST(SimCli, BadScenarioInput)
{
    const auto dir = test::tempDir();
    auto file = [&](const std::string &name, const std::string &text) {
        const std::string p = (dir / name).string();
        std::ofstream(p) << text;
        return p;
    };
    const std::vector<std::pair<std::string, std::string>> cases{
        {"simulate '" + file("bad.json", "{ \"name\": ") + "'", "not valid JSON"},
        {"simulate '" + file("key.json", "{ \"nmae\": \"x\" }") + "'", "unknown key 'nmae'"},
        {"simulate '" + file("val.json", "{ \"kernel\": { \"hz\": \"fast\" } }") + "'", "hz"},
        {"simulate '" + file("cpu.json", "{ \"kernel\": { \"cpus\": 2 }, \"tasks\": [ { \"cpu\": 5 } ] }") +
             "'",
         "tasks[0].cpu"},
        {"simulate '" + file("arr.json", "[1, 2]") + "'", "expected an object"},
        {"simulate no-such-preset", "neither a preset"},
        {"simulate seed000-nohzfull-poll:nope", "no variant 'nope'"},
        {"simulate seed000-nohzfull-poll --set idle=sometimes", "idle: expected poll or halt"},
        {"simulate seed000-nohzfull-poll --set bogus=1", "unknown setting 'bogus'"},
        {"simulate seed000-nohzfull-poll --set platform=vax", "unknown platform 'vax'"},
        {"simulate seed000-nohzfull-poll --seed -3", "--seed"},
        {"simulate seed000-nohzfull-poll --out /nonexistent/dir/x.txt", "/nonexistent/dir/x.txt"},
        {"compare seed000-nohzfull-poll", "expected two"},
        {"compare seed000-nohzfull-poll seed000-nohzfull-poll,p1_reevaluate", "expected key=value"},
    };
    for (const auto &[args, what] : cases) {
        const auto r = cli(args);
        EXPECT_NE(r.exitCode, 0) << args;
        EXPECT_EQ(r.signal, 0) << args;
        EXPECT_EQ(lines(r.err), 1u) << args << ": " << r.err;
        EXPECT_NE(r.err.find(what), std::string::npos) << args << ": " << r.err;
    }
}

} // namespace
} // namespace tickscope
