// SPDX-License-Identifier: GPL-3.0-or-later
// The ftrace text importer on whole files: real trace-cmd report text with lost events and instances, real
// tracefs text, and small written files (bad lines, CRLF, truncation, instances, lost ranges, ordering,
// undecodable events, the task table, progress and cancel).
#include "TextTestUtil.h"

#include "analysis/EventRoles.h"
#include "model/EventFormat.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace tickscope {
namespace {

using namespace texttest;

// ---- real trace-cmd report text -----------------------------------------------------------------------

TEST(TextImporterReal, TraceCmdLostEventsAndInstancePrefixes)
{
    // host-lost.dat: "inst: CPU:1 [5144 EVENTS DROPPED]" and the next record printed without its prefix
    const std::string lost = dataFile("host-lost.dat");
    ASSERT_TRUE(fs::exists(lost)) << "the committed fixture " << lost << " is missing";
    const std::string txt = report(lost, "");
    uint64_t dropped = 0;
    size_t lines = 0;
    std::ifstream in(txt);
    for (std::string line; std::getline(in, line);) {
        if (line.find("EVENTS DROPPED]") == std::string::npos) continue;
        ++lines;
        const std::string n = line.substr(line.rfind('[') + 1);
        dropped += std::isdigit(static_cast<unsigned char>(n[0])) ? std::stoull(n) : 0; // "[EVENTS DROPPED]"
    }
    auto t = loadOne(txt);
    ASSERT_TRUE(t);
    EXPECT_EQ(countTrace(*t), countText(txt));
    EXPECT_FALSE(t->meta.instance.empty());
    EXPECT_EQ(t->lostRangeCount(), lines);
    EXPECT_EQ(t->lostEventCount(), dropped);
    for (int c = 0; c < t->cpuCount(); ++c) {
        for (const LostRange &r : t->cpu(c).lost)
            EXPECT_LE(val(r.from), r.to);
    }
}

TEST(TextImporterReal, TraceCmdSeveralInstancesGiveOneTraceEach)
{
    const std::string dat = dataFile("host-instances.dat");
    ASSERT_TRUE(fs::exists(dat)) << "the committed fixture " << dat << " is missing";
    const std::string txt = report(dat, "");
    auto traces = importText(txt, {});
    ASSERT_EQ(traces.size(), 2u);
    size_t total = 0;
    for (const auto &t : traces) {
        EXPECT_EQ(t->meta.fileInstances.size(), 2u);
        EXPECT_FALSE(hasWarning(*t, "skipped"));
        total += t->eventCount();
    }
    size_t lines = 0;
    for (const auto &[key, n] : countText(txt))
        lines += key.first == -1 ? n : 0;
    EXPECT_EQ(total, lines);
    EXPECT_NE(traces[0]->meta.instance, traces[1]->meta.instance);
}

// ---- real tracefs text ----------------------------------------------------------------------------------

size_t eventLines(const std::string &path)
{
    size_t n = 0;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
        n += simpleParse(line).event;
    return n;
}

TEST(TextImporterReal, TracefsFilesParseWithoutWarnings)
{
    for (const char *name :
         {"host-trace.txt", "host-trace-pipe.txt", "text/tracefs-tgid.txt", "text/tracefs-noirqinfo.txt"}) {
        SCOPED_TRACE(name);
        const std::string path = dataFile(name);
        auto t = loadOne(path);
        ASSERT_TRUE(t);
        // the two small-buffer captures overwrote their oldest events (their headers say so), and only that
        const bool overwrote = std::string_view(name).starts_with("text/");
        ASSERT_EQ(t->warnings.size(), overwrote ? 1u : 0u)
            << (t->warnings.empty() ? "" : t->warnings.front());
        if (overwrote) {
            EXPECT_TRUE(hasWarning(*t, "the header says ")) << t->warnings.front();
        }
        EXPECT_EQ(t->meta.format, "ftrace text");
        EXPECT_EQ(t->eventCount(), eventLines(path));
        EXPECT_EQ(countTrace(*t), countText(path));
        EXPECT_FALSE(hasUnparsedType(*t));
        EXPECT_EQ(t->cpuCount(), 2);
    }
}

TEST(TextImporterReal, TracefsTgidColumnAndCommsWithSpaces)
{
    auto t = loadOne(dataFile("text/tracefs-tgid.txt"));
    ASSERT_TRUE(t);
    std::map<std::string, int32_t> pidOf;
    for (const auto &e : t->tasks.entries())
        pidOf[std::string(t->strings.str(e.comm))] = e.pid;
    ASSERT_TRUE(pidOf.count("Web Content"));
    ASSERT_TRUE(pidOf.count("my-app:wrk-1"));
    // the task column of the line names the pid that the event carries
    bool seen = false;
    for (int c = 0; c < t->cpuCount(); ++c) {
        for (size_t i = 0; i < t->cpu(c).size(); ++i)
            seen |= t->cpu(c).pid(i) == pidOf["Web Content"];
    }
    EXPECT_TRUE(seen);
    EXPECT_GT(t->findType("print"), -1) << "tracing_mark_write lines are print events";
    EXPECT_EQ(t->kind(static_cast<uint16_t>(t->findType("print"))), EventKind::Print);
}

TEST(TextImporterReal, TracefsNoIrqInfoHasNoFlags)
{
    auto t = loadOne(dataFile("text/tracefs-noirqinfo.txt"));
    ASSERT_TRUE(t);
    for (int c = 0; c < t->cpuCount(); ++c) {
        for (size_t i = 0; i < t->cpu(c).size(); ++i)
            ASSERT_EQ(t->cpu(c).flags(i), 0);
    }
}

TEST(TextImporterReal, TracefsLostEventLinesBecomeLostRanges)
{
    const std::string path = dataFile("text/tracefs-pipe-lost.txt");
    auto t = loadOne(path);
    ASSERT_TRUE(t);
    EXPECT_TRUE(t->warnings.empty());
    EXPECT_EQ(t->lostRangeCount(), 3u);
    EXPECT_EQ(t->lostEventCount(), 523u + 3900u + 84u);
    ASSERT_EQ(t->cpu(1).lost.size(), 1u);
    // "CPU:1 [LOST 523 EVENTS]" is the first line: nothing before it, so the gap is just its end
    EXPECT_EQ(t->cpu(1).lost[0].from, t->cpu(1).ts(0));
    EXPECT_EQ(t->cpu(1).lost[0].to, t->cpu(1).ts(0));
    ASSERT_EQ(t->cpu(0).lost.size(), 2u);
    for (const LostRange &r : t->cpu(0).lost) {
        const size_t after = t->cpu(0).lowerBound(r.to);
        ASSERT_LT(after, t->cpu(0).size());
        EXPECT_EQ(t->cpu(0).ts(after), r.to) << "to = the first event after the gap";
        // from = the last event before it; == to when the gap opens the CPU's data
        EXPECT_EQ(after ? t->cpu(0).ts(after - 1) : r.to, r.from);
    }
    EXPECT_LT(t->cpu(0).lost[1].from, t->cpu(0).lost[1].to);
}

// ---- whole files ----------------------------------------------------------------------------------------

const std::string kA = "            bash-100     [000] d.h1.     1.000001: local_timer_entry: vector=236\n";
const std::string kB = "            bash-100     [000] d.h1.     1.000002: local_timer_exit: vector=236\n";
const std::string kC = "          <idle>-0       [001] .....     1.000003: cpu_idle: state=1 cpu_id=1\n";

TEST(TextImporter, GarbageLinesAreSkippedWithOneWarning)
{
    auto t = loadOne(
        writeFile("garbage.txt", kA + "this is not a trace line\n" + kB + std::string("\x01\x02\n") + kC));
    ASSERT_TRUE(t);
    EXPECT_EQ(t->eventCount(), 3u);
    ASSERT_EQ(t->warnings.size(), 1u);
    EXPECT_EQ(t->warnings[0], "skipped 2 unparsable lines (first at line 2: \"this is not a trace line\")");
}

TEST(TextImporter, FilesWithoutEventsThrow)
{
    std::mt19937 rng(42);
    std::string noise(size_t{64} * 1024, '\0');
    for (char &c : noise)
        c = static_cast<char>(rng());
    for (const auto &[name, content] : {std::pair<std::string, std::string>{"empty.txt", ""},
                                        {"noise.bin", noise},
                                        {"headers.txt", "# tracer: nop\n#\n\n"},
                                        {"words.txt", "hello\nworld\n"}}) {
        const std::string path = writeFile(name, content);
        try {
            importText(path, {});
            ADD_FAILURE() << name << " loaded";
        } catch (const LoadError &e) {
            EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
        }
    }
    const std::string noisePath = (tmpDir() / "noise.bin").string();
    EXPECT_THROW(importText(noisePath, {}), LoadError);
    try {
        importText(noisePath, {});
    } catch (const LoadError &e) {
        EXPECT_EQ(std::string(e.what()),
                  noisePath + ": no ftrace events found (not a trace.dat or ftrace text file)");
    }
    EXPECT_THROW(importText(tmpDir().string(), {}), LoadError);
    EXPECT_THROW(importText((tmpDir() / "missing.txt").string(), {}), LoadError);
}

TEST(TextImporter, CrlfLineEndings)
{
    std::string crlf;
    for (const std::string &l : {kA, kB, kC})
        crlf += l.substr(0, l.size() - 1) + "\r\n";
    auto a = loadOne(writeFile("lf.txt", kA + kB + kC));
    auto b = loadOne(writeFile("crlf.txt", crlf));
    ASSERT_TRUE(a && b);
    EXPECT_TRUE(b->warnings.empty());
    ASSERT_EQ(b->eventCount(), 3u);
    for (int c = 0; c < 2; ++c) {
        for (size_t i = 0; i < a->cpu(c).size(); ++i)
            EXPECT_EQ(describe(*b, c, i), describe(*a, c, i));
    }
}

TEST(TextImporter, LastLineWithoutNewlineIsTreatedAsTruncated)
{
    auto t = loadOne(writeFile("cut.txt", kA + kB + kC.substr(0, 60)));
    ASSERT_TRUE(t);
    EXPECT_EQ(t->eventCount(), 2u);
    ASSERT_EQ(t->warnings.size(), 1u);
    EXPECT_TRUE(hasWarning(*t, "skipped the last line: it has no newline")) << t->warnings[0];
    // a file of one line without a newline (pasted by hand) still loads
    auto one = loadOne(writeFile("one.txt", kA.substr(0, kA.size() - 1)));
    ASSERT_TRUE(one);
    EXPECT_EQ(one->eventCount(), 1u);
    EXPECT_TRUE(one->warnings.empty());
}

TEST(TextImporter, LongLinesAndNulBytesDoNotHurt)
{
    const std::string big(1 << 20, 'x');
    std::string colons;
    for (int i = 0; i < 200000; ++i)
        colons += " 1: ";
    const std::string nul("  bash-1 [000] .....  1.0\0: x: y\n", 33);
    const std::string longEvent =
        "            bash-100     [000] .....     1.000004: print: tracing_mark_write: " +
        std::string(1 << 20, 'm') + "\n";
    auto t = loadOne(writeFile("long.txt", kA + big + "\n" + colons + "\n" + nul + longEvent + kB));
    ASSERT_TRUE(t);
    EXPECT_EQ(t->eventCount(), 3u);
    EXPECT_TRUE(hasWarning(*t, "skipped 3 unparsable lines"));
    const int print = t->findType("print");
    ASSERT_GE(print, 0);
    EXPECT_EQ(t->strings.str(t->cpu(0).payload<TextP>(2).text).size(), size_t{1} << 20);
}

TEST(TextImporter, InstancesLostEventsAndDroppedPrefixCarry)
{
    const std::string txt = "version = 6\n"
                            "cpus=2\n"
                            "a:            bash-10    [000]     1.000001: sys_exit:             NR 1 = 1\n"
                            "b:            bash-11    [001]     1.000002: sys_exit:             NR 1 = 1\n"
                            "a: CPU:1 [7 EVENTS DROPPED]\n"
                            "            bash-12    [001]     1.000003: sys_exit:             NR 1 = 1\n"
                            "            bash-13    [000]     1.000004: sys_exit:             NR 1 = 1\n"
                            "CPU:0 [EVENTS DROPPED]\n"
                            "            bash-13    [000]     1.000005: sys_exit:             NR 1 = 1\n";
    auto traces = importText(writeFile("instances.txt", txt), {});
    ASSERT_EQ(traces.size(), 3u);
    EXPECT_EQ(traces[0]->meta.instance, "");
    EXPECT_EQ(traces[1]->meta.instance, "a");
    EXPECT_EQ(traces[2]->meta.instance, "b");
    for (const auto &t : traces) {
        EXPECT_EQ(t->meta.fileInstances, (std::vector<std::string>{"", "a", "b"}));
        EXPECT_EQ(t->meta.format, "trace-cmd report text");
        EXPECT_EQ(t->cpuCount(), 2);
        EXPECT_TRUE(t->warnings.empty()) << t->warnings.front();
    }
    const Trace &a = *traces[1];
    ASSERT_EQ(a.eventCount(), 2u);
    ASSERT_EQ(a.cpu(1).lost.size(), 1u);
    EXPECT_EQ(a.cpu(1).lost[0].count, 7u);
    EXPECT_EQ(a.cpu(1).lost[0].from, 1000003000) << "no earlier event on CPU 1: from == to";
    EXPECT_EQ(a.cpu(1).lost[0].to, 1000003000);
    EXPECT_EQ(a.cpu(1).pid(0), 12);
    const Trace &top = *traces[0];
    ASSERT_EQ(top.cpu(0).lost.size(), 1u);
    EXPECT_EQ(top.cpu(0).lost[0].from, 1000004000);
    EXPECT_EQ(top.cpu(0).lost[0].to, 1000005000);
    EXPECT_EQ(top.cpu(0).lost[0].count, 0u);
}

// The syscalls events (real tracefs text, tests/data/text/tracefs-syscalls.txt) print no event name:
// "sys_openat(dfd: ...)" is syscalls:sys_enter_openat and "sys_openat -> 0x3" sys_exit_openat, and both
// tell the analysis a task's user/kernel mode as raw_syscalls do.
TEST(TextImporter, SyscallsEventsWithoutTheirNames)
{
    auto t = loadOne(dataFile("text/tracefs-syscalls.txt"));
    ASSERT_TRUE(t);
    EXPECT_TRUE(t->warnings.empty()) << t->warnings.front();
    const int enter = t->findType("sys_enter_openat"), exit = t->findType("sys_exit_openat");
    ASSERT_GE(enter, 0);
    ASSERT_GE(exit, 0);
    size_t enters = 0, exits = 0, switches = 0;
    for (int c = 0; c < t->cpuCount(); ++c) {
        const CpuEvents &ev = t->cpu(c);
        for (size_t i = 0; i < ev.size(); ++i) {
            enters += ev.type(i) == enter;
            exits += ev.type(i) == exit;
            switches += t->kind(ev.type(i)) == EventKind::SchedSwitch;
            if (ev.type(i) == exit) {
                EXPECT_EQ(formatEventFields(*t, c, i).substr(0, 5), "-> 0x");
            }
        }
    }
    EXPECT_EQ(enters, 130u);
    EXPECT_EQ(exits, 129u);
    EXPECT_EQ(switches, 43u);
    const EventRoles roles(*t);
    EXPECT_TRUE(roles.recorded(Role::SysEnter));
    EXPECT_TRUE(roles.recorded(Role::SysExit));
}

// tracefs' `# entries-in-buffer/entries-written: A/B` header against the text: a ring buffer that
// overwrote its oldest events (B > A, a real capture with a 24 KB buffer), and a paste cut short.
TEST(TextImporter, EntriesHeaderSaysWhatIsMissing)
{
    auto over = loadOne(dataFile("text/tracefs-noirqinfo.txt"));
    ASSERT_TRUE(over);
    EXPECT_TRUE(hasWarning(*over, "the header says 5839 events were written and 1239 were in the buffer: the "
                                  "ring buffer overwrote the 4600 oldest"))
        << over->warnings.size();
    EXPECT_FALSE(hasWarning(*over, "lines were cut"));
    std::ifstream in(dataFile("host-trace.txt"));
    std::string cut, line;
    for (int k = 0; k < 2000 && std::getline(in, line); ++k)
        cut += line + "\n";
    auto part = loadOne(writeFile("cut.txt", cut));
    ASSERT_TRUE(part);
    EXPECT_TRUE(hasWarning(*part, "the header counts 5291 entries and the text holds 1988 event lines"));
    auto whole = loadOne(dataFile("host-trace.txt"));
    ASSERT_TRUE(whole);
    EXPECT_TRUE(whole->warnings.empty()) << whole->warnings.front();
}

TEST(TextImporter, LostAtTheEndAndCpuCounts)
{
    auto t =
        loadOne(writeFile("lostend.txt", "# tracer: nop\n"
                                         "# entries-in-buffer/entries-written: 2/9   #P:8\n" +
                                             kA + "CPU:0 [LOST 4 EVENTS]\nCPU:0 [LOST 3 EVENTS]\n" + kC));
    ASSERT_TRUE(t);
    EXPECT_EQ(t->cpuCount(), 8);
    EXPECT_EQ(t->meta.cpuCount, 8);
    EXPECT_EQ(t->meta.format, "ftrace text");
    ASSERT_EQ(t->cpu(0).lost.size(), 1u);
    EXPECT_EQ(t->cpu(0).lost[0].count, 7u);
    EXPECT_EQ(t->cpu(0).lost[0].from, 1000001000);
    EXPECT_EQ(t->cpu(0).lost[0].to, 1000003000) << "no later event on CPU 0: the end of the trace";
    auto big = loadOne(writeFile("bigcpu.txt", kA + "     bash-1    [99999] .....     1.000001: x: y\n"));
    ASSERT_TRUE(big);
    EXPECT_EQ(big->cpuCount(), 1);
    EXPECT_TRUE(hasWarning(*big, "skipped 1 unparsable line "));
}

TEST(TextImporter, OutOfOrderEventsAreSorted)
{
    auto t = loadOne(writeFile("order.txt", kB + kA + kC));
    ASSERT_TRUE(t);
    ASSERT_EQ(t->cpu(0).size(), 2u);
    EXPECT_TRUE(t->cpu(0).sorted());
    EXPECT_LT(t->cpu(0).ts(0), t->cpu(0).ts(1));
    EXPECT_EQ(t->types()[t->cpu(0).type(0)].name, "local_timer_entry");
}

TEST(TextImporter, UndecodableKnownEventsStayAsGeneric)
{
    auto t = loadOne(
        writeFile("undecodable.txt", kA + "   bash-1  [000] .....  1.000002: hrtimer_start: hrtimer=zz\n"));
    ASSERT_TRUE(t);
    ASSERT_EQ(t->eventCount(), 2u);
    const EventType &ty = t->types()[t->cpu(0).type(1)];
    EXPECT_EQ(ty.system, "unparsed");
    EXPECT_EQ(ty.name, "hrtimer_start");
    EXPECT_EQ(ty.kind, EventKind::Generic);
    EXPECT_EQ(t->strings.str(t->cpu(0).payload<TextP>(1).text), "hrtimer=zz");
    EXPECT_EQ(t->kind(static_cast<uint16_t>(t->findType("hrtimer_start"))), EventKind::HrtimerStart);
    ASSERT_EQ(t->warnings.size(), 1u);
    EXPECT_TRUE(hasWarning(*t, "1 events of known types could not be decoded and were kept as generic events "
                               "(hrtimer_start 1; first at line 2:"))
        << t->warnings[0];
}

TEST(TextImporter, TaskTableFromCommColumnAndSchedFields)
{
    const std::string txt =
        "          <idle>-0       [000] d..2.     1.000001: sched_switch: prev_comm=swapper/0 prev_pid=0 "
        "prev_prio=120 prev_state=R ==> next_comm=kworker/u4:2 next_pid=123 next_prio=120\n"
        "    kworker/u4:2-123     [000] d..2.     1.000002: sched_waking: comm=Web Content pid=4567 prio=120 "
        "target_cpu=001\n"
        "           <...>-4567    [001] .....     1.000003: sys_exit: NR 0 = 1\n"
        "             cat-4567    [001] .....     1.000004: sys_exit: NR 0 = 1\n";
    auto t = loadOne(writeFile("tasks.txt", txt));
    ASSERT_TRUE(t);
    auto comm = [&](int32_t pid, int64_t ts) { return std::string(t->strings.str(t->tasks.comm(pid, ts))); };
    EXPECT_EQ(comm(123, 1000002000), "kworker/u4:2");
    EXPECT_EQ(comm(4567, 1000002000), "Web Content");
    EXPECT_EQ(comm(4567, 1000003000), "Web Content") << "<...> is no name";
    EXPECT_EQ(comm(4567, 1000004000), "cat");
    EXPECT_EQ(comm(0, 1000001000), "swapper/0");
}

TEST(TextImporter, ProgressAndCancel)
{
    std::string txt;
    for (int i = 0; i < 40000; ++i) {
        char line[128];
        std::snprintf(line, sizeof line,
                      "            bash-100     [000] .....   %6d.%06d: cpu_idle: state=1 cpu_id=0\n",
                      1 + i / 1000000, i % 1000000);
        txt += line;
    }
    const std::string path = writeFile("progress.txt", txt);
    std::vector<double> seen;
    LoadOptions opt;
    opt.progress = [&](double f) { seen.push_back(f); };
    auto t = loadOne(path, opt);
    ASSERT_TRUE(t);
    EXPECT_EQ(t->eventCount(), 40000u);
    ASSERT_GE(seen.size(), 3u);
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    EXPECT_EQ(seen.back(), 1.0);
    std::atomic<bool> cancel{true};
    LoadOptions stop;
    stop.cancel = &cancel;
    EXPECT_THROW(importText(path, stop), LoadCancelled);
    // set while the load runs (from its first progress report, as the GUI's Cancel does): it stops at the
    // next check, before another report, instead of reading the rest of the file
    std::atomic<bool> midway{false};
    std::vector<double> before;
    LoadOptions during;
    during.cancel = &midway;
    during.progress = [&](double f) {
        before.push_back(f);
        midway = true;
    };
    EXPECT_THROW(importText(path, during), LoadCancelled);
    ASSERT_EQ(before.size(), 1u);
    EXPECT_EQ(before.front(), seen.front());
    EXPECT_LT(before.front(), 1.0);
}

} // namespace
} // namespace tickscope
