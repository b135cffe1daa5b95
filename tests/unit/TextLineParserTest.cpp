// SPDX-License-Identifier: GPL-3.0-or-later
// The ftrace text line parser on single lines: the tracefs and trace-cmd report event line forms, comms,
// timestamps, the flags column, instance and file prefixes, header, lost and other lines.
#include "import/TextLineParser.h"
#include "TextTestUtil.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tickscope {
namespace {

using namespace texttest;
using text::LineKind;
using text::parseLine;

// ---- single lines ---------------------------------------------------------------------------------------

text::ParsedLine eventLine(std::string_view line, const text::PrefixOracle *oracle = nullptr)
{
    text::ParsedLine p = parseLine(line, oracle);
    EXPECT_EQ(p.kind, LineKind::Event) << line;
    return p;
}

TEST(TextLineParser, TracefsEventLine)
{
    auto p = eventLine("          <idle>-0       [001] d.h1.  1234.567890: hrtimer_expire_entry: "
                       "hrtimer=000000005c3e1a2b function=tick_nohz_handler now=123456789");
    EXPECT_EQ(p.comm, "<idle>");
    EXPECT_EQ(val(p.pid), 0);
    EXPECT_EQ(val(p.cpu), 1);
    EXPECT_EQ(p.ts, 1234567890000);
    EXPECT_TRUE(p.hasFlags);
    EXPECT_EQ(val(p.flags), 0x01 | 0x08);
    EXPECT_EQ(p.preempt, 1);
    EXPECT_EQ(p.name, "hrtimer_expire_entry");
    EXPECT_EQ(p.fields, "hrtimer=000000005c3e1a2b function=tick_nohz_handler now=123456789");
    EXPECT_TRUE(p.prefix.empty());
}

TEST(TextLineParser, CommsWithSpacesDashesAndColons)
{
    auto a = eventLine("     Web Content-4567    [002] .....    10.000001: sys_exit: NR 0 = 1");
    EXPECT_EQ(a.comm, "Web Content");
    EXPECT_EQ(val(a.pid), 4567);
    EXPECT_EQ(val(a.cpu), 2);
    auto b = eventLine("  kworker/u4:2-123     [000] .....  1234.567890: sched_switch: prev_comm=x");
    EXPECT_EQ(b.comm, "kworker/u4:2");
    EXPECT_EQ(val(b.pid), 123);
    auto c = eventLine("    my-app:wrk-1-99      [000] .....    1.000000: sys_exit: NR 0 = 1");
    EXPECT_EQ(c.comm, "my-app:wrk-1");
    EXPECT_EQ(val(c.pid), 99);
    EXPECT_TRUE(c.prefix.empty());
    EXPECT_EQ(eventLine("           <...>-1234    [000] .....    1.000000: x: y").comm, "<...>");
    EXPECT_EQ(eventLine(" memfd:sealed-91-4838  [001]   242.341583: sched_wakeup_new: x").comm,
              "memfd:sealed-91");
}

TEST(TextLineParser, TgidColumn)
{
    auto a = eventLine("           sleep-6112    (   6112) [000] .....   407.061021: sys_exit: NR 9 = 1");
    EXPECT_EQ(a.comm, "sleep");
    EXPECT_EQ(val(a.pid), 6112);
    EXPECT_EQ(val(a.cpu), 0);
    auto b = eventLine("     Web Content-16235   (-------) [001] d..2.  1184.450202: sys_exit: NR 61 = 1");
    EXPECT_EQ(b.comm, "Web Content");
    EXPECT_EQ(val(b.pid), 16235);
    EXPECT_EQ(val(b.flags), 0x01);
    EXPECT_EQ(b.preempt, 2);
}

TEST(TextLineParser, Timestamps)
{
    int64_t ns = 0;
    ASSERT_TRUE(text::parseTimestamp("4.804849", ns));
    EXPECT_EQ(ns, 4804849000);
    ASSERT_TRUE(text::parseTimestamp("4.804849357", ns));
    EXPECT_EQ(ns, 4804849357);
    ASSERT_TRUE(text::parseTimestamp("123456.5", ns));
    EXPECT_EQ(ns, 123456500000000);
    ASSERT_TRUE(text::parseTimestamp("987654321", ns)); // counter clocks
    EXPECT_EQ(ns, 987654321);
    ASSERT_TRUE(text::parseTimestamp("9223372035.999999999", ns)); // the largest that fits
    EXPECT_EQ(ns, 9223372035999999999);
    EXPECT_FALSE(text::parseTimestamp("99999999999.0", ns));
    EXPECT_FALSE(text::parseTimestamp("1.2.3", ns));
    EXPECT_FALSE(text::parseTimestamp(".5", ns));
    EXPECT_FALSE(text::parseTimestamp("1.", ns));
    EXPECT_FALSE(text::parseTimestamp("", ns));
}

TEST(TextLineParser, FlagsColumn)
{
    struct Case
    {
        const char *tok;
        int flags;
        int preempt;
    };
    for (const Case &c : {Case{".....", 0, 0}, Case{"d.h1.", 0x09, 0x01},
                          Case{"dNs2.", 0x01 | 0x24 | 0x10, 2}, Case{"dnh1.", 0x01 | 0x04 | 0x08, 1},
                          Case{".Ns..", 0x24 | 0x10, 0}, Case{"D...", 0x81, 0}, Case{"b.z2", 0x80 | 0x40, 2},
                          Case{"XpZf3", 0x20 | 0x48, 0x3f}, Case{"dlH..", 0x01 | 0x02 | 0x18, 0},
                          Case{".L...", 0x22, 0}, Case{".b...", 0x06, 0}, Case{".B.a1", 0x26, 0x1a}}) {
        uint8_t flags = 0xff;
        uint8_t preempt = 0xff;
        ASSERT_TRUE(text::parseFlagsColumn(c.tok, flags, preempt)) << c.tok;
        EXPECT_EQ(flags, c.flags) << c.tok;
        EXPECT_EQ(preempt, c.preempt) << c.tok;
    }
    uint8_t f = 0;
    uint8_t p = 0;
    for (const char *bad : {"d.h", "d.h1..", "dQh1.", "d.q1.", "d.hg.", "[000]"})
        EXPECT_FALSE(text::parseFlagsColumn(bad, f, p)) << bad;
}

TEST(TextLineParser, NoIrqInfoColumn)
{
    auto p = eventLine("      capture.sh-6108    [000]    407.184770: sys_exit: NR 1 = 2");
    EXPECT_FALSE(p.hasFlags);
    EXPECT_EQ(val(p.flags), 0);
    EXPECT_EQ(p.comm, "capture.sh");
    EXPECT_EQ(p.ts, 407184770000);
}

TEST(TextLineParser, TraceCmdDefaultLatencyNanosecondAndDiffForms)
{
    auto d = eventLine("       trace-cmd-114   [000]     4.804849: sys_exit:             NR 1 = 1");
    EXPECT_EQ(d.ts, 4804849000);
    EXPECT_EQ(d.fields, "NR 1 = 1");
    EXPECT_FALSE(d.hasFlags);
    auto l = eventLine("trace-cm-114     0d.h1.     4.804849: sys_exit:             NR 1 = 1");
    EXPECT_EQ(l.comm, "trace-cm");
    EXPECT_EQ(val(l.pid), 114);
    EXPECT_EQ(val(l.cpu), 0);
    EXPECT_EQ(val(l.flags), 0x09);
    EXPECT_EQ(l.preempt, 1);
    EXPECT_TRUE(l.latencyColumns);
    // libtraceevent's 'N' is NEED_RESCHED alone
    EXPECT_EQ(eventLine("trace-cm-114     0dNh1.     4.804849: x: y").flags, 0x01 | 0x04 | 0x08);
    EXPECT_EQ(eventLine("kworker/-77     12d.h1.     4.804849: x: y").cpu, 12);
    EXPECT_EQ(eventLine("       trace-cmd-114   [000]     4.804849357: sys_exit: NR 1 = 1").ts, 4804849357);
    auto diff =
        eventLine("       trace-cmd-114   [000]     4.805693: (+844)   page_fault_user:      address=0x1");
    EXPECT_EQ(diff.name, "page_fault_user");
    EXPECT_EQ(diff.fields, "address=0x1");
    auto empty = eventLine("        workload-116   [001]     4.886982: user_enter:           ");
    EXPECT_EQ(empty.name, "user_enter");
    EXPECT_TRUE(empty.fields.empty());
}

struct SetOracle : text::PrefixOracle
{
    std::vector<std::string> names;
    bool known(std::string_view p) const override
    {
        return std::find(names.begin(), names.end(), p) != names.end();
    }
};

TEST(TextLineParser, InstanceAndFilePrefixes)
{
    auto a = eventLine("ceo_capture_6410:       capture.sh-6410  [000]   241.774198: ipi_send_cpu: cpu=1");
    EXPECT_EQ(a.prefix, "ceo_capture_6410");
    EXPECT_EQ(a.comm, "capture.sh");
    auto b =
        eventLine("ceo_capture_6410: capture.-6410    0d.h..   241.772983: local_timer_entry:    vector=236");
    EXPECT_EQ(b.prefix, "ceo_capture_6410");
    EXPECT_EQ(b.comm, "capture.");
    EXPECT_EQ(val(b.flags), 0x09);
    // `report -i A -i B` right-aligns file names: a prefix after spaces only when the importer knows it
    const char *multi = "  nohzfull-poll.dat:        trace-cmd-114   [000]     4.804849: sys_exit: NR 1 = 1";
    EXPECT_TRUE(eventLine(multi).prefix.empty());
    SetOracle oracle;
    oracle.names = {"nohzfull-poll.dat"};
    auto m = eventLine(multi, &oracle);
    EXPECT_EQ(m.prefix, "nohzfull-poll.dat");
    EXPECT_EQ(m.comm, "trace-cmd");
    auto h = parseLine("  nohzfull-poll.dat: cpus=2");
    EXPECT_EQ(h.kind, LineKind::CpusHeader);
    EXPECT_EQ(h.prefix, "nohzfull-poll.dat");
    EXPECT_EQ(h.cpus, 2);
}

TEST(TextLineParser, HeaderLostAndOtherLines)
{
    auto c = parseLine("# tracer: nop");
    EXPECT_EQ(c.kind, LineKind::Comment);
    EXPECT_TRUE(c.tracerHeader);
    EXPECT_EQ(parseLine("# entries-in-buffer/entries-written: 10617/10617   #P:2").cpus, 2);
    EXPECT_EQ(parseLine("##### CPU 1 buffer started ####").kind, LineKind::Comment);
    EXPECT_EQ(parseLine("cpus=4").cpus, 4);
    EXPECT_EQ(parseLine("CPU 3 is empty").kind, LineKind::CpuEmpty);
    struct Lost
    {
        const char *line;
        int cpu;
        uint64_t count;
        const char *prefix;
    };
    for (const Lost &l :
         {Lost{"CPU:1 [LOST 123 EVENTS]", 1, 123, ""}, Lost{"CPU:0 [123 EVENTS DROPPED]", 0, 123, ""},
          Lost{"CPU:0 [EVENTS DROPPED]", 0, 0, ""},
          Lost{"tickscope_rec_4796: CPU:12 [5144 EVENTS DROPPED]", 12, 5144, "tickscope_rec_4796"}}) {
        auto p = parseLine(l.line);
        EXPECT_EQ(p.kind, LineKind::Lost) << l.line;
        EXPECT_EQ(val(p.cpu), l.cpu);
        EXPECT_EQ(p.lostCount, l.count);
        EXPECT_EQ(p.prefix, l.prefix);
    }
    EXPECT_EQ(parseLine(" => tick_sched_timer").kind, LineKind::StackLine);
    EXPECT_EQ(parseLine("=> __hrtimer_run_queues (ffffffff8110c5d6)").kind, LineKind::StackLine);
    EXPECT_EQ(parseLine("   \r").kind, LineKind::Empty);
    EXPECT_EQ(parseLine("").kind, LineKind::Empty);
    for (const char *bad : {"hello world", "CPU:x [LOST 1 EVENTS]", "  [000] .....  1.000000: x: y",
                            "  bash-1 [000] .....  1.000000: has space: y", "  bash-1 [000] ..... 1.0:",
                            "  bash-x [000] .....  1.000000: x: y", "cpus=", "CPU is empty"})
        EXPECT_EQ(parseLine(bad).kind, LineKind::Bad) << bad;
    auto st = eventLine("          <idle>-0       [001] d.h1.  1.000000: <stack trace>");
    EXPECT_EQ(st.name, "stack_trace");
}

TEST(TextLineParser, CrlfAndTrailingBlanks)
{
    auto p = eventLine("  bash-1    [000] .....     1.000000: cpu_idle: state=1 cpu_id=0  \r");
    EXPECT_EQ(p.fields, "state=1 cpu_id=0");
}

} // namespace
} // namespace tickscope
