// SPDX-License-Identifier: GPL-3.0-or-later
// `report --format mail` and `compare --format mail`: plain ASCII, at most 72 columns, and the figures are
// the report's own numbers (checked against `report --json` of the same file and window); the headline
// figures of nohzfull-poll.dat's CPU 1 are counted without tickscope (the kernel lab's ticks.csv,
// `trace-cmd report`).
#include "TestUtil.h"

#include "report/ReportMail.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

namespace tickscope {
namespace {

using nlohmann::json;
using test::cli;
using test::dataPath;

void expectMailShape(const std::string &text, const std::string &what)
{
    std::istringstream in(text);
    std::string line;
    size_t n = 0;
    while (std::getline(in, line)) {
        ++n;
        EXPECT_LE(line.size(), kMailColumns) << what << ": " << line;
        for (char c : line)
            EXPECT_TRUE(c >= 0x20 && c <= 0x7e) << what << ": " << line;
    }
    EXPECT_GT(n, 3u) << what;
}

// CPU title -> label -> value, from a mail text
std::map<std::string, std::map<std::string, std::string>> figures(const std::string &text)
{
    std::map<std::string, std::map<std::string, std::string>> out;
    std::istringstream in(text);
    std::string line, cpu;
    while (std::getline(in, line)) {
        if (line.rfind("CPU ", 0) == 0) {
            cpu = line.substr(0, line.find(' ', 4));
        } else if (line.rfind("  ", 0) == 0 && line.find(':') != std::string::npos && !cpu.empty()) {
            const size_t colon = line.find(':');
            std::string value = line.substr(colon + 1);
            value.erase(0, value.find_first_not_of(' '));
            out[cpu][line.substr(2, colon - 2)] = value;
        }
    }
    return out;
}

// The kernel lab's list of CPU 1's ticks between the print markers (tests/data/NAME.ticks.csv, written by
// its own script from the trace, not by tickscope): all of them, and those that interrupted userspace.
struct LabTicks
{
    uint64_t all = 0, user = 0;
};
LabTicks labTicks(const std::string &csvName)
{
    std::ifstream csv(dataPath(csvName));
    EXPECT_TRUE(csv) << "the committed " << csvName << " is missing";
    std::string line;
    std::getline(csv, line); // timestamp,cpu,context,context_task_method,comm,pid
    EXPECT_EQ(line.rfind("timestamp,cpu,context,", 0), 0u) << csvName;
    LabTicks t;
    while (std::getline(csv, line)) {
        if (line.empty()) continue;
        ++t.all;
        t.user += line.find(",1,user,") != std::string::npos;
    }
    return t;
}

// The hrtimer_wakeup expiries on `cpu` from the first to the last print marker, counted in the text of
// `trace-cmd report` (the reference reader, not tickscope's): the lines "[CPU] TS: hrtimer_expire_entry:
// ... function=hrtimer_wakeup".
uint64_t wakeupsBetweenMarkers(const std::string &dat, int cpu)
{
    const auto r = test::run("trace-cmd report -t '" + dat + "'");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    char tag[16];
    std::snprintf(tag, sizeof tag, "[%03d]", cpu);
    double from = -1, to = -1;
    std::vector<double> wakeups;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);) {
        const size_t open = line.find(" [");
        if (open == std::string::npos) continue;
        std::istringstream rest(line.substr(open + 1));
        std::string cpuTag, ts, name;
        rest >> cpuTag >> ts;
        if (!ts.empty() && ts.back() != ':') rest >> ts; // (a flags column)
        rest >> name;
        if (ts.empty() || ts.back() != ':') continue;
        const double t = std::strtod(ts.c_str(), nullptr);
        if (name == "print:") {
            if (from < 0) from = t;
            to = t;
        } else if (cpuTag == tag && name == "hrtimer_expire_entry:" &&
                   line.find("function=hrtimer_wakeup") != std::string::npos) {
            wakeups.push_back(t);
        }
    }
    EXPECT_GT(to, from) << dat << ": two print markers";
    return static_cast<uint64_t>(
        std::count_if(wakeups.begin(), wakeups.end(), [&](double t) { return t >= from && t <= to; }));
}

std::string us(int64_t ns)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(ns) / 1e3);
    return buf;
}

// The mail's figures of one CPU, as the JSON report gives them: a figure the JSON gives as null (not
// recorded by the trace) has no line; an inferred one says so.
std::map<std::string, std::string> expected(const json &cpu, int64_t span, const json &evidence)
{
    const json &t = cpu["ticks"], &w = cpu["hrtimer_wakeup"];
    const auto inferred = [&](const char *figure) {
        return evidence.contains(figure) && evidence[figure]["status"] == "inferred" ? " (inferred)" : "";
    };
    std::map<std::string, std::string> m;
    if (!t["user"].is_null())
        m["ticks in userspace"] =
            std::to_string(t["user"].get<uint64_t>()) +
            (w["count"].is_null() ? "" : "/" + std::to_string(w["count"].get<uint64_t>())) +
            inferred("ticks");
    if (!t["polling"].is_null())
        m["ticks while polling"] = std::to_string(t["polling"].get<uint64_t>()) + inferred("ticks");
    if (!t["spurious"].is_null())
        m["spurious ticks"] = std::to_string(t["spurious"].get<uint64_t>()) + inferred("ticks");
    if (!cpu["tick_stopped_ns"].is_null()) {
        char stopped[32];
        std::snprintf(stopped, sizeof stopped, "%.1f%%",
                      100.0 * static_cast<double>(cpu["tick_stopped_ns"].get<int64_t>()) /
                          static_cast<double>(span));
        m["tick stopped"] = stopped + std::string(inferred("tick_stopped"));
    }
    if (!cpu["tick_stop_failures"].is_null()) {
        std::string failed;
        for (const char *name : kDependencyNames) { // the kernel's order (a json object's keys are sorted)
            const uint64_t n = cpu["tick_stop_failures"][name];
            if (n) failed += (failed.empty() ? "" : ", ") + std::string(name) + " " + std::to_string(n);
        }
        if (const uint64_t other = cpu["tick_stop_failures_other"]; other)
            failed += (failed.empty() ? "" : ", ") + std::string("other ") + std::to_string(other);
        m["failed tick stops"] = failed.empty() ? "none" : failed;
    }
    if (!cpu["timer_softirq"]["max_ns"].is_null())
        m["worst TIMER softirq"] = us(cpu["timer_softirq"]["max_ns"]) + " us";
    if (!cpu["timer_softirq"]["catchup"].is_null())
        m["TIMER catch-ups"] = std::to_string(cpu["timer_softirq"]["catchup"].get<uint64_t>());
    if (!w["latency_ns"].is_null())
        m["wakeup latency p99/max"] = us(w["latency_ns"]["p99"]) + "/" + us(w["latency_ns"]["max"]) + " us";
    return m;
}

TEST(MailFormat, ReportFiguresAreTheJsonReportsNumbers)
{
    for (const std::string f :
         {"nohzfull-poll.dat", "nohzfull-nopoll.dat", "host-sleep.dat", "host-trace.txt"}) {
        const std::string args = "report " + dataPath(f) + (f.starts_with("nohzfull") ? " --markers" : "");
        const auto mail = cli(args + " --format mail");
        ASSERT_EQ(mail.exitCode, 0) << mail.err;
        expectMailShape(mail.out, f);
        const auto js = cli(args + " --json");
        ASSERT_EQ(js.exitCode, 0) << js.err;
        const json j = json::parse(js.out);
        const int64_t span = j["window"]["to_ns"].get<int64_t>() - j["window"]["from_ns"].get<int64_t>();
        const auto got = figures(mail.out);
        size_t shown = 0;
        for (const json &cpu : j["cpus"]) {
            const std::string key = "CPU " + std::to_string(cpu["cpu"].get<int>());
            if (!got.count(key)) continue;
            ++shown;
            EXPECT_EQ(got.at(key), expected(cpu, span, j["evidence"])) << f << " " << key;
        }
        EXPECT_GT(shown, 0u) << f;
        EXPECT_NE(mail.out.find("Measured with tickscope"), std::string::npos) << mail.out;
    }
    // nohzfull-poll.dat: only its nohz_full CPU 1, with the spurious ticks; --cpus shows what it names
    const auto poll =
        figures(cli("report " + dataPath("nohzfull-poll.dat") + " --markers --format mail").out);
    ASSERT_EQ(poll.size(), 1u);
    EXPECT_EQ(figures(cli("report " + dataPath("nohzfull-poll.dat") + " --cpus 0 --format mail").out)
                  .count("CPU 0"),
              1u);
    // its headline, "user ticks/sleeps": the lab's ticks in userspace over the hrtimer_wakeup expiries
    // trace-cmd shows on CPU 1 between the markers (the workload's timed sleeps)
    const LabTicks lab = labTicks("nohzfull-poll.ticks.csv");
    EXPECT_GT(lab.user, 150u); // (a second and more of HZ=250 ticks in userspace)
    if (!test::haveTraceCmd()) GTEST_SKIP() << "trace-cmd is not installed: the wakeups were not counted";
    const uint64_t wakeups = wakeupsBetweenMarkers(dataPath("nohzfull-poll.dat"), 1);
    EXPECT_GT(wakeups, 150u);
    EXPECT_EQ(poll.at("CPU 1").at("ticks in userspace"),
              std::to_string(lab.user) + "/" + std::to_string(wakeups));
}

TEST(MailFormat, CompareIsBeforeArrowAfterOfEachRunsReport)
{
    const std::string a = dataPath("nohzfull-poll.dat"), b = dataPath("nohzfull-nopoll.dat");
    const auto mail = cli("compare " + a + " " + b + " --format mail");
    ASSERT_EQ(mail.exitCode, 0) << mail.err;
    expectMailShape(mail.out, "compare");
    const json ja = json::parse(cli("report " + a + " --markers --json").out);
    const json jb = json::parse(cli("report " + b + " --markers --json").out);
    const auto span = [](const json &j) {
        return j["window"]["to_ns"].get<int64_t>() - j["window"]["from_ns"].get<int64_t>();
    };
    const auto got = figures(mail.out);
    ASSERT_TRUE(got.count("CPU 1")) << mail.out;
    const auto ea = expected(ja["cpus"][1], span(ja), ja["evidence"]),
               eb = expected(jb["cpus"][1], span(jb), jb["evidence"]);
    // a figure one run does not record is "not recorded" on its side (nohzfull-nopoll.dat holds no
    // tick_stop event: its failed stops)
    const auto side = [](const std::map<std::string, std::string> &e, const std::string &label) {
        return e.count(label) ? e.at(label) : std::string("not recorded");
    };
    for (const auto &[label, before] : ea)
        EXPECT_EQ(got.at("CPU 1").at(label), before + " -> " + side(eb, label)) << label;
    EXPECT_EQ(got.at("CPU 1").at("failed tick stops"), "none -> not recorded");
    // seed 000's point, on real traces: with no failed tick stop (above), every tick the lab listed for the
    // nohz_full CPU 1 between the markers is spurious - in userspace with no dependency in force, or in
    // polling idle - and without polling idle the lab lists none
    const LabTicks poll = labTicks("nohzfull-poll.ticks.csv"), nopoll = labTicks("nohzfull-nopoll.ticks.csv");
    EXPECT_GT(poll.all, poll.user);
    EXPECT_EQ(nopoll.all, 0u);
    EXPECT_EQ(got.at("CPU 1").at("spurious ticks"),
              std::to_string(poll.all) + " -> " + std::to_string(nopoll.all));
    EXPECT_NE(mail.out.find("Before: measured"), std::string::npos);
    EXPECT_NE(mail.out.find("After: measured"), std::string::npos);
    // the simulated series: seed 000's cover-letter line
    const auto sim = cli("compare seed000-nohzfull-poll seed000-nohzfull-poll:p1p2 --format mail");
    ASSERT_EQ(sim.exitCode, 0) << sim.err;
    expectMailShape(sim.out, "simulated compare");
    EXPECT_EQ(figures(sim.out).at("CPU 3").at("ticks in userspace"), "201/200 -> 0/200") << sim.out;
    // seed 003: where the non-RT sleepers expired and what the RT task saw, from each run's report
    const auto rt = cli("compare seed003-rt-hrtimer seed003-rt-hrtimer:soft --whole --format mail");
    ASSERT_EQ(rt.exitCode, 0) << rt.err;
    expectMailShape(rt.out, "PREEMPT_RT compare");
    const json ra = json::parse(cli("simulate seed003-rt-hrtimer --whole --json").out)["report"];
    const json rb = json::parse(cli("simulate seed003-rt-hrtimer:soft --whole --json").out)["report"];
    auto hardSoft = [](const json &cpu) {
        const json &k = cpu["hrtimer_wakeup"]["by_context"];
        return std::to_string(k["hard"]["normal"]["count"].get<uint64_t>()) + "/" +
               std::to_string(k["soft"]["normal"]["count"].get<uint64_t>());
    };
    const auto rtFig = figures(rt.out);
    for (const char *cpu : {"CPU 0", "CPU 1"}) {
        const int c = cpu[4] - '0';
        EXPECT_EQ(rtFig.at(cpu).at("non-RT hard/soft"),
                  hardSoft(ra["cpus"][c]) + " -> " + hardSoft(rb["cpus"][c]));
        EXPECT_EQ(
            rtFig.at(cpu).at("non-RT hard/soft").substr(rtFig.at(cpu).at("non-RT hard/soft").find("->")),
            "-> 0/" + std::to_string(rb["cpus"][c]["hrtimer_wakeup"]["by_context"]["soft"]["normal"]["count"]
                                         .get<uint64_t>()));
    }
    EXPECT_EQ(figures(mail.out).at("CPU 1").count("non-RT hard/soft"), 0u); // no RT classes: no such line
}

TEST(MailFormat, LongValuesWrapAndBadFormatsAreRefused)
{
    const std::string line = mailFigureLine(
        "failed tick stops", "POSIX_TIMER 123456, PERF_EVENTS 1, SCHED 3456, CLOCK_UNSTABLE 1, "
                             "RCU 1, RCU_EXP 2, other 1 -> POSIX_TIMER 1, SCHED 2");
    expectMailShape(line + "a\nb\nc\n", "wrapped");
    EXPECT_NE(line.find("\n                           "), std::string::npos) << line; // continuation indented
    EXPECT_EQ(mailSafe("caf\xc3\xa9\n"), "caf??\n");
    const auto r = cli("report " + dataPath("host-sleep.dat") + " --format html");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("expected text, json or mail"), std::string::npos) << r.err;
}

} // namespace
} // namespace tickscope
