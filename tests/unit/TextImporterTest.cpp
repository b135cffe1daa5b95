// The ftrace text importer: real `trace-cmd report` output of the fixtures (checked against an independent
// count of the printed event names and against `report -R` raw field values), real tracefs text, and the
// printed forms of every decoded field on single lines.
#include "import/TextImporter.h"
#include "import/TextLineParser.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <unistd.h>

namespace tickscope {
namespace {

namespace fs = std::filesystem;
using text::Decoded;
using text::decodeFields;
using text::LineKind;
using text::parseLine;

// ---- helpers --------------------------------------------------------------------------------------------

const fs::path &tmpDir()
{
    static const fs::path dir = [] {
        std::string tmpl = (fs::temp_directory_path() / "textimp-XXXXXX").string();
        if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
        std::atexit([] {
            std::error_code ec;
            fs::remove_all(tmpDir(), ec);
        });
        return fs::path(tmpl);
    }();
    return dir;
}

std::string dataFile(const std::string &name)
{
    return std::string(TICKSCOPE_TEST_DATA) + "/" + name;
}

std::string writeFile(const std::string &name, const std::string &content)
{
    const fs::path p = tmpDir() / name;
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
}

// `trace-cmd report ARGS DAT` into a temp file (once per combination).
std::string report(const std::string &dat, const std::string &args)
{
    std::string name = fs::path(dat).stem().string() + args + ".txt";
    for (char &c : name)
        c = c == ' ' ? '_' : c;
    const fs::path out = tmpDir() / name;
    if (!fs::exists(out)) {
        const std::string cmd =
            "trace-cmd report " + args + " '" + dat + "' > '" + out.string() + "' 2>/dev/null";
        EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    }
    EXPECT_GT(fs::file_size(out), 0u);
    return out.string();
}

std::unique_ptr<Trace> loadOne(const std::string &path, const LoadOptions &opt = {})
{
    auto traces = importText(path, opt);
    EXPECT_EQ(traces.size(), 1u);
    return traces.empty() ? nullptr : std::move(traces.front());
}

std::vector<std::string> split(std::string_view s)
{
    std::vector<std::string> out;
    std::istringstream in{std::string(s)};
    for (std::string t; in >> t;)
        out.push_back(t);
    return out;
}

bool isTsToken(const std::string &t)
{
    const size_t dot = t.find('.');
    return t.size() > 3 && t.back() == ':' && dot != std::string::npos && dot > 0 &&
           t.find_first_not_of("0123456789.:") == std::string::npos;
}

// An event line seen the simple way: whitespace tokens, the name after the timestamp token, the CPU in
// "[NNN]" or fused with the flags in `report -l` ("0d.h1.").
struct SimpleLine
{
    bool event = false;
    int cpu = -1;
    std::string name;
};

SimpleLine simpleParse(const std::string &line)
{
    SimpleLine s;
    if (line.empty() || line[0] == '#') return s;
    const auto tok = split(line);
    for (size_t i = 1; i + 1 < tok.size(); ++i) {
        if (!isTsToken(tok[i])) continue;
        s.event = true;
        s.name = tok[i + 1].substr(0, tok[i + 1].find(':'));
        for (size_t j = 0; j < i; ++j) {
            if (tok[j].size() > 2 && tok[j].front() == '[' && tok[j].back() == ']')
                s.cpu = std::stoi(tok[j].substr(1));
        }
        if (s.cpu < 0) s.cpu = std::stoi(tok[i - 1]); // -l: "0d.h1." -> 0
        break;
    }
    return s;
}

using Counts = std::map<std::pair<int, std::string>, size_t>; // (cpu, name); cpu -1 = all CPUs

Counts countText(const std::string &path)
{
    Counts c;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        SimpleLine s = simpleParse(line);
        if (!s.event) continue;
        if (s.name == "tracing_mark_write") s.name = "print"; // tracefs prints the print event's ip
        ++c[{s.cpu, s.name}];
        ++c[{-1, s.name}];
    }
    return c;
}

Counts countTrace(const Trace &t)
{
    Counts c;
    for (int cpu = 0; cpu < t.cpuCount(); ++cpu) {
        for (size_t i = 0; i < t.cpu(cpu).size(); ++i) {
            const std::string &name = t.types()[t.cpu(cpu).type(i)].name;
            ++c[{cpu, name}];
            ++c[{-1, name}];
        }
    }
    return c;
}

// Payload structs are packed: gtest binds its arguments to references, so pass members by value.
template <class T> T val(T v)
{
    return v;
}

bool hasUnparsedType(const Trace &t)
{
    for (const auto &ty : t.types()) {
        if (ty.system == "unparsed") return true;
    }
    return false;
}

// Every decoded value of an event, strings resolved. `lossy` drops what the trace-cmd plugins do not print
// (hrtimer_start mode/was_armed, the preempted bit of prev_state).
std::string describe(const Trace &t, int cpu, size_t i, bool lossy = false)
{
    const CpuEvents &ev = t.cpu(cpu);
    const EventType &ty = t.types()[ev.type(i)];
    std::ostringstream o;
    auto s = [&](uint32_t id) { return std::string(t.strings.str(id)); };
    o << ty.system << ':' << ty.name << " pid=" << ev.pid(i) << ' ';
    switch (ty.kind) {
    case EventKind::HrtimerStart: {
        auto p = ev.payload<HrtimerStartP>(i);
        o << p.timer << ' ' << s(p.function) << ' ' << p.expires << ' ' << p.softexpires;
        if (!lossy) o << ' ' << int(p.mode) << ' ' << int(p.wasArmed);
        break;
    }
    case EventKind::HrtimerExpireEntry: {
        auto p = ev.payload<HrtimerExpireEntryP>(i);
        o << p.timer << ' ' << p.now << ' ' << s(p.function);
        break;
    }
    case EventKind::HrtimerCancel:
    case EventKind::HrtimerExpireExit:
    case EventKind::TimerExpireExit:
    case EventKind::TimerCancel:
    case EventKind::TimerInit:
        o << ev.payload<PtrP>(i).ptr;
        break;
    case EventKind::HrtimerInit: {
        auto p = ev.payload<HrtimerInitP>(i);
        o << p.timer << ' ' << p.clockid << ' ' << p.mode;
        break;
    }
    case EventKind::TimerStart: {
        auto p = ev.payload<TimerStartP>(i);
        o << p.timer << ' ' << s(p.function) << ' ' << p.expires << ' ' << p.now << ' ' << p.bucketExpiry
          << ' ' << p.flags;
        break;
    }
    case EventKind::TimerExpireEntry: {
        auto p = ev.payload<TimerExpireEntryP>(i);
        o << p.timer << ' ' << s(p.function) << ' ' << p.now << ' ' << p.baseclk;
        break;
    }
    case EventKind::TimerBaseIdle: {
        auto p = ev.payload<TimerBaseIdleP>(i);
        o << int(p.isIdle) << ' ' << p.cpu;
        break;
    }
    case EventKind::TickStop: {
        auto p = ev.payload<TickStopP>(i);
        o << p.success << ' ' << p.dependency << ' ' << s(p.reason);
        break;
    }
    case EventKind::CpuIdle: {
        auto p = ev.payload<CpuIdleP>(i);
        o << p.state << ' ' << p.cpu;
        break;
    }
    case EventKind::CpuIdleMiss: {
        auto p = ev.payload<CpuIdleMissP>(i);
        o << p.cpu << ' ' << p.state << ' ' << int(p.below);
        break;
    }
    case EventKind::SoftirqRaise:
    case EventKind::SoftirqEntry:
    case EventKind::SoftirqExit:
        o << int(ev.payload<SoftirqP>(i).vec);
        break;
    case EventKind::IrqHandlerEntry: {
        auto p = ev.payload<IrqEntryP>(i);
        o << p.irq << ' ' << s(p.name);
        break;
    }
    case EventKind::IrqHandlerExit: {
        auto p = ev.payload<IrqExitP>(i);
        o << p.irq << ' ' << p.ret;
        break;
    }
    case EventKind::LocalTimerEntry:
    case EventKind::LocalTimerExit:
    case EventKind::VectorEntry:
    case EventKind::VectorExit:
        o << ev.payload<VectorP>(i).vector;
        break;
    case EventKind::SchedSwitch: {
        auto p = ev.payload<SchedSwitchP>(i);
        o << p.prevPid << ' ' << p.nextPid << ' ' << p.prevPrio << ' ' << p.nextPrio << ' '
          << (lossy ? p.prevState & 0xff : p.prevState);
        break;
    }
    case EventKind::SchedWaking:
    case EventKind::SchedWakeup:
    case EventKind::SchedWakeupNew: {
        auto p = ev.payload<SchedWakeP>(i);
        o << p.pid << ' ' << p.prio << ' ' << p.targetCpu;
        break;
    }
    case EventKind::SchedMigrateTask: {
        auto p = ev.payload<SchedMigrateP>(i);
        o << p.pid << ' ' << p.prio << ' ' << p.origCpu << ' ' << p.destCpu;
        break;
    }
    case EventKind::SchedWakeIdleNoIpi:
        o << ev.payload<CpuP>(i).cpu;
        break;
    case EventKind::SysEnter:
    case EventKind::SysExit:
        o << ev.payload<SyscallP>(i).id;
        break;
    case EventKind::Print:
    case EventKind::Generic:
        o << s(ev.payload<TextP>(i).text);
        break;
    case EventKind::IpiSendCpu: {
        auto p = ev.payload<IpiSendCpuP>(i);
        o << p.cpu << ' ' << s(p.callsite) << ' ' << s(p.callback);
        break;
    }
    default:
        break;
    }
    return o.str();
}

bool hasWarning(const Trace &t, std::string_view start)
{
    for (const auto &w : t.warnings) {
        if (w.starts_with(start)) return true;
    }
    return false;
}

const char *const kFixtures[] = {"nohzfull-poll.dat", "nohzfull-nopoll.dat", "host-6.18-idle.dat"};

// ---- real trace-cmd report output ---------------------------------------------------------------------

class TraceCmdReport : public ::testing::TestWithParam<const char *>
{
protected:
    std::string dat() const { return dataFile(GetParam()); }
};

TEST_P(TraceCmdReport, CountsPerEventAndCpuMatchAnIndependentCount)
{
    const std::string txt = report(dat(), "");
    auto t = loadOne(txt);
    ASSERT_TRUE(t);
    EXPECT_EQ(countTrace(*t), countText(txt));
    EXPECT_EQ(t->meta.format, "trace-cmd report text");
    EXPECT_EQ(t->meta.cpuCount, 2);
    EXPECT_EQ(t->meta.fileBytes, fs::file_size(txt));
    EXPECT_EQ(t->meta.instance, std::string(GetParam()).starts_with("host") ? "ceo_capture_6410" : "");
    EXPECT_FALSE(hasUnparsedType(*t)) << "every known event decodes";
    EXPECT_FALSE(hasWarning(*t, "skipped"));
    // trace-cmd 3.1.6 prints flags=D|P|I for every timer_start (checked against `report -R` below)
    EXPECT_TRUE(hasWarning(*t, "all ")) << "the timer flags warning";
    EXPECT_GT(t->tasks.taskCount(), 10u);
}

TEST_P(TraceCmdReport, LatencyNanosecondAndNoPluginVariantsAgree)
{
    auto base = loadOne(report(dat(), ""));
    auto lat = loadOne(report(dat(), "-l"));
    auto ns = loadOne(report(dat(), "-t"));
    auto raw = loadOne(report(dat(), "-N")); // no plugins: the tracefs print formats
    ASSERT_TRUE(base && lat && ns && raw);
    EXPECT_FALSE(hasUnparsedType(*lat) || hasUnparsedType(*ns) || hasUnparsedType(*raw));
    size_t flagged = 0;
    for (int c = 0; c < base->cpuCount(); ++c) {
        const CpuEvents &b = base->cpu(c);
        ASSERT_EQ(lat->cpu(c).size(), b.size());
        ASSERT_EQ(ns->cpu(c).size(), b.size());
        ASSERT_EQ(raw->cpu(c).size(), b.size());
        for (size_t i = 0; i < b.size(); ++i) {
            ASSERT_EQ(lat->cpu(c).ts(i), b.ts(i));
            ASSERT_EQ((ns->cpu(c).ts(i) + 500) / 1000 * 1000, b.ts(i))
                << "the default rounds to the microsecond";
            ASSERT_EQ(b.flags(i), 0);
            flagged += lat->cpu(c).flags(i) != 0 || lat->cpu(c).preempt(i) != 0;
            const std::string d = describe(*base, c, i);
            ASSERT_EQ(describe(*lat, c, i), d);
            ASSERT_EQ(describe(*ns, c, i), d);
            ASSERT_EQ(describe(*raw, c, i, true), describe(*base, c, i, true));
        }
    }
    // report -l carries the irq flags: as many events have some as lines show a flags column other than
    // "....."
    size_t flaggedLines = 0;
    std::ifstream in(report(dat(), "-l"));
    for (std::string line; std::getline(in, line);) {
        const auto tok = split(line);
        for (size_t i = 1; i < tok.size(); ++i) {
            if (!isTsToken(tok[i])) continue;
            flaggedLines += tok[i - 1].substr(tok[i - 1].find_first_not_of("0123456789")) != ".....";
            break;
        }
    }
    EXPECT_EQ(flagged, flaggedLines);
    EXPECT_GT(flagged, 1000u);
}

// `report -R` prints the raw field values; compare what the plugin (default) and no-plugin (-N) texts decode
// to. The raw text is read the simple way: "key=value" tokens.
TEST_P(TraceCmdReport, DecodedFieldsMatchRawRecordValues)
{
    auto plugin = loadOne(report(dat(), ""));
    auto noPlugin = loadOne(report(dat(), "-N"));
    ASSERT_TRUE(plugin && noPlugin);
    std::ifstream in(report(dat(), "-R"));
    std::vector<size_t> next(2, 0);
    size_t checked = 0;
    for (std::string line; std::getline(in, line);) {
        const SimpleLine s = simpleParse(line);
        if (!s.event) continue;
        const size_t i = next.at(static_cast<size_t>(s.cpu))++;
        const CpuEvents &ev = plugin->cpu(s.cpu);
        const CpuEvents &evN = noPlugin->cpu(s.cpu);
        ASSERT_LT(i, ev.size());
        ASSERT_EQ(plugin->types()[ev.type(i)].name, s.name);
        auto raw = [&](const char *key) {
            const size_t p = line.find(std::string(" ") + key + "=");
            EXPECT_NE(p, std::string::npos) << key << " in " << line;
            return std::stoull(line.substr(p + std::strlen(key) + 2), nullptr, 0);
        };
        ++checked;
        if (s.name == "hrtimer_start") {
            auto p = ev.payload<HrtimerStartP>(i);
            EXPECT_EQ(val(p.timer), raw("hrtimer"));
            EXPECT_EQ(uint64_t(p.expires), raw("expires"));
            EXPECT_EQ(uint64_t(p.softexpires), raw("softexpires"));
            EXPECT_EQ(val(p.mode), kModeUnknown) << "the plugin does not print the mode";
            auto n = evN.payload<HrtimerStartP>(i);
            EXPECT_EQ(val(n.mode), raw("mode"));
            EXPECT_EQ(uint64_t(n.wasArmed), raw("was_armed"));
        } else if (s.name == "sched_switch") {
            auto p = ev.payload<SchedSwitchP>(i);
            EXPECT_EQ(val(p.prevPid), int(raw("prev_pid")));
            EXPECT_EQ(val(p.nextPid), int(raw("next_pid")));
            EXPECT_EQ(val(p.prevPrio), int(raw("prev_prio")));
            EXPECT_EQ(val(p.prevState), raw("prev_state") & 0xff) << "plugin letters; it never prints 0x100";
            EXPECT_EQ(val(evN.payload<SchedSwitchP>(i).prevState), raw("prev_state")) << line;
        } else if (s.name == "timer_start") {
            auto p = ev.payload<TimerStartP>(i);
            EXPECT_EQ(val(p.expires), raw("expires"));
            EXPECT_EQ(val(p.now), raw("now"));
            EXPECT_EQ(p.flags & ~0x380000u, raw("flags") & ~0x380000u) << "cpu, idx and M; D|P|I misprinted";
        } else if (s.name == "timer_expire_entry") {
            auto p = ev.payload<TimerExpireEntryP>(i);
            EXPECT_EQ(val(p.now), raw("now"));
            EXPECT_EQ(val(p.baseclk), raw("baseclk"));
        } else if (s.name == "cpu_idle") {
            EXPECT_EQ(val(ev.payload<CpuIdleP>(i).state), raw("state"));
        } else if (s.name == "irq_handler_exit") {
            EXPECT_EQ(uint64_t(ev.payload<IrqExitP>(i).ret), raw("ret"));
        } else if (s.name.starts_with("softirq_")) {
            EXPECT_EQ(val(ev.payload<SoftirqP>(i).vec), raw("vec"));
        } else if (s.name == "sys_enter" || s.name == "sys_exit") {
            EXPECT_EQ(uint64_t(int64_t(ev.payload<SyscallP>(i).id)), raw("id"));
        } else if (s.name == "tick_stop") {
            EXPECT_EQ(val(ev.payload<TickStopP>(i).dependency), raw("dependency"));
        } else if (s.name == "sched_waking" || s.name == "sched_wakeup" || s.name == "sched_wakeup_new") {
            auto p = ev.payload<SchedWakeP>(i);
            EXPECT_EQ(val(p.pid), int(raw("pid")));
            EXPECT_EQ(val(p.targetCpu), int(raw("target_cpu")));
        } else if (s.name == "hrtimer_init") {
            auto p = ev.payload<HrtimerInitP>(i);
            EXPECT_EQ(uint64_t(p.clockid), raw("clockid"));
            EXPECT_EQ(val(p.mode), raw("mode"));
        } else {
            --checked;
        }
    }
    EXPECT_GT(checked, 2000u);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, TraceCmdReport, ::testing::ValuesIn(kFixtures));

TEST(TextImporterReal, TraceCmdLostEventsAndInstancePrefixes)
{
    // host-lost.dat: "inst: CPU:1 [5144 EVENTS DROPPED]" and the next record printed without its prefix
    const std::string lost = dataFile("host-lost.dat");
    if (!fs::exists(lost)) GTEST_SKIP() << "no " << lost;
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
    if (!fs::exists(dat)) GTEST_SKIP() << "no " << dat;
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
        EXPECT_TRUE(t->warnings.empty()) << t->warnings.front();
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

// ---- fields -------------------------------------------------------------------------------------------

class TextFields : public ::testing::Test
{
protected:
    StringPool pool;
    Decoded d;
    template <class T> T decode(EventKind k, std::string_view f, bool rawPrint = false)
    {
        EXPECT_TRUE(decodeFields(k, f, pool, d, rawPrint)) << f;
        EXPECT_EQ(d.size, payloadSize(k)) << f;
        return d.get<T>();
    }
    bool fails(EventKind k, std::string_view f) { return !decodeFields(k, f, pool, d); }
    std::string str(uint32_t id) const { return std::string(pool.str(id)); }
};

TEST_F(TextFields, HrtimerStart)
{
    auto t = decode<HrtimerStartP>(EventKind::HrtimerStart,
                                   "hrtimer=00000000e0454865 function=tick_nohz_handler expires=335020000000 "
                                   "softexpires=335019950000 mode=ABS|PINNED|HARD was_armed=1");
    EXPECT_EQ(val(t.timer), 0xe0454865u);
    EXPECT_EQ(str(t.function), "tick_nohz_handler");
    EXPECT_EQ(val(t.expires), 335020000000);
    EXPECT_EQ(val(t.softexpires), 335019950000);
    EXPECT_EQ(val(t.mode), 10u);
    EXPECT_EQ(val(t.wasArmed), 1);
    // trace-cmd plugin: symbol/offset, no mode, no was_armed
    auto p =
        decode<HrtimerStartP>(EventKind::HrtimerStart, "hrtimer=0xff3c2143be9235c0 "
                                                       "function=tick_sched_timer/0x0 expires=4780000000 "
                                                       "softexpires=4780000000");
    EXPECT_EQ(val(p.timer), 0xff3c2143be9235c0u);
    EXPECT_EQ(str(p.function), "tick_sched_timer");
    EXPECT_EQ(val(p.mode), kModeUnknown);
    EXPECT_EQ(val(p.wasArmed), -1);
    auto n = decode<HrtimerStartP>(EventKind::HrtimerStart, "hrtimer=0x1 function=hrtimer_wakeup expires=5 "
                                                            "softexpires=4 mode=0x0 was_armed=0");
    EXPECT_EQ(val(n.mode), 0u);
    EXPECT_EQ(val(n.wasArmed), 0);
    EXPECT_TRUE(fails(EventKind::HrtimerStart, "hrtimer=xyz function=f expires=1 softexpires=1"));
    EXPECT_TRUE(fails(EventKind::HrtimerStart, "hrtimer=0x1 function=f expires=1 softexpires=1 mode=FAST"));
    EXPECT_TRUE(fails(EventKind::HrtimerStart, "hrtimer=0x1 function=f expires=1"));
}

TEST_F(TextFields, HrtimerModes)
{
    uint32_t m = 0;
    for (auto [s, v] : {std::pair{"ABS", 0u},
                        {"REL", 1u},
                        {"ABS|PINNED", 2u},
                        {"REL|SOFT", 5u},
                        {"ABS|PINNED|HARD", 10u},
                        {"REL|PINNED|HARD", 11u},
                        {"HRTIMER_MODE_ABS_PINNED_HARD", 10u},
                        {"HRTIMER_MODE_REL", 1u},
                        {"0x9", 9u},
                        {"9", 9u}}) {
        ASSERT_TRUE(text::parseHrtimerMode(s, m)) << s;
        EXPECT_EQ(m, v) << s;
    }
    EXPECT_FALSE(text::parseHrtimerMode("ABS|BOGUS", m));
    EXPECT_FALSE(text::parseHrtimerMode("", m));
}

TEST_F(TextFields, HrtimerExpireCancelInit)
{
    auto a =
        decode<HrtimerExpireEntryP>(EventKind::HrtimerExpireEntry,
                                    "hrtimer=00000000e0454865 function=tick_nohz_handler now=335016041769");
    EXPECT_EQ(val(a.timer), 0xe0454865u);
    EXPECT_EQ(val(a.now), 335016041769);
    EXPECT_EQ(str(a.function), "tick_nohz_handler");
    auto b = decode<HrtimerExpireEntryP>(
        EventKind::HrtimerExpireEntry,
        "hrtimer=0xff3c2143be9235c0 now=4776084793 function=tick_sched_timer/0x0");
    EXPECT_EQ(val(b.now), 4776084793);
    EXPECT_EQ(str(b.function), "tick_sched_timer");
    EXPECT_EQ(val(decode<PtrP>(EventKind::HrtimerCancel, "hrtimer=00000000c2acb096").ptr), 0xc2acb096u);
    EXPECT_EQ(val(decode<PtrP>(EventKind::HrtimerExpireExit, "hrtimer=0xffff888627c1c6f8").ptr),
              0xffff888627c1c6f8u);
    EXPECT_EQ(val(decode<PtrP>(EventKind::TimerCancel, "timer=0xff62c3e8c0083e38").ptr), 0xff62c3e8c0083e38u);
    EXPECT_EQ(val(decode<PtrP>(EventKind::TimerInit, "timer=ffff880037a3b8e0").ptr), 0xffff880037a3b8e0u);
    auto i = decode<HrtimerInitP>(EventKind::HrtimerInit,
                                  "hrtimer=0xff3c21438214a308 clockid=CLOCK_MONOTONIC mode=0x9");
    EXPECT_EQ(val(i.clockid), 1);
    EXPECT_EQ(val(i.mode), 9u);
    auto s = decode<HrtimerInitP>(EventKind::HrtimerInit,
                                  "hrtimer=00000000abcd clockid=CLOCK_BOOTTIME mode=REL|HARD");
    EXPECT_EQ(val(s.timer), 0xabcdu);
    EXPECT_EQ(val(s.clockid), 7);
    EXPECT_EQ(val(s.mode), 9u);
    EXPECT_EQ(val(decode<HrtimerInitP>(EventKind::HrtimerInit, "hrtimer=0x1 clockid=11 mode=ABS").clockid),
              11);
    EXPECT_TRUE(fails(EventKind::HrtimerInit, "hrtimer=0x1 clockid=CLOCK_NOPE mode=ABS"));
}

TEST_F(TextFields, TimerWheel)
{
    auto a =
        decode<TimerStartP>(EventKind::TimerStart,
                            "timer=000000003a5d6586 function=process_timeout expires=4294976003 [timeout=1] "
                            "bucket_expiry=4294976004 cpu=1 idx=4 flags=");
    EXPECT_EQ(val(a.timer), 0x3a5d6586u);
    EXPECT_EQ(str(a.function), "process_timeout");
    EXPECT_EQ(val(a.expires), 4294976003u);
    EXPECT_EQ(val(a.now), 4294976002u);
    EXPECT_EQ(val(a.bucketExpiry), 4294976004u);
    EXPECT_EQ(val(a.flags), 1u | (4u << 22));
    auto b =
        decode<TimerStartP>(EventKind::TimerStart,
                            "timer=00000000f function=delayed_work_timer_fn expires=4294953747 [timeout=242] "
                            "bucket_expiry=4294953752 cpu=1 idx=99 flags=D|P|I");
    EXPECT_EQ(val(b.flags), 1u | 0x80000u | 0x100000u | 0x200000u | (99u << 22));
    EXPECT_EQ(val(b.now), 4294953747u - 242u);
    // trace-cmd on 6.1 (no bucket_expiry)
    auto c =
        decode<TimerStartP>(EventKind::TimerStart, "timer=0xff62c3e8c0083e38 function=process_timeout "
                                                   "expires=4294893443 [timeout=1] cpu=0 idx=4 flags=D|P|I");
    EXPECT_EQ(val(c.bucketExpiry), val(c.expires));
    EXPECT_TRUE(d.timerFlagsDPI);
    EXPECT_EQ(
        val(decode<TimerStartP>(EventKind::TimerStart, "timer=0x1 function=f expires=10 [timeout=-2] cpu=3 "
                                                       "idx=0 flags=M")
                .flags),
        3u | 0x40000u);
    EXPECT_EQ(val(d.get<TimerStartP>().now), 12u);
    // 3.x: no cpu, idx or flags
    EXPECT_EQ(val(decode<TimerStartP>(EventKind::TimerStart, "timer=ffff88003 function=f expires=4294937600 "
                                                             "[timeout=250]")
                      .flags),
              0u);
    EXPECT_TRUE(
        fails(EventKind::TimerStart, "timer=0x1 function=f expires=1 [timeout=1] cpu=0 idx=0 flags=Q"));
    auto e =
        decode<TimerExpireEntryP>(EventKind::TimerExpireEntry,
                                  "timer=0xff3c2143be92f450 function=mix_interrupt_randomness now=4294893446 "
                                  "baseclk=4294893445");
    EXPECT_EQ(val(e.now), 4294893446u);
    EXPECT_EQ(val(e.baseclk), 4294893445u);
    EXPECT_EQ(str(e.function), "mix_interrupt_randomness");
    EXPECT_EQ(
        val(decode<TimerExpireEntryP>(EventKind::TimerExpireEntry, "timer=f function=g now=77").baseclk),
        77u);
    auto idle = decode<TimerBaseIdleP>(EventKind::TimerBaseIdle, "is_idle=1 cpu=3");
    EXPECT_EQ(val(idle.isIdle), 1);
    EXPECT_EQ(val(idle.cpu), 3u);
}

TEST_F(TextFields, TickStop)
{
    auto a = decode<TickStopP>(EventKind::TickStop, "success=1 dependency=NONE");
    EXPECT_EQ(val(a.success), 1);
    EXPECT_EQ(val(a.dependency), 0u);
    EXPECT_EQ(val(a.reason), 0u);
    EXPECT_EQ(val(decode<TickStopP>(EventKind::TickStop, "success=0 dependency=SCHED").dependency), 4u);
    EXPECT_EQ(val(decode<TickStopP>(EventKind::TickStop, "success=0 dependency=RCU_EXP").dependency), 0x20u);
    EXPECT_EQ(val(decode<TickStopP>(EventKind::TickStop, "success=0 dependency=0x10").dependency), 0x10u);
    auto old = decode<TickStopP>(EventKind::TickStop, "success=0 msg=more than 1 task in runqueue");
    EXPECT_EQ(val(old.success), 0);
    EXPECT_EQ(val(old.dependency), 0u);
    EXPECT_EQ(str(old.reason), "more than 1 task in runqueue");
    EXPECT_EQ(val(decode<TickStopP>(EventKind::TickStop, "success=yes msg=").success), 1);
    EXPECT_TRUE(fails(EventKind::TickStop, "success=1 dependency=BOGUS"));
    EXPECT_TRUE(fails(EventKind::TickStop, "success=1"));
}

TEST_F(TextFields, IdleSoftirqIrqVectors)
{
    auto i = decode<CpuIdleP>(EventKind::CpuIdle, "state=4294967295 cpu_id=1");
    EXPECT_EQ(val(i.state), kCpuIdleExit);
    EXPECT_EQ(val(i.cpu), 1u);
    auto m = decode<CpuIdleMissP>(EventKind::CpuIdleMiss, "cpu_id=1 state=2 type=below");
    EXPECT_EQ(val(m.cpu), 1u);
    EXPECT_EQ(val(m.state), 2u);
    EXPECT_EQ(val(m.below), 1);
    EXPECT_EQ(val(decode<CpuIdleMissP>(EventKind::CpuIdleMiss, "cpu_id=0 state=1 type=above").below), 0);
    EXPECT_EQ(val(decode<SoftirqP>(EventKind::SoftirqRaise, "vec=9 [action=RCU]").vec), 9);
    EXPECT_EQ(val(decode<SoftirqP>(EventKind::SoftirqEntry, "vec=1 [action=TIMER]").vec), 1);
    EXPECT_TRUE(fails(EventKind::SoftirqExit, "vec=300 [action=X]"));
    auto e = decode<IrqEntryP>(EventKind::IrqHandlerEntry, "irq=24 name=virtio0-input.0");
    EXPECT_EQ(val(e.irq), 24);
    EXPECT_EQ(str(e.name), "virtio0-input.0");
    EXPECT_EQ(str(decode<IrqEntryP>(EventKind::IrqHandlerEntry, "irq=9 name=PCIe PME").name), "PCIe PME");
    EXPECT_EQ(val(decode<IrqExitP>(EventKind::IrqHandlerExit, "irq=24 ret=handled").ret), 1);
    EXPECT_EQ(val(decode<IrqExitP>(EventKind::IrqHandlerExit, "irq=4 ret=unhandled").ret), 0);
    EXPECT_TRUE(fails(EventKind::IrqHandlerExit, "irq=4 ret=maybe"));
    EXPECT_EQ(val(decode<VectorP>(EventKind::LocalTimerEntry, "vector=236").vector), 236);
    EXPECT_EQ(val(decode<VectorP>(EventKind::VectorExit, "vector=253").vector), 253);
    EXPECT_EQ(val(decode<CpuP>(EventKind::SchedWakeIdleNoIpi, "cpu=1").cpu), 1);
    EXPECT_TRUE(fails(EventKind::CpuIdle, "state=abc cpu_id=1"));
}

TEST_F(TextFields, PrevState)
{
    uint32_t v = 0;
    for (auto [s, want] : {std::pair{"R", 0u},
                           {"R+", 0x100u},
                           {"S", 1u},
                           {"D", 2u},
                           {"T", 4u},
                           {"t", 8u},
                           {"X", 0x10u},
                           {"Z", 0x20u},
                           {"P", 0x40u},
                           {"I", 0x80u},
                           {"S|D", 3u},
                           {"D|K", 2u},
                           {"D|W", 2u}}) {
        ASSERT_TRUE(text::parsePrevState(s, false, v)) << s;
        EXPECT_EQ(v, want) << s;
    }
    // the trace-cmd plugin prints the raw bits with "SDTtZXxW"
    for (auto [s, want] :
         {std::pair{"R", 0u}, {"W", 0x80u}, {"Z", 0x10u}, {"X", 0x20u}, {"x", 0x40u}, {"S|D", 3u}}) {
        ASSERT_TRUE(text::parsePrevState(s, true, v)) << s;
        EXPECT_EQ(v, want) << s;
    }
    for (const char *bad : {"", "+", "?", "SD", "S|", "|S"})
        EXPECT_FALSE(text::parsePrevState(bad, false, v)) << bad;
    EXPECT_FALSE(text::parsePrevState("I", true, v));
}

TEST_F(TextFields, SchedSwitch)
{
    auto a = decode<SchedSwitchP>(EventKind::SchedSwitch,
                                  "prev_comm=kworker/u4:2 prev_pid=123 prev_prio=120 prev_state=I ==> "
                                  "next_comm=swapper/0 next_pid=0 next_prio=120");
    EXPECT_EQ(val(a.prevPid), 123);
    EXPECT_EQ(val(a.nextPid), 0);
    EXPECT_EQ(val(a.prevPrio), 120);
    EXPECT_EQ(val(a.prevState), 0x80u);
    ASSERT_EQ(d.taskCount, 2);
    EXPECT_EQ(d.tasks[0].comm, "kworker/u4:2");
    EXPECT_EQ(d.tasks[1].comm, "swapper/0");
    auto b = decode<SchedSwitchP>(EventKind::SchedSwitch,
                                  "prev_comm=Web Content prev_pid=4567 prev_prio=120 prev_state=R+ ==> "
                                  "next_comm=my app next_pid=5 next_prio=100");
    EXPECT_EQ(val(b.prevState), 0x100u);
    EXPECT_EQ(val(b.nextPrio), 100);
    EXPECT_EQ(d.tasks[0].comm, "Web Content");
    EXPECT_EQ(d.tasks[1].comm, "my app");
    EXPECT_FALSE(d.pluginForm);
    auto p = decode<SchedSwitchP>(EventKind::SchedSwitch, "trace-cmd:114 [120] R ==> rcu_preempt:15 [120]");
    EXPECT_TRUE(d.pluginForm);
    EXPECT_EQ(val(p.prevPid), 114);
    EXPECT_EQ(val(p.nextPid), 15);
    EXPECT_EQ(val(p.prevState), 0u);
    EXPECT_EQ(d.tasks[0].comm, "trace-cmd");
    auto q = decode<SchedSwitchP>(EventKind::SchedSwitch,
                                  "Web Content:4567 [120] S|D ==> memfd:sealed-91:6415 [139]");
    EXPECT_EQ(val(q.prevPid), 4567);
    EXPECT_EQ(val(q.prevState), 3u);
    EXPECT_EQ(val(q.nextPid), 6415);
    EXPECT_EQ(val(q.nextPrio), 139);
    EXPECT_EQ(d.tasks[0].comm, "Web Content");
    EXPECT_EQ(d.tasks[1].comm, "memfd:sealed-91");
    EXPECT_EQ(val(decode<SchedSwitchP>(EventKind::SchedSwitch, "kworker/0:1:40 [120] W ==> swapper/0:0 [120]")
                      .prevState),
              0x80u);
    EXPECT_TRUE(fails(EventKind::SchedSwitch, "garbage"));
    EXPECT_TRUE(fails(EventKind::SchedSwitch, "a:1 [120] Q ==> b:2 [120]"));
    EXPECT_TRUE(
        fails(EventKind::SchedSwitch, "prev_comm=a prev_pid=1 prev_prio=1 prev_state=S ==> next_comm=b"));
}

TEST_F(TextFields, SchedWakeAndMigrate)
{
    auto a = decode<SchedWakeP>(EventKind::SchedWaking, "comm=rcu_preempt pid=15 prio=120 target_cpu=001");
    EXPECT_EQ(val(a.pid), 15);
    EXPECT_EQ(val(a.prio), 120);
    EXPECT_EQ(val(a.targetCpu), 1);
    EXPECT_EQ(d.tasks[0].comm, "rcu_preempt");
    auto old = decode<SchedWakeP>(EventKind::SchedWakeup, "comm=foo pid=1 prio=120 success=1 target_cpu=002");
    EXPECT_EQ(val(old.targetCpu), 2);
    decode<SchedWakeP>(EventKind::SchedWakeup, "comm=Web Content pid=4567 prio=120 target_cpu=000");
    EXPECT_EQ(d.tasks[0].comm, "Web Content");
    EXPECT_EQ(d.tasks[0].pid, 4567);
    auto p = decode<SchedWakeP>(EventKind::SchedWakeup, "rcu_preempt:15 [120] CPU:000");
    EXPECT_TRUE(d.pluginForm);
    EXPECT_EQ(val(p.pid), 15);
    EXPECT_EQ(val(p.targetCpu), 0);
    EXPECT_EQ(val(decode<SchedWakeP>(EventKind::SchedWakeup, "init:1 [120] success=1 CPU:001").targetCpu), 1);
    auto n = decode<SchedWakeP>(EventKind::SchedWakeupNew, "memfd:sealed-91:6415 [120] CPU:001");
    EXPECT_EQ(val(n.pid), 6415);
    EXPECT_EQ(d.tasks[0].comm, "memfd:sealed-91");
    EXPECT_EQ(val(decode<SchedWakeP>(EventKind::SchedWakeup, "a:1 [99]").targetCpu), -1);
    auto m = decode<SchedMigrateP>(EventKind::SchedMigrateTask,
                                   "comm=capture.sh pid=6414 prio=120 orig_cpu=0 dest_cpu=1");
    EXPECT_EQ(val(m.pid), 6414);
    EXPECT_EQ(val(m.origCpu), 0);
    EXPECT_EQ(val(m.destCpu), 1);
    EXPECT_EQ(d.tasks[0].comm, "capture.sh");
    EXPECT_TRUE(fails(EventKind::SchedMigrateTask, "comm=a pid=1 prio=1 orig_cpu=0"));
}

TEST_F(TextFields, SyscallsPrintIpiUserAndGeneric)
{
    EXPECT_EQ(
        val(decode<SyscallP>(EventKind::SysEnter, "NR 231 (0, e7, 3c, e64596794d089126, ffffffffffffff78, 0)")
                .id),
        231);
    EXPECT_EQ(val(decode<SyscallP>(EventKind::SysExit, "NR -1 = 114").id), -1);
    EXPECT_EQ(val(decode<SyscallP>(EventKind::SysExit, "id=61 ret=114").id), 61);
    EXPECT_TRUE(fails(EventKind::SysEnter, "NR x (1)"));
    EXPECT_EQ(str(decode<TextP>(EventKind::Print, "tracing_mark_write: workload task 0 start cpu=1").text),
              "workload task 0 start cpu=1");
    EXPECT_EQ(str(decode<TextP>(EventKind::Print, "tracing_mark_write: a: b").text), "a: b");
    EXPECT_EQ(str(decode<TextP>(EventKind::Print, "tracing_mark_write:").text), "");
    EXPECT_EQ(str(decode<TextP>(EventKind::Print, "mark 2: x", true).text), "mark 2: x");
    auto ipi = decode<IpiSendCpuP>(EventKind::IpiSendCpu,
                                   "cpu=0 callsite=on_each_cpu_cond_mask+0x20/0x60 "
                                   "callback=generic_smp_call_function_single_interrupt+0x0/0x10");
    EXPECT_EQ(val(ipi.cpu), 0u);
    EXPECT_EQ(str(ipi.callsite), "on_each_cpu_cond_mask");
    EXPECT_EQ(str(ipi.callback), "generic_smp_call_function_single_interrupt");
    EXPECT_EQ(
        str(decode<IpiSendCpuP>(EventKind::IpiSendCpu, "cpu=1 callsite=f+0x20 callback=g+0x0").callsite),
        "f");
    EXPECT_TRUE(decodeFields(EventKind::UserEnter, "", pool, d));
    EXPECT_EQ(d.size, 0);
    EXPECT_TRUE(decodeFields(EventKind::UserExit, "dummy=0", pool, d));
    EXPECT_EQ(str(decode<TextP>(EventKind::Generic, "address=0x7f47cb27b9c4 ip=0x7f47cb27b9c4").text),
              "address=0x7f47cb27b9c4 ip=0x7f47cb27b9c4");
}

TEST_F(TextFields, PointersAndSymbols)
{
    uint64_t v = 0;
    ASSERT_TRUE(text::parsePointer("00000000a1b2c3d4", v));
    EXPECT_EQ(v, 0xa1b2c3d4u);
    ASSERT_TRUE(text::parsePointer("0xffff888627c1c6f8", v));
    EXPECT_EQ(v, 0xffff888627c1c6f8u);
    ASSERT_TRUE(text::parsePointer("(null)", v));
    EXPECT_EQ(v, 0u);
    EXPECT_FALSE(text::parsePointer("0x", v));
    EXPECT_FALSE(text::parsePointer("12345678901234567", v));
    EXPECT_FALSE(text::parsePointer("xyz", v));
    EXPECT_EQ(text::stripSymbolOffset("tick_sched_timer/0x0"), "tick_sched_timer");
    EXPECT_EQ(text::stripSymbolOffset("f+0x20/0x60"), "f");
    EXPECT_EQ(text::stripSymbolOffset("0xffffffff99368830"), "0xffffffff99368830");
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
}

} // namespace
} // namespace tickscope
