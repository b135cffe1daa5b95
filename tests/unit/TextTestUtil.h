// SPDX-License-Identifier: GPL-3.0-or-later
// Shared helpers of the ftrace text importer tests (Text*Test.cpp): temp files, `trace-cmd report` runs,
// an independent simple reading of event lines and counting, and a printable form of every decoded value.
#pragma once

#include "import/TextImporter.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unistd.h>
#include <utility>
#include <vector>

namespace tickscope::texttest {

namespace fs = std::filesystem;

// One scratch directory per test process, removed with its files when the process exits.
struct ScratchDir
{
    fs::path path;
    ScratchDir()
    {
        std::string tmpl = (fs::temp_directory_path() / "textimp-XXXXXX").string();
        if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
        path = tmpl;
    }
    ~ScratchDir()
    {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

inline const fs::path &tmpDir()
{
    static const ScratchDir dir;
    return dir.path;
}

inline std::string dataFile(const std::string &name)
{
    return std::string(TICKSCOPE_TEST_DATA) + "/" + name;
}

inline std::string writeFile(const std::string &name, const std::string &content)
{
    const fs::path p = tmpDir() / name;
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
}

// `trace-cmd report ARGS DAT` into a temp file (once per combination).
inline std::string report(const std::string &dat, const std::string &args)
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

inline std::unique_ptr<Trace> loadOne(const std::string &path, const LoadOptions &opt = {})
{
    auto traces = importText(path, opt);
    EXPECT_EQ(traces.size(), 1u);
    return traces.empty() ? nullptr : std::move(traces.front());
}

inline std::vector<std::string> split(std::string_view s)
{
    std::vector<std::string> out;
    std::istringstream in{std::string(s)};
    for (std::string t; in >> t;)
        out.push_back(t);
    return out;
}

inline bool isTsToken(const std::string &t)
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

inline SimpleLine simpleParse(const std::string &line)
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

inline Counts countText(const std::string &path)
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

inline Counts countTrace(const Trace &t)
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
template <class T> inline T val(T v)
{
    return v;
}

inline bool hasUnparsedType(const Trace &t)
{
    for (const auto &ty : t.types()) {
        if (ty.system == "unparsed") return true;
    }
    return false;
}

// Every decoded value of an event, strings resolved. `lossy` drops what the trace-cmd plugins do not print
// (hrtimer_start mode/was_armed, the preempted bit of prev_state).
inline std::string describe(const Trace &t, int cpu, size_t i, bool lossy = false)
{
    const CpuEvents &ev = t.cpu(cpu);
    const EventType &ty = t.types()[ev.type(i)];
    std::ostringstream o;
    auto s = [&](uint32_t id) { return std::string(t.strings.str(id)); };
    auto ptr = [&](uint32_t id) { return t.strings.pointer(id); }; // ids follow the decode order
    o << ty.system << ':' << ty.name << " pid=" << ev.pid(i) << ' ';
    switch (ty.kind) {
    case EventKind::HrtimerStart: {
        auto p = ev.payload<HrtimerStartP>(i);
        o << ptr(p.timer) << ' ' << s(p.function) << ' ' << p.expires << ' ' << p.softexpires;
        if (!lossy) o << ' ' << int(p.mode) << ' ' << int(p.wasArmed);
        break;
    }
    case EventKind::HrtimerExpireEntry: {
        auto p = ev.payload<HrtimerExpireEntryP>(i);
        o << ptr(p.timer) << ' ' << p.now << ' ' << s(p.function);
        break;
    }
    case EventKind::HrtimerCancel:
    case EventKind::HrtimerExpireExit:
    case EventKind::TimerExpireExit:
    case EventKind::TimerCancel:
    case EventKind::TimerInit:
        o << ptr(ev.payload<PtrP>(i).ptr);
        break;
    case EventKind::HrtimerInit: {
        auto p = ev.payload<HrtimerInitP>(i);
        o << ptr(p.timer) << ' ' << p.clockid << ' ' << p.mode;
        break;
    }
    case EventKind::TimerStart: {
        auto p = ev.payload<TimerStartP>(i);
        o << ptr(p.timer) << ' ' << s(p.function) << ' ' << p.expires << ' ' << p.now << ' ' << p.bucketExpiry
          << ' ' << p.flags;
        break;
    }
    case EventKind::TimerExpireEntry: {
        auto p = ev.payload<TimerExpireEntryP>(i);
        o << ptr(p.timer) << ' ' << s(p.function) << ' ' << p.now << ' ' << p.baseclk;
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

inline bool hasWarning(const Trace &t, std::string_view start)
{
    for (const auto &w : t.warnings) {
        if (w.starts_with(start)) return true;
    }
    return false;
}

} // namespace tickscope::texttest
