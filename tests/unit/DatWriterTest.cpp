// SPDX-License-Identifier: GPL-3.0-or-later
// The trace.dat writer: simulated runs and loaded traces written as trace.dat v6 read back into the same
// events, fields and tasks; trace-cmd reads them without a warning and counts what `stats` counts; the
// machine facts travel inside; a failed write leaves nothing under the final name.
#include "TestUtil.h"
#include "TextTraceBuilder.h"
#include "analysis/TickAnalysis.h"
#include "import/DatLayout.h"
#include "import/Loader.h"
#include "model/EventFormat.h"
#include "report/TickReport.h"
#include "sim/Presets.h"
#include "sim/Scenario.h"
#include "sim/Simulator.h"
#include "sim/TextWriter.h"
#include "write/TraceDatWriter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <sys/mount.h>
#include <unistd.h>

using namespace tickscope;
using namespace tickscope::test;
namespace fs = std::filesystem;

namespace {

// A preset simulated for `ms` milliseconds (seed 1).
sim::SimResult shortRun(const std::string &spec, const char *ms)
{
    sim::Scenario s = sim::loadScenario(spec);
    sim::applySetting(s, "duration_ms", ms);
    return sim::simulate(s, 1);
}

// A trace written as trace.dat in a temp dir, loaded back by the page decoder ([0]) and by libtracecmd's
// record API ([1]).
struct WrittenBack
{
    fs::path dir;
    std::string path;
    std::unique_ptr<Trace> loaded[2];
};
WrittenBack writeAndLoadBack(const Trace &t, const std::string &name)
{
    WrittenBack w;
    w.dir = tempDir();
    w.path = (w.dir / name).string();
    writeTraceDat(t, w.path);
    for (const bool recordApi : {false, true}) {
        LoadOptions o;
        o.recordApi = recordApi;
        w.loaded[recordApi] = loadTrace(w.path, o);
    }
    return w;
}

std::vector<std::string> presetSpecs()
{
    std::vector<std::string> out;
    for (const auto &p : sim::presets())
        out.emplace_back(p.name);
    return out;
}

} // namespace

// Every preset, shortened: its trace.dat and its ftrace text load into the same events; trace-cmd reads the
// trace.dat without a word on stderr and counts per event name and CPU what the model holds.
TEST(DatWriter, EveryPresetsTraceDatEqualsItsTextOutput)
{
    const fs::path dir = tempDir();
    const auto specs = presetSpecs();
    ASSERT_GE(specs.size(), 3u);
    for (const std::string &spec : specs) {
        const sim::SimResult r = shortRun(spec, "600");
        const std::string dat = (dir / (spec + ".dat")).string();
        const std::string txt = (dir / (spec + ".txt")).string();
        const DatWriteStats st = writeTraceDat(*r.trace, dat);
        sim::writeFtraceText(*r.trace, txt);
        EXPECT_EQ(st.events, r.trace->eventCount()) << spec;
        const auto fromDat = loadTrace(dat);
        const auto fromTxt = loadTrace(txt);
        EXPECT_EQ(fromDat->meta.format.rfind("trace.dat v6", 0), 0u) << fromDat->meta.format;
        EXPECT_TRUE(fromDat->warnings.empty()) << spec << ": " << fromDat->warnings.front();
        expectSameEvents(*fromTxt, *fromDat, spec);
        expectSameEvents(*r.trace, *fromDat, spec + " (simulated)");
        EXPECT_EQ(fromDat->meta.kernelCmdline, r.trace->meta.kernelCmdline) << spec;
        if (haveTraceCmd()) {
            const auto rep = run("trace-cmd report '" + dat + "' > /dev/null");
            EXPECT_EQ(rep.exitCode, 0) << spec;
            EXPECT_EQ(rep.err, "") << spec << ": trace-cmd warned";
            const auto counts = countReport(dat);
            const auto model = countModel({fromDat.get()});
            EXPECT_EQ(counts.byName, model.byName) << spec;
            EXPECT_EQ(counts.byCpu, model.byCpu) << spec;
        }
    }
    fs::remove_all(dir);
    if (!haveTraceCmd()) GTEST_SKIP() << "trace-cmd is not installed: its counts were not compared";
}

// KernelShark's own loader (libkshark: what `kernelshark FILE` calls to open a file) loads every event of
// every preset's trace.dat. libkshark2 comes with scripts/install-deps.sh --test; without it the test
// skips, and fails in CI (CI=true), where the reference must be there.
TEST(DatWriter, KernelSharkLoadsEveryPresetsTraceDat)
{
    const fs::path dir = tempDir();
    for (const std::string &spec : presetSpecs()) {
        const sim::SimResult r = shortRun(spec, "400");
        const std::string dat = (dir / (spec + ".dat")).string();
        writeTraceDat(*r.trace, dat);
        const auto ks = run(std::string("'") + TICKSCOPE_KSHARK_CHECK + "' '" + dat + "'");
        if (ks.exitCode == 2) {
            fs::remove_all(dir);
            const char *ci = std::getenv("CI");
            if (ci && std::string(ci) == "true")
                FAIL() << "libkshark.so.2 (libkshark2) is not installed in CI";
            GTEST_SKIP() << "KernelShark (libkshark.so.2) is not installed: its loader was not tried";
        }
        EXPECT_EQ(ks.exitCode, 0) << spec << ": " << ks.err;
        EXPECT_EQ(ks.out, "entries " + std::to_string(r.trace->eventCount()) + "\n") << spec;
    }
    fs::remove_all(dir);
}

// The command line (nohz_full=) stored in the file is what the analysis uses: nohz_full_source metadata.
TEST(DatWriter, MachineFactsTravelInsideTheFile)
{
    const fs::path dir = tempDir();
    const sim::SimResult r = shortRun("seed000-nohzfull-poll", "300");
    MachineFacts f;
    f.kernelRelease = "6.1.0-test";
    f.cmdline = "BOOT_IMAGE=/vmlinuz quiet nohz_full=1-3 isolcpus=2";
    f.hz = 250;
    f.onlineCpus = "0-3";
    f.cpuidleDriver = "intel_idle";
    f.idleStates = "POLL:0,C1:2,C6:170";
    f.nohzFullKnown = true;
    f.nohzFull = "1-3";
    f.isolated = "2";
    const std::string dat = (dir / "facts.dat").string();
    writeTraceDat(*r.trace, dat, &f);
    const auto t = loadTrace(dat);
    EXPECT_EQ(t->meta.kernelCmdline, f.cmdline);
    const MachineFacts back = MachineFacts::parse(t->meta.machine);
    EXPECT_EQ(back.serialize(), f.serialize());
    EXPECT_EQ(back.hz, 250);
    EXPECT_TRUE(back.nohzFullKnown);
    EXPECT_EQ(back.nohzFull, "1-3");
    EXPECT_EQ(back.isolated, "2");
    const TickAnalysis a = TickAnalysis::run(*t);
    EXPECT_EQ(a.nohzFullSource, NohzFullSource::Metadata);
    // a kernel without nohz_full CPUs says so too (an empty list): still metadata, none marked
    MachineFacts none = f;
    none.cmdline = "BOOT_IMAGE=/vmlinuz quiet";
    none.nohzFull.clear();
    const std::string datNone = (dir / "none.dat").string();
    writeTraceDat(*r.trace, datNone, &none);
    const TickAnalysis b = TickAnalysis::run(*loadTrace(datNone));
    EXPECT_EQ(b.nohzFullSource, NohzFullSource::Metadata);
    EXPECT_EQ(std::count(b.nohzFull.begin(), b.nohzFull.end(), true), 0);
    const auto out = cli("report --json '" + dat + "'");
    EXPECT_NE(out.out.find("\"nohz_full_source\": \"metadata\""), std::string::npos)
        << out.out.substr(0, 400);
    fs::remove_all(dir);
}

// Long gaps (time-extend records), records longer than 112 bytes (a length word), an event kind the
// table does not know (its text kept as a string field trace-cmd prints), and the libtracecmd reader:
// all read back the same.
TEST(DatWriter, GapsLongRecordsAndUnknownEventsRoundTrip)
{
    struct B : TextTraceBuilder<B>
    {
    };
    B b;
    const std::string longText(300, 'x');
    b.ev(0, 1.0, "sh-10", "tracing_mark_write: short")
        .ev(0, 1.5, "sh-10", "tracing_mark_write: " + longText) // 0.5 s later: beyond 2^27 ns
        .ev(1, 1.25, "cat-11",
            "workqueue_execute_start: work struct 00000000c0ffee00: function vmstat_update")
        .ev(1, 9.75, "cat-11", "sched_waking: comm=sh pid=10 prio=120 target_cpu=000")
        .ev(0, 9.7500001, "<idle>-0", "local_timer_entry: vector=236");
    const auto t = b.load();
    const WrittenBack w = writeAndLoadBack(*t, "gaps.dat");
    const std::string &dat = w.path;
    for (const bool recordApi : {false, true}) {
        const Trace *back = w.loaded[recordApi].get();
        ASSERT_EQ(back->eventCount(), 5u) << recordApi;
        for (int c = 0; c < 2; ++c) {
            for (size_t i = 0; i < t->cpu(c).size(); ++i) {
                EXPECT_EQ(back->cpu(c).ts(i), t->cpu(c).ts(i)) << recordApi;
                EXPECT_EQ(formatEventFields(*back, c, i), formatEventFields(*t, c, i)) << recordApi;
            }
        }
        const auto &first = back->cpu(0);
        EXPECT_EQ(formatEventFields(*back, 0, 1), longText);
        // a generic event keeps its name and its text
        EXPECT_EQ(back->types()[back->cpu(1).type(0)].name, "workqueue_execute_start");
        EXPECT_EQ(formatEventFields(*back, 1, 0), "work struct 00000000c0ffee00: function vmstat_update");
        EXPECT_EQ(first.pid(1), 10);
    }
    if (haveTraceCmd()) {
        const auto rep = run("trace-cmd report '" + dat + "'");
        EXPECT_EQ(rep.err, "");
        EXPECT_NE(rep.out.find(longText), std::string::npos);
        EXPECT_NE(rep.out.find("work struct 00000000c0ffee00: function vmstat_update"), std::string::npos)
            << rep.out;
    }
    fs::remove_all(w.dir);
}

// A trace.dat's events of kinds tickscope has no entry for are written back as they were read: their own
// format, their record bytes, the functions their pointers name; trace-cmd prints them as it did the
// original.
TEST(DatWriter, KeptGenericEventsRoundTripWithTheirOwnFormat)
{
    const auto t = loadTrace(dataPath("host-generic.dat"));
    const WrittenBack w = writeAndLoadBack(*t, "generic.dat");
    const auto generics = [](const Trace &x) {
        std::vector<std::string> out;
        for (int c = 0; c < x.cpuCount(); ++c)
            for (size_t i = 0; i < x.cpu(c).size(); ++i)
                if (x.kind(x.cpu(c).type(i)) == EventKind::Generic)
                    out.push_back(x.types()[x.cpu(c).type(i)].name + ": " + formatEventFields(x, c, i));
        return out;
    };
    const auto before = generics(*t);
    ASSERT_GE(before.size(), 200u);
    EXPECT_NE(std::find(before.begin(), before.end(),
                        "workqueue_execute_start: work=0xffffffff82fe1ca0 function=crng_reseed"),
              before.end());
    for (const bool recordApi : {false, true})
        EXPECT_EQ(generics(*w.loaded[recordApi]), before) << recordApi;
    if (haveTraceCmd()) {
        const auto fields = [](const std::string &file) {
            std::vector<std::string> out;
            std::istringstream in(run("trace-cmd report -R '" + file + "'").out);
            for (std::string line; std::getline(in, line);)
                if (line.find("sched_process_exec:") != std::string::npos ||
                    line.find("workqueue_execute_start:") != std::string::npos ||
                    line.find("signal_generate:") != std::string::npos)
                    out.push_back(line.substr(line.find(": ", line.find(']')) + 2));
            return out;
        };
        const auto a = fields(dataPath("host-generic.dat"));
        EXPECT_GE(a.size(), 20u);
        EXPECT_EQ(fields(w.path), a);
    }
    fs::remove_all(w.dir);
}

// Lost events travel: the page after them is flagged, with the count when known, so the loaded trace.dat
// has the text's lost ranges (a gap that opens a CPU's data too) and gives
// the same report; trace-cmd says where events were dropped. The pages after the counted gap fill up.
TEST(DatWriter, LostEventsRoundTrip)
{
    struct B : TextTraceBuilder<B>
    {
    };
    B b;
    b.ev(0, 1.0, "sh-10", "sched_waking: comm=cat pid=11 prio=120 target_cpu=001")
        .line("CPU:0 [LOST 12 EVENTS]")
        .ev(0, 1.25, "sh-10", "sched_waking: comm=cat pid=11 prio=120 target_cpu=001");
    for (int k = 0; k < 400; ++k) // (about five pages)
        b.ev(0, 1.3 + k * 1e-5, "sh-10", "sched_waking: comm=cat pid=11 prio=120 target_cpu=001");
    b.line("CPU:0 [EVENTS DROPPED]")
        .ev(0, 2.0, "sh-10", "sched_waking: comm=cat pid=11 prio=120 target_cpu=001")
        .line("CPU:1 [LOST 3 EVENTS]")
        .ev(1, 1.1, "cat-11", "sched_waking: comm=sh pid=10 prio=120 target_cpu=000")
        .line("CPU:1 [LOST 4 EVENTS]")
        .line("CPU:1 [LOST 5 EVENTS]")
        .ev(1, 1.7, "cat-11", "sched_waking: comm=sh pid=10 prio=120 target_cpu=000");
    const auto t = b.load();
    ASSERT_EQ(t->cpu(0).lost.size(), 2u);
    ASSERT_EQ(t->cpu(1).lost.size(), 2u); // (the text importer takes two lines in a row as one gap)
    const WrittenBack w = writeAndLoadBack(*t, "lost.dat");
    const std::string &dat = w.path;
    for (const bool recordApi : {false, true}) {
        const Trace *back = w.loaded[recordApi].get();
        ASSERT_EQ(back->eventCount(), t->eventCount()) << recordApi;
        const std::vector<std::vector<LostRange>> want = {
            {{1'000'000'000, 1'250'000'000, 12}, {1'303'990'000, 2'000'000'000, 0}},
            {{1'100'000'000, 1'100'000'000, 3}, {1'100'000'000, 1'700'000'000, 9}}};
        for (int c = 0; c < 2; ++c) {
            const auto &got = back->cpu(c).lost;
            ASSERT_EQ(got.size(), want[static_cast<size_t>(c)].size()) << "CPU " << c << " " << recordApi;
            for (size_t k = 0; k < got.size(); ++k) {
                const LostRange &w = want[static_cast<size_t>(c)][k];
                EXPECT_EQ(got[k].from, w.from) << "CPU " << c << " range " << k << " " << recordApi;
                EXPECT_EQ(got[k].to, w.to) << "CPU " << c << " range " << k << " " << recordApi;
                EXPECT_EQ(got[k].count, w.count) << "CPU " << c << " range " << k << " " << recordApi;
            }
        }
        const auto json = [](const Trace &x) {
            TickReport r = TickReport::make(x, TickAnalysis::run(x), {});
            r.analysisSeconds = 0;
            r.derivedBytes = 0;
            r.threads = 1;
            r.path.clear();
            return formatReportJson(r);
        };
        EXPECT_EQ(json(*back), json(*t)) << recordApi;
    }
    if (haveTraceCmd()) {
        const auto rep = run("trace-cmd report '" + dat + "'");
        EXPECT_EQ(rep.err, "");
        EXPECT_NE(rep.out.find("CPU:0 [12 EVENTS DROPPED]"), std::string::npos) << rep.out.substr(0, 2000);
        EXPECT_NE(rep.out.find("CPU:1 [9 EVENTS DROPPED]"), std::string::npos);
        EXPECT_NE(rep.out.find("CPU:0 [EVENTS DROPPED]"), std::string::npos);
    }
    fs::remove_all(w.dir);
}

namespace {

// A trace of sched_waking events on CPU 0, with gaps between them.
struct WakingTrace : TextTraceBuilder<WakingTrace>
{
    WakingTrace &waking(double ts)
    {
        return ev(0, ts, "sh-10", "sched_waking: comm=cat pid=11 prio=120 target_cpu=001");
    }
};

// Writes `t` and lets `edit` change the bytes of CPU 0's second page (the first after the trace's gap).
std::string writeAndEditPageAfterGap(const Trace &t, const fs::path &dir,
                                     const std::function<void(char *page, uint32_t pageSize)> &edit)
{
    const std::string path = (dir / "edited.dat").string();
    writeTraceDat(t, path);
    std::string bytes;
    {
        std::ifstream in(path, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    const auto layout = readDatLayout(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
    if (!layout || layout->compressed() || layout->longSize != 8 ||
        layout->buffers.front().cpus.front().size < 2u * layout->pageSize) {
        ADD_FAILURE() << "not the layout the edit expects: uncompressed, 8-byte longs, two pages or more";
        return path;
    }
    const DatCpuData &cpu0 = layout->buffers.front().cpus.front();
    edit(bytes.data() + cpu0.offset + layout->pageSize, layout->pageSize);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    return path;
}

// Both decoders (ours and libtracecmd's records) give CPU 0 one gap, from `from` to its first event after
// it, of 12 events.
void expectOneGapOnCpu0(const std::string &path, int64_t from, size_t events)
{
    for (const bool recordApi : {false, true}) {
        LoadOptions o;
        o.recordApi = recordApi;
        const auto back = loadTrace(path, o);
        const CpuEvents &ev = back->cpu(0);
        ASSERT_EQ(ev.size(), events) << recordApi;
        ASSERT_EQ(ev.lost.size(), 1u) << recordApi;
        EXPECT_EQ(ev.lost[0].from, from) << recordApi;
        EXPECT_EQ(ev.lost[0].to, ev.ts(1)) << recordApi;
        EXPECT_EQ(ev.lost[0].count, 12u) << recordApi;
    }
}

} // namespace

// A page after lost events that begins with a time-extend record (as the kernel writes when the page's
// first event comes long after its stamp) still opens a gap, with its count: the flag is read from the page
// header, not from kbuffer (whose missed-events count is 0 once it stepped past that record). The
// libtracecmd path takes it from the page headers too.
TEST(DatWriter, APageAfterLostEventsThatBeginsWithATimeExtendKeepsItsGap)
{
    WakingTrace b;
    b.waking(1.0).lost(0, 12).waking(1.25).waking(1.26);
    const fs::path dir = tempDir();
    const std::string path = writeAndEditPageAfterGap(*b.load(), dir, [](char *page, uint32_t) {
        uint64_t commit;
        std::memcpy(&commit, page + 8, 8);
        ASSERT_TRUE(commit & (uint64_t{1} << 31));
        const uint64_t size = commit & ((uint64_t{1} << 27) - 1);
        std::memmove(page + 16 + 8, page + 16, size + 8); // the data and the stored count, 8 bytes on
        const uint32_t extend[2] = {30, 0};               // type_len 30, a delta of 0
        std::memcpy(page + 16, extend, 8);
        commit += 8;
        std::memcpy(page + 8, &commit, 8);
    });
    expectOneGapOnCpu0(path, 1'000'000'000, 3);
    EXPECT_EQ(loadTrace(path)->cpu(0).lost[0].to, 1'250'000'000);
    fs::remove_all(dir);
}

// A page after lost events without an event of its own (here only a time extend): the gap ends at the
// first event of a later page, which does not say it again. Both decoders pass it on.
TEST(DatWriter, APageAfterLostEventsWithoutAnEventPassesTheGapOn)
{
    WakingTrace b;
    b.waking(1.0).lost(0, 12);
    for (int k = 0; k < 400; ++k) // (pages of them)
        b.waking(1.25 + k * 1e-6);
    const fs::path dir = tempDir();
    const std::string path = writeAndEditPageAfterGap(*b.load(), dir, [](char *page, uint32_t pageSize) {
        uint64_t commit;
        std::memcpy(&commit, page + 8, 8);
        ASSERT_TRUE(commit & (uint64_t{1} << 31));
        ASSERT_TRUE(commit & (uint64_t{1} << 30)); // (the count stored after the data)
        std::memset(page + 16, 0, pageSize - 16);
        const uint32_t extend[2] = {30, 0};
        std::memcpy(page + 16, extend, 8);
        const uint64_t count = 12;
        std::memcpy(page + 16 + 8, &count, 8);
        commit = (commit & ~((uint64_t{1} << 27) - 1)) | 8;
        std::memcpy(page + 8, &commit, 8);
    });
    const size_t events = loadTrace(path)->cpu(0).size();
    EXPECT_GT(events, 2u);
    EXPECT_LT(events, 401u - 20); // (a page of events went with the edit)
    expectOneGapOnCpu0(path, 1'000'000'000, events);
    // The same with CPU 0's pages decoded a page a part on two threads: the part of the edited page ends
    // in the gap, and the next part's first event closes it.
    LoadOptions parts;
    parts.threads = 2;
    parts.decodePartBytes = 4096;
    const auto split = loadTrace(path, parts);
    ASSERT_EQ(split->cpu(0).size(), events);
    ASSERT_EQ(split->cpu(0).lost.size(), 1u);
    EXPECT_EQ(split->cpu(0).lost[0].from, 1'000'000'000);
    EXPECT_EQ(split->cpu(0).lost[0].to, split->cpu(0).ts(1));
    EXPECT_EQ(split->cpu(0).lost[0].count, 12u);
    fs::remove_all(dir);
}

// A window that begins after a page that says events were lost, all of whose events lie before the
// window: that gap ended outside the window. The window's data opens with the next page's own gap only,
// with its own count.
TEST(DatWriter, AWindowDoesNotTakeAGapThatEndedBeforeIt)
{
    WakingTrace b;
    b.waking(1.0).lost(0, 12).waking(1.25).lost(0, 5).waking(1.5).waking(1.6);
    const fs::path dir = tempDir();
    const std::string path = (dir / "window.dat").string();
    writeTraceDat(*b.load(), path);
    LoadOptions o;
    o.window = std::make_pair(0.3, 10.0); // from 1.3 s
    const auto w = loadTrace(path, o);
    ASSERT_EQ(w->cpu(0).size(), 2u);
    ASSERT_EQ(w->cpu(0).lost.size(), 1u);
    EXPECT_EQ(w->cpu(0).lost[0].to, 1'500'000'000);
    EXPECT_EQ(w->cpu(0).lost[0].count, 5u);
    fs::remove_all(dir);
}

// An unwritable place or a full disk: one line naming the path, and no file under the final name.
TEST(DatWriter, AFailedWriteLeavesNothingBehind)
{
    const sim::SimResult r = shortRun("seed000-nohzfull-poll", "300");
    try {
        writeTraceDat(*r.trace, "/nonexistent-dir/x.dat");
        FAIL() << "no error";
    } catch (const LoadError &e) {
        EXPECT_EQ(std::string(e.what()).rfind("/nonexistent-dir/x.dat: ", 0), 0u) << e.what();
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to mount a small tmpfs for the disk-full case";
    const fs::path dir = tempDir();
    const fs::path mnt = dir / "small";
    fs::create_directories(mnt);
    ASSERT_EQ(::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=64k"), 0) << std::strerror(errno);
    const std::string dat = (mnt / "full.dat").string();
    try {
        writeTraceDat(*r.trace, dat);
        ADD_FAILURE() << "a 64 KiB file system held the whole trace";
    } catch (const LoadError &e) {
        EXPECT_EQ(std::string(e.what()).rfind(dat + ": write failed: No space left on device", 0), 0u)
            << e.what();
    }
    EXPECT_TRUE(fs::is_empty(mnt)) << "a partial file was left behind";
    ::umount(mnt.c_str());
    fs::remove_all(dir);
}

// The refusal of loading `path` (whose events span 2 s) in too little memory: what every such refusal
// says is checked here, the caller checks the rest.
TooBigError refusal(const std::string &path, const LoadOptions &options)
{
    try {
        loadTrace(path, options);
    } catch (const TooBigError &e) {
        const std::string m = e.what();
        EXPECT_EQ(m.rfind(path + ": the trace needs about ", 0), 0u) << m;
        EXPECT_NE(m.find("the file spans 2."), std::string::npos) << m;
        EXPECT_NEAR(e.spanSeconds, 2.0, 0.1);
        return e;
    }
    ADD_FAILURE() << path << " loaded in too little memory";
    return TooBigError("", 0, 0, 0);
}

// `part`, loaded with --load-window 0.5:1.25: on every CPU exactly the events of `whole` from 0.5 s to
// 1.25 s after its first event, with the same times and fields (every `stride`th compared); more than
// 1000 of them, under half of the whole.
void expectWindowOf(const Trace &whole, const Trace &part, size_t stride, size_t &inside)
{
    const int64_t from = whole.firstTs() + 500'000'000, to = whole.firstTs() + 1'250'000'000;
    inside = 0;
    for (int c = 0; c < whole.cpuCount(); ++c) {
        const auto [a, b] = whole.cpu(c).indexRange(from, to);
        ASSERT_EQ(part.cpu(c).size(), b - a) << "CPU " << c;
        for (size_t i = a; i < b; i += stride) {
            ASSERT_EQ(part.cpu(c).ts(i - a), whole.cpu(c).ts(i));
            ASSERT_EQ(formatEventFields(part, c, i - a), formatEventFields(whole, c, i));
        }
        inside += b - a;
    }
    EXPECT_GT(inside, 1000u);
    EXPECT_LT(inside, whole.eventCount() / 2);
}

// --load-window: only the pages of the span are read, and the events loaded are exactly those of the whole
// trace inside it; a model that would not fit is refused before loading, naming the span and what fits;
// the fitting window then loads. The same for a text trace's lines.
TEST(LoadWindow, LoadsExactlyTheSpanAndRefusesWhatDoesNotFit)
{
    const fs::path dir = tempDir();
    const sim::SimResult r = shortRun("seed003-rt-hrtimer", "2000");
    const std::string dat = (dir / "win.dat").string();
    writeTraceDat(*r.trace, dat);
    const auto whole = loadTrace(dat);
    LoadOptions o;
    o.window = std::make_pair(0.5, 1.25);
    const int64_t from = whole->firstTs() + 500'000'000;
    size_t inside = 0;
    expectWindowOf(*whole, *loadTrace(dat, o), 1, inside);

    // too big for the memory given: refused with the span and what fits, before loading
    LoadOptions tight;
    tight.memoryAvailable = (64u << 20) + whole->eventCount() * 20; // the fixed part and ~half the pages
    {
        const TooBigError e = refusal(dat, tight);
        const std::string m = e.what();
        EXPECT_NE(m.find("--load-window A:B"), std::string::npos) << m;
        EXPECT_EQ(m.find('\n'), std::string::npos);
        EXPECT_GT(e.needBytes, e.availableBytes);
    }
    tight.window = std::make_pair(0.0, 0.5);
    EXPECT_GT(loadTrace(dat, tight)->eventCount(), 0u) << "a quarter of the span fits";
    // a caller that keeps more beside the model (the GUI) weighs with its own bytes per page byte: what
    // fits at the loader's estimate does not at three times as much
    LoadOptions roomy;
    roomy.memoryAvailable = (64u << 20) + whole->eventCount() * 60;
    EXPECT_EQ(loadTrace(dat, roomy)->eventCount(), whole->eventCount());
    roomy.bytesPerDataByte = 3.3;
    EXPECT_THROW(loadTrace(dat, roomy), TooBigError);

    // a text trace: the lines of the window, exactly those of the whole text inside it (its own first time)
    const std::string txt = (dir / "win.txt").string();
    sim::writeFtraceText(*r.trace, txt);
    const auto wholeText = loadTrace(txt);
    size_t textInside = 0;
    expectWindowOf(*wholeText, *loadTrace(txt, o), 97, textInside);
    // weighed before loading as a trace.dat is, from its lines; the window's share of them then fits
    LoadOptions tightText;
    tightText.memoryAvailable = (64u << 20) + wholeText->eventCount() * 20;
    refusal(txt, tightText);
    tightText.window = std::make_pair(0.0, 0.5);
    EXPECT_GT(loadTrace(txt, tightText)->eventCount(), 0u);
    // a window past the end loads nothing, and says so
    LoadOptions late;
    late.window = std::make_pair(100.0, 200.0);
    try {
        loadTrace(txt, late);
        FAIL() << "an empty window loaded";
    } catch (const LoadError &e) {
        EXPECT_NE(std::string(e.what()).find("no events in the chosen window"), std::string::npos)
            << e.what();
    }
    // the CLI: the same counts as the window of the whole
    const auto st = cli("stats --load-window 0.5:1.25 '" + dat + "'");
    EXPECT_EQ(st.exitCode, 0) << st.err;
    EXPECT_NE(st.out.find("events:   " + std::to_string(inside) + "\n"), std::string::npos) << st.out;
    // an open end: to the trace's last event (an end past the trace saturates instead of overflowing)
    size_t after = 0;
    for (int c = 0; c < whole->cpuCount(); ++c)
        after += whole->cpu(c).size() - whole->cpu(c).indexRange(from, INT64_MAX).first;
    const auto open = cli("stats --load-window 0.5: '" + dat + "'");
    EXPECT_EQ(open.exitCode, 0) << open.err;
    EXPECT_NE(open.out.find("events:   " + std::to_string(after) + "\n"), std::string::npos) << open.out;
    o.window = std::make_pair(0.5, 1e12);
    EXPECT_EQ(loadTrace(dat, o)->eventCount(), after);
    const auto bad = cli("report --load-window 2:1 '" + dat + "'");
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_EQ(bad.err, "tickscope-cli: report: --load-window: A must be below B, got '2:1'\n");
    fs::remove_all(dir);
}
