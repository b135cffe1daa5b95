// SPDX-License-Identifier: GPL-3.0-or-later
// Damaged and crafted inputs, each made in the test from a small real trace (TinyDat) with one field
// changed: the importers refuse them with one line naming the file, or load what is intact with a
// warning. Never a crash, a hang, a huge allocation or a library's own message. Each case stands for a
// class of failure a probe found (a CPU number of -1 indexing per-CPU arrays, a 64-bit length that
// wraps a bounds check, a page that sends kbuffer backwards, a FIFO that blocks open()).
#include "TestUtil.h"
#include "TinyDat.h"

#include "analysis/TickAnalysis.h"
#include "import/InputChecks.h"
#include "import/Loader.h"
#include "report/TickReport.h"
#include "view/TimelineIndex.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace tickscope;
using namespace tickscope::test;
namespace fs = std::filesystem;

namespace {

const std::set<std::string> kSystems{
    "ftrace",           "timer",        "sched",     "irq", "irq_vectors", "power",
    "context_tracking", "raw_syscalls", "exceptions"};

const TinyDat &tiny()
{
    static const TinyDat t = TinyDat::fromFile(dataPath("nohzfull-poll.dat"), 4, kSystems);
    return t;
}

template <class T> void poke(std::string &bytes, uint64_t at, T v)
{
    ASSERT_LE(at + sizeof v, bytes.size());
    std::memcpy(bytes.data() + at, &v, sizeof v);
}

struct Outcome
{
    bool loaded = false;
    uint64_t events = 0;
    std::vector<std::string> warnings;
    std::string error;
};

Outcome load(const fs::path &p, bool recordApi = false)
{
    Outcome o;
    LoadOptions opt;
    opt.recordApi = recordApi;
    opt.streamIdleTimeoutMs = 300;
    try {
        for (const auto &t : loadAll(p.string(), opt)) {
            o.events += t->eventCount();
            o.warnings.insert(o.warnings.end(), t->warnings.begin(), t->warnings.end());
        }
        o.loaded = true;
    } catch (const LoadError &e) {
        o.error = e.what();
    }
    return o;
}

fs::path save(const fs::path &dir, const std::string &name, const std::string &bytes)
{
    const fs::path p = dir / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
}

// One line naming the file, in the user's terms.
void expectCleanError(const Outcome &o, const fs::path &p, const std::string &needle)
{
    ASSERT_FALSE(o.loaded) << p;
    EXPECT_EQ(o.error.find(p.string() + ": "), 0u) << o.error;
    EXPECT_EQ(o.error.find('\n'), std::string::npos) << o.error;
    EXPECT_NE(o.error.find(needle), std::string::npos) << o.error;
}

class Robustness : public ::testing::Test
{
protected:
    void SetUp() override { dir = tempDir(); }
    void TearDown() override { fs::remove_all(dir); }
    fs::path dir;
};

} // namespace

TEST_F(Robustness, TinyFilesLoadThroughBothPaths)
{
    for (const auto &[name, bytes] :
         {std::pair{"t.v6.dat", tiny().write6()}, std::pair{"t.v7.dat", tiny().write7()}}) {
        const auto p = save(dir, name, bytes);
        const Outcome fast = load(p);
        const Outcome reference = load(p, true);
        ASSERT_TRUE(fast.loaded) << name << ": " << fast.error;
        ASSERT_TRUE(reference.loaded) << name << ": " << reference.error;
        EXPECT_GT(fast.events, 100u) << name;
        EXPECT_EQ(fast.events, reference.events) << name;
        EXPECT_TRUE(fast.warnings.empty()) << name << ": " << fast.warnings.front();
    }
}

// A u32 CPU number of 0xFFFFFFFF became -1 as int and passed a `< cpus` check.
TEST_F(Robustness, CpuNumberOutOfRange)
{
    for (uint32_t cpu : {0xFFFFFFFFu, 0x80000000u, 8192u}) {
        TinyDat::Offsets w;
        std::string bytes = tiny().write7(&w);
        poke<uint32_t>(bytes, w.cpuNumber[1], cpu);
        const auto p = save(dir, "cpu.dat", bytes);
        expectCleanError(load(p), p, "CPU " + std::to_string(cpu));
        expectCleanError(load(p, true), p, "CPU " + std::to_string(cpu));
    }
}

// Two threads would decode into one CPU's arrays at once.
TEST_F(Robustness, CpuListedTwice)
{
    TinyDat::Offsets w;
    std::string bytes = tiny().write7(&w);
    poke<uint32_t>(bytes, w.cpuNumber[1], 0);
    const auto p = save(dir, "twice.dat", bytes);
    expectCleanError(load(p), p, "lists CPU 0 twice");
}

// pos + len wrapped around for a length near 2^64 and passed `> size`.
TEST_F(Robustness, LengthThatWrapsAround)
{
    for (uint64_t len : {~uint64_t{0}, ~uint64_t{0} - 100, uint64_t{1} << 63}) {
        for (int v : {6, 7}) {
            TinyDat::Offsets w;
            std::string bytes = v == 6 ? tiny().write6(&w) : tiny().write7(&w);
            poke<uint64_t>(bytes, w.formatsSize, len);
            const auto p = save(dir, "wrap.dat", bytes);
            expectCleanError(load(p), p, "not a readable trace.dat");
        }
    }
}

// A declared CPU data size far past the file: loads what is there, warns, reserves nothing huge.
TEST_F(Robustness, CpuDataSizePastTheFile)
{
    TinyDat::Offsets w;
    std::string bytes = tiny().write6(&w);
    poke<uint64_t>(bytes, w.cpuSize[0], uint64_t{1} << 62);
    const auto p = save(dir, "size.dat", bytes);
    const Outcome o = load(p);
    ASSERT_TRUE(o.loaded) << o.error;
    ASSERT_FALSE(o.warnings.empty());
    EXPECT_NE(o.warnings.front().find("data ends early"), std::string::npos) << o.warnings.front();
}

// A page whose commit size is larger than the page: kbuffer read past it, and read the lost-event
// count stored "after" the data from beyond the buffer.
TEST_F(Robustness, PageCommitLargerThanThePage)
{
    for (uint64_t commit :
         {uint64_t{5000}, (uint64_t{1} << 31) | (uint64_t{1} << 30) | 4080u, uint64_t{(1u << 27) - 1}}) {
        TinyDat::Offsets w;
        std::string bytes = tiny().write6(&w);
        poke<uint64_t>(bytes, w.cpuData[0] + 8, commit);
        const auto p = save(dir, "commit.dat", bytes);
        const Outcome fast = load(p);
        ASSERT_TRUE(fast.loaded) << fast.error;
        ASSERT_FALSE(fast.warnings.empty()) << "commit " << commit;
        EXPECT_NE(fast.warnings.front().find("CPU 0: data ends early"), std::string::npos)
            << fast.warnings.front();
        expectCleanError(load(p, true), p, "CPU 0 has a corrupt ring-buffer page");
    }
}

// A padding event whose length points back to itself: kbuffer's walk never ends.
TEST_F(Robustness, PageEventThatGoesBackwards)
{
    TinyDat::Offsets w;
    std::string bytes = tiny().write6(&w);
    const uint64_t event = w.cpuData[1] + 16; // the first event of CPU 1's first page
    poke<uint32_t>(bytes, event, 29u);        // type_len 29: padding
    poke<uint32_t>(bytes, event + 4, static_cast<uint32_t>(-4));
    const auto p = save(dir, "loop.dat", bytes);
    const auto t0 = std::chrono::steady_clock::now();
    const Outcome o = load(p);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
    ASSERT_TRUE(o.loaded) << o.error;
    ASSERT_FALSE(o.warnings.empty());
    EXPECT_NE(o.warnings.front().find("CPU 1: data ends early"), std::string::npos) << o.warnings.front();
}

TEST_F(Robustness, PageCheckAcceptsEveryRealPage)
{
    const TinyDat &t = tiny();
    for (const auto &pages : t.pages) {
        for (size_t off = 0; off + t.layout.pageSize <= pages.size(); off += t.layout.pageSize) {
            std::vector<uint8_t> page(pages.begin() + static_cast<long>(off),
                                      pages.begin() + static_cast<long>(off + t.layout.pageSize));
            page.resize(page.size() + kPageSlack);
            EXPECT_TRUE(pageIsSound(page.data(), t.layout.pageSize, t.layout.longSize, false, false)) << off;
        }
    }
}

// A flipped byte in an event format text reached libtraceevent's parser.
TEST_F(Robustness, DamagedFormatText)
{
    const std::string good = tiny().write6();
    const auto at = good.find("\tfield:int common_pid;\toffset:4;");
    ASSERT_NE(at, std::string::npos);
    for (const auto &[from, to] :
         {std::pair{"offset:4;", "offset:x;"}, std::pair{"field:int", "fi\x01ld:in"}}) {
        std::string bytes = good;
        const auto p0 = bytes.find(from, at);
        bytes.replace(p0, std::strlen(from), to);
        const auto p = save(dir, "format.dat", bytes);
        expectCleanError(load(p), p, "event format");
        expectCleanError(load(p, true), p, "event format");
    }
    EXPECT_TRUE(checkFormatText("name: x\nID: 5\nformat:\n\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n\n"
                                "print fmt: \"a=%d\", REC->a\n") == std::nullopt);
    EXPECT_TRUE(checkFormatText("name: x\nID: 5\nformat:\n\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n\n"
                                "print fmt: \"a=%d\", (REC->a\n")
                    .has_value());
}

// libtraceevent's print-format parser follows REC->name to a field it assumes exists (found by fuzzing).
TEST_F(Robustness, PrintFormatNamesOnlyItsFields)
{
    const std::string head =
        "name: softirq_raise\nID: 5\nformat:\n\tfield:unsigned int vec;\toffset:8;\tsize:4;\t"
        "signed:0;\n\tfield:char comm[16];\toffset:12;\tsize:16;\tsigned:0;\n\nprint fmt: ";
    EXPECT_FALSE(checkFormatText(head + "\"vec=%u %s\", REC->vec, REC->comm\n").has_value());
    EXPECT_FALSE(checkFormatText(head + "\"REC->nothing %u\", REC->vec\n").has_value()); // inside the quotes
    const auto fault = checkFormatText(head + "\"%s\", __print_symbolic(REC->VIF, { 0, \"HI\" })\n");
    ASSERT_TRUE(fault.has_value());
    EXPECT_NE(fault->find("REC->VIF"), std::string::npos) << *fault;
}

TEST_F(Robustness, PrintkTextChecked)
{
    EXPECT_FALSE(checkPrintkText("0xffffffff8281a98f : \"thaw_processes\"\n").has_value());
    EXPECT_TRUE(checkPrintkText("0xffffffff8281a98f :\n").has_value());
    EXPECT_TRUE(checkPrintkText("garbage\n").has_value());
}

// Every cut of a tiny v7 and v6 file: an error line or a partial load with a warning, never a crash.
TEST_F(Robustness, EveryCutOfATinyFile)
{
    for (const std::string &bytes : {tiny().write6(), tiny().write7()}) {
        const uint64_t full = load(save(dir, "full.dat", bytes)).events;
        for (size_t cut = 1; cut < bytes.size(); cut += 97) {
            const auto p = save(dir, "cut.dat", bytes.substr(0, cut));
            const Outcome o = load(p);
            if (!o.loaded) {
                EXPECT_EQ(o.error.find(p.string() + ": "), 0u) << o.error;
            } else if (o.events != full) {
                EXPECT_FALSE(o.warnings.empty()) << "cut at " << cut << ": " << o.events << " of " << full;
            }
            load(p, true); // the reference path: no crash
        }
    }
}

// open() of a FIFO without a writer blocked forever; a silent writer hung the read.
TEST_F(Robustness, FifoWithoutWriterOrData)
{
    const fs::path fifo = dir / "fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const auto t0 = std::chrono::steady_clock::now();
    expectCleanError(load(fifo), fifo, "no writer opened it");
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));

    // A writer that holds the FIFO open and sends nothing: given up after the idle timeout.
    std::thread writer([&] {
        const int fd = ::open(fifo.c_str(), O_WRONLY);
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        ::close(fd);
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const Outcome o = load(fifo);
    writer.join();
    EXPECT_FALSE(o.loaded);
    EXPECT_NE(o.error.find("no data arrived"), std::string::npos) << o.error;
}

TEST_F(Robustness, TextThroughAPipeLoads)
{
    const fs::path fifo = dir / "fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::thread writer([&] {
        std::ofstream out(fifo);
        std::ifstream in(dataPath("host-trace.txt"));
        out << in.rdbuf();
    });
    const Outcome piped = load(fifo);
    writer.join();
    const Outcome file = load(dataPath("host-trace.txt"));
    ASSERT_TRUE(piped.loaded) << piped.error;
    EXPECT_EQ(piped.events, file.events);
}

TEST_F(Robustness, DevicesAreRefused)
{
    expectCleanError(load("/dev/zero"), "/dev/zero", "character device");
    expectCleanError(load("/dev/null"), "/dev/null", "character device");
}

TEST_F(Robustness, TraceDatFromAPipeIsRefused)
{
    const fs::path fifo = dir / "fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string bytes = tiny().write6();
    std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << bytes; });
    const Outcome o = load(fifo);
    writer.join();
    expectCleanError(o, fifo, "save it to a file");
}

// Every bad input above, through the CLI as a user meets it: exit 1 with one line on stderr that names
// the file, and nothing of a library's internals (C++ exception texts, JSON library ids, errno numbers).
TEST_F(Robustness, CliMessagesNameTheFileInTheUsersTerms)
{
    std::vector<std::pair<std::string, std::string>> inputs; // name, bytes
    TinyDat::Offsets w;
    std::string v7 = tiny().write7(&w);
    std::string bytes = v7;
    poke<uint32_t>(bytes, w.cpuNumber[1], 0xFFFFFFFFu);
    inputs.emplace_back("cpu.dat", bytes);
    bytes = v7;
    poke<uint64_t>(bytes, w.formatsSize, ~uint64_t{0});
    inputs.emplace_back("wrap.dat", bytes);
    inputs.emplace_back("cut.dat", v7.substr(0, 300));
    inputs.emplace_back("magic.dat", std::string("\x17\x08\x44tracing9\0", 11) + std::string(100, 'x'));
    inputs.emplace_back("binary.txt", std::string(4096, '\x01'));
    inputs.emplace_back("words.txt", "hello world\nthis is not a trace\n");
    inputs.emplace_back("scenario.json", "{\"cpus\": 2.5}");
    std::vector<std::string> paths;
    for (const auto &[name, data] : inputs)
        paths.push_back(save(dir, name, data).string());
    paths.push_back("/dev/zero");
    paths.push_back((dir / "missing.dat").string());
    const std::string cli = TICKSCOPE_CLI;
    for (const auto &p : paths) {
        for (const char *cmd : {"stats", "report", "stats --record-api"}) {
            const auto r = run("timeout 60 '" + cli + "' " + cmd + " '" + p + "'");
            ASSERT_EQ(r.signal, 0) << cmd << " " << p << ": crashed\n" << r.err;
            EXPECT_EQ(r.exitCode, 1) << cmd << " " << p << "\n" << r.err;
            EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << cmd << " " << p << "\n" << r.err;
            EXPECT_NE(r.err.find(p), std::string::npos) << cmd << ": " << r.err;
            for (const char *internal :
                 {"basic_string", "json.exception", "error -", "std::", "what()", "_M_"})
                EXPECT_EQ(r.err.find(internal), std::string::npos) << cmd << ": " << r.err;
        }
    }
    const auto sim = run("timeout 60 '" + cli + "' simulate '" + (dir / "scenario.json").string() + "'");
    EXPECT_EQ(sim.exitCode, 1) << sim.err;
    EXPECT_NE(sim.err.find("scenario.json"), std::string::npos) << sim.err;
    EXPECT_EQ(sim.err.find("json.exception"), std::string::npos) << sim.err;
}

// What the fuzzers found (tests/fuzz/regressions/TARGET/), replayed in the ordinary build: each input
// loads, or is refused with one line naming the file; what loads is analysed as the fuzzer does.
// libtracecmd's own open crashes on this file (a null dereference in its error path); the open is tried
// in a child process first, so the file is refused with one line and this process lives on.
TEST_F(Robustness, ALibtracecmdCrashIsContainedInAProbeChild)
{
    const fs::path file = fs::path(dataPath("")).parent_path().parent_path() / "fuzz" / "regressions" /
                          "fuzz_tracedat_reference" / "tracecmd-close-segv";
    ASSERT_TRUE(fs::exists(file)) << file;
    const Outcome o = load(file, true);
    EXPECT_FALSE(o.loaded);
    EXPECT_EQ(o.error.find(file.string() + ": not a readable trace.dat (libtracecmd crashes opening it"), 0u)
        << o.error;
    EXPECT_TRUE(load(dataPath("host-sleep.dat"), true).loaded); // a sound file still opens with libtracecmd
}

TEST_F(Robustness, FuzzFindingsStayFixed)
{
    const fs::path root = fs::path(dataPath("")).parent_path().parent_path() / "fuzz" / "regressions";
    ASSERT_TRUE(fs::is_directory(root)) << root;
    size_t inputs = 0;
    for (const auto &target : fs::directory_iterator(root)) {
        if (target.path().filename() == "fuzz_scenario") continue; // replayed by the fuzz run only
        for (const auto &input : fs::directory_iterator(target.path())) {
            ++inputs;
            for (bool recordApi : {false, true}) {
                const Outcome o = load(input.path(), recordApi);
                if (!o.loaded) {
                    EXPECT_EQ(o.error.find(input.path().string() + ": "), 0u) << o.error;
                }
            }
            LoadOptions opt;
            try {
                for (const auto &t : loadAll(input.path().string(), opt)) {
                    const TickAnalysis a = TickAnalysis::run(*t);
                    (void)TickReport::make(*t, a, ReportOptions{});
                    (void)TimelineIndex::build(*t, a, 1);
                }
            } catch (const LoadError &) {
            }
        }
    }
    EXPECT_GT(inputs, 0u);
}

// Sizes declared by a file never size an allocation: address space (VmPeak) and resident memory stay
// near what the data needs, for the real traces and for crafted files that claim huge CPU data or
// chunks. The fixed part is the program, its threads' stacks and glibc's per-thread arenas (~150 MB
// of address space with two decode threads, almost none of it touched).
TEST_F(Robustness, LoadingReservesAboutWhatTheFileHolds)
{
    if (kSanitized) GTEST_SKIP() << "a sanitizer's shadow memory makes address-space figures meaningless";
    TinyDat::Offsets w;
    std::string bytes = tiny().write6(&w);
    poke<uint64_t>(bytes, w.cpuSize[0], uint64_t{1} << 62);
    std::vector<std::string> files{save(dir, "huge-size.dat", bytes).string()};
    for (const char *name :
         {"nohzfull-poll.dat", "host-cyclic-v6.dat", "host-6.18-cyclictest.dat", "host-trace.txt"})
        files.push_back(dataPath(name));
    for (const auto &f : files) {
        const auto r = run("'" + std::string(TICKSCOPE_CLI) + "' stats --json '" + f + "' 2>/dev/null");
        ASSERT_EQ(r.exitCode, 0) << f;
        auto number = [&](const std::string &key) {
            const auto p = r.out.rfind("\"" + key + "\": ");
            return p == std::string::npos ? 0.0 : std::stod(r.out.substr(p + key.size() + 4));
        };
        const double fileMb = static_cast<double>(fs::file_size(f)) / 1e6;
        EXPECT_LT(number("peak_virtual_bytes") / 1e6, 300 + 40 * fileMb) << f;
        EXPECT_LT(number("peak_rss_bytes") / 1e6, 40 + 20 * fileMb) << f;
    }
}

// A CPU with a few events costs a few pages of each of its columns, not a stretch faulted in ahead: a text
// trace of 4096 CPUs with 8 events each took 250 KB per CPU (1 GB) when every column's first stretch
// was 64 KiB. Now 36 KB per CPU to load, 58 KB to analyse too.
TEST_F(Robustness, ThousandsOfCpusCostAFewPagesEach)
{
    if (kSanitized) GTEST_SKIP() << "a sanitizer's shadow memory makes resident-memory figures meaningless";
    constexpr int kCpus = 4096;
    const fs::path f = dir / "many-cpus.txt";
    {
        std::ofstream out(f);
        out << "# tracer: nop\n#\n";
        char line[256];
        for (int k = 0; k < 8 * kCpus; ++k) {
            const int cpu = k % kCpus, pid = 2 + (k / kCpus) % 2, next = 5 - pid;
            std::snprintf(line, sizeof line,
                          " t-%d [%04d] d..2. %.6f: sched_switch: prev_comm=t prev_pid=%d prev_prio=120 "
                          "prev_state=S ==> next_comm=t next_pid=%d next_prio=120\n",
                          pid, cpu, 100.0 + k * 1e-6, pid, next);
            out << line;
        }
    }
    for (const char *cmd : {"stats", "report"}) {
        const auto r =
            run("'" + std::string(TICKSCOPE_CLI) + "' " + cmd + " --json '" + f.string() + "' 2>/dev/null");
        ASSERT_EQ(r.exitCode, 0) << cmd;
        const auto p = r.out.rfind("\"peak_rss_bytes\": ");
        ASSERT_NE(p, std::string::npos) << cmd;
        const double perCpuKb = std::stod(r.out.substr(p + 18)) / 1e3 / kCpus;
        EXPECT_LT(perCpuKb, 120) << cmd;
    }
}

// v7 writes the table of its CPU data last: a file cut anywhere in the data used to load nothing. Now
// each CPU's events up to the cut load (the same events, in the same order, as the intact file's first
// ones), with a warning; the reference path, which needs the table, refuses it in one line.
TEST_F(Robustness, CutV7FileLoadsWhatIsIntact)
{
    const std::string path = dataPath("nohzfull-poll.dat");
    const auto full = loadTrace(path);
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), {});
    for (double keep : {0.9995, 0.98, 0.95}) {
        const auto p = save(dir, "cut.dat",
                            bytes.substr(0, static_cast<size_t>(keep * static_cast<double>(bytes.size()))));
        const Outcome o = load(p);
        ASSERT_TRUE(o.loaded) << keep << ": " << o.error;
        EXPECT_GT(o.events, 0u) << keep;
        EXPECT_LT(o.events, full->eventCount()) << keep;
        bool said = false;
        for (const auto &w : o.warnings)
            said |= w.find("cut before its table of CPU data") != std::string::npos;
        EXPECT_TRUE(said) << keep;
        const auto cut = loadTrace(p.string());
        ASSERT_EQ(cut->cpuCount(), full->cpuCount());
        for (int c = 0; c < cut->cpuCount(); ++c) {
            const CpuEvents &a = cut->cpu(c), &b = full->cpu(c);
            ASSERT_LE(a.size(), b.size()) << "CPU " << c;
            for (size_t i = 0; i < a.size(); ++i) {
                ASSERT_EQ(a.ts(i), b.ts(i)) << "CPU " << c << " event " << i;
                ASSERT_EQ(cut->types()[a.type(i)].name, full->types()[b.type(i)].name)
                    << "CPU " << c << " event " << i;
            }
        }
        expectCleanError(load(p, true), p, "truncated");
    }
}

// An event line whose timestamp overflows is counted as unparsable, also as the first event line
// (lines before the first event that look like "key: value" headers are skipped silently; a line with a
// "[000]" CPU column is not a header).
TEST_F(Robustness, OverflowingTimestampIsReported)
{
    const std::string good = " bash-15006   [000] .....  1123.939546: sys_exit: NR 1 = 2\n";
    for (const char *ts : {"18446744073.709551", "9223372036.854775808", "99999999999999999999.1"}) {
        const std::string bad =
            std::string(" bash-15006   [000] .....  ") + ts + ": sys_enter: NR 33 (b, 1, 0, 0, 7, b)\n";
        for (const std::string &text : {bad + good, good + bad}) {
            const auto p = save(dir, "ts.txt", "# tracer: nop\n#\n" + text);
            const Outcome o = load(p);
            ASSERT_TRUE(o.loaded) << o.error;
            EXPECT_EQ(o.events, 1u) << ts;
            ASSERT_EQ(o.warnings.size(), 1u) << ts;
            EXPECT_NE(o.warnings.front().find("unparsable"), std::string::npos) << o.warnings.front();
        }
    }
}
