// SPDX-License-Identifier: GPL-3.0-or-later
// The event-kind table: every built-in kind prints what the text decoder reads back, on every event of the
// real fixtures; and a kind added here, through the public table only, decodes from a trace.dat (with a
// renamed field found by its alias) and from text, prints, and survives the simulator's text writer.
#include "TestUtil.h"
#include "TinyDat.h"

#include "import/Loader.h"
#include "model/EventFormat.h"
#include "model/EventKinds.h"
#include "sim/TextWriter.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

using namespace tickscope;
using namespace tickscope::test;
namespace fs = std::filesystem;

namespace {

// ---- every built-in kind: print -> text decode gives the same payload ----------------------------------

void expectPrintDecodesBack(const Trace &t, const std::string &file)
{
    StringPool &strings = const_cast<Trace &>(t).strings; // interning an existing string returns its id
    size_t checked = 0;
    for (int c = 0; c < t.cpuCount(); ++c) {
        const CpuEvents &ev = t.cpu(c);
        for (size_t i = 0; i < ev.size(); ++i) {
            const EventKind k = t.kind(ev.type(i));
            if (k == EventKind::Generic) continue;
            const std::string text = formatEventFields(t, c, i);
            Decoded d;
            ASSERT_TRUE(kinds::decodeText(k, text, strings, d, !kinds::spec(k).textName.empty()))
                << file << " cpu " << c << " event " << i << ": " << text;
            ASSERT_EQ(d.size, payloadSize(k)) << text;
            ASSERT_EQ(std::memcmp(d.payload, ev.payloadBytes(i), d.size), 0) << file << ": " << text;
            for (int n = 0; n < d.taskCount; ++n) {
                const std::string_view known = t.strings.str(t.tasks.comm(d.tasks[n].pid, ev.ts(i)));
                if (!known.empty()) {
                    ASSERT_EQ(d.tasks[n].comm, known) << text;
                }
            }
            ++checked;
        }
    }
    EXPECT_GT(checked, 100u) << file;
}

TEST(EventKindTable, EveryKindPrintsWhatTheTextDecoderReadsBack)
{
    for (const char *f : {"host-6.18-cyclictest.dat", "host-6.18-idle.dat", "host-cyclic-v6.dat",
                          "host-sleep.dat", "nohzfull-poll.dat", "nohzfull-nopoll.dat", "host-trace.txt"}) {
        for (const auto &t : loadAll(dataPath(f)))
            expectPrintDecodesBack(*t, f);
    }
}

// (ModelTest's KindsFromNames covers names, older names and the vector patterns.)
TEST(EventKindTable, EntriesAreConsistent)
{
    EXPECT_EQ(kindForEvent("sched", "hrtimer_start"), EventKind::Generic); // the system must match
    EXPECT_EQ(kindForEvent("", "unknown_exit"), EventKind::Generic);
    EXPECT_EQ(kindName(EventKind::HrtimerInit), "hrtimer_init");
    for (size_t k = 0; k < kinds::count(); ++k) {
        const KindSpec &s = kinds::spec(static_cast<EventKind>(k));
        for (const FieldSpec &f : s.fields)
            EXPECT_LE(f.at.offset + f.at.size, s.payloadSize) << s.name() << "." << f.name;
    }
}

// ---- a kind added by the test ---------------------------------------------------------------------------

#pragma pack(push, 1)
struct ProbeP
{
    uint64_t addr;
    int32_t delta;
    uint16_t level;
    uint32_t function;
    uint32_t label;
};
#pragma pack(pop)

constexpr FieldSpec kProbeFields[] = {
    value("addr", TS_AT(ProbeP, addr), &codecs::pointer), value("delta", TS_AT(ProbeP, delta)),
    value("level", TS_AT(ProbeP, level)).alias("lvl"), // older kernels call it lvl
    symbol("function", TS_AT(ProbeP, function)),          string("label", TS_AT(ProbeP, label)).with(kTail),
};

EventKind probeKind()
{
    static const EventKind k = kinds::add(
        KindSpec{EventKind::Generic, "tickscope_test", "probe_tick", sizeof(ProbeP), kProbeFields});
    return k;
}

ProbeP probe(const Trace &t, int cpu, size_t i)
{
    return t.cpu(cpu).payload<ProbeP>(i);
}

// The probes of a trace, as (cpu, index), in time order.
std::vector<std::pair<int, size_t>> probes(const Trace &t)
{
    std::vector<std::pair<int, size_t>> out;
    for (int c = 0; c < t.cpuCount(); ++c) {
        for (size_t i = 0; i < t.cpu(c).size(); ++i) {
            if (t.kind(t.cpu(c).type(i)) == probeKind()) out.emplace_back(c, i);
        }
    }
    std::sort(out.begin(), out.end(),
              [&](auto a, auto b) { return t.cpu(a.first).ts(a.second) < t.cpu(b.first).ts(b.second); });
    return out;
}

TEST(EventKindTable, AnAddedKindDecodesFromText)
{
    const EventKind k = probeKind();
    EXPECT_GE(static_cast<size_t>(k), static_cast<size_t>(EventKind::Count));
    EXPECT_EQ(kindForEvent("tickscope_test", "probe_tick"), k);
    EXPECT_EQ(kindForEvent("", "probe_tick"), k);
    EXPECT_EQ(payloadSize(k), sizeof(ProbeP));

    const fs::path dir = tempDir();
    const fs::path in = dir / "probe.txt";
    std::ofstream(in)
        << "# tracer: nop\n#\n"
           "          <idle>-0       [001] d.h1.    10.000001000: probe_tick: addr=ffff888100a0 "
           "delta=-7 level=3 function=tick_nohz_handler+0x0/0x50 label=first probe\n"
           "             cat-42      [000] .....    10.000002000: probe_tick: addr=(null) delta=12 "
           "lvl=65535 function=hrtimer_wakeup label=x\n"
           "             cat-42      [000] .....    10.000003000: probe_tick: addr=1 delta=1\n";
    const auto t = loadTrace(in.string());
    const auto p = probes(*t);
    ASSERT_EQ(p.size(), 2u); // the third line lacks required fields: kept as an unparsed event
    ProbeP a = probe(*t, p[0].first, p[0].second);
    EXPECT_EQ(a.addr, 0xffff888100a0u);
    EXPECT_EQ(a.delta, -7);
    EXPECT_EQ(a.level, 3);
    EXPECT_EQ(t->strings.str(a.function), "tick_nohz_handler");
    EXPECT_EQ(t->strings.str(a.label), "first probe");
    ProbeP b = probe(*t, p[1].first, p[1].second);
    EXPECT_EQ(b.addr, 0u);
    EXPECT_EQ(b.level, 65535); // found by its alias
    EXPECT_EQ(formatEventFields(*t, p[0].first, p[0].second),
              "addr=0000ffff888100a0 delta=-7 level=3 function=tick_nohz_handler label=first probe");

    // written back by the simulator's writer and read again: the same payloads
    const fs::path out = dir / "probe-again.txt";
    sim::writeFtraceText(*t, out.string());
    const auto again = loadTrace(out.string());
    const auto q = probes(*again);
    ASSERT_EQ(q.size(), 2u);
    for (size_t n = 0; n < q.size(); ++n)
        EXPECT_EQ(formatEventFields(*again, q[n].first, q[n].second),
                  formatEventFields(*t, p[n].first, p[n].second));
}

// A v6 trace.dat: a real file's header page and timer formats, plus the probe's format (with the older
// field name lvl) and one CPU page of probe records written here.
std::string probeDat()
{
    TinyDat t = TinyDat::fromFile(dataPath("nohzfull-poll.dat"), 1, {"timer"});
    t.layout.formats.push_back({"tickscope_test",
                                "name: probe_tick\nID: 4242\nformat:\n"
                                "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
                                "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
                                "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
                                "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
                                "\tfield:void * addr;\toffset:8;\tsize:8;\tsigned:0;\n"
                                "\tfield:int delta;\toffset:16;\tsize:4;\tsigned:1;\n"
                                "\tfield:unsigned short lvl;\toffset:20;\tsize:2;\tsigned:0;\n"
                                "\tfield:void * function;\toffset:24;\tsize:8;\tsigned:0;\n"
                                "\tfield:__data_loc char[] label;\toffset:32;\tsize:4;\tsigned:0;\n\n"
                                "print fmt: \"addr=%p delta=%d level=%u function=%ps label=%s\", REC->addr, "
                                "REC->delta, REC->lvl, REC->function, __get_str(label)\n",
                                4242});
    const uint32_t pageSize = t.layout.pageSize;
    std::vector<uint8_t> page(pageSize, 0);
    size_t at = 16; // u64 timestamp, u64 commit
    const uint64_t base = 20'000'000'000;
    std::memcpy(page.data(), &base, 8);
    const auto record = [&](uint32_t delta, int32_t pid, uint64_t addr, int32_t d, uint16_t lvl, uint64_t fn,
                            const std::string &label) {
        uint8_t r[64] = {};
        const uint16_t type = 4242;
        std::memcpy(r, &type, 2);
        std::memcpy(r + 4, &pid, 4);
        std::memcpy(r + 8, &addr, 8);
        std::memcpy(r + 16, &d, 4);
        std::memcpy(r + 20, &lvl, 2);
        std::memcpy(r + 24, &fn, 8);
        const uint32_t loc = (static_cast<uint32_t>(label.size() + 1) << 16) | 36u;
        std::memcpy(r + 32, &loc, 4);
        std::memcpy(r + 36, label.c_str(), label.size() + 1);
        const uint32_t len = (36 + static_cast<uint32_t>(label.size()) + 1 + 3) & ~3u;
        const uint32_t header = (len / 4) | (delta << 5); // type_len = data words, then the time delta
        std::memcpy(page.data() + at, &header, 4);
        std::memcpy(page.data() + at + 4, r, len);
        at += 4 + len;
    };
    record(1000, 7, 0xffff888100a0, -7, 3, 0xffffffff81234560, "first probe");
    record(2500, 8, 0, 12, 65535, 0, "x");
    const uint64_t commit = at - 16;
    std::memcpy(page.data() + 8, &commit, 8);
    t.pages[0] = page;
    for (size_t c = 1; c < t.pages.size(); ++c)
        t.pages[c].clear();
    return t.write6();
}

TEST(EventKindTable, AnAddedKindDecodesFromTraceDatAndRoundTripsThroughText)
{
    const EventKind k = probeKind();
    const fs::path dir = tempDir();
    const fs::path dat = dir / "probe.dat";
    std::ofstream(dat, std::ios::binary) << probeDat();
    for (const bool recordApi : {false, true}) {
        LoadOptions opt;
        opt.recordApi = recordApi;
        const auto t = loadTrace(dat.string(), opt);
        const auto p = probes(*t);
        ASSERT_EQ(p.size(), 2u) << "record API " << recordApi;
        EXPECT_EQ(t->kind(t->cpu(p[0].first).type(p[0].second)), k);
        const ProbeP a = probe(*t, p[0].first, p[0].second);
        EXPECT_EQ(a.addr, 0xffff888100a0u);
        EXPECT_EQ(a.delta, -7);
        EXPECT_EQ(a.level, 3);                                       // the format's lvl, found by the alias
        EXPECT_EQ(t->strings.str(a.function), "0xffffffff81234560"); // the file has no symbols
        EXPECT_EQ(t->strings.str(a.label), "first probe");
        EXPECT_EQ(t->cpu(p[0].first).pid(p[0].second), 7);
        EXPECT_EQ(t->cpu(p[0].first).ts(p[0].second), 20'000'001'000);
        EXPECT_EQ(probe(*t, p[1].first, p[1].second).level, 65535);
        EXPECT_EQ(t->cpu(p[1].first).ts(p[1].second), 20'000'003'500);

        // trace.dat -> text -> model: the same payload bytes for the probes
        const fs::path txt = dir / "probe-from-dat.txt";
        sim::writeFtraceText(*t, txt.string());
        const auto back = loadTrace(txt.string());
        const auto q = probes(*back);
        ASSERT_EQ(q.size(), 2u);
        for (size_t n = 0; n < 2; ++n) {
            EXPECT_EQ(formatEventFields(*back, q[n].first, q[n].second),
                      formatEventFields(*t, p[n].first, p[n].second));
            EXPECT_EQ(back->cpu(q[n].first).ts(q[n].second), t->cpu(p[n].first).ts(p[n].second));
        }
    }
}

TEST(EventKindTable, AddRefusesAKindThatDoesNotFit)
{
    struct Small
    {
        uint32_t a;
    };
    static constexpr FieldSpec kTooWide[] = {value("a", PayloadAt{2, 4, false})};
    EXPECT_THROW(kinds::add(KindSpec{EventKind::Generic, "t", "bad_kind", sizeof(Small), kTooWide}),
                 std::invalid_argument);
    EXPECT_EQ(kindForEvent("t", "bad_kind"), EventKind::Generic);
    // a pointer field holds a 4-byte pointer id
    struct Wide
    {
        uint64_t p;
    };
    static constexpr FieldSpec kWidePointer[] = {pointer("p", PayloadAt{0, 8, false})};
    EXPECT_THROW(kinds::add(KindSpec{EventKind::Generic, "t", "bad_pointer", sizeof(Wide), kWidePointer}),
                 std::invalid_argument);
}

} // namespace
