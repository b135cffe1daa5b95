// SPDX-License-Identifier: GPL-3.0-or-later
// `tickscope-cli compare --window A:B --align ...`: two runs over the same span of relative time. The
// numbers must be each run's own `report` over the absolute span the alignment gives, and the zeros
// must be what each alignment says (first print marker, first event, start plus an offset).
#include "TestUtil.h"

#include "import/Loader.h"
#include "report/TickReport.h"
#include "session/RunAlignment.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

namespace tickscope {
namespace {

using nlohmann::json;
using test::cli;
using test::dataPath;

std::string seconds(int64_t ns)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%lld.%09lld", static_cast<long long>(ns / 1000000000),
                  static_cast<long long>(ns % 1000000000));
    return buf;
}

const std::string kPoll = dataPath("nohzfull-poll.dat"), kNopoll = dataPath("nohzfull-nopoll.dat");

// The kernel lab's own list of CPU 1's ticks between a run's print markers (tests/data/NAME.ticks.csv,
// made by an independent script, not by tickscope), counted over [from, from + 1 s]: all of them, those
// in userspace and those while idle (polling: the runs that tick in idle are the idle=poll ones).
struct LabTicks
{
    uint64_t all = 0, user = 0, idle = 0;
};
LabTicks labTicksInSecond(const std::string &csvName, int64_t from)
{
    std::ifstream csv(dataPath(csvName));
    EXPECT_TRUE(csv) << csvName << " is missing";
    std::string line;
    std::getline(csv, line); // timestamp,cpu,context,...
    EXPECT_EQ(line.rfind("timestamp,cpu,context,", 0), 0u) << csvName;
    LabTicks t;
    while (std::getline(csv, line)) {
        if (line.empty()) continue;
        const auto ts = static_cast<int64_t>(std::llround(std::stod(line.substr(0, line.find(','))) * 1e9));
        if (ts < from || ts > from + 1000000000) continue;
        EXPECT_NE(line.find(",1,"), std::string::npos) << line; // CPU 1 only
        ++t.all;
        t.user += line.find(",1,user,") != std::string::npos;
        t.idle += line.find(",1,idle,") != std::string::npos;
    }
    return t;
}

TEST(CompareCli, RelativeWindowIsEachRunsReportOverItsAlignedSpan)
{
    const auto r = cli("compare " + kPoll + " " + kNopoll + " --window 0.2:1.2 --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const json j = json::parse(r.out);
    ASSERT_TRUE(j.contains("window"));
    EXPECT_EQ(j["window"]["align"], "marker"); // both runs have markers: the default
    EXPECT_EQ(j["window"]["from_ns"], 200000000);
    EXPECT_EQ(j["window"]["to_ns"], 1200000000);
    const int64_t zero[2] = {j["window"]["before_zero_ns"], j["window"]["after_zero_ns"]};
    const std::string files[2] = {kPoll, kNopoll};
    const char *side[2] = {"before", "after"};
    for (int k = 0; k < 2; ++k) {
        // the zero is the run's first print marker, found here independently of the CLI
        const auto trace = loadTrace(files[k]);
        const TickAnalysis analysis = TickAnalysis::run(*trace);
        ASSERT_EQ(firstMarker(*trace, analysis), zero[k]) << files[k];
        // and the numbers are that run's report over [zero + 0.2 s, zero + 1.2 s]
        const auto rep = cli("report " + files[k] + " --json --window " + seconds(zero[k] + 200000000) + ":" +
                             seconds(zero[k] + 1200000000));
        ASSERT_EQ(rep.exitCode, 0) << rep.err;
        const json rj = json::parse(rep.out);
        ASSERT_EQ(rj["cpus"].size(), j["cpus"].size());
        uint64_t ticks = 0;
        for (size_t c = 0; c < rj["cpus"].size(); ++c) {
            const json &cpu = j["cpus"][c];
            EXPECT_EQ(cpu["ticks"][side[k]], rj["cpus"][c]["ticks"]["total"]) << files[k] << " CPU " << c;
            EXPECT_EQ(cpu["ticks_user"][side[k]], rj["cpus"][c]["ticks"]["user"]) << files[k] << " CPU " << c;
            EXPECT_EQ(cpu["ticks_polling"][side[k]], rj["cpus"][c]["ticks"]["polling"]) << files[k];
            ticks += rj["cpus"][c]["ticks"]["total"].get<uint64_t>();
        }
        EXPECT_GT(ticks, 100u) << files[k]; // a second of a 2-CPU HZ=250 trace
    }
    // seed 000's headline, in relative time: CPU 1's user ticks vanish without polling idle. Its before ->
    // after figures are counted from the kernel lab's own lists of CPU 1's ticks (nohzfull-poll.ticks.csv,
    // nohzfull-nopoll.ticks.csv), not from tickscope: the ticks, those in userspace and those in polling
    // idle; and the spurious ones, which are all of them, as the lab's kernel failed no tick stop on
    // CPU 1 (no dependency in force: every user tick is spurious) and every idle tick polled (idle=poll).
    const auto text = cli("compare " + kPoll + " " + kNopoll + " --window 0:1");
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("aligned by marker"), std::string::npos) << text.out;
    const auto headline = cli("compare " + kPoll + " " + kNopoll + " --window 0:1 --json");
    ASSERT_EQ(headline.exitCode, 0) << headline.err;
    const json h = json::parse(headline.out);
    const int64_t hzero[2] = {h["window"]["before_zero_ns"], h["window"]["after_zero_ns"]};
    // (each list covers its run's marker window, which is longer than the second compared)
    for (int k = 0; k < 2; ++k) {
        const auto trace = loadTrace(files[k]);
        const auto markers = markerWindow(*trace, TickAnalysis::run(*trace));
        ASSERT_TRUE(markers) << files[k];
        EXPECT_GT(markers->second - hzero[k], 1000000000) << files[k];
    }
    const LabTicks lab[2] = {labTicksInSecond("nohzfull-poll.ticks.csv", hzero[0]),
                             labTicksInSecond("nohzfull-nopoll.ticks.csv", hzero[1])};
    EXPECT_GT(lab[0].user, 50u); // a second of ticks at HZ=250 broken by returns to polling idle
    EXPECT_GT(lab[0].idle, 0u);
    EXPECT_EQ(lab[1].all, 0u); // without polling idle the tick stays stopped
    bool seen = false;
    for (const json &cpu : h["cpus"]) {
        if (cpu["cpu"] != 1) continue;
        seen = true;
        for (int k = 0; k < 2; ++k) {
            EXPECT_EQ(cpu["ticks"][side[k]], lab[k].all) << side[k];
            EXPECT_EQ(cpu["ticks_user"][side[k]], lab[k].user) << side[k];
            EXPECT_EQ(cpu["ticks_polling"][side[k]], lab[k].idle) << side[k];
            EXPECT_EQ(cpu["spurious"][side[k]], lab[k].all) << side[k];
        }
    }
    EXPECT_TRUE(seen) << "no CPU 1 in the comparison";
    // and the text's line of the headline, "ticks_user  BEFORE -> AFTER", under CPU 1
    char expect[64];
    std::snprintf(expect, sizeof expect, "%.3f -> %.3f", static_cast<double>(lab[0].user),
                  static_cast<double>(lab[1].user));
    const size_t cpu1 = text.out.find("\nCPU 1\n");
    ASSERT_NE(cpu1, std::string::npos) << text.out;
    const size_t at = text.out.find("  ticks_user ", cpu1);
    ASSERT_NE(at, std::string::npos) << text.out;
    EXPECT_NE(text.out.substr(at, text.out.find('\n', at) - at).find(expect), std::string::npos) << text.out;
}

TEST(CompareCli, AlignByStartAndByOffset)
{
    const auto a = loadTrace(kPoll), b = loadTrace(kNopoll);
    const auto start = cli("compare " + kPoll + " " + kNopoll + " --window 0:0.5 --align start --json");
    ASSERT_EQ(start.exitCode, 0) << start.err;
    const json s = json::parse(start.out);
    EXPECT_EQ(s["window"]["align"], "start");
    EXPECT_EQ(s["window"]["before_zero_ns"], a->firstTs());
    EXPECT_EQ(s["window"]["after_zero_ns"], b->firstTs());
    const auto off = cli("compare " + kPoll + " " + kNopoll + " --window :0.5 --align -0.25 --json");
    ASSERT_EQ(off.exitCode, 0) << off.err;
    const json o = json::parse(off.out);
    EXPECT_EQ(o["window"]["before_zero_ns"], a->firstTs());
    EXPECT_EQ(o["window"]["after_zero_ns"], b->firstTs() - 250000000);
    EXPECT_FALSE(o["window"].contains("from_ns")); // open at the start
    EXPECT_EQ(parseAlignment("0.25")->offsetNs, 250000000);
    EXPECT_FALSE(parseAlignment("soon"));
    EXPECT_FALSE(parseAlignment("1e300"));
}

TEST(CompareCli, DefaultOutputIsUnchangedAndBadOptionsAreRefused)
{
    const auto plain = cli("compare " + kPoll + " " + kNopoll);
    ASSERT_EQ(plain.exitCode, 0) << plain.err;
    EXPECT_EQ(plain.out.find("window:"), std::string::npos);
    EXPECT_EQ(plain.out.rfind("before: ", 0), 0u);
    const auto pj = cli("compare " + kPoll + " " + kNopoll + " --json");
    ASSERT_EQ(pj.exitCode, 0);
    EXPECT_FALSE(json::parse(pj.out).contains("window"));

    struct Bad
    {
        std::string args;
        int exit;
        const char *says;
    };
    for (const Bad &b :
         {Bad{kPoll + " " + kNopoll + " --align marker", 2, "--align needs --window"},
          Bad{kPoll + " " + kNopoll + " --window 0:1 --align soon", 2, "--align: expected start"},
          Bad{kPoll + " " + kNopoll + " --window 0:1 --whole", 2, "exclude each other"},
          Bad{kPoll + " " + kNopoll + " --window 2:1", 2, "A must be below B"},
          Bad{kPoll + " " + dataPath("host-sleep.dat") + " --window 0:1 --align marker", 1,
              "B has no ftrace print marker"}}) {
        const auto r = cli("compare " + b.args);
        EXPECT_EQ(r.exitCode, b.exit) << b.args << "\n" << r.err;
        EXPECT_NE(r.err.find(b.says), std::string::npos) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
}

} // namespace
} // namespace tickscope
