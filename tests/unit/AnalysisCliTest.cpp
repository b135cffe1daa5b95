// SPDX-License-Identifier: GPL-3.0-or-later
// `tickscope-cli report`: the text summary, the stable JSON keys, the window options and the errors
// (one line on stderr, non-zero exit); CPUs nothing is known of are one line of the text, not rows.
#include "TestUtil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>
#include <string>

namespace tickscope {
namespace {

using test::dataPath;
using test::run;

test::CommandResult report(const std::string &args)
{
    return run("timeout 120 '" + std::string(TICKSCOPE_CLI) + "' report " + args);
}

size_t lines(const std::string &s)
{
    size_t n = 0;
    for (char c : s)
        n += c == '\n';
    return n;
}

std::string squeeze(const std::string &s) // JSON without whitespace
{
    std::string out;
    for (char c : s) {
        if (c != ' ' && c != '\n') out += c;
    }
    return out;
}

TEST(AnalysisCli, ReportTextForTheNohzFullPollMarkers)
{
    const auto r = report("'" + dataPath("nohzfull-poll.dat") + "' --markers");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("tick:       hrtimer tick_sched_timer"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("nohz_full:  1 (inferred)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("between the first and last ftrace print marker"), std::string::npos);
    // CPU 1's row: nohz_full, 208 ticks, 200 user, 0 kernel/irq/idle, 8 polling, 208 spurious, 0 wakeups
    bool found = false;
    for (size_t p = 0; (p = r.out.find('\n', p)) != std::string::npos; ++p) {
        const std::string row = r.out.substr(p + 1, r.out.find('\n', p + 1) - p - 1);
        if (row.rfind("  1  yes", 0) != 0) continue;
        found = true;
        EXPECT_NE(row.find("208     200       0       0       0       8       208             0"),
                  std::string::npos)
            << row;
    }
    EXPECT_TRUE(found) << r.out;
    EXPECT_NE(r.out.find("analysis:"), std::string::npos);
    EXPECT_NE(r.out.find("derived arrays"), std::string::npos);
}

TEST(AnalysisCli, ReportJsonKeys)
{
    const auto r = report("'" + dataPath("nohzfull-poll.dat") + "' --markers --json --cpus 1");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string j = squeeze(r.out);
    EXPECT_NE(j.find("\"nohz_full_source\":\"inferred\""), std::string::npos) << r.out;
    EXPECT_NE(
        j.find("\"cpus\":[{\"cpu\":1,\"nohz_full\":true,\"ticks\":{\"total\":208,\"user\":200,\"kernel\":0,"
               "\"irq\":0,\"idle\":0,\"polling\":8,\"spurious\":208}"),
        std::string::npos)
        << r.out;
    EXPECT_NE(j.find("\"tick_stopped_ns\":"), std::string::npos);
    EXPECT_NE(j.find("\"tick_stop_failures\":{\"POSIX_TIMER\":0,\"PERF_EVENTS\":0,\"SCHED\":0,"
                     "\"CLOCK_UNSTABLE\":0,\"RCU\":0,\"RCU_EXP\":0}"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(j.find("\"cpu\":0"), std::string::npos); // --cpus 1
}

TEST(AnalysisCli, NohzFullOptionAndWindow)
{
    const std::string f = "'" + dataPath("nohzfull-nopoll.dat") + "'";
    const auto a = report(f + " --json --nohz-full 0-1 --window 5.5:6.5");
    ASSERT_EQ(a.exitCode, 0) << a.err;
    const std::string j = squeeze(a.out);
    EXPECT_NE(j.find("\"nohz_full_source\":\"option\""), std::string::npos);
    EXPECT_NE(j.find("\"cpu\":0,\"nohz_full\":true"), std::string::npos);
    EXPECT_NE(j.find("\"from_ns\":5500000000,\"to_ns\":6500000000,\"source\":\"window\""), std::string::npos)
        << a.out;
    // CPU 1: the tick is stopped for the whole second
    EXPECT_NE(j.find("\"cpu\":1,\"nohz_full\":true,\"ticks\":{\"total\":0"), std::string::npos);
    EXPECT_NE(j.find("\"tick_stopped_ns\":1000000000"), std::string::npos) << a.out;
    // an open-ended window
    const auto b = report(f + " --window 6:");
    EXPECT_EQ(b.exitCode, 0) << b.err;
    EXPECT_NE(b.out.find("window:     6.000000 .. "), std::string::npos) << b.out;
}

// A text trace with events on CPUs 0 and 5 only: the text and the mail list those two (the text names
// 1-4 in one line); the JSON keeps every CPU, each with its event count.
TEST(AnalysisCli, CpusWithoutEventsAreOneLineOfTheText)
{
    const auto dir = test::tempDir();
    const std::string file = (dir / "sparse.txt").string();
    {
        std::ofstream out(file);
        for (int k = 0; k < 20; ++k) {
            for (int cpu : {0, 5}) {
                const double t = 100.0 + k * 0.004 + cpu * 0.0001;
                char line[200];
                std::snprintf(line, sizeof line,
                              "          <idle>-0     [%03d] d.h1.  %.6f: local_timer_entry: vector=236\n"
                              "          <idle>-0     [%03d] d.h1.  %.6f: local_timer_exit: vector=236\n",
                              cpu, t, cpu, t + 0.00001);
                out << line;
            }
        }
    }
    const auto text = report("'" + file + "'");
    ASSERT_EQ(text.exitCode, 0) << text.err;
    auto row = [&](int cpu) { // a row of the ticks table
        return std::regex_search(text.out, std::regex("\n\\s*" + std::to_string(cpu) + "  no  "));
    };
    EXPECT_TRUE(row(0)) << text.out;
    EXPECT_TRUE(row(5)) << text.out;
    for (int cpu = 1; cpu <= 4; ++cpu)
        EXPECT_FALSE(row(cpu)) << cpu << "\n" << text.out;
    EXPECT_NE(text.out.find("(no events and no tick state in the window on CPUs 1-4: not listed)"),
              std::string::npos)
        << text.out;

    const auto mail = report("'" + file + "' --format mail");
    ASSERT_EQ(mail.exitCode, 0) << mail.err;
    EXPECT_NE(mail.out.find("CPU 0\n"), std::string::npos) << mail.out;
    EXPECT_NE(mail.out.find("CPU 5\n"), std::string::npos) << mail.out;
    EXPECT_EQ(mail.out.find("CPU 3\n"), std::string::npos) << mail.out;

    const auto j = report("'" + file + "' --json");
    ASSERT_EQ(j.exitCode, 0) << j.err;
    const auto doc = nlohmann::json::parse(j.out);
    ASSERT_EQ(doc["cpus"].size(), 6u);
    EXPECT_EQ(doc["cpus"][0]["events"], 40);
    EXPECT_EQ(doc["cpus"][3]["events"], 0);
    EXPECT_EQ(doc["cpus"][5]["events"], 40);
    std::filesystem::remove_all(dir);
}

// A CPU whose trace shows switches into the idle task and none out of it (a 6.18 guest's kernel records
// none): the text says so under its row, and the JSON counts both.
TEST(AnalysisCli, MissingSwitchesOutOfIdleAreSaid)
{
    const auto dir = test::tempDir();
    const std::string file = (dir / "idle.txt").string();
    {
        std::ofstream out(file);
        for (int k = 0; k < 25; ++k) {
            const double t = 100.0 + k * 0.001;
            char lines[800];
            std::snprintf(
                lines, sizeof lines,
                "       sleeper-100   [001] d..2.  %.6f: sched_switch: prev_comm=sleeper prev_pid=100 "
                "prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
                "          <idle>-0     [001] d.h1.  %.6f: local_timer_entry: vector=236\n"
                "          <idle>-0     [001] d.h1.  %.6f: local_timer_exit: vector=236\n"
                "       sleeper-100   [001] .....  %.6f: sys_exit: NR 230 = 0\n",
                t, t + 0.0004, t + 0.0005, t + 0.0006);
            out << lines;
        }
    }
    const auto text = report("'" + file + "'");
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("(25 switches into the idle task traced and none out of it"), std::string::npos)
        << text.out;
    const auto j = report("'" + file + "' --json");
    ASSERT_EQ(j.exitCode, 0) << j.err;
    const auto doc = nlohmann::json::parse(j.out);
    EXPECT_EQ(doc["cpus"][1]["switches_into_idle"], 25);
    EXPECT_EQ(doc["cpus"][1]["switches_out_of_idle"], 0);
    // the committed fixtures record both ways: no such line
    const auto fine = report("'" + dataPath("nohzfull-poll.dat") + "'");
    EXPECT_EQ(fine.out.find("switches into the idle task"), std::string::npos) << fine.out;
    std::filesystem::remove_all(dir);
}

TEST(AnalysisCli, ErrorsAreOneLine)
{
    const std::string f = "'" + dataPath("nohzfull-poll.dat") + "'";
    for (const std::string &args :
         {f + " --nohz-full x", f + " --cpus 1-", f + " --window 3", f + " --window 4:3",
          f + " --markers --window 1:2", f + " --cpus 9", std::string("--json"), f + " --frobnicate"}) {
        const auto r = report(args);
        EXPECT_EQ(r.exitCode, 2) << args << ": " << r.err;
        EXPECT_EQ(lines(r.err), 1u) << args << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << args;
    }
    const auto missing = report("'" + dataPath("no-such-file.dat") + "'");
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_EQ(lines(missing.err), 1u) << missing.err;
    // a trace without two print markers
    const auto noMarkers = report("'" + dataPath("host-6.18-idle.dat") + "' --markers");
    EXPECT_EQ(noMarkers.exitCode, 1);
    EXPECT_EQ(lines(noMarkers.err), 1u) << noMarkers.err;
    EXPECT_NE(noMarkers.err.find("print marker"), std::string::npos) << noMarkers.err;
}

} // namespace
} // namespace tickscope
