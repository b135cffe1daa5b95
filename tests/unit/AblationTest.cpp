// SPDX-License-Identifier: GPL-3.0-or-later
// Traces as users record them: the real nohz_full lab trace (tests/data/nohzfull-nopoll.dat, Linux 6.1,
// CPU1 nohz_full) printed by `trace-cmd report` and copied with event kinds removed, as a recording made
// with a few `-e` options would hold them. Each copy's report, against the full one:
// - a figure whose events were removed is not recorded: null in JSON with its reason under "evidence",
//   "–" in the text, no line in the mail form; never 0 and never the full trace's value;
// - a figure whose events are all kept equals the full report's exactly;
// - no finding claims what the removed events carried (a long TIMER softirq without timer_expire_* is
//   not a catch-up).
// Measured figures are exact; the inferred ones are held to the tolerances stated in each test.
#include "TestUtil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace tickscope {
namespace {

using nlohmann::json;

struct Reports
{
    json doc;
    std::string text, mail;
};

class Ablation : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        if (!test::haveTraceCmd()) return;
        dir_ = new std::filesystem::path(test::tempDir());
        const auto r =
            test::run("trace-cmd report '" + test::dataPath("nohzfull-nopoll.dat") + "' 2>/dev/null");
        full_ = new std::string(r.out);
    }
    static void TearDownTestSuite()
    {
        if (dir_) std::filesystem::remove_all(*dir_);
        delete dir_;
        delete full_;
        dir_ = nullptr;
        full_ = nullptr;
    }
    void SetUp() override
    {
        if (!test::haveTraceCmd())
            GTEST_SKIP() << "trace-cmd is not installed (scripts/install-deps.sh --test)";
        ASSERT_TRUE(full_ && full_->size() > 100000)
            << "trace-cmd report of the lab trace printed too little";
    }

    // The report text with only the events named in `keep` (the `cpus=` header stays); keep empty: all.
    static std::string only(const std::set<std::string> &keep, const std::set<std::string> &drop = {})
    {
        std::istringstream in(*full_);
        std::string out, line;
        static const std::regex name(R"(\s([a-z_0-9]+):\s)");
        bool first = true;
        while (std::getline(in, line)) {
            std::smatch m;
            const bool event = std::regex_search(line, m, name);
            const std::string n = event ? m[1].str() : "";
            if (first || (event && (keep.empty() || keep.count(n)) && !drop.count(n))) out += line + "\n";
            first = false;
        }
        return out;
    }

    static Reports report(const std::string &name, const std::string &text)
    {
        const std::string file = (*dir_ / name).string();
        std::ofstream(file) << text;
        Reports r;
        const auto j = test::cli("report '" + file + "' --json");
        EXPECT_EQ(j.exitCode, 0) << j.err;
        r.doc = json::parse(j.out);
        r.text = test::cli("report '" + file + "'").out;
        r.mail = test::cli("report '" + file + "' --format mail").out;
        return r;
    }

    static std::filesystem::path *dir_;
    static std::string *full_;
};
std::filesystem::path *Ablation::dir_ = nullptr;
std::string *Ablation::full_ = nullptr;

const std::set<std::string> kTimerEvents{"timer_init",          "timer_start",       "timer_cancel",
                                         "timer_expire_entry",  "timer_expire_exit", "hrtimer_init",
                                         "hrtimer_start",       "hrtimer_cancel",    "hrtimer_expire_entry",
                                         "hrtimer_expire_exit", "tick_stop",         "itimer_state"};

bool notRecorded(const json &doc, const char *figure)
{
    return doc["evidence"].contains(figure) && doc["evidence"][figure]["status"] == "not_recorded";
}

TEST_F(Ablation, FullTraceMeasuresEveryFigureItHasEventsFor)
{
    const Reports full = report("full.txt", *full_);
    // The lab kernel recorded no failed tick stop and the trace holds no tick_stop event: that one figure
    // is not recorded; every other is measured.
    ASSERT_EQ(full.doc["evidence"].size(), 1u) << full.doc["evidence"].dump();
    EXPECT_TRUE(notRecorded(full.doc, "tick_stop_failures"));
    EXPECT_EQ(full.doc["record_hint"], "trace-cmd record -e timer:tick_stop");
    EXPECT_TRUE(full.doc["cpus"][1]["tick_stop_failures"].is_null());
    EXPECT_NE(full.text.find("not recorded (–): failed tick stops: the trace holds no timer:tick_stop event"),
              std::string::npos)
        << full.text;
    EXPECT_EQ(full.mail.find("failed tick stops"), std::string::npos) << full.mail;
    EXPECT_NE(full.mail.find("wakeup latency p99/max"), std::string::npos) << full.mail;
}

// The local timer interrupts' times on one CPU of a trace-cmd report text.
std::vector<double> interruptTimes(const std::string &text, int cpu)
{
    std::vector<double> out;
    static const std::regex line(R"(\[(\d+)\]\s+(?:\S{4,5}\s+)?([\d.]+): local_timer_entry:)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), line); it != std::sregex_iterator(); ++it)
        if (std::stoi((*it)[1].str()) == cpu) out.push_back(std::stod((*it)[2].str()));
    return out;
}

// irq_vectors + sched_switch only: the tick is inferred from the local timer interrupts; everything the
// hrtimer, softirq, syscall and timer events carried is not recorded.
TEST_F(Ablation, LocalTimerAndSwitchOnly)
{
    const Reports full = report("full.txt", *full_);
    const std::string text = only({"local_timer_entry", "local_timer_exit", "sched_switch", "print"});
    const Reports a = report("vectors-switch.txt", text);
    const json &ev = a.doc["evidence"];
    EXPECT_EQ(ev["ticks"]["status"], "inferred") << ev.dump();
    EXPECT_EQ(ev["tick_stopped"]["status"], "inferred") << ev.dump();
    EXPECT_NE(ev["tick_stopped"]["from"].get<std::string>().find("HZ=250"), std::string::npos) << ev.dump();
    for (const char *f :
         {"tick_mode", "nohz_wakeups", "tick_stop_failures", "timer_softirqs", "catchups", "hrtimer_wakeups",
          "wakeup_lateness", "wakeup_latency", "tick_lateness", "other_lateness"})
        EXPECT_TRUE(notRecorded(a.doc, f)) << f << ": " << ev.dump();
    for (size_t k = 0; k < a.doc["cpus"].size(); ++k) {
        const json &c = a.doc["cpus"][k];
        for (const char *key : {"user", "kernel", "spurious"})
            EXPECT_TRUE(c["ticks"][key].is_null()) << key;
        EXPECT_TRUE(c["nohz_wakeups"].is_null());
        EXPECT_TRUE(c["timer_softirq"]["count"].is_null());
        EXPECT_TRUE(c["hrtimer_wakeup"]["count"].is_null());
        EXPECT_TRUE(c["hrtimer_wakeup"]["latency_ns"].is_null());
        EXPECT_TRUE(c["tick_lateness_ns"].is_null());
        // the idle split needs sched_switch, which is kept: the idle ticks are a subset of the ticks
        ASSERT_TRUE(c["ticks"]["total"].is_number());
        EXPECT_LE(c["ticks"]["idle"].get<uint64_t>(), c["ticks"]["total"].get<uint64_t>());
    }
    // The tolerances (written before measuring, from the rule's limits): a CPU whose tick is stopped
    // between its interrupts (CPU1, nohz_full: every interrupt is a wakeup 10 ms after the one before)
    // has exactly the full trace's periodic ticks; a CPU whose tick runs (CPU0) has at least the full
    // trace's ticks and at most its interrupts. Tick-stopped time: within one tick period (4 ms) per stop,
    // a stop being a gap of more than two periods, plus the two ends of the trace.
    const uint64_t period = 4000000;
    for (int cpu : {0, 1}) {
        const json &c = a.doc["cpus"][cpu], &f = full.doc["cpus"][cpu];
        const std::vector<double> at = interruptTimes(text, cpu);
        ASSERT_GT(at.size(), 100u) << cpu;
        size_t stops = 0;
        for (size_t k = 1; k < at.size(); ++k)
            stops += at[k] - at[k - 1] > 2 * 0.004;
        const int64_t got = c["tick_stopped_ns"], want = f["tick_stopped_ns"];
        EXPECT_LE(std::abs(got - want), static_cast<int64_t>(period * (stops + 2)))
            << "CPU" << cpu << ": " << stops << " stops";
        const uint64_t ticks = c["ticks"]["total"], truth = f["ticks"]["total"];
        if (cpu == 1) {
            EXPECT_EQ(ticks, truth);
        } else {
            EXPECT_GE(ticks, truth);
            EXPECT_LE(ticks, at.size());
        }
    }
    EXPECT_TRUE(a.doc["findings"].empty()) << a.doc["findings"].dump();
    EXPECT_NE(a.text.find("in a task: user or kernel mode not recorded"), std::string::npos) << a.text;
    EXPECT_NE(a.text.find("inferred:  ticks from local timer interrupts"), std::string::npos) << a.text;
    EXPECT_NE(a.text.find("to record the rest: trace-cmd record -e irq:softirq_entry"), std::string::npos)
        << a.text;
    // no figure line the trace cannot support; the inferred one says so
    for (const char *line : {"ticks in userspace", "spurious ticks", "failed tick stops",
                             "worst TIMER softirq", "TIMER catch-ups", "wakeup latency"})
        EXPECT_EQ(a.mail.find(line), std::string::npos) << line << "\n" << a.mail;
    EXPECT_NE(a.mail.find("% (inferred)"), std::string::npos) << a.mail;
}

// Every event but timer:*: the TIMER softirqs stay measured and equal the full trace's; their callbacks
// are not recorded, so a long one is not called a catch-up.
TEST_F(Ablation, NoTimerEventsKeepsSoftirqsAndClaimsNoCatchup)
{
    const Reports full = report("full.txt", *full_);
    const Reports a = report("no-timer.txt", only({}, kTimerEvents));
    EXPECT_TRUE(notRecorded(a.doc, "catchups"));
    EXPECT_TRUE(notRecorded(a.doc, "hrtimer_wakeups"));
    EXPECT_FALSE(a.doc["evidence"].contains("timer_softirqs"));
    EXPECT_FALSE(a.doc["evidence"].contains("tick_mode")); // syscalls and context tracking are kept
    for (size_t k = 0; k < 2; ++k) {
        const json &c = a.doc["cpus"][k], &f = full.doc["cpus"][k];
        EXPECT_EQ(c["timer_softirq"]["count"], f["timer_softirq"]["count"]) << k;
        EXPECT_EQ(c["timer_softirq"]["max_ns"], f["timer_softirq"]["max_ns"]) << k;
        EXPECT_TRUE(c["timer_softirq"]["catchup"].is_null()) << k;
        EXPECT_EQ(c["events"].get<uint64_t>() > 0, true);
    }
    for (const json &f : a.doc["findings"])
        EXPECT_NE(f["kind"], "catchup_softirq") << f.dump();
    EXPECT_NE(a.text.find("timer callbacks not recorded"), std::string::npos) << a.text;
    EXPECT_EQ(a.text.find("CATCH-UP"), std::string::npos) << a.text;
}

// sched_switch only: no timer interrupt at all, so nothing about the tick is recorded.
TEST_F(Ablation, SwitchOnlyRecordsNoTickFigure)
{
    const Reports a = report("switch.txt", only({"sched_switch", "print"}));
    EXPECT_TRUE(notRecorded(a.doc, "ticks"));
    for (const json &c : a.doc["cpus"]) {
        for (const char *key : {"total", "user", "kernel", "irq", "idle", "polling", "spurious"})
            EXPECT_TRUE(c["ticks"][key].is_null()) << key;
    }
    EXPECT_NE(a.text.find("ticks, user/kernel split of the ticks, ticks in idle, tick-stopped time"),
              std::string::npos)
        << a.text;
}

} // namespace
} // namespace tickscope
