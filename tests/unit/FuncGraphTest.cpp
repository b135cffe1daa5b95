// SPDX-License-Identifier: GPL-3.0-or-later
// function_graph text: single lines in each printed form, and whole files (tracefs `trace` pastes with
// and without timestamps, trace-cmd report of a function_graph recording) to spans, damaged ones with
// warnings.
#include "FuncGraphTestUtil.h"
#include "TestUtil.h"
#include "TextTestUtil.h"

#include "import/FuncGraphText.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <tuple>

using namespace tickscope;
using namespace tickscope::texttest;
namespace fg = tickscope::funcgraph;

namespace {

std::unique_ptr<Trace> load(const std::string &name, const std::string &text)
{
    return loadText(name, text);
}

std::string name(const Trace &t, const FunctionSpan &s)
{
    return std::string(t.strings.str(s.name));
}

std::vector<FunctionSpan> named(const Trace &t, int cpu, const std::string &fn)
{
    std::vector<FunctionSpan> out;
    for (const FunctionSpan &s : t.functions.cpus.at(static_cast<size_t>(cpu)))
        if (name(t, s) == fn) out.push_back(s);
    return out;
}

bool warns(const Trace &t, const std::string &what)
{
    return std::any_of(t.warnings.begin(), t.warnings.end(),
                       [&](const std::string &w) { return w.find(what) != std::string::npos; });
}

} // namespace

TEST(FuncGraphLine, DurationsWithEveryOverheadMarker)
{
    EXPECT_EQ(fg::parseDuration("0.902 us"), 902);
    EXPECT_EQ(fg::parseDuration("+ 48.572 us"), 48572);
    EXPECT_EQ(fg::parseDuration("! 461.167 us"), 461167);
    EXPECT_EQ(fg::parseDuration("# 1234.567 us"), 1234567);
    EXPECT_EQ(fg::parseDuration("* 12345.67 us"), 12345670);
    EXPECT_EQ(fg::parseDuration("@ 123456.7 us"), 123456700);
    EXPECT_EQ(fg::parseDuration("$ 1234567 us"), 1234567000);
    EXPECT_EQ(fg::parseDuration("   "), -1);
    EXPECT_EQ(fg::parseDuration("461.167"), -2); // no unit
    EXPECT_EQ(fg::parseDuration("bash-12"), -2);
}

TEST(FuncGraphLine, TheDefaultColumns)
{
    fg::Line l = fg::parseLine("  10) ! 461.167 us  |  run_timer_softirq();");
    EXPECT_EQ(l.kind, fg::LineKind::Leaf);
    EXPECT_EQ(l.cpu, 10);
    EXPECT_EQ(l.durationNs, 461167);
    EXPECT_EQ(l.name, "run_timer_softirq");
    EXPECT_EQ(l.depth, 0);
    EXPECT_EQ(l.ts, INT64_MIN);

    l = fg::parseLine(" 0)               |    hrtimer_interrupt() {");
    EXPECT_EQ(l.kind, fg::LineKind::Entry);
    EXPECT_EQ(l.depth, 1);
    EXPECT_EQ(l.durationNs, -1);
    EXPECT_EQ(l.name, "hrtimer_interrupt");

    l = fg::parseLine(" 0) + 12.345 us   |    }");
    EXPECT_EQ(l.kind, fg::LineKind::Exit);
    EXPECT_EQ(l.depth, 1);
    EXPECT_EQ(l.durationNs, 12345);
    EXPECT_TRUE(l.name.empty());
}

TEST(FuncGraphLine, AbstimeProcLatencyTailAndRetval)
{
    fg::Line l = fg::parseLine(" 3715.395001 |   1)   bash-1234    |   0.118 us    |      getname();");
    EXPECT_EQ(l.kind, fg::LineKind::Leaf);
    EXPECT_EQ(l.ts, 3715395001000);
    EXPECT_EQ(l.cpu, 1);
    EXPECT_EQ(l.depth, 2);
    EXPECT_EQ(l.name, "getname");

    l = fg::parseLine(" 1)  <idle>-0    |  d..1  | ! 101.002 us  |  } /* tick_sched_timer */");
    EXPECT_EQ(l.kind, fg::LineKind::Exit);
    EXPECT_EQ(l.name, "tick_sched_timer");
    EXPECT_EQ(l.durationNs, 101002);

    l = fg::parseLine(" 2)   1.500 us    |  } /* __run_timers = 0x0 */");
    EXPECT_EQ(l.kind, fg::LineKind::Exit);
    EXPECT_EQ(l.name, "__run_timers");

    l = fg::parseLine(" 2)   0.300 us    |    ktime_get(); /* = 0x3a5f */");
    EXPECT_EQ(l.kind, fg::LineKind::Leaf);
    EXPECT_EQ(l.name, "ktime_get");
    EXPECT_EQ(l.durationNs, 300);
}

TEST(FuncGraphLine, MarkersSwitchesAndComments)
{
    EXPECT_EQ(fg::parseLine(" 0)   ==========> |").kind, fg::LineKind::IrqEnter);
    EXPECT_EQ(fg::parseLine(" 0)   <========== |").kind, fg::LineKind::IrqExit);
    EXPECT_EQ(fg::parseLine(" ------------------------------------------").kind, fg::LineKind::Other);
    const fg::Line sw = fg::parseLine(" 1)    <idle>-0    =>   bash-1234   ");
    EXPECT_EQ(sw.kind, fg::LineKind::Other);
    EXPECT_EQ(sw.proc, "bash-1234"); // the task on the CPU from then on
    // events among the calls: "name: fields", or a print's message alone
    const fg::Line printk = fg::parseLine(" 0)               |  /* hello from trace_printk */");
    EXPECT_EQ(printk.kind, fg::LineKind::Event);
    EXPECT_EQ(printk.name, "");
    EXPECT_EQ(printk.fields, "hello from trace_printk");
    const fg::Line ev = fg::parseLine(
        "   12.352432 |   1)    <idle>-0    |  d.h1. |               |  /* local_timer_entry: vector=236 */");
    EXPECT_EQ(ev.kind, fg::LineKind::Event);
    EXPECT_EQ(ev.ts, 12'352'432'000);
    EXPECT_EQ(ev.cpu, 1);
    EXPECT_EQ(ev.proc, "<idle>-0");
    EXPECT_EQ(ev.latency, "d.h1.");
    EXPECT_EQ(ev.name, "local_timer_entry");
    EXPECT_EQ(ev.fields, "vector=236");
    // a message that begins "word:" is a print; an event's name has an underscore or is a known one
    const fg::Line message = fg::parseLine(" 0)               |  /* tick: stopped now */");
    EXPECT_EQ(message.kind, fg::LineKind::Event);
    EXPECT_EQ(message.name, "");
    EXPECT_EQ(message.fields, "tick: stopped now");
    // funcgraph-duration off: the comment follows the columns and may hold "|" and "==>"
    const fg::Line sched =
        fg::parseLine("   12.351605 |   0)  /* sched_switch: prev_comm=a prev_pid=1 "
                      "prev_prio=120 prev_state=D|K ==> next_comm=b next_pid=2 next_prio=120 */");
    EXPECT_EQ(sched.kind, fg::LineKind::Event);
    EXPECT_EQ(sched.name, "sched_switch");
    EXPECT_EQ(sched.cpu, 0);
    const fg::Line piped = fg::parseLine("   12.351605 |   0)    bash-12    |  /* hello | world */");
    EXPECT_EQ(piped.kind, fg::LineKind::Event);
    EXPECT_EQ(piped.proc, "bash-12");
    EXPECT_EQ(piped.fields, "hello | world");
    // a switch to a task whose comm has "(" (systemd's "(udev-worker)", cut to 7)
    const fg::Line udev = fg::parseLine(" 0)    bash-1234    =>  (udev-w-5678");
    EXPECT_EQ(udev.kind, fg::LineKind::Other);
    EXPECT_EQ(udev.proc, "(udev-w-5678");
    EXPECT_EQ(fg::parseLine("The long latency is caused by the execution of run_timer_softirq.").kind,
              fg::LineKind::None);
    EXPECT_EQ(fg::parseLine("  10) ! 461.167").kind, fg::LineKind::None); // cut inside the duration
    const fg::Line noUnit = fg::parseLine("  10) ! 461.167  |  run_timer_softirq();");
    EXPECT_EQ(noUnit.kind, fg::LineKind::Leaf);
    EXPECT_TRUE(noUnit.badDuration);
}

TEST(FuncGraphLine, TraceCmdReportBodies)
{
    fg::Line l = fg::parseBody("       0.118 us   |    getname();", false, 5000);
    EXPECT_EQ(l.kind, fg::LineKind::Leaf);
    EXPECT_EQ(l.ts, 5000);
    EXPECT_EQ(l.durationNs, 118);
    EXPECT_EQ(l.depth, 1);
    l = fg::parseBody("|  do_sys_open() {", false, 5000);
    EXPECT_EQ(l.kind, fg::LineKind::Entry);
    EXPECT_EQ(l.depth, 0);
    l = fg::parseBody("1.234 us   |  }", true, 6234);
    EXPECT_EQ(l.kind, fg::LineKind::Exit);
    EXPECT_EQ(l.durationNs, 1234);
    // Without trace-cmd's plugin: the kernel's print format, calltime and rettime in hex.
    l = fg::parseBody("--> run_timer_softirq (1)", false, 100);
    EXPECT_EQ(l.kind, fg::LineKind::Entry);
    EXPECT_EQ(l.depth, 1);
    EXPECT_EQ(l.name, "run_timer_softirq");
    l = fg::parseBody("<-- run_timer_softirq (1) (start: 1000  end: 1100) over: 0", true, 200);
    EXPECT_EQ(l.kind, fg::LineKind::Exit);
    EXPECT_EQ(l.durationNs, 0x100);
}

TEST(FuncGraphImport, TheSeed002ExcerptGivesItsRunTimerSoftirqCalls)
{
    auto traces = importText(dataFile("text/seed002-run-timer-softirq.txt"), LoadOptions{});
    ASSERT_EQ(traces.size(), 1u);
    const Trace &t = *traces.front();
    EXPECT_EQ(t.meta.format, "function_graph text");
    EXPECT_EQ(t.eventCount(), 0u);
    EXPECT_TRUE(t.warnings.empty()) << t.warnings.front();
    ASSERT_EQ(t.cpuCount(), 14);
    EXPECT_EQ(t.functions.size(), 6u);
    auto maxOf = [](const std::vector<FunctionSpan> &v) {
        int64_t m = 0;
        for (const FunctionSpan &s : v)
            m = std::max(m, s.durationNs);
        return m;
    };
    const auto c10 = named(t, 10, "run_timer_softirq"), c12 = named(t, 12, "run_timer_softirq"),
               c13 = named(t, 13, "run_timer_softirq");
    ASSERT_EQ(c10.size(), 3u);
    EXPECT_EQ(maxOf(c10), 461167);
    ASSERT_EQ(c12.size(), 2u);
    EXPECT_EQ(maxOf(c12), 566923);
    ASSERT_EQ(c13.size(), 1u);
    EXPECT_EQ(c13[0].durationNs, 902);
    EXPECT_FALSE(c13[0].timed());
    EXPECT_EQ(c13[0].at, 1); // its place: the first line
}

TEST(FuncGraphImport, NestedCallsWithTimestampsAndAnInterrupt)
{
    const std::string text = "# tracer: function_graph\n"
                             "#\n"
                             "#     TIME        CPU  DURATION                  FUNCTION CALLS\n"
                             "#      |          |     |   |                     |   |   |   |\n"
                             "  100.000010 |   0)               |  do_idle() {\n"
                             "  100.000011 |   0)   0.500 us    |    tick_nohz_idle_enter();\n"
                             "  100.000020 |   0)   ==========> |\n"
                             "  100.000020 |   0)               |    hrtimer_interrupt() {\n"
                             "  100.000021 |   0)               |      __hrtimer_run_queues() {\n"
                             "  100.000022 |   0)   3.000 us    |        tick_sched_timer();\n"
                             "  100.000026 |   0)   5.000 us    |      }\n"
                             "  100.000027 |   0) + 10.000 us   |    }\n"
                             "  100.000030 |   0)   <========== |\n"
                             "  100.000100 |   0) + 90.000 us   |  } /* do_idle */\n"
                             "  100.000200 |   1)   2.000 us    |  run_timer_softirq();\n";
    const auto t = load("nested.txt", text);
    EXPECT_TRUE(t->warnings.empty()) << t->warnings.front();
    ASSERT_EQ(t->cpuCount(), 2);
    const auto &c0 = t->functions.cpus[0];
    ASSERT_EQ(c0.size(), 5u);
    // in the order they returned
    EXPECT_EQ(name(*t, c0[0]), "tick_nohz_idle_enter");
    EXPECT_EQ(name(*t, c0[1]), "tick_sched_timer");
    EXPECT_EQ(name(*t, c0[2]), "__hrtimer_run_queues");
    EXPECT_EQ(name(*t, c0[3]), "hrtimer_interrupt");
    EXPECT_EQ(name(*t, c0[4]), "do_idle");
    EXPECT_EQ(c0[3].start(), 100000020000);
    EXPECT_EQ(c0[3].durationNs, 10000);
    EXPECT_EQ(c0[3].depth, 1);
    EXPECT_EQ(c0[1].depth, 3);
    EXPECT_TRUE(c0[1].flags & FunctionSpan::InIrq);
    EXPECT_TRUE(c0[3].flags & FunctionSpan::InIrq);
    EXPECT_FALSE(c0[4].flags & FunctionSpan::InIrq);
    EXPECT_EQ(c0[4].start(), 100000010000);
    EXPECT_EQ(c0[4].durationNs, 90000);
    ASSERT_EQ(t->functions.cpus[1].size(), 1u);
    EXPECT_EQ(t->functions.cpus[1][0].start(), 100000200000);
}

TEST(FuncGraphImport, TraceCmdReportOfAFunctionGraphRecording)
{
    const std::string text =
        "cpus=2\n"
        "          <idle>-0     [001]   512.000100: funcgraph_entry:                   |  "
        "run_timer_softirq() {\n"
        "          <idle>-0     [001]   512.000101: funcgraph_entry:                   |    __run_timers() "
        "{\n"
        "          <idle>-0     [001]   512.000102: funcgraph_entry:      + 20.000 us   |      "
        "call_timer_fn();\n"
        "          <idle>-0     [001]   512.000400: funcgraph_exit:       ! 299.000 us  |    }\n"
        "          <idle>-0     [001]   512.000401: funcgraph_exit:       ! 301.000 us  |  }\n";
    const auto t = load("tc-report.txt", text);
    EXPECT_EQ(t->meta.format, "trace-cmd report text");
    EXPECT_TRUE(t->warnings.empty()) << t->warnings.front();
    const auto rts = named(*t, 1, "run_timer_softirq");
    ASSERT_EQ(rts.size(), 1u);
    EXPECT_EQ(rts[0].start(), 512000100000);
    EXPECT_EQ(rts[0].durationNs, 301000);
    const auto runTimers = named(*t, 1, "__run_timers");
    ASSERT_EQ(runTimers.size(), 1u);
    EXPECT_EQ(runTimers[0].depth, 1);
    EXPECT_EQ(named(*t, 1, "call_timer_fn").at(0).durationNs, 20000);
}

TEST(FuncGraphImport, DamagedPastesGiveWarningsNotCrashes)
{
    const std::string text = "  0)               |  outer() {\n"         // never returns
                             "  0)               |    inner() {\n"       // abandoned by the next line
                             "  0)   1.000 us    |  sibling();\n"        // depth 0: inner and outer left open
                             "  1)   2.000 us    |    }\n"               // a return with no call
                             "  1) ! 461.167  |  run_timer_softirq();\n" // no unit
                             "  2)   3.000 us    |  } /* named_by_tail */\n"
                             "  2)   4.00"; // cut, no newline
    const auto t = load("damaged.txt", text);
    EXPECT_EQ(t->functions.size(), 2u); // sibling, named_by_tail
    EXPECT_EQ(named(*t, 2, "named_by_tail").at(0).flags & FunctionSpan::NameFromTail,
              FunctionSpan::NameFromTail);
    EXPECT_TRUE(warns(*t, "never returned before a shallower call")) << ::testing::PrintToString(t->warnings);
    EXPECT_TRUE(warns(*t, "whose call is not in the trace")) << ::testing::PrintToString(t->warnings);
    EXPECT_TRUE(warns(*t, "a duration that is not")) << ::testing::PrintToString(t->warnings);
    EXPECT_TRUE(warns(*t, "no newline")) << ::testing::PrintToString(t->warnings);
}

TEST(FuncGraphImport, CallsOpenAtTheEndAreCounted)
{
    const auto t = load("open.txt", "  0)               |  outer() {\n  0)   1.000 us    |    leaf();\n");
    EXPECT_EQ(t->functions.size(), 1u);
    EXPECT_TRUE(warns(*t, "1 call had not returned when the trace ends"))
        << ::testing::PrintToString(t->warnings);
}

// ---- report ---------------------------------------------------------------------------------------------

namespace {

struct Call
{
    std::string name;
    int depth;
    int64_t durationNs;
    int64_t at;
    bool operator==(const Call &o) const
    {
        return name == o.name && depth == o.depth && durationNs == o.durationNs;
    }
};

std::vector<std::vector<Call>> calls(const Trace &t)
{
    std::vector<std::vector<Call>> out(t.functions.cpus.size());
    for (size_t c = 0; c < t.functions.cpus.size(); ++c)
        for (const FunctionSpan &s : t.functions.cpus[c])
            out[c].push_back({std::string(t.strings.str(s.name)), s.depth, s.durationNs, s.at});
    return out;
}

} // namespace

TEST(FuncGraphRealData, TheRecordingAndTheTracersTextGiveTheSameCalls)
{
    const std::string dat = dataFile("fgraph-timers.dat");
    auto datTraces = loadAll(dat, LoadOptions{});
    ASSERT_EQ(datTraces.size(), 1u);
    const auto fromDat = calls(*datTraces.front());
    auto plain = importText(dataFile("fgraph-timers.txt"), LoadOptions{});
    auto abstime = importText(dataFile("fgraph-timers-abstime.txt"), LoadOptions{});
    const auto fromText = calls(*plain.front()), fromAbstime = calls(*abstime.front());
    ASSERT_EQ(fromDat.size(), 2u);
    size_t total = 0;
    for (size_t c = 0; c < 2; ++c) {
        ASSERT_FALSE(fromDat[c].empty());
        total += fromDat[c].size();
        // Every call of the recording, in the order it returned, with its name, depth and duration.
        ASSERT_EQ(fromText.at(c).size(), fromDat[c].size()) << "CPU " << c;
        ASSERT_EQ(fromAbstime.at(c).size(), fromDat[c].size()) << "CPU " << c;
        for (size_t k = 0; k < fromDat[c].size(); ++k) {
            ASSERT_EQ(fromText[c][k], fromDat[c][k]) << "CPU " << c << " call " << k;
            ASSERT_EQ(fromAbstime[c][k], fromDat[c][k]) << "CPU " << c << " call " << k;
            // The tracer prints microseconds; its time and the entry record's may differ by one.
            ASSERT_LE(std::abs(fromAbstime[c][k].at - fromDat[c][k].at), 2000)
                << "CPU " << c << " call " << k;
        }
    }
    EXPECT_GT(total, 1000u);
}

// `trace-cmd report -N` prints the records as they are ("--> func (depth)", "<-- func (depth) (start:
// calltime end: rettime)"): the same calls as the recording, with the same start to the ns (-t).
TEST(FuncGraphRealData, TraceCmdReportOfTheRecordsGivesTheSameCalls)
{
    if (!test::haveTraceCmd()) GTEST_SKIP() << "trace-cmd is not installed (scripts/install-deps.sh --test)";
    const std::string dat = dataFile("fgraph-timers.dat");
    const auto r = test::run("trace-cmd report -N -t " + dat);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto report = load("fgraph-report-raw.txt", r.out);
    EXPECT_TRUE(report->warnings.empty()) << ::testing::PrintToString(report->warnings);
    const auto fromReport = calls(*report);
    const auto fromDat = calls(*loadAll(dat, LoadOptions{}).front());
    ASSERT_EQ(fromReport.size(), fromDat.size());
    for (size_t c = 0; c < fromDat.size(); ++c) {
        ASSERT_EQ(fromReport[c].size(), fromDat[c].size()) << "CPU " << c;
        for (size_t k = 0; k < fromDat[c].size(); ++k) {
            ASSERT_EQ(fromReport[c][k], fromDat[c][k]) << "CPU " << c << " call " << k;
            ASSERT_EQ(fromReport[c][k].at, fromDat[c][k].at) << "CPU " << c << " call " << k;
        }
    }
}

// With its function_graph plugin trace-cmd pairs an entry with the next return record to print a
// leaf, and on this recording it sometimes takes another CPU's return (CPU 1's tick_sched_handle()
// printed with CPU 0's 52.480 us, then CPU 1's own return as a stray "}"). tickscope reads what the
// report prints; all but those calls are the recording's, start included.
TEST(FuncGraphRealData, TraceCmdReportWithItsPluginGivesTheCallsItPrints)
{
    if (!test::haveTraceCmd()) GTEST_SKIP() << "trace-cmd is not installed (scripts/install-deps.sh --test)";
    const std::string dat = dataFile("fgraph-timers.dat");
    const auto r = test::run("trace-cmd report -t " + dat);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto fromReport = calls(*load("fgraph-report.txt", r.out));
    const auto fromDat = calls(*loadAll(dat, LoadOptions{}).front());
    ASSERT_EQ(fromReport.size(), fromDat.size());
    size_t same = 0, total = 0;
    for (size_t c = 0; c < fromDat.size(); ++c) {
        std::multiset<std::tuple<std::string, int, int64_t, int64_t>> recorded;
        for (const Call &k : fromDat[c])
            recorded.emplace(k.name, k.depth, k.durationNs, k.at);
        for (const Call &k : fromReport[c]) {
            ++total;
            same += recorded.count({k.name, k.depth, k.durationNs, k.at}) > 0;
        }
    }
    EXPECT_GT(total, 4000u);
    EXPECT_GE(same * 100, total * 99) << same << " of " << total;
}

// The tracer prints the events it records among the calls as comments ("/* local_timer_entry: vector=236
// */"): with funcgraph-abstime and -cpu they are the recording's events, at the tracer's microseconds (the
// trace.dat of the same recording has them in ns, and its function_graph records besides).
TEST(FuncGraphRealData, TheEventsAmongTheCallsAreTheRecordingsEvents)
{
    auto t = loadAll(dataFile("fgraph-timers-abstime.txt"), LoadOptions{});
    const Trace &tr = *t.front();
    EXPECT_EQ(tr.eventCount(), 1638u); // "/* name: ... */" lines in the file, and two print messages
    EXPECT_EQ(tr.meta.format, "function_graph text");
    const auto dat = loadAll(dataFile("fgraph-timers.dat"), LoadOptions{});
    const Trace &d = *dat.front();
    ASSERT_EQ(d.cpuCount(), tr.cpuCount());
    using Ev = std::tuple<int64_t, std::string, int32_t>; // (µs, name, pid)
    const auto events = [](const Trace &x, int c, int64_t from) {
        std::vector<Ev> out;
        const CpuEvents &ev = x.cpu(c);
        for (size_t i = 0; i < ev.size(); ++i) {
            const std::string &name = x.types()[ev.type(i)].name;
            if (name.starts_with("funcgraph_") || ev.ts(i) < from) continue;
            out.emplace_back(ev.ts(i) / 1000, name, ev.pid(i));
        }
        return out;
    };
    for (int c = 0; c < tr.cpuCount(); ++c) {
        const std::vector<Ev> text = events(tr, c, INT64_MIN);
        ASSERT_FALSE(text.empty()) << c;
        const std::vector<Ev> recorded = events(d, c, std::get<0>(text.front()) * 1000);
        ASSERT_EQ(text.size(), recorded.size()) << "CPU " << c;
        for (size_t k = 0; k < text.size(); ++k)
            ASSERT_EQ(text[k], recorded[k]) << "CPU " << c << " event " << k;
    }
    EXPECT_TRUE(tr.functions.timed());
    EXPECT_EQ(tr.startTs(), 12'351'604'000); // the first line's entry (the tracer's µs timestamps)
    EXPECT_GT(tr.endTs(), 13'000'000'000);
    // the dashes of its context-switch banners are not calls without a CPU
    for (const std::string &w : tr.warnings)
        EXPECT_EQ(w.find("no CPU column"), std::string::npos) << w;
}

// Without funcgraph-proc an event's task is the last context switch's on its CPU: before the first one it
// is not known (pid -1), and a warning counts those events instead of leaving the reader to wonder why the
// first ticks have no context.
TEST(FuncGraphImport, EventsBeforeTheFirstSwitchWithoutATaskColumnAreCounted)
{
    const std::string text =
        "# tracer: function_graph\n"
        "#\n"
        "    1.000100 |   0)               |  /* local_timer_entry: vector=236 */\n"
        "    1.000110 |   0)   0.500 us    |  ktime_get();\n"
        "    1.000120 |   0)               |  /* local_timer_exit: vector=236 */\n"
        " ------------------------------------------\n"
        "   0)    <idle>-0    =>   bash-1234   \n"
        " ------------------------------------------\n"
        "\n"
        "    1.000200 |   0)               |  /* sys_enter: NR 0 (3, 7ffc, 10, 0, 0, 0) */\n"
        "    1.000210 |   0)   0.300 us    |  ksys_read();\n";
    const auto t = load("fg-notask.txt", text);
    const CpuEvents &ev = t->cpu(0);
    ASSERT_EQ(ev.size(), 3u);
    EXPECT_EQ(ev.pid(0), -1);
    EXPECT_EQ(ev.pid(1), -1);
    EXPECT_EQ(ev.pid(2), 1234);
    EXPECT_TRUE(warns(*t, "2 events among the function_graph calls come before the first context switch"))
        << ::testing::PrintToString(t->warnings);
    // with the column, no such warning
    const auto withProc = loadAll(dataFile("fgraph-timers-abstime.txt"), LoadOptions{});
    EXPECT_FALSE(warns(*withProc.front(), "before the first context switch"))
        << ::testing::PrintToString(withProc.front()->warnings);
}

// `report --format mail`: the calls' figures for a review; a paste has no tick figures to quote.
