// Field decoding of ftrace text events: fills each payload struct from the printed forms of its event, in
// the tracefs print format and in the trace-cmd plugin forms (hrtimer, timer wheel, tick_stop, idle,
// softirq, irq, vectors, sched_*, syscalls, print, ipi, generic). The line structure is TextLineParser.cpp.
#include "TextLineParser.h"

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <initializer_list>
#include <limits>
#include <type_traits>

namespace tickscope::text {
using namespace detail;
namespace {

// Decimal, or hex with 0x (trace-cmd prints enums it cannot resolve as 0x9).
bool parseU64Auto(std::string_view s, uint64_t &v)
{
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        const auto r = std::from_chars(s.data() + 2, s.data() + s.size(), v, 16);
        return r.ec == std::errc() && r.ptr == s.data() + s.size();
    }
    return parseDec(s, v);
}

template <class T> bool parseIntAuto(std::string_view s, T &v)
{
    if (!s.empty() && s[0] == '-') return parseDec(s, v);
    uint64_t u = 0;
    if (!parseU64Auto(s, u) || u > static_cast<uint64_t>(std::numeric_limits<T>::max())) return false;
    v = static_cast<T>(u);
    return true;
}

// Value of "key=" (key given with its '='), where the key starts the text or follows a space; the value
// runs to the next space.
bool field(std::string_view f, std::string_view key, std::string_view &value)
{
    for (size_t p = f.find(key); p != npos; p = f.find(key, p + 1)) {
        if (p == 0 || f[p - 1] == ' ') {
            const size_t v = p + key.size();
            const size_t e = f.find(' ', v);
            value = f.substr(v, e == npos ? npos : e - v);
            return true;
        }
    }
    return false;
}

template <class T> bool intField(std::string_view f, std::string_view key, T &v)
{
    std::string_view s;
    return field(f, key, s) && parseIntAuto(s, v);
}

// Everything after "key=" to the end (irq names and old tick_stop messages may contain spaces).
bool tailField(std::string_view f, std::string_view key, std::string_view &value)
{
    if (!field(f, key, value)) return false;
    value = f.substr(static_cast<size_t>(value.data() - f.data()));
    return true;
}

// Table-driven decoding of the "key=value" fields of one payload struct.
enum class Ty : uint8_t
{
    Int,
    Ptr,
    Sym
};
struct Spec
{
    std::string_view key;
    Ty ty;
    uint8_t offset;
    uint8_t size;
    bool isSigned;
};
// clang-format off
#define TS_SPEC(key, ty, T, m) Spec{key, Ty::ty, offsetof(T, m), sizeof(T::m), std::is_signed_v<decltype(T::m)>}
// clang-format on

template <class U> void store(unsigned char *dst, uint64_t v)
{
    const auto x = static_cast<U>(v);
    std::memcpy(dst, &x, sizeof(U));
}

bool readSpecs(std::string_view f, std::initializer_list<Spec> specs, StringPool &strings, Decoded &out)
{
    for (const Spec &s : specs) {
        std::string_view v;
        if (!field(f, s.key, v)) return false;
        uint64_t u = 0;
        if (s.ty == Ty::Ptr) {
            if (!parsePointer(v, u)) return false;
        } else if (s.ty == Ty::Sym) {
            if (v.empty()) return false;
            u = strings.intern(stripSymbolOffset(v));
        } else if (s.isSigned) {
            int64_t i = 0;
            const int64_t lim =
                s.size == 8 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (8 * s.size - 1)) - 1;
            if (!parseIntAuto(v, i) || i > lim || i < -lim - 1) return false;
            u = static_cast<uint64_t>(i);
        } else if (!parseU64Auto(v, u) || (s.size < 8 && u >> (8 * s.size))) {
            return false;
        }
        unsigned char *dst = out.payload + s.offset;
        switch (s.size) {
        case 1:
            store<uint8_t>(dst, u);
            break;
        case 2:
            store<uint16_t>(dst, u);
            break;
        case 4:
            store<uint32_t>(dst, u);
            break;
        default:
            store<uint64_t>(dst, u);
            break;
        }
    }
    return true;
}

// Starts a payload of type T with its defaults, so that specs and custom code fill it in place.
template <class T> T &begin(Decoded &out, const T &init = T{})
{
    out.set(init);
    return *reinterpret_cast<T *>(out.payload);
}

// ---- field decoders with structure ----------------------------------------------------------------------

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

bool decodeSchedSwitch(std::string_view f, Decoded &out)
{
    // Aligned locals: the payload structs are packed, and their members must not be bound to references.
    int16_t prevPrio = 0;
    int16_t nextPrio = 0;
    uint32_t prevState = 0;
    FieldTask &prev = out.tasks[0];
    FieldTask &next = out.tasks[1];
    if (f.starts_with("prev_comm=")) {
        // Split on the numeric fields from the right, so that comms may contain spaces.
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
        if (!intField(lt, "prev_pid=", prev.pid) || !intField(lt, "prev_prio=", prevPrio) ||
            !field(lt, "prev_state=", state) || !parsePrevState(state, false, prevState) ||
            !intField(rt, "next_pid=", next.pid) || !intField(rt, "next_prio=", nextPrio))
            return false;
    } else {
        // trace-cmd plugin: "prev:114 [120] R ==> next:15 [120]"; try each " ==> " until the left side fits.
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

// sched_waking/wakeup/wakeup_new ("comm=X pid=..."), sched_migrate_task ("comm=X pid=... orig_cpu=...")
bool decodeSchedWake(std::string_view f, bool migrate, Decoded &out)
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
        if (!intField(tail, "pid=", t.pid) || !intField(tail, "prio=", prio)) return false;
        if (migrate && (!intField(tail, "orig_cpu=", cpus[0]) || !intField(tail, "dest_cpu=", cpus[1])))
            return false;
        if (!migrate && field(tail, "target_cpu=", cpu) && !parseDec(cpu, cpus[0])) return false;
    } else {
        // trace-cmd plugin: "comm:15 [120] CPU:000", "comm:15 [120] success=1 CPU:000"
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

bool decodeHrtimerInit(std::string_view f, StringPool &strings, Decoded &out)
{
    static constexpr std::string_view kClocks[] = {
        "CLOCK_REALTIME",          "CLOCK_MONOTONIC",     "CLOCK_PROCESS_CPUTIME_ID",
        "CLOCK_THREAD_CPUTIME_ID", "CLOCK_MONOTONIC_RAW", "CLOCK_REALTIME_COARSE",
        "CLOCK_MONOTONIC_COARSE",  "CLOCK_BOOTTIME",      "CLOCK_REALTIME_ALARM",
        "CLOCK_BOOTTIME_ALARM",    "CLOCK_SGI_CYCLE",     "CLOCK_TAI"};
    HrtimerInitP &p = begin<HrtimerInitP>(out);
    std::string_view clock;
    std::string_view modeText;
    uint32_t mode = 0;
    int32_t clockid = 0;
    if (!readSpecs(f, {TS_SPEC("hrtimer=", Ptr, HrtimerInitP, timer)}, strings, out) ||
        !field(f, "clockid=", clock) || !field(f, "mode=", modeText) || !parseHrtimerMode(modeText, mode))
        return false;
    const auto *it = std::find(std::begin(kClocks), std::end(kClocks), clock);
    if (it != std::end(kClocks))
        clockid = static_cast<int32_t>(it - std::begin(kClocks));
    else if (!parseIntAuto(clock, clockid))
        return false;
    p.mode = mode;
    p.clockid = clockid;
    return true;
}

bool decodeTimerStart(std::string_view f, StringPool &strings, Decoded &out)
{
    TimerStartP &p = begin<TimerStartP>(out);
    if (!readSpecs(f,
                   {TS_SPEC("timer=", Ptr, TimerStartP, timer),
                    TS_SPEC("function=", Sym, TimerStartP, function),
                    TS_SPEC("expires=", Int, TimerStartP, expires)},
                   strings, out))
        return false;
    // `now` is not printed; "[timeout=%ld]" is expires - now.
    std::string_view v;
    int64_t timeout = 0;
    if (field(f, "[timeout=", v) &&
        (v.empty() || v.back() != ']' || !parseDec(v.substr(0, v.size() - 1), timeout)))
        return false;
    p.now = p.expires - static_cast<uint64_t>(timeout);
    uint64_t bucketExpiry = p.expires;
    if (field(f, "bucket_expiry=", v) && !parseIntAuto(v, bucketExpiry)) return false;
    p.bucketExpiry = bucketExpiry;
    uint32_t cpu = 0;
    uint32_t idx = 0;
    if (field(f, "cpu=", v) && (!parseIntAuto(v, cpu) || cpu > 0x3FFFF)) return false;
    if (field(f, "idx=", v) && (!parseIntAuto(v, idx) || idx > 0x3FF)) return false;
    uint32_t letters = 0;
    if (field(f, "flags=", v)) {
        out.timerFlagsDPI = v == "D|P|I";
        for (size_t bar = 0; !v.empty(); v = bar == npos ? std::string_view{} : v.substr(bar + 1)) {
            bar = v.find('|');
            const std::string_view t = v.substr(0, bar);
            static constexpr std::string_view kLetters = "MDPI";
            uint64_t extra = 0;
            if (t.size() == 1 && kLetters.find(t[0]) != npos)
                letters |= 0x40000u << kLetters.find(t[0]);
            else if (t.starts_with("0x") && parseU64Auto(t, extra))
                letters |= static_cast<uint32_t>(extra);
            else
                return false;
        }
    }
    p.flags = cpu | letters | (idx << 22);
    return true;
}

bool decodeTickStop(std::string_view f, StringPool &strings, Decoded &out)
{
    TickStopP &p = begin<TickStopP>(out);
    std::string_view v;
    int32_t success = 0;
    uint32_t dependency = 0;
    if (!field(f, "success=", v)) return false;
    if (v == "yes" || v == "no")
        success = v == "yes";
    else if (!parseDec(v, success))
        return false;
    p.success = success;
    if (field(f, "dependency=", v)) {
        if (isTickDependencyName(v))
            dependency = tickDependencyFromName(v); // 0 for NONE
        else if (!parseIntAuto(v, dependency))
            return false;
        p.dependency = dependency;
        return true;
    }
    // before 4.6 the reason was a string: "success=0 msg=more than 1 task in runqueue"
    if (!tailField(f, "msg=", v)) return false;
    p.reason = strings.intern(v);
    return true;
}

bool decodeFieldsImpl(EventKind kind, std::string_view f, StringPool &strings, Decoded &out, bool rawPrint)
{
    std::string_view v;
    switch (kind) {
    case EventKind::Generic:
        out.set(TextP{strings.intern(f)});
        return true;
    case EventKind::HrtimerStart: {
        HrtimerStartP &p = begin<HrtimerStartP>(out, HrtimerStartP{0, 0, 0, 0, kModeUnknown, -1});
        int armed = 0;
        uint32_t mode = ~0u;
        if (!readSpecs(f,
                       {TS_SPEC("hrtimer=", Ptr, HrtimerStartP, timer),
                        TS_SPEC("function=", Sym, HrtimerStartP, function),
                        TS_SPEC("expires=", Int, HrtimerStartP, expires),
                        TS_SPEC("softexpires=", Int, HrtimerStartP, softexpires)},
                       strings, out) ||
            (field(f, "mode=", v) && !parseHrtimerMode(v, mode)) ||
            (field(f, "was_armed=", v) && !parseDec(v, armed)))
            return false;
        p.mode = mode == ~0u ? kModeUnknown : static_cast<uint8_t>(mode);
        if (field(f, "was_armed=", v)) p.wasArmed = armed ? 1 : 0;
        return true;
    }
    case EventKind::HrtimerExpireEntry:
        begin<HrtimerExpireEntryP>(out);
        return readSpecs(f,
                         {TS_SPEC("hrtimer=", Ptr, HrtimerExpireEntryP, timer),
                          TS_SPEC("now=", Int, HrtimerExpireEntryP, now),
                          TS_SPEC("function=", Sym, HrtimerExpireEntryP, function)},
                         strings, out);
    case EventKind::HrtimerCancel:
    case EventKind::HrtimerExpireExit:
    case EventKind::TimerExpireExit:
    case EventKind::TimerCancel:
    case EventKind::TimerInit:
        begin<PtrP>(out);
        return readSpecs(f, {TS_SPEC("hrtimer=", Ptr, PtrP, ptr)}, strings, out) ||
               readSpecs(f, {TS_SPEC("timer=", Ptr, PtrP, ptr)}, strings, out);
    case EventKind::HrtimerInit:
        return decodeHrtimerInit(f, strings, out);
    case EventKind::TimerStart:
        return decodeTimerStart(f, strings, out);
    case EventKind::TimerExpireEntry: {
        TimerExpireEntryP &p = begin<TimerExpireEntryP>(out);
        if (!readSpecs(f,
                       {TS_SPEC("timer=", Ptr, TimerExpireEntryP, timer),
                        TS_SPEC("function=", Sym, TimerExpireEntryP, function),
                        TS_SPEC("now=", Int, TimerExpireEntryP, now)},
                       strings, out))
            return false;
        uint64_t baseclk = p.now;
        if (field(f, "baseclk=", v) && !parseIntAuto(v, baseclk)) return false;
        p.baseclk = baseclk;
        return true;
    }
    case EventKind::TimerBaseIdle:
        begin<TimerBaseIdleP>(out);
        return readSpecs(
            f, {TS_SPEC("is_idle=", Int, TimerBaseIdleP, isIdle), TS_SPEC("cpu=", Int, TimerBaseIdleP, cpu)},
            strings, out);
    case EventKind::TickStop:
        return decodeTickStop(f, strings, out);
    case EventKind::CpuIdle:
        begin<CpuIdleP>(out);
        return readSpecs(f, {TS_SPEC("state=", Int, CpuIdleP, state), TS_SPEC("cpu_id=", Int, CpuIdleP, cpu)},
                         strings, out);
    case EventKind::CpuIdleMiss: {
        CpuIdleMissP &p = begin<CpuIdleMissP>(out);
        if (!readSpecs(
                f, {TS_SPEC("cpu_id=", Int, CpuIdleMissP, cpu), TS_SPEC("state=", Int, CpuIdleMissP, state)},
                strings, out))
            return false;
        if (field(f, "type=", v) &&
            (v == "below" || v == "above")) { // "type=%s" is below ? "below" : "above"
            p.below = v == "below";
            return true;
        }
        return readSpecs(f, {TS_SPEC("below=", Int, CpuIdleMissP, below)}, strings, out);
    }
    case EventKind::SoftirqRaise:
    case EventKind::SoftirqEntry:
    case EventKind::SoftirqExit:
        begin<SoftirqP>(out);
        return readSpecs(f, {TS_SPEC("vec=", Int, SoftirqP, vec)}, strings, out);
    case EventKind::IrqHandlerEntry: {
        IrqEntryP &p = begin<IrqEntryP>(out);
        if (!readSpecs(f, {TS_SPEC("irq=", Int, IrqEntryP, irq)}, strings, out) || !tailField(f, "name=", v))
            return false;
        p.name = strings.intern(v);
        return true;
    }
    case EventKind::IrqHandlerExit: {
        IrqExitP &p = begin<IrqExitP>(out);
        if (!readSpecs(f, {TS_SPEC("irq=", Int, IrqExitP, irq)}, strings, out) || !field(f, "ret=", v))
            return false;
        int32_t ret = v == "handled" ? 1 : 0;
        if (v != "handled" && v != "unhandled" && !parseIntAuto(v, ret)) return false;
        p.ret = ret;
        return true;
    }
    case EventKind::LocalTimerEntry:
    case EventKind::LocalTimerExit:
    case EventKind::VectorEntry:
    case EventKind::VectorExit:
        begin<VectorP>(out);
        return readSpecs(f, {TS_SPEC("vector=", Int, VectorP, vector)}, strings, out);
    case EventKind::SchedSwitch:
        return decodeSchedSwitch(f, out);
    case EventKind::SchedWaking:
    case EventKind::SchedWakeup:
    case EventKind::SchedWakeupNew:
        return decodeSchedWake(f, false, out);
    case EventKind::SchedMigrateTask:
        return decodeSchedWake(f, true, out);
    case EventKind::SchedWakeIdleNoIpi:
        begin<CpuP>(out);
        return readSpecs(f, {TS_SPEC("cpu=", Int, CpuP, cpu)}, strings, out);
    case EventKind::UserEnter:
    case EventKind::UserExit:
        return true;
    case EventKind::SysEnter:
    case EventKind::SysExit: {
        SyscallP &p = begin<SyscallP>(out);
        // "NR 231 (0, e7, ...)", "NR 1 = 1"; "id=231 ..." with `report -R`
        if (f.starts_with("NR ")) {
            const std::string_view nr = f.substr(3);
            int32_t id = 0;
            if (!parseDec(nr.substr(0, nr.find(' ')), id)) return false;
            p.id = id;
            return true;
        }
        return readSpecs(f, {TS_SPEC("id=", Int, SyscallP, id)}, strings, out);
    }
    case EventKind::Print: {
        // trace-cmd shows the ftrace print event's ip first: "tracing_mark_write: message"
        const size_t p = rawPrint ? npos : f.find(": ");
        if (p != npos && p > 0 && !hasSpace(f.substr(0, p)))
            f = f.substr(p + 2);
        else if (!rawPrint && !f.empty() && f.back() == ':' && !hasSpace(f))
            f = {};
        out.set(TextP{strings.intern(f)});
        return true;
    }
    case EventKind::IpiSendCpu:
        begin<IpiSendCpuP>(out);
        return readSpecs(f,
                         {TS_SPEC("cpu=", Int, IpiSendCpuP, cpu),
                          TS_SPEC("callsite=", Sym, IpiSendCpuP, callsite),
                          TS_SPEC("callback=", Sym, IpiSendCpuP, callback)},
                         strings, out);
    case EventKind::Count:
        break;
    }
    return false;
}

#undef TS_SPEC

} // namespace

// ---- public ---------------------------------------------------------------------------------------------

bool parsePrevState(std::string_view s, bool pluginLetters, uint32_t &state)
{
    // tracefs prints the kernel's TASK_REPORT letters; the trace-cmd sched_switch plugin prints the same raw
    // bits with its own older table. Letters of pre-4.14 kernels (K wakekill, W waking, N noload, x dead)
    // have no TASK_REPORT bit and add nothing.
    static constexpr std::string_view kKernel = "SDTtXZPI";
    static constexpr std::string_view kPlugin = "SDTtZXxW";
    static constexpr std::string_view kLegacy = "KWNx";
    uint32_t v = 0;
    if (!s.empty() && s.back() == '+') {
        v |= 0x100; // TASK_REPORT_MAX: preempted while runnable
        s.remove_suffix(1);
    }
    if (s.empty()) return false;
    for (size_t bar = 0; s != "R"; s = s.substr(bar + 1)) {
        bar = s.find('|');
        if ((bar == npos ? s.size() : bar) != 1) return false;
        const std::string_view table = pluginLetters ? kPlugin : kKernel;
        if (const size_t bit = table.find(s[0]); bit != npos)
            v |= 1u << bit;
        else if (pluginLetters || kLegacy.find(s[0]) == npos)
            return false;
        if (bar == npos) break;
    }
    state = v;
    return true;
}

bool parseHrtimerMode(std::string_view s, uint32_t &mode)
{
    if (s.empty()) return false;
    if (isDigit(s[0])) return parseIntAuto(s, mode);
    // "ABS|PINNED|HARD" (tracefs) or "HRTIMER_MODE_ABS_PINNED_HARD" (an unresolved enum name)
    const char sep = s.starts_with("HRTIMER_MODE_") ? '_' : '|';
    if (sep == '_') s.remove_prefix(13);
    static constexpr std::string_view kNames[] = {"REL", "PINNED", "SOFT", "HARD"};
    uint32_t v = 0;
    for (size_t p = 0; p != npos; s = s.substr(p + 1)) {
        p = s.find(sep);
        const std::string_view t = s.substr(0, p);
        const auto *it = std::find(std::begin(kNames), std::end(kNames), t);
        uint64_t extra = 0;
        if (it != std::end(kNames))
            v |= 1u << (it - std::begin(kNames));
        else if (t.starts_with("0x") && parseU64Auto(t, extra))
            v |= static_cast<uint32_t>(extra);
        else if (t != "ABS")
            return false;
        if (p == npos) break;
    }
    mode = v;
    return true;
}

bool parsePointer(std::string_view s, uint64_t &v)
{
    if (s == "(null)") {
        v = 0;
        return true;
    }
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
    if (s.empty() || s.size() > 16) return false;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v, 16);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

std::string_view stripSymbolOffset(std::string_view sym)
{
    const size_t p = sym.find_first_of("+/");
    return p == npos || p == 0 ? sym : sym.substr(0, p);
}

bool decodeFields(EventKind kind, std::string_view fields, StringPool &strings, Decoded &out,
                  bool rawPrintText)
{
    out = Decoded{};
    return decodeFieldsImpl(kind, fields, strings, out, rawPrintText);
}

} // namespace tickscope::text
