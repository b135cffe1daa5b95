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

#include <algorithm>
#include <cctype>
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
    // The trace holds no tick_stop event: the failed stops are not recorded, and the tick-stopped time
    // comes from the tick hrtimer alone (a lower bound); every other figure is measured.
    ASSERT_EQ(full.doc["evidence"].size(), 2u) << full.doc["evidence"].dump();
    EXPECT_TRUE(notRecorded(full.doc, "tick_stop_failures"));
    EXPECT_EQ(full.doc["evidence"]["tick_stopped"]["status"], "inferred");
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

// `trace-cmd report -R` (raw fields: sched_switch without "==>", prev_state and timer flags as numbers,
// callbacks as addresses) of the same trace: every event decodes, and the figures equal the full
// report's but for those the addresses hide (which sleeper an expiry woke), which are not recorded.
TEST_F(Ablation, RawFieldsOfReportR)
{
    const Reports full = report("full.txt", *full_);
    const auto r =
        test::run("trace-cmd report -R '" + test::dataPath("nohzfull-nopoll.dat") + "' 2>/dev/null");
    ASSERT_GT(r.out.size(), 100000u);
    const std::string file = (*dir_ / "raw.txt").string();
    std::ofstream(file) << r.out;
    const auto j = test::cli("report '" + file + "' --json");
    ASSERT_EQ(j.exitCode, 0) << j.err;
    EXPECT_EQ(j.err.find("could not be decoded"), std::string::npos) << j.err;
    const json a = json::parse(j.out);
    EXPECT_EQ(a["evidence"]["hrtimer_wakeups"]["status"], "not_recorded") << a["evidence"].dump();
    for (size_t k = 0; k < 2; ++k) {
        const json &c = a["cpus"][k], &f = full.doc["cpus"][k];
        EXPECT_EQ(c["tick_stopped_ns"], f["tick_stopped_ns"]) << k;
        EXPECT_EQ(c["ticks"]["idle"], f["ticks"]["idle"]) << k; // sched_switch decoded
        EXPECT_EQ(c["timer_softirq"], f["timer_softirq"]) << k;
        EXPECT_EQ(c["switches_into_idle"], f["switches_into_idle"]) << k;
        EXPECT_TRUE(c["hrtimer_wakeup"]["count"].is_null()) << k;
    }
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
    EXPECT_NE(
        a.text.find(
            "ticks, user/kernel split of the ticks, ticks in idle, ticks while polling, tick-stopped time"),
        std::string::npos)
        << a.text;
}

// ---- arm64: the tick is an irq_handler_entry named arch_timer -------------------------------------------
// Real traces of Debian's arm64 kernels (6.1 and 6.12, HZ=250) under QEMU (tests/lab/arm64), recorded
// with every event; the copies keep what `-e irq -e sched:sched_switch` records. The truth is the full
// trace's report (tick hrtimer expiries, tick_stop and the tick hrtimer's starts and cancels).

class ArmLab : public ::testing::TestWithParam<const char *>
{
protected:
    static std::string read(const std::string &path)
    {
        std::ifstream in(path);
        std::ostringstream s;
        s << in.rdbuf();
        return s.str();
    }
    static json reportJson(const std::string &file)
    {
        const auto j = test::cli("report '" + file + "' --json");
        EXPECT_EQ(j.exitCode, 0) << j.err;
        return json::parse(j.out);
    }
};

// One CPU's arch_timer interrupts, read from the full trace's text (not by tickscope): their times, and
// how many of them ran no tick expiry or more than one (a late interrupt runs every expiry that is due).
struct ArchTimer
{
    std::vector<double> at;
    int64_t notOneTick = 0; // interrupts with 0 tick expiries, plus the expiries beyond the first of one
};
ArchTimer archTimer(const std::string &text, int cpu)
{
    ArchTimer t;
    static const std::regex line(
        R"(\[(\d+)\]\s+\S{4,5}\s+([\d.]+): (irq_handler_entry|irq_handler_exit|hrtimer_expire_entry): (.*))");
    int64_t inside = -1; // tick expiries of the open arch_timer interrupt, -1: none open
    const auto close = [&] {
        if (inside >= 0) t.notOneTick += inside == 0 ? 1 : inside - 1;
        inside = -1;
    };
    for (auto it = std::sregex_iterator(text.begin(), text.end(), line); it != std::sregex_iterator(); ++it) {
        if (std::stoi((*it)[1].str()) != cpu) continue;
        const std::string ev = (*it)[3].str(), rest = (*it)[4].str();
        if (ev == "irq_handler_entry" && rest.find("name=arch_timer") != std::string::npos) {
            close();
            t.at.push_back(std::stod((*it)[2].str()));
            inside = 0;
        } else if (ev == "irq_handler_exit") {
            close();
        } else if (ev == "hrtimer_expire_entry" && inside >= 0 &&
                   rest.find("function=tick_") != std::string::npos) {
            ++inside;
        }
    }
    close();
    return t;
}

// The copy: irq:* and sched_switch (and the markers), as `trace-cmd record -e irq -e sched_switch`.
std::string irqCut(const std::string &text)
{
    std::istringstream in(text);
    std::string cut, line;
    static const std::regex kept(
        R"(\s(irq_handler_entry|irq_handler_exit|softirq_entry|softirq_exit|softirq_raise|sched_switch|tracing_mark_write):\s)");
    while (std::getline(in, line))
        if (line.starts_with("#") || std::regex_search(line, kept)) cut += line + "\n";
    return cut;
}

TEST_P(ArmLab, TickInferredFromArchTimerInterrupts)
{
    const std::string name = GetParam();
    const std::string path = test::dataPath("arm64/" + name + ".txt");
    const std::string text = read(path);
    ASSERT_GT(text.size(), 100000u) << path << " is missing or short";
    const json full = reportJson(path);
    EXPECT_TRUE(full["evidence"].is_object());
    EXPECT_NE(full["tick_timer"].get<std::string>().find("hrtimer tick_"), std::string::npos);

    const std::string cut = irqCut(text);
    const auto dir = test::tempDir();
    const std::string file = (dir / (name + "-irq.txt")).string();
    std::ofstream(file) << cut;
    const json a = reportJson(file);
    const json &ev = a["evidence"];
    ASSERT_EQ(ev["ticks"]["status"], "inferred") << ev.dump();
    EXPECT_NE(ev["ticks"]["from"].get<std::string>().find("irq:irq_handler_entry name=arch_timer"),
              std::string::npos)
        << ev.dump();
    ASSERT_EQ(ev["tick_stopped"]["status"], "inferred") << ev.dump();
    EXPECT_NE(ev["tick_stopped"]["from"].get<std::string>().find("HZ=250"), std::string::npos) << ev.dump();
    for (const char *f : {"tick_mode", "nohz_wakeups", "catchups", "hrtimer_wakeups", "tick_stop_failures"})
        EXPECT_EQ(ev[f]["status"], "not_recorded") << f;
    for (const json &f : a["findings"])
        EXPECT_NE(f["kind"], "catchup_softirq") << f.dump();
    // nohz_full: CPU 1 of the nohz_full runs (a busy loop with its tick off), none of the idle runs
    const bool nohzFull = name.find("nohzfull") != std::string::npos;
    EXPECT_EQ(a["nohz_full_cpus"], nohzFull ? "1" : "") << name;
    EXPECT_EQ(full["nohz_full_cpus"], a["nohz_full_cpus"]) << name;

    // Tolerances, from the rules' limits (docs/EVIDENCE.md): ticks within the CPU's stops (each may lose
    // the tick that restarted it without a timer interrupt) plus its interrupts that ran no tick or
    // several (a late interrupt runs every tick expiry due; QEMU's are often late); on the idle runs, whose
    // full report knows the lane from the trace start, tick-stopped time within one period plus the
    // tick's worst lateness (a tick later than a period looks like a stop) per stop, plus both ends.
    for (int cpu : {0, 1}) {
        const ArchTimer t = archTimer(text, cpu);
        size_t stops = 0;
        for (size_t k = 1; k < t.at.size(); ++k)
            stops += t.at[k] - t.at[k - 1] > 0.008;
        const json &c = a["cpus"][cpu], &f = full["cpus"][cpu];
        const int64_t ticks = c["ticks"]["total"], truth = f["ticks"]["total"];
        EXPECT_LE(std::abs(ticks - truth), static_cast<int64_t>(stops) + t.notOneTick + 1)
            << name << " CPU" << cpu << ": " << ticks << " inferred, " << truth << " measured, " << stops
            << " stops, " << t.at.size() << " interrupts, " << t.notOneTick << " not one tick each";
        if (!nohzFull) {
            const int64_t got = c["tick_stopped_ns"], want = f["tick_stopped_ns"];
            const int64_t perStop = 4000000 + f["tick_lateness_ns"]["max"].get<int64_t>();
            EXPECT_LE(std::abs(got - want), perStop * static_cast<int64_t>(stops + 2))
                << name << " CPU" << cpu << ": " << got << " ns inferred, " << want << " measured, " << stops
                << " stops";
        }
    }
    std::filesystem::remove_all(dir);
}

// A clock event device whose interrupt name tickscope does not know (a board's own driver): the same copy
// with arch_timer renamed gives the same figures, the interrupt taken by its behaviour (periodic at HZ);
// with the timer interrupts removed, no other interrupt is taken for them and the ticks are not recorded.
TEST_P(ArmLab, AnUnknownTimerInterruptIsTakenByItsBehaviour)
{
    const std::string name = GetParam();
    const std::string cut = irqCut(read(test::dataPath("arm64/" + name + ".txt")));
    ASSERT_GT(cut.size(), 10000u);
    std::string renamed = cut, removed;
    for (size_t p = 0; (p = renamed.find("name=arch_timer", p)) != std::string::npos;)
        renamed.replace(p, 15, "name=board_clkevt");
    std::istringstream in(cut);
    for (std::string line; std::getline(in, line);)
        if (line.find("name=arch_timer") == std::string::npos) removed += line + "\n";
    const auto dir = test::tempDir();
    const auto write = [&](const std::string &file, const std::string &content) {
        std::ofstream((dir / file).string()) << content;
        return (dir / file).string();
    };
    const json a = reportJson(write("cut.txt", cut));
    const json b = reportJson(write("renamed.txt", renamed));
    const json c = reportJson(write("removed.txt", removed));
    const std::string from = b["evidence"]["ticks"]["from"];
    EXPECT_NE(from.find("name=board_clkevt, taken for the per-CPU timer by its behaviour"), std::string::npos)
        << from;
    for (int cpu : {0, 1}) {
        EXPECT_EQ(b["cpus"][cpu]["ticks"], a["cpus"][cpu]["ticks"]) << cpu;
        EXPECT_EQ(b["cpus"][cpu]["tick_stopped_ns"], a["cpus"][cpu]["tick_stopped_ns"]) << cpu;
    }
    EXPECT_EQ(b["nohz_full_cpus"], a["nohz_full_cpus"]);
    EXPECT_EQ(c["evidence"]["ticks"]["status"], "not_recorded") << c["evidence"]["ticks"].dump();
    std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Traces, ArmLab,
                         ::testing::Values("arm64-6.1-nohzfull", "arm64-6.1-idle", "arm64-6.12-nohzfull",
                                           "arm64-6.12-idle"),
                         [](const auto &info) {
                             std::string n = info.param;
                             std::replace_if(
                                 n.begin(), n.end(), [](char ch) { return !std::isalnum(ch); }, '_');
                             return n;
                         });

} // namespace
} // namespace tickscope
