// SPDX-License-Identifier: GPL-3.0-or-later
// trace.dat import checked against `trace-cmd report` on real traces: counts per event name and per
// CPU, decoded fields, lost events, instances, metadata, progress and cancel, and the text form.
#include "TestUtil.h"
#include "import/FileSymbols.h"
#include "import/Loader.h"
#include "model/EventFilter.h"
#include "model/EventFormat.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cinttypes>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

using namespace tickscope;
using namespace tickscope::test;

namespace {

const char *kDatFiles[] = {
    "nohzfull-poll.dat", "nohzfull-nopoll.dat", "host-6.18-idle.dat", "host-6.18-cyclictest.dat",
    "host-sleep.dat", "host-cyclic-v6.dat", "host-instances.dat", "host-lost.dat",
    // written by trace-cmd 3.1.6 on other architectures (tests/data/arch): 64-bit
    // arm64, 32-bit i386 and armhf, big-endian s390x
    "arch/arm64-6.1-v7.dat", "arch/i386-6.1-v7.dat", "arch/armhf-6.1-v7.dat", "arch/s390x-6.1-v7.dat"};

std::vector<const Trace *> ptrs(const std::vector<std::unique_ptr<Trace>> &v)
{
    std::vector<const Trace *> out;
    for (const auto &t : v)
        out.push_back(t.get());
    return out;
}

class EveryDatFile : public ::testing::TestWithParam<const char *>
{
};

// Two loads of one file hold the same events (times, names, flags, tasks, payload sizes and fields), the
// same lost ranges, warnings and task names.
void expectSameLoad(const std::vector<std::unique_ptr<Trace>> &a,
                    const std::vector<std::unique_ptr<Trace>> &b)
{
    ASSERT_EQ(a.size(), b.size());
    for (size_t s = 0; s < a.size(); ++s) {
        const Trace &x = *a[s];
        const Trace &y = *b[s];
        ASSERT_EQ(x.cpuCount(), y.cpuCount());
        EXPECT_EQ(x.warnings, y.warnings);
        for (int c = 0; c < x.cpuCount(); ++c) {
            const CpuEvents &ex = x.cpu(c);
            const CpuEvents &ey = y.cpu(c);
            ASSERT_EQ(ex.size(), ey.size()) << "cpu " << c;
            for (size_t i = 0; i < ex.size(); ++i) {
                ASSERT_EQ(ex.ts(i), ey.ts(i)) << c << ":" << i;
                // type ids follow the order the decode met the formats in: compare the names
                ASSERT_EQ(x.types()[ex.type(i)].name, y.types()[ey.type(i)].name) << c << ":" << i;
                ASSERT_EQ(ex.flags(i), ey.flags(i));
                ASSERT_EQ(ex.preempt(i), ey.preempt(i));
                ASSERT_EQ(ex.pid(i), ey.pid(i)) << c << ":" << i;
                ASSERT_EQ(ex.payloadOffset(i), ey.payloadOffset(i)) << c << ":" << i;
                // the payloads hold string and symbol ids, also in the order met: compare their text
                ASSERT_EQ(formatEventFields(x, c, i), formatEventFields(y, c, i)) << c << ":" << i;
            }
            ASSERT_EQ(ex.lost.size(), ey.lost.size()) << "cpu " << c;
            for (size_t k = 0; k < ex.lost.size(); ++k) {
                EXPECT_EQ(ex.lost[k].from, ey.lost[k].from);
                EXPECT_EQ(ex.lost[k].to, ey.lost[k].to);
                EXPECT_EQ(ex.lost[k].count, ey.lost[k].count);
            }
            EXPECT_EQ(ex.sorted(), ey.sorted());
        }
        ASSERT_EQ(x.tasks.entries().size(), y.tasks.entries().size());
    }
}

LoadOptions inPages() // every CPU split into parts of one page, on two threads
{
    LoadOptions o;
    o.threads = 2;
    o.decodePartBytes = 4096;
    return o;
}

} // namespace

TEST_P(EveryDatFile, CountsEqualTraceCmdReport)
{
    if (!haveTraceCmd()) GTEST_SKIP() << "trace-cmd is not installed";
    const std::string file = dataPath(GetParam());
    const auto traces = loadAll(file);
    const ReportCounts model = countModel(ptrs(traces));
    const ReportCounts report = countReport(file);
    ASSERT_GT(report.total, 0u);
    EXPECT_EQ(model.total, report.total);
    EXPECT_EQ(model.byName, report.byName);
    EXPECT_EQ(model.byCpu, report.byCpu);
    EXPECT_EQ(model.droppedLines, report.droppedLines);
}

TEST_P(EveryDatFile, TextOfTheReportLoadsTheSameEvents)
{
    if (!haveTraceCmd()) GTEST_SKIP() << "trace-cmd is not installed";
    const std::string file = dataPath(GetParam());
    const auto dir = tempDir();
    const std::string txt = (dir / "report.txt").string();
    ASSERT_EQ(run("trace-cmd report '" + file + "' > '" + txt + "'").exitCode, 0);
    const auto fromDat = countModel(ptrs(loadAll(file)));
    const auto fromTxt = countModel(ptrs(loadAll(txt)));
    EXPECT_EQ(fromTxt.total, fromDat.total);
    EXPECT_EQ(fromTxt.byName, fromDat.byName);
    EXPECT_EQ(fromTxt.byCpu, fromDat.byCpu);
    std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(RealTraces, EveryDatFile, ::testing::ValuesIn(kDatFiles), [](const auto &info) {
    std::string n = info.param;
    for (char &c : n) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    return n;
});

TEST(TraceDat, MetadataOfTheNohzFullFixture)
{
    const auto t = loadTrace(dataPath("nohzfull-poll.dat"));
    EXPECT_EQ(t->meta.fileVersion, 7);
    EXPECT_EQ(t->meta.compression, "zstd");
    EXPECT_EQ(t->cpuCount(), 2);
    EXPECT_EQ(t->meta.traceClock, "local");
    EXPECT_EQ(t->meta.kernelRelease, "6.1.0-57-amd64");
    EXPECT_EQ(t->meta.instance, "");
    EXPECT_TRUE(t->warnings.empty());
    EXPECT_EQ(t->eventCount(), 11741u);
}

TEST(TraceDat, VersionSixUncompressed)
{
    const auto t = loadTrace(dataPath("host-cyclic-v6.dat"));
    EXPECT_EQ(t->meta.fileVersion, 6);
    EXPECT_EQ(t->meta.compression, "");
    EXPECT_GT(t->eventCount(), 1000u);
}

// Field values decoded from the binary records equal what trace-cmd prints for them.
TEST(TraceDat, DecodedFieldsMatchTheReport)
{
    if (!haveTraceCmd()) GTEST_SKIP() << "trace-cmd is not installed";
    const std::string file = dataPath("nohzfull-poll.dat");
    const auto t = loadTrace(file);
    // "... [001]     4.805898: hrtimer_expire_entry: hrtimer=0xff3c2143be9235c0 now=4776084793
    // function=tick_sched_timer/0x0"
    const auto rep = run("trace-cmd report -t '" + file + "'").out;
    std::istringstream in(rep);
    std::string line;
    std::vector<std::string> fromReport;
    while (std::getline(in, line)) {
        const auto p = line.find("hrtimer_expire_entry:");
        const auto c = line.find(" [001] ");
        if (p == std::string::npos || c == std::string::npos) continue;
        const auto h = line.find("hrtimer=", p);
        const auto n = line.find("now=", p);
        const auto f = line.find("function=", p);
        const std::string fn = line.substr(f + 9, line.find_first_of("/+ ", f + 9) - f - 9);
        fromReport.push_back(line.substr(h + 8, line.find(' ', h) - h - 8) + " " +
                             line.substr(n + 4, line.find(' ', n) - n - 4) + " " + fn);
    }
    std::vector<std::string> fromModel;
    const CpuEvents &ev = t->cpu(1);
    for (size_t i = 0; i < ev.size(); ++i) {
        if (t->kind(ev.type(i)) != EventKind::HrtimerExpireEntry) continue;
        const auto p = ev.payload<HrtimerExpireEntryP>(i);
        char buf[128];
        std::snprintf(buf, sizeof buf, "0x%" PRIx64 " %" PRId64 " ", t->strings.pointer(p.timer), p.now);
        fromModel.push_back(buf + std::string(t->strings.str(p.function)));
    }
    ASSERT_GT(fromReport.size(), 100u);
    EXPECT_EQ(fromModel, fromReport);
}

TEST(TraceDat, SchedSwitchAndIdleFieldsMatchTheReport)
{
    if (!haveTraceCmd()) GTEST_SKIP() << "trace-cmd is not installed";
    const std::string file = dataPath("host-6.18-cyclictest.dat");
    const auto t = loadTrace(file);
    // tracefs-style print via -R (raw fields): "prev_pid=.. next_pid=.." and "state=.. cpu_id=..".
    const auto rep = run("trace-cmd report -R '" + file + "'").out;
    std::istringstream in(rep);
    std::string line;
    std::vector<std::string> fromReport;
    auto field = [](const std::string &l, const std::string &key) {
        const auto p = l.find(" " + key + "=");
        if (p == std::string::npos) return std::string("?");
        const auto s = p + key.size() + 2;
        return l.substr(s, l.find(' ', s) - s);
    };
    while (std::getline(in, line)) {
        if (line.find(" sched_switch:") != std::string::npos)
            fromReport.push_back("sw " + field(line, "prev_pid") + " " + field(line, "next_pid") + " " +
                                 field(line, "prev_prio") + " " + field(line, "prev_state"));
        else if (line.find(" cpu_idle:") != std::string::npos)
            fromReport.push_back("idle " + field(line, "state"));
    }
    std::vector<std::string> fromModel;
    // The report is merged across CPUs by time; merge the model the same way.
    std::vector<std::pair<int64_t, std::string>> merged;
    for (int c = 0; c < t->cpuCount(); ++c) {
        const CpuEvents &ev = t->cpu(c);
        for (size_t i = 0; i < ev.size(); ++i) {
            const EventKind k = t->kind(ev.type(i));
            if (k == EventKind::SchedSwitch) {
                const auto p = ev.payload<SchedSwitchP>(i);
                merged.emplace_back(ev.ts(i),
                                    "sw " + std::to_string(p.prevPid) + " " + std::to_string(p.nextPid) +
                                        " " + std::to_string(p.prevPrio) + " " + std::to_string(p.prevState));
            } else if (k == EventKind::CpuIdle) {
                merged.emplace_back(ev.ts(i), "idle " + std::to_string(ev.payload<CpuIdleP>(i).state));
            }
        }
    }
    std::stable_sort(merged.begin(), merged.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    for (auto &m : merged)
        fromModel.push_back(m.second);
    ASSERT_GT(fromReport.size(), 1000u);
    // Same multiset; the order of equal timestamps across CPUs may differ.
    std::sort(fromReport.begin(), fromReport.end());
    std::sort(fromModel.begin(), fromModel.end());
    EXPECT_EQ(fromModel, fromReport);
}

TEST(TraceDat, TaskNamesComeFromSchedEventsAndCmdlines)
{
    const auto t = loadTrace(dataPath("host-6.18-cyclictest.dat"));
    bool sawCyclictest = false;
    for (const auto &e : t->tasks.entries())
        sawCyclictest |= t->strings.str(e.comm) == "cyclictest";
    EXPECT_TRUE(sawCyclictest);
    const std::string_view idle = t->strings.str(t->tasks.comm(0, t->lastTs()));
    EXPECT_TRUE(idle == "<idle>" || idle.substr(0, 7) == "swapper") << idle;
}

TEST(TraceDat, LostEventsBecomeRanges)
{
    if (!haveTraceCmd()) GTEST_SKIP() << "trace-cmd is not installed";
    const std::string file = dataPath("host-lost.dat");
    const auto t = loadTrace(file);
    EXPECT_GT(t->lostRangeCount(), 0u);
    const auto rep = run("trace-cmd report '" + file + "'").out;
    // "CPU:0 [14345 EVENTS DROPPED]": the same counts, per CPU.
    std::map<int, uint64_t> fromReport, fromModel;
    std::istringstream in(rep);
    std::string line;
    while (std::getline(in, line)) {
        // "[instance: ]CPU:1 [3881 EVENTS DROPPED]" or "CPU:0 [EVENTS DROPPED]" (count unknown)
        const auto p = line.find("CPU:");
        if (p == std::string::npos || line.find("EVENTS DROPPED]") == std::string::npos) continue;
        int cpu = 0;
        unsigned long long n = 0;
        if (std::sscanf(line.c_str() + p, "CPU:%d [%llu", &cpu, &n) < 2) n = 0;
        fromReport[cpu] += n;
    }
    for (int c = 0; c < t->cpuCount(); ++c) {
        for (const auto &l : t->cpu(c).lost) {
            fromModel[c] += l.count;
            EXPECT_LE(l.from, l.to);
        }
    }
    EXPECT_EQ(fromModel, fromReport);
}

TEST(TraceDat, SeveralInstancesAreSeveralSources)
{
    const std::string file = dataPath("host-instances.dat");
    const auto all = loadAll(file);
    ASSERT_EQ(all.size(), 2u);
    EXPECT_NE(all[0]->meta.instance, all[1]->meta.instance);
    for (const auto &t : all)
        EXPECT_GT(t->eventCount(), 0u);
    try {
        loadTrace(file);
        FAIL() << "expected a LoadError naming the instances";
    } catch (const LoadError &e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find(all[0]->meta.instance), std::string::npos) << msg;
        EXPECT_NE(msg.find("--instance"), std::string::npos) << msg;
    }
    LoadOptions o;
    o.instance = all[1]->meta.instance;
    o.instanceGiven = true;
    EXPECT_EQ(loadTrace(file, o)->eventCount(), all[1]->eventCount());
    o.instance = "no-such-instance";
    EXPECT_THROW(loadTrace(file, o), LoadError);
}

TEST(TraceDat, ASingleInstanceOpensWithoutAsking)
{
    const auto t = loadTrace(dataPath("host-6.18-idle.dat")); // events only in one named instance
    EXPECT_FALSE(t->meta.instance.empty());
    EXPECT_EQ(t->eventCount(), 28880u);
}

TEST(TraceDat, ProgressRisesToOneAndThreadsDoNotChangeTheResult)
{
    const std::string file = dataPath("host-6.18-cyclictest.dat");
    std::vector<double> seen;
    LoadOptions o;
    o.threads = 2;
    o.progress = [&](double f) { seen.push_back(f); };
    const auto two = loadTrace(file, o);
    ASSERT_FALSE(seen.empty());
    EXPECT_DOUBLE_EQ(seen.back(), 1.0);
    for (size_t i = 1; i < seen.size(); ++i)
        EXPECT_GE(seen[i] + 1e-9, seen[i - 1]);
    LoadOptions one;
    one.threads = 1;
    const auto single = loadTrace(file, one);
    ASSERT_EQ(single->eventCount(), two->eventCount());
    for (int c = 0; c < two->cpuCount(); ++c) {
        const auto &a = single->cpu(c);
        const auto &b = two->cpu(c);
        ASSERT_EQ(a.size(), b.size());
        for (size_t i = 0; i < a.size(); ++i) {
            ASSERT_EQ(a.ts(i), b.ts(i));
            ASSERT_EQ(single->types()[a.type(i)].name, two->types()[b.type(i)].name);
            ASSERT_EQ(a.payloadOffset(i), b.payloadOffset(i));
        }
    }
}

TEST(TraceDat, CancelStopsTheLoad)
{
    std::atomic<bool> cancel{true};
    LoadOptions o;
    o.cancel = &cancel;
    EXPECT_THROW(loadTrace(dataPath("host-6.18-cyclictest.dat"), o), LoadCancelled);
}

// The flag set while the load runs, as the GUI's Cancel does (here from the load's first progress report,
// on one decode thread): the load stops at its next check with LoadCancelled instead of decoding the other
// CPUs. (A CPU's last report and the one for its end may both come before that check.)
TEST(TraceDat, CancelWhileLoadingStopsTheLoadThere)
{
    const std::string file = dataPath("host-6.18-cyclictest.dat");
    std::vector<double> whole;
    LoadOptions all;
    all.threads = 1;
    all.progress = [&](double f) { whole.push_back(f); };
    ASSERT_TRUE(loadTrace(file, all));
    ASSERT_GE(whole.size(), 4u) << "a whole load reports its progress as it goes";
    std::atomic<bool> cancel{false};
    std::vector<double> seen;
    LoadOptions o;
    o.threads = 1;
    o.cancel = &cancel;
    o.progress = [&](double f) {
        seen.push_back(f);
        cancel = true;
    };
    EXPECT_THROW(loadTrace(file, o), LoadCancelled);
    ASSERT_FALSE(seen.empty()) << "the load started uncancelled";
    EXPECT_LE(seen.size(), 2u) << "the load went on after the flag was set";
    EXPECT_LT(seen.back(), 0.5);
}

// The page decoder is the fast path; libtracecmd's record API is the reference. Event for event, field
// for field, they must agree on every real trace (and so must the lost ranges and task names).
TEST_P(EveryDatFile, PageDecoderEqualsLibtracecmdRecordApi)
{
    const std::string file = dataPath(GetParam());
    LoadOptions ref;
    ref.recordApi = true;
    const auto a = loadAll(file, ref);
    const auto b = loadAll(file);
    ASSERT_EQ(a.size(), b.size());
    for (size_t s = 0; s < a.size(); ++s) {
        EXPECT_NE(b[s]->meta.format.find("direct page decode"), std::string::npos) << b[s]->meta.format;
        ASSERT_EQ(a[s]->meta.instance, b[s]->meta.instance);
    }
    expectSameLoad(a, b);
}

// One busy CPU is decoded in parts on several threads and the parts joined: the same model as one pass.
TEST_P(EveryDatFile, DecodedInPartsEqualsOnePass)
{
    const std::string file = dataPath(GetParam());
    LoadOptions one;
    one.threads = 1;
    expectSameLoad(loadAll(file, one), loadAll(file, inPages()));
}

// A damaged page or a cut file ends the CPU's data there, in parts as in one pass (later parts dropped).
TEST(TraceDat, DecodedInPartsStopsWhereOnePassStops)
{
    const std::string src = dataPath("host-cyclic-v6.dat"); // v6: raw pages
    std::ifstream in(src, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_GT(bytes.size(), 200000u);
    const auto dir = tempDir();
    // cut: the last CPU's data ends mid-way
    const std::string cut = (dir / "cut.dat").string();
    std::ofstream(cut, std::ios::binary)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size() * 3 / 4));
    // damaged: a page's commit size made impossible in the middle of the data
    std::string bad = bytes;
    const size_t page = (bytes.size() / 2) / 4096 * 4096;
    for (size_t k = 8; k < 16; ++k)
        bad[page + k] = static_cast<char>(0xff);
    const std::string damaged = (dir / "damaged.dat").string();
    std::ofstream(damaged, std::ios::binary).write(bad.data(), static_cast<std::streamsize>(bad.size()));
    for (const std::string &f : {cut, damaged}) {
        SCOPED_TRACE(f);
        LoadOptions one;
        one.threads = 1;
        const auto a = loadAll(f, one);
        const auto b = loadAll(f, inPages());
        ASSERT_FALSE(a.empty());
        EXPECT_FALSE(a[0]->warnings.empty()); // the damage is said
        expectSameLoad(a, b);
    }
}

// kallsyms as the kernel writes it (sorted) and shuffled resolve alike: absolute and '$' mapping symbols
// are skipped, an address resolves to the symbol at or below it, past the last one only exactly.
TEST(FileSymbols, SortedAndShuffledKallsymsResolveAlike)
{
    const std::string sorted = "ffffffff81000000 T _stext\n"
                               "ffffffff81000100 t alpha\n"
                               "ffffffff81000200 T beta\n"
                               "ffffffff81000300 t $x\n"
                               "ffffffff81000400 T gamma\t[mod]\n"
                               "0000000000001000 A absolute\n";
    const std::string shuffled = "ffffffff81000400 T gamma\t[mod]\n"
                                 "ffffffff81000100 t alpha\n"
                                 "0000000000001000 A absolute\n"
                                 "ffffffff81000000 T _stext\n"
                                 "ffffffff81000300 t $x\n"
                                 "ffffffff81000200 T beta\n";
    for (const std::string &text : {sorted, shuffled}) {
        const FileSymbols s(text, "42 worker\n");
        EXPECT_EQ(s.functionCount(), 4u);
        EXPECT_STREQ(s.function(0xffffffff81000000), "_stext");
        EXPECT_STREQ(s.function(0xffffffff81000150), "alpha");
        EXPECT_STREQ(s.function(0xffffffff81000200), "beta");
        EXPECT_STREQ(s.function(0xffffffff81000350), "beta");
        EXPECT_STREQ(s.function(0xffffffff81000400), "gamma");
        EXPECT_EQ(s.function(0xffffffff81000401), nullptr);
        EXPECT_EQ(s.function(0xffffffff80000000), nullptr);
        EXPECT_STREQ(s.comm(42), "worker");
    }
}

// Event kinds tickscope has no table entry for keep their fields: printed from the file's own format, the
// way `trace-cmd report -R` prints them (strings, __data_loc strings, pointers, signed and unsigned).
TEST(TraceDat, GenericEventsPrintTheirFieldsLikeTheReport)
{
    if (!haveTraceCmd()) GTEST_SKIP() << "trace-cmd is not installed";
    size_t compared = 0;
    std::vector<const char *> files(std::begin(kDatFiles), std::end(kDatFiles));
    files.push_back("host-generic.dat");
    for (const char *name : files) {
        if (std::string_view(name) == "host-instances.dat") continue; // two buffers: the report merges them
        SCOPED_TRACE(name);
        const std::string file = dataPath(name);
        const auto t = loadTrace(file);
        std::vector<std::string> fromModel;
        for (int c = 0; c < t->cpuCount(); ++c) {
            const CpuEvents &ev = t->cpu(c);
            for (size_t i = 0; i < ev.size(); ++i) {
                if (t->kind(ev.type(i)) != EventKind::Generic) continue;
                fromModel.push_back(t->types()[ev.type(i)].name + ": " + formatEventFields(*t, c, i));
            }
        }
        std::set<std::string> genericNames;
        for (const auto &ty : t->types())
            if (ty.kind == EventKind::Generic) genericNames.insert(ty.name);
        std::vector<std::string> fromReport;
        // A string with a newline in it (a comm written with `echo name > /proc/self/comm`) breaks the
        // report's line: join it again, with the newline as the model prints it (escaped).
        std::vector<std::string> lines;
        std::istringstream in(run("trace-cmd report -R '" + file + "'").out);
        for (std::string line; std::getline(in, line);) {
            if (!lines.empty() && line.find("]") == std::string::npos && line.rfind("cpus=", 0) != 0)
                lines.back() += "\\n" + line;
            else
                lines.push_back(line);
        }
        for (const std::string &line : lines) {
            // "   comm-pid   [cpu]   ts: name:   fields"
            const size_t ts = line.find("]");
            const size_t colon = ts == std::string::npos ? ts : line.find(": ", ts);
            if (colon == std::string::npos) continue;
            const size_t nameEnd = line.find(':', colon + 2);
            if (nameEnd == std::string::npos) continue;
            const std::string ev = line.substr(colon + 2, nameEnd - colon - 2);
            if (!genericNames.count(ev)) continue;
            std::string fields = line.substr(nameEnd + 1);
            fields.erase(0, fields.find_first_not_of(' '));
            while (!fields.empty() && fields.back() == ' ')
                fields.pop_back();
            fromReport.push_back(ev + ": " + fields);
        }
        compared += fromReport.size();
        std::sort(fromReport.begin(), fromReport.end());
        std::sort(fromModel.begin(), fromModel.end());
        std::vector<std::string> onlyModel, onlyReport;
        std::set_difference(fromModel.begin(), fromModel.end(), fromReport.begin(), fromReport.end(),
                            std::back_inserter(onlyModel));
        std::set_difference(fromReport.begin(), fromReport.end(), fromModel.begin(), fromModel.end(),
                            std::back_inserter(onlyReport));
        for (size_t i = 0; i < std::min<size_t>(5, std::max(onlyModel.size(), onlyReport.size())); ++i)
            ADD_FAILURE() << "model:  " << (i < onlyModel.size() ? onlyModel[i] : "-")
                          << "\nreport: " << (i < onlyReport.size() ? onlyReport[i] : "-");
        EXPECT_EQ(fromModel.size(), fromReport.size());
    }
    EXPECT_EQ(compared,
              883u); // 883 in all: host-generic.dat 207 of 7 kinds, the nohz_full lab traces 341 and 335

    // The Events panel's search looks in the same text.
    const auto t = loadTrace(dataPath("host-generic.dat"));
    bool found = false;
    for (size_t i = 0; i < t->cpu(1).size() && !found; ++i)
        found = searchText(*t, {1, i}).find("sched_process_exec filename=/usr/bin/sh") != std::string::npos;
    EXPECT_TRUE(found);
}

// On the other architectures' files (32-bit and big-endian fields), the report's ticks are the tick
// hrtimer's expiries trace-cmd prints, CPU by CPU: ticks + nohz wakeups = tick_sched_timer expiries.
TEST(TraceDat, TicksOnOtherArchitecturesAreTheTickExpiriesTraceCmdPrints)
{
    if (!haveTraceCmd()) GTEST_SKIP() << "trace-cmd is not installed";
    for (const char *name : {"arch/arm64-6.1-v7.dat", "arch/i386-6.1-v7.dat", "arch/armhf-6.1-v7.dat",
                             "arch/s390x-6.1-v7.dat"}) {
        SCOPED_TRACE(name);
        const std::string file = dataPath(name);
        std::map<int, int64_t> expiries;
        std::istringstream in(run("trace-cmd report '" + file + "'").out);
        for (std::string line; std::getline(in, line);) {
            const size_t open = line.find('[');
            if (open == std::string::npos || line.find(" hrtimer_expire_entry:") == std::string::npos ||
                line.find("function=tick_sched_timer") == std::string::npos)
                continue;
            ++expiries[std::stoi(line.substr(open + 1))];
        }
        const auto r = cli("report '" + file + "' --json");
        ASSERT_EQ(r.exitCode, 0) << r.err;
        const auto j = nlohmann::json::parse(r.out);
        int64_t total = 0;
        for (const auto &c : j["cpus"]) {
            const int64_t ticks = c["ticks"]["total"].get<int64_t>() +
                                  (c["nohz_wakeups"].is_null() ? 0 : c["nohz_wakeups"].get<int64_t>());
            EXPECT_EQ(ticks, expiries[c["cpu"].get<int>()]) << "CPU " << c["cpu"];
            total += ticks;
        }
        EXPECT_GT(total, 100);
    }
}
