// SPDX-License-Identifier: GPL-3.0-or-later
// The special handlers of the kinds whose printed form is not "key=value" (EventKindHandlers.h).
#include "EventKindHandlers.h"

#include "FieldText.h"
#include "Trace.h"

#include <array>
#include <cinttypes>
#include <cstring>

namespace tickscope::kindhandlers {
namespace {

using namespace scan;

// "comm:pid" of the trace-cmd plugins; the comm may contain ':'.
bool splitCommPid(std::string_view s, FieldTask &t)
{
    const size_t c = s.rfind(':');
    if (c == npos) return false;
    t.comm = s.substr(0, c);
    return parseDec(s.substr(c + 1), t.pid);
}

// "... [120]" at the end of s: prio, and s without it.
bool takeBracketPrio(std::string_view &s, int16_t &prio)
{
    s = rtrim(s);
    const size_t open = s.rfind('[');
    if (s.empty() || s.back() != ']' || open == npos ||
        !parseDec(s.substr(open + 1, s.size() - open - 2), prio))
        return false;
    s = rtrim(s.substr(0, open));
    return true;
}

template <class T> bool intField(std::string_view f, std::string_view key, T &v)
{
    std::string_view s;
    return field(f, key, s) && parseIntAuto(s, v);
}

// sched_switch: the comms may contain spaces (split on the numeric fields from the right), and the
// trace-cmd plugin prints "prev:114 [120] R ==> next:15 [120]".
// sched_waking/wakeup/wakeup_new ("comm=X pid=..."; the plugin's "comm:15 [120] success=1 CPU:000") and
// sched_migrate_task ("comm=X pid=... orig_cpu=... dest_cpu=...").
bool schedWakeText(std::string_view f, bool migrate, Decoded &out)
{
    FieldTask &t = out.tasks[0];
    int16_t prio = 0;
    int16_t cpus[2] = {-1, -1};
    if (f.starts_with("comm=")) {
        const size_t pp = f.rfind(" pid=");
        if (pp == npos || pp < 5) return false;
        t.comm = f.substr(5, pp - 5);
        const std::string_view tail = f.substr(pp + 1);
        std::string_view cpu;
        if (!intField(tail, "pid", t.pid) || !intField(tail, "prio", prio)) return false;
        if (migrate && (!intField(tail, "orig_cpu", cpus[0]) || !intField(tail, "dest_cpu", cpus[1])))
            return false;
        if (!migrate && field(tail, "target_cpu", cpu) && !parseDec(cpu, cpus[0])) return false;
    } else {
        if (migrate) return false;
        std::string_view s = rtrim(f);
        size_t sp = s.rfind(' ');
        if (sp != npos && s.substr(sp + 1).starts_with("CPU:")) {
            if (!parseDec(s.substr(sp + 5), cpus[0])) return false;
            s = rtrim(s.substr(0, sp));
            sp = s.rfind(' ');
        }
        if (sp != npos && s.substr(sp + 1).starts_with("success=")) s = rtrim(s.substr(0, sp));
        if (!takeBracketPrio(s, prio) || !splitCommPid(s, t)) return false;
        out.pluginForm = true;
    }
    if (migrate)
        out.set(SchedMigrateP{t.pid, prio, cpus[0], cpus[1]});
    else
        out.set(SchedWakeP{t.pid, prio, cpus[0]});
    out.taskCount = 1;
    return true;
}

// timer_start prints "[timeout=%ld]" (expires - now) instead of now, and packs the flags word's cpu, idx
// and letters into three fields: "cpu=1 idx=4 flags=D|P|I".
constexpr std::string_view kTimerFlagLetters = "MDPI"; // TIMER_MIGRATING 0x40000 .. TIMER_IRQSAFE 0x200000
constexpr uint32_t kTimerCpuMask = 0x3FFFF, kTimerIdxShift = 22; // the letters are bits 18-21

// raw_syscalls print "NR 231 (args...)" / "NR 1 = ret"; only the number is kept. `report -R` prints id=.
// ftrace print: trace-cmd shows the event's ip first ("tracing_mark_write: message"); tracefs names the
// event by the ip (textNamed) and prints only the message.
// x86 irq_vectors events other than local_timer: any *_entry/_exit of the system, or, in text traces
// (where the system is not printed), the known vector names.
constexpr std::array<std::string_view, 11> kVectorStems{"reschedule",
                                                        "call_function",
                                                        "call_function_single",
                                                        "irq_work",
                                                        "thermal_apic",
                                                        "error_apic",
                                                        "spurious_apic",
                                                        "x86_platform_ipi",
                                                        "deferred_error_apic",
                                                        "threshold_apic",
                                                        "reboot"};

bool isVector(std::string_view system, std::string_view name, std::string_view suffix)
{
    if (!name.ends_with(suffix)) return false;
    if (system == "irq_vectors") return true;
    if (!system.empty()) return false;
    const std::string_view stem = name.substr(0, name.size() - suffix.size());
    return std::find(kVectorStems.begin(), kVectorStems.end(), stem) != kVectorStems.end();
}

} // namespace

bool schedSwitchText(const KindSpec &, std::string_view f, StringPool &, Decoded &out, bool)
{
    int16_t prevPrio = 0;
    int16_t nextPrio = 0;
    uint32_t prevState = 0;
    FieldTask &prev = out.tasks[0];
    FieldTask &next = out.tasks[1];
    if (f.starts_with("prev_comm=")) {
        const size_t np = f.rfind(" next_pid=");
        size_t nc = np == npos ? npos : f.rfind(" ==> next_comm=", np);
        // `trace-cmd report -R` (raw fields): no " ==> ", prev_state as the kernel's number
        const bool raw = nc == npos && np != npos;
        if (raw) nc = f.rfind(" next_comm=", np);
        if (nc == npos) return false;
        const size_t skip = raw ? 11 : 15;
        next.comm = f.substr(nc + skip, np - nc - skip);
        const std::string_view left = f.substr(0, nc);
        const size_t pp = left.rfind(" prev_pid=");
        if (pp == npos || pp < 10) return false;
        prev.comm = left.substr(10, pp - 10);
        const std::string_view lt = left.substr(pp + 1);
        const std::string_view rt = f.substr(np + 1);
        std::string_view state;
        // the raw number has the letters' bits (S=0x1 .. I=0x80) and 0x100 for a preempted task ("R+")
        const auto rawState = [&](std::string_view v) {
            uint64_t n = 0;
            if (!parseU64Auto(v, n) || n > 0x1FF) return false;
            prevState = static_cast<uint32_t>(n);
            return true;
        };
        if (!intField(lt, "prev_pid", prev.pid) || !intField(lt, "prev_prio", prevPrio) ||
            !field(lt, "prev_state", state) ||
            !(raw ? rawState(state) : parsePrevState(state, false, prevState)) ||
            !intField(rt, "next_pid", next.pid) || !intField(rt, "next_prio", nextPrio))
            return false;
    } else {
        // try each " ==> " until the left side fits
        bool ok = false;
        for (size_t arrow = f.find(" ==> "); !ok && arrow != npos; arrow = f.find(" ==> ", arrow + 1)) {
            std::string_view left = f.substr(0, arrow);
            std::string_view right = f.substr(arrow + 5);
            const size_t sp = left.rfind(' ');
            ok = sp != npos && parsePrevState(left.substr(sp + 1), true, prevState) &&
                 takeBracketPrio(left = left.substr(0, sp), prevPrio) && splitCommPid(left, prev) &&
                 takeBracketPrio(right, nextPrio) && splitCommPid(right, next);
        }
        if (!ok) return false;
        out.pluginForm = true;
    }
    out.set(SchedSwitchP{prev.pid, next.pid, prevPrio, nextPrio, static_cast<uint16_t>(prevState)});
    out.taskCount = 2;
    return true;
}

bool schedWakeupText(const KindSpec &, std::string_view f, StringPool &, Decoded &out, bool)
{
    return schedWakeText(f, false, out);
}

bool schedMigrateText(const KindSpec &, std::string_view f, StringPool &, Decoded &out, bool)
{
    return schedWakeText(f, true, out);
}

bool timerStartText(const KindSpec &s, std::string_view f, StringPool &strings, Decoded &out, bool)
{
    // timer, function, expires and bucket_expiry by the table; now and flags below
    static constexpr std::array<size_t, 4> kGeneric{0, 1, 2, 4};
    FieldSpec fields[kGeneric.size()];
    for (size_t i = 0; i < kGeneric.size(); ++i)
        fields[i] = s.fields[kGeneric[i]];
    fields[3].ref = 2; // bucket_expiry = expires (index 2 here too)
    KindSpec part = s;
    part.fields = fields;
    if (!kinds::decodeTextFields(part, f, strings, out)) return false;
    TimerStartP p = out.get<TimerStartP>();
    std::string_view v;
    int64_t timeout = 0;
    if (const size_t t = f.find("[timeout="); t != npos) {
        v = f.substr(t + 9, f.find(' ', t) == npos ? npos : f.find(' ', t) - t - 9);
        if (v.empty() || v.back() != ']' || !parseDec(v.substr(0, v.size() - 1), timeout)) return false;
    }
    p.now = p.expires - static_cast<uint64_t>(timeout);
    // `trace-cmd report -R` (raw fields): now= and the flags word as numbers
    uint64_t rawNow = 0, rawFlags = 0;
    if (field(f, "now", v) && parseU64Auto(v, rawNow) && field(f, "flags", v) && parseU64Auto(v, rawFlags) &&
        rawFlags <= UINT32_MAX) {
        p.now = rawNow;
        p.flags = static_cast<uint32_t>(rawFlags);
        out.set(p);
        return true;
    }
    uint32_t cpu = 0;
    uint32_t idx = 0;
    if (field(f, "cpu", v) && (!parseIntAuto(v, cpu) || cpu > kTimerCpuMask)) return false;
    if (field(f, "idx", v) && (!parseIntAuto(v, idx) || idx > 0x3FF)) return false;
    uint32_t letters = 0;
    if (field(f, "flags", v)) {
        out.timerFlagsDPI = v == "D|P|I";
        for (size_t bar = 0; !v.empty(); v = bar == npos ? std::string_view{} : v.substr(bar + 1)) {
            bar = v.find('|');
            const std::string_view t = v.substr(0, bar);
            uint64_t extra = 0;
            if (t.size() == 1 && kTimerFlagLetters.find(t[0]) != npos)
                letters |= 0x40000u << kTimerFlagLetters.find(t[0]);
            else if (t.starts_with("0x") && parseU64Auto(t, extra))
                letters |= static_cast<uint32_t>(extra);
            else
                return false;
        }
    }
    p.flags = cpu | letters | (idx << kTimerIdxShift);
    out.set(p);
    return true;
}

void timerStartPrint(const KindSpec &, const EventView &e, std::string &o)
{
    TimerStartP p;
    std::memcpy(&p, e.payload, sizeof p);
    appendf(o, "timer=%016" PRIx64 " function=", e.trace.strings.pointer(p.timer));
    o += e.trace.strings.str(p.function);
    appendf(o, " expires=%" PRIu64 " [timeout=%" PRId64 "] bucket_expiry=%" PRIu64, p.expires,
            static_cast<int64_t>(p.expires - p.now), p.bucketExpiry);
    appendf(o, " cpu=%u idx=%u flags=", p.flags & kTimerCpuMask, p.flags >> kTimerIdxShift);
    const size_t start = o.size();
    for (size_t b = 0; b < kTimerFlagLetters.size(); ++b) {
        if (p.flags & (0x40000u << b)) {
            if (o.size() > start) o += '|';
            o += kTimerFlagLetters[b];
        }
    }
}

bool syscallText(const KindSpec &s, std::string_view f, StringPool &strings, Decoded &out, bool)
{
    if (f.starts_with("NR ")) {
        const std::string_view nr = f.substr(3);
        int32_t id = 0;
        if (!parseDec(nr.substr(0, nr.find(' ')), id)) return false;
        out.set(SyscallP{id});
        return true;
    }
    return kinds::decodeTextFields(s, f, strings, out);
}

void syscallPrint(const KindSpec &, const EventView &e, std::string &o)
{
    SyscallP p;
    std::memcpy(&p, e.payload, sizeof p);
    appendf(o, "NR %d", p.id);
}

void genericPrint(const KindSpec &, const EventView &e, std::string &o)
{
    TextP p;
    std::memcpy(&p, e.payload, sizeof p);
    const std::string_view kept = e.trace.strings.str(p.text);
    const auto &types = e.trace.types();
    if (e.type < types.size() && types[e.type].format)
        printRecord(*types[e.type].format, kept, e.trace.strings, o);
    else
        o += kept;
}

bool printText(const KindSpec &, std::string_view f, StringPool &strings, Decoded &out, bool textNamed)
{
    const size_t p = textNamed ? npos : f.find(": ");
    if (p != npos && p > 0 && !hasSpace(f.substr(0, p)))
        f = f.substr(p + 2);
    else if (!textNamed && !f.empty() && f.back() == ':' && !hasSpace(f))
        f = {};
    out.set(TextP{strings.intern(f)});
    return true;
}

bool isVectorEntry(std::string_view system, std::string_view name)
{
    return isVector(system, name, "_entry");
}

bool isVectorExit(std::string_view system, std::string_view name)
{
    return isVector(system, name, "_exit");
}

} // namespace tickscope::kindhandlers
