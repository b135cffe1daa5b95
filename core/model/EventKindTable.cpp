// The built-in event kinds: one entry per kind (see EventKinds.h for what an entry says). The value
// codecs and the few kinds' special handlers come first; the table is at the end of the file.
#include "EventKinds.h"

#include "FieldText.h"
#include "Trace.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cinttypes>
#include <cstdio>

namespace tickscope {

namespace {
// %p: a kernel address (trace.dat) or the hashed value tracefs prints, 16 hex digits.
void printPointer(std::string &o, uint64_t v)
{
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
    o += buf;
}
} // namespace
const ValueCodec codecs::pointer{printPointer, scan::parsePointer};
const ValueCodec codecs::boolean{nullptr, nullptr, true};

namespace {

using namespace scan;

template <class... A> void appendf(std::string &out, const char *f, A... a)
{
    char buf[64];
    const int n = std::snprintf(buf, sizeof buf, f, a...);
    out.append(buf, static_cast<size_t>(std::clamp(n, 0, static_cast<int>(sizeof buf) - 1)));
}

// ---- value codecs -------------------------------------------------------------------------------------

// enum hrtimer_mode, printed as tracefs does: ABS|PINNED|HARD
void printHrtimerMode(std::string &o, uint64_t v)
{
    o += (v & 1) ? "REL" : "ABS";
    if (v & 2) o += "|PINNED";
    if (v & 4) o += "|SOFT";
    if (v & 8) o += "|HARD";
    if (v & ~uint64_t{15}) appendf(o, "|0x%" PRIx64, v & ~uint64_t{15});
}
bool readHrtimerMode(std::string_view s, uint64_t &v)
{
    uint32_t m = 0;
    if (!parseHrtimerMode(s, m)) return false;
    v = m;
    return true;
}
constexpr ValueCodec kHrtimerMode{printHrtimerMode, readHrtimerMode};

constexpr std::string_view kClocks[] = {
    "CLOCK_REALTIME",       "CLOCK_MONOTONIC",       "CLOCK_PROCESS_CPUTIME_ID", "CLOCK_THREAD_CPUTIME_ID",
    "CLOCK_MONOTONIC_RAW",  "CLOCK_REALTIME_COARSE", "CLOCK_MONOTONIC_COARSE",   "CLOCK_BOOTTIME",
    "CLOCK_REALTIME_ALARM", "CLOCK_BOOTTIME_ALARM",  "CLOCK_SGI_CYCLE",          "CLOCK_TAI"};
void printClockId(std::string &o, uint64_t v)
{
    if (v < std::size(kClocks))
        o += kClocks[v];
    else
        appendf(o, "%" PRId64, static_cast<int64_t>(v));
}
bool readClockId(std::string_view s, uint64_t &v)
{
    const auto *it = std::find(std::begin(kClocks), std::end(kClocks), s);
    int32_t id = 0;
    if (it != std::end(kClocks))
        id = static_cast<int32_t>(it - std::begin(kClocks));
    else if (!parseIntAuto(s, id))
        return false;
    v = static_cast<uint64_t>(static_cast<int64_t>(id));
    return true;
}
constexpr ValueCodec kClockId{printClockId, readClockId};

void printPrevState(std::string &o, uint64_t v)
{
    o += formatPrevState(static_cast<uint32_t>(v));
}
bool readPrevState(std::string_view s, uint64_t &v)
{
    uint32_t st = 0;
    if (!parsePrevState(s, false, st)) return false;
    v = st;
    return true;
}
constexpr ValueCodec kPrevState{printPrevState, readPrevState};

// tick_stop's dependency: one enum tick_dep_bits name (NONE for 0), a number for anything else
void printTickDependency(std::string &o, uint64_t v)
{
    const auto m = static_cast<uint32_t>(v);
    if (m == 0 || (std::has_single_bit(m) && tickDependencyFromName(tickDependencyName(m)) == m))
        o += tickDependencyName(m);
    else
        appendf(o, "0x%x", m);
}
bool readTickDependency(std::string_view s, uint64_t &v)
{
    uint32_t m = 0;
    if (isTickDependencyName(s))
        m = tickDependencyFromName(s); // 0 for NONE
    else if (!parseIntAuto(s, m))
        return false;
    v = m;
    return true;
}
constexpr ValueCodec kTickDependency{printTickDependency, readTickDependency};

// tick_stop's success: a number, "yes"/"no" in old kernels
bool readYesNo(std::string_view s, uint64_t &v)
{
    int32_t i = 0;
    if (s == "yes" || s == "no")
        i = s == "yes";
    else if (!parseDec(s, i))
        return false;
    v = static_cast<uint64_t>(static_cast<int64_t>(i));
    return true;
}
constexpr ValueCodec kYesNo{nullptr, readYesNo};

// irq_handler_exit's ret: tracefs prints handled/unhandled; other irqreturn_t values stay numbers
void printIrqReturn(std::string &o, uint64_t v)
{
    if (v <= 1)
        o += v ? "handled" : "unhandled";
    else
        appendf(o, "%" PRId64, static_cast<int64_t>(v));
}
bool readIrqReturn(std::string_view s, uint64_t &v)
{
    int32_t r = s == "handled" ? 1 : 0;
    if (s != "handled" && s != "unhandled" && !parseIntAuto(s, r)) return false;
    v = static_cast<uint64_t>(static_cast<int64_t>(r));
    return true;
}
constexpr ValueCodec kIrqReturn{printIrqReturn, readIrqReturn};

// cpu_idle_miss: the format's `below` prints as "type=below" / "type=above"
bool readBelowAbove(std::string_view s, uint64_t &v)
{
    if (s == "below" || s == "above") {
        v = s == "below";
        return true;
    }
    return parseU64Auto(s, v);
}
constexpr ValueCodec kBelowAbove{nullptr, readBelowAbove, true};

void printSoftirqVec(std::string &o, uint64_t v)
{
    static constexpr const char *kNames[] = {"HI",       "TIMER",   "NET_TX", "NET_RX",  "BLOCK",
                                             "IRQ_POLL", "TASKLET", "SCHED",  "HRTIMER", "RCU"};
    appendf(o, "%" PRIu64 " [action=%s]", v, v < std::size(kNames) ? kNames[v] : "?");
}
constexpr ValueCodec kSoftirqVec{printSoftirqVec};

void printCpu3(std::string &o, uint64_t v) // sched_waking's target_cpu=%03d
{
    appendf(o, "%03" PRId64, static_cast<int64_t>(v));
}
constexpr ValueCodec kCpu3{printCpu3};

// ---- special handlers ---------------------------------------------------------------------------------

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
bool schedSwitchText(const KindSpec &, std::string_view f, StringPool &, Decoded &out, bool)
{
    int16_t prevPrio = 0;
    int16_t nextPrio = 0;
    uint32_t prevState = 0;
    FieldTask &prev = out.tasks[0];
    FieldTask &next = out.tasks[1];
    if (f.starts_with("prev_comm=")) {
        const size_t np = f.rfind(" next_pid=");
        const size_t nc = np == npos ? npos : f.rfind(" ==> next_comm=", np);
        if (nc == npos) return false;
        next.comm = f.substr(nc + 15, np - nc - 15);
        const std::string_view left = f.substr(0, nc);
        const size_t pp = left.rfind(" prev_pid=");
        if (pp == npos || pp < 10) return false;
        prev.comm = left.substr(10, pp - 10);
        const std::string_view lt = left.substr(pp + 1);
        const std::string_view rt = f.substr(np + 1);
        std::string_view state;
        if (!intField(lt, "prev_pid", prev.pid) || !intField(lt, "prev_prio", prevPrio) ||
            !field(lt, "prev_state", state) || !parsePrevState(state, false, prevState) ||
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

bool schedWakeupText(const KindSpec &, std::string_view f, StringPool &, Decoded &out, bool)
{
    return schedWakeText(f, false, out);
}

bool schedMigrateText(const KindSpec &, std::string_view f, StringPool &, Decoded &out, bool)
{
    return schedWakeText(f, true, out);
}

// timer_start prints "[timeout=%ld]" (expires - now) instead of now, and packs the flags word's cpu, idx
// and letters into three fields: "cpu=1 idx=4 flags=D|P|I".
constexpr std::string_view kTimerFlagLetters = "MDPI"; // TIMER_MIGRATING 0x40000 .. TIMER_IRQSAFE 0x200000
constexpr uint32_t kTimerCpuMask = 0x3FFFF, kTimerIdxShift = 22; // the letters are bits 18-21

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
    appendf(o, "timer=%016" PRIx64 " function=", p.timer);
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

// raw_syscalls print "NR 231 (args...)" / "NR 1 = ret"; only the number is kept. `report -R` prints id=.
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

// ftrace print: trace-cmd shows the event's ip first ("tracing_mark_write: message"); tracefs names the
// event by the ip (textNamed) and prints only the message.
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

bool isVectorEntry(std::string_view system, std::string_view name)
{
    return isVector(system, name, "_entry");
}

bool isVectorExit(std::string_view system, std::string_view name)
{
    return isVector(system, name, "_exit");
}

// ---- fields of each payload ---------------------------------------------------------------------------

// clang-format off
constexpr FieldSpec kGenericF[] = {FieldSpec{"text", {}, TS_AT(TextP, text), FieldRole::Text}.with(kPlain)};
constexpr FieldSpec kHrtimerStartF[] = {
    value("hrtimer", TS_AT(HrtimerStartP, timer), &codecs::pointer),
    symbol("function", TS_AT(HrtimerStartP, function)),
    value("expires", TS_AT(HrtimerStartP, expires)),
    value("softexpires", TS_AT(HrtimerStartP, softexpires)),
    value("mode", TS_AT(HrtimerStartP, mode), &kHrtimerMode).orElse(kModeUnknown), // not traced before 4.x
    value("was_armed", TS_AT(HrtimerStartP, wasArmed), &codecs::boolean).orElse(-1),        // 6.16+
};
constexpr FieldSpec kHrtimerExpireEntryF[] = {
    value("hrtimer", TS_AT(HrtimerExpireEntryP, timer), &codecs::pointer),
    symbol("function", TS_AT(HrtimerExpireEntryP, function)),
    value("now", TS_AT(HrtimerExpireEntryP, now)),
};
constexpr FieldSpec kHrtimerPtrF[] = {value("hrtimer", TS_AT(PtrP, ptr), &codecs::pointer)};
constexpr FieldSpec kTimerPtrF[] = {value("timer", TS_AT(PtrP, ptr), &codecs::pointer)};
constexpr FieldSpec kHrtimerInitF[] = {
    value("hrtimer", TS_AT(HrtimerInitP, timer), &codecs::pointer),
    value("clockid", TS_AT(HrtimerInitP, clockid), &kClockId),
    value("mode", TS_AT(HrtimerInitP, mode), &kHrtimerMode),
};
constexpr FieldSpec kTimerStartF[] = {
    value("timer", TS_AT(TimerStartP, timer), &codecs::pointer),
    symbol("function", TS_AT(TimerStartP, function)),
    value("expires", TS_AT(TimerStartP, expires)),
    value("now", TS_AT(TimerStartP, now)),
    value("bucket_expiry", TS_AT(TimerStartP, bucketExpiry)).sameAs(2), // 6.8+
    value("flags", TS_AT(TimerStartP, flags)),
};
constexpr FieldSpec kTimerExpireEntryF[] = {
    value("timer", TS_AT(TimerExpireEntryP, timer), &codecs::pointer),
    symbol("function", TS_AT(TimerExpireEntryP, function)),
    value("now", TS_AT(TimerExpireEntryP, now)),
    value("baseclk", TS_AT(TimerExpireEntryP, baseclk)).sameAs(2), // 4.8+
};
constexpr FieldSpec kTimerBaseIdleF[] = {
    value("is_idle", TS_AT(TimerBaseIdleP, isIdle), &codecs::boolean),
    value("cpu", TS_AT(TimerBaseIdleP, cpu)),
};
constexpr FieldSpec kTickStopF[] = {
    value("success", TS_AT(TickStopP, success), &kYesNo),
    value("dependency", TS_AT(TickStopP, dependency), &kTickDependency).unless(2), // 4.6+
    // before 4.6 a string reason; trace.dat stores it as a pointer, so it is read from the printed record
    string("msg", TS_AT(TickStopP, reason)).alias("error_msg").with(kTail | kFromPrint).orElse(0),
};
constexpr FieldSpec kCpuIdleF[] = {
    value("state", TS_AT(CpuIdleP, state)), // kCpuIdleExit on exit
    value("cpu_id", TS_AT(CpuIdleP, cpu)),
};
constexpr FieldSpec kCpuIdleMissF[] = {
    value("cpu_id", TS_AT(CpuIdleMissP, cpu)),
    value("state", TS_AT(CpuIdleMissP, state)),
    value("below", TS_AT(CpuIdleMissP, below), &kBelowAbove).alias("type"),
};
constexpr FieldSpec kSoftirqF[] = {value("vec", TS_AT(SoftirqP, vec), &kSoftirqVec)};
constexpr FieldSpec kIrqEntryF[] = {
    value("irq", TS_AT(IrqEntryP, irq)),
    string("name", TS_AT(IrqEntryP, name)).with(kTail), // names may contain spaces
};
constexpr FieldSpec kIrqExitF[] = {
    value("irq", TS_AT(IrqExitP, irq)),
    value("ret", TS_AT(IrqExitP, ret), &kIrqReturn),
};
constexpr FieldSpec kVectorF[] = {value("vector", TS_AT(VectorP, vector))};
constexpr FieldSpec kSchedSwitchF[] = {
    comm("prev_comm", 1),
    value("prev_pid", TS_AT(SchedSwitchP, prevPid)),
    value("prev_prio", TS_AT(SchedSwitchP, prevPrio)),
    value("prev_state", TS_AT(SchedSwitchP, prevState), &kPrevState),
    comm("next_comm", 5).after(" ==> "),
    value("next_pid", TS_AT(SchedSwitchP, nextPid)),
    value("next_prio", TS_AT(SchedSwitchP, nextPrio)),
};
constexpr FieldSpec kSchedWakeF[] = {
    comm("comm", 1),
    value("pid", TS_AT(SchedWakeP, pid)),
    value("prio", TS_AT(SchedWakeP, prio)),
    value("target_cpu", TS_AT(SchedWakeP, targetCpu), &kCpu3).orElse(-1), // 3.x printed success= instead
};
constexpr FieldSpec kSchedMigrateF[] = {
    comm("comm", 1),
    value("pid", TS_AT(SchedMigrateP, pid)),
    value("prio", TS_AT(SchedMigrateP, prio)),
    value("orig_cpu", TS_AT(SchedMigrateP, origCpu)),
    value("dest_cpu", TS_AT(SchedMigrateP, destCpu)),
};
constexpr FieldSpec kCpuF[] = {value("cpu", TS_AT(CpuP, cpu))};
constexpr FieldSpec kSyscallF[] = {value("id", TS_AT(SyscallP, id))};
constexpr FieldSpec kPrintF[] = {string("buf", TS_AT(TextP, text)).with(kPlain | kTail | kTrimNewlines)};
constexpr FieldSpec kIpiSendCpuF[] = {
    value("cpu", TS_AT(IpiSendCpuP, cpu)),
    symbol("callsite", TS_AT(IpiSendCpuP, callsite)),
    symbol("callback", TS_AT(IpiSendCpuP, callback)),
};
// clang-format on

template <class T> constexpr uint8_t size()
{
    return static_cast<uint8_t>(sizeof(T));
}

using K = EventKind;
using Kind = KindSpec;
// kind, system, name(s), payload size, fields; then the entry's special handling, if any
// clang-format off
const KindSpec kBuiltin[] = {
    {K::Generic, "", "generic", size<TextP>(), kGenericF},
    {K::HrtimerStart, "timer", "hrtimer_start", size<HrtimerStartP>(), kHrtimerStartF},
    {K::HrtimerCancel, "timer", "hrtimer_cancel", size<PtrP>(), kHrtimerPtrF},
    {K::HrtimerExpireEntry, "timer", "hrtimer_expire_entry", size<HrtimerExpireEntryP>(), kHrtimerExpireEntryF},
    {K::HrtimerExpireExit, "timer", "hrtimer_expire_exit", size<PtrP>(), kHrtimerPtrF},
    {K::HrtimerInit, "timer", "hrtimer_init|hrtimer_setup", size<HrtimerInitP>(), kHrtimerInitF}, // setup: 6.15+
    Kind{K::TimerStart, "timer", "timer_start", size<TimerStartP>(), kTimerStartF}
        .textBy(timerStartText).printBy(timerStartPrint),
    {K::TimerExpireEntry, "timer", "timer_expire_entry", size<TimerExpireEntryP>(), kTimerExpireEntryF},
    {K::TimerExpireExit, "timer", "timer_expire_exit", size<PtrP>(), kTimerPtrF},
    {K::TimerCancel, "timer", "timer_cancel", size<PtrP>(), kTimerPtrF},
    {K::TimerInit, "timer", "timer_init", size<PtrP>(), kTimerPtrF},
    {K::TimerBaseIdle, "timer", "timer_base_idle", size<TimerBaseIdleP>(), kTimerBaseIdleF},
    {K::TickStop, "timer", "tick_stop", size<TickStopP>(), kTickStopF},
    {K::CpuIdle, "power", "cpu_idle", size<CpuIdleP>(), kCpuIdleF},
    {K::CpuIdleMiss, "power", "cpu_idle_miss", size<CpuIdleMissP>(), kCpuIdleMissF},
    {K::SoftirqRaise, "irq", "softirq_raise", size<SoftirqP>(), kSoftirqF},
    {K::SoftirqEntry, "irq", "softirq_entry", size<SoftirqP>(), kSoftirqF},
    {K::SoftirqExit, "irq", "softirq_exit", size<SoftirqP>(), kSoftirqF},
    {K::IrqHandlerEntry, "irq", "irq_handler_entry", size<IrqEntryP>(), kIrqEntryF},
    {K::IrqHandlerExit, "irq", "irq_handler_exit", size<IrqExitP>(), kIrqExitF},
    {K::LocalTimerEntry, "irq_vectors", "local_timer_entry", size<VectorP>(), kVectorF},
    {K::LocalTimerExit, "irq_vectors", "local_timer_exit", size<VectorP>(), kVectorF},
    Kind{K::VectorEntry, "irq_vectors", "vector_entry", size<VectorP>(), kVectorF}.matchBy(isVectorEntry),
    Kind{K::VectorExit, "irq_vectors", "vector_exit", size<VectorP>(), kVectorF}.matchBy(isVectorExit),
    Kind{K::SchedSwitch, "sched", "sched_switch", size<SchedSwitchP>(), kSchedSwitchF}.textBy(schedSwitchText),
    Kind{K::SchedWaking, "sched", "sched_waking", size<SchedWakeP>(), kSchedWakeF}.textBy(schedWakeupText),
    Kind{K::SchedWakeup, "sched", "sched_wakeup", size<SchedWakeP>(), kSchedWakeF}.textBy(schedWakeupText),
    Kind{K::SchedWakeupNew, "sched", "sched_wakeup_new", size<SchedWakeP>(), kSchedWakeF}.textBy(schedWakeupText),
    Kind{K::SchedMigrateTask, "sched", "sched_migrate_task", size<SchedMigrateP>(), kSchedMigrateF}
        .textBy(schedMigrateText),
    {K::SchedWakeIdleNoIpi, "sched", "sched_wake_idle_without_ipi", size<CpuP>(), kCpuF},
    {K::UserEnter, "context_tracking", "user_enter", 0, {}},
    {K::UserExit, "context_tracking", "user_exit", 0, {}},
    Kind{K::SysEnter, "raw_syscalls", "sys_enter", size<SyscallP>(), kSyscallF}.textBy(syscallText).printBy(syscallPrint),
    Kind{K::SysExit, "raw_syscalls", "sys_exit", size<SyscallP>(), kSyscallF}.textBy(syscallText).printBy(syscallPrint),
    Kind{K::Print, "ftrace", "print", size<TextP>(), kPrintF}.textBy(printText).shownAs("tracing_mark_write"),
    {K::IpiSendCpu, "ipi", "ipi_send_cpu", size<IpiSendCpuP>(), kIpiSendCpuF},
};
// clang-format on
static_assert(std::size(kBuiltin) == static_cast<size_t>(EventKind::Count), "one entry per built-in kind");

} // namespace

std::span<const KindSpec> builtinKinds()
{
    return kBuiltin;
}

// tick_stop dependency names (include/linux/tick.h, enum tick_dep_bits).
namespace {
constexpr std::array<std::string_view, 6> kDepNames{"POSIX_TIMER",    "PERF_EVENTS", "SCHED",
                                                    "CLOCK_UNSTABLE", "RCU",         "RCU_EXP"};
}

std::string_view tickDependencyName(uint32_t mask)
{
    if (mask == 0) return "NONE";
    for (size_t bit = 0; bit < kDepNames.size(); ++bit) {
        if (mask & (1u << bit)) return kDepNames[bit];
    }
    return "UNKNOWN";
}

uint32_t tickDependencyFromName(std::string_view name)
{
    for (size_t bit = 0; bit < kDepNames.size(); ++bit) {
        if (kDepNames[bit] == name) return 1u << bit;
    }
    return 0;
}

bool isTickDependencyName(std::string_view name)
{
    return name == "NONE" || tickDependencyFromName(name) != 0;
}

} // namespace tickscope
