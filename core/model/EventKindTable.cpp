// SPDX-License-Identifier: GPL-3.0-or-later
// The built-in event kinds: one entry per kind (see EventKinds.h for what an entry says). The value
// codecs come first, the table at the end; the few kinds' special handlers are in EventKindHandlers.cpp.
#include "EventKindHandlers.h"

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
using namespace kindhandlers;

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

// ---- fields of each payload ---------------------------------------------------------------------------

// clang-format off
constexpr FieldSpec kGenericF[] = {FieldSpec{"text", {}, TS_AT(TextP, text), FieldRole::Text}.with(kPlain)};
constexpr FieldSpec kHrtimerStartF[] = {
    pointer("hrtimer", TS_AT(HrtimerStartP, timer)),
    symbol("function", TS_AT(HrtimerStartP, function)),
    value("expires", TS_AT(HrtimerStartP, expires)),
    value("softexpires", TS_AT(HrtimerStartP, softexpires)),
    value("mode", TS_AT(HrtimerStartP, mode), &kHrtimerMode).orElse(kModeUnknown), // not traced before 4.x
    value("was_armed", TS_AT(HrtimerStartP, wasArmed), &codecs::boolean).orElse(-1),        // 6.16+
};
constexpr FieldSpec kHrtimerExpireEntryF[] = {
    pointer("hrtimer", TS_AT(HrtimerExpireEntryP, timer)),
    symbol("function", TS_AT(HrtimerExpireEntryP, function)),
    value("now", TS_AT(HrtimerExpireEntryP, now)),
};
constexpr FieldSpec kHrtimerPtrF[] = {pointer("hrtimer", TS_AT(PtrP, ptr))};
constexpr FieldSpec kTimerPtrF[] = {pointer("timer", TS_AT(PtrP, ptr))};
constexpr FieldSpec kHrtimerInitF[] = {
    pointer("hrtimer", TS_AT(HrtimerInitP, timer)),
    value("clockid", TS_AT(HrtimerInitP, clockid), &kClockId),
    value("mode", TS_AT(HrtimerInitP, mode), &kHrtimerMode),
};
constexpr FieldSpec kTimerStartF[] = {
    pointer("timer", TS_AT(TimerStartP, timer)),
    symbol("function", TS_AT(TimerStartP, function)),
    value("expires", TS_AT(TimerStartP, expires)),
    value("now", TS_AT(TimerStartP, now)),
    value("bucket_expiry", TS_AT(TimerStartP, bucketExpiry)).sameAs(2), // 6.8+
    value("flags", TS_AT(TimerStartP, flags)),
};
constexpr FieldSpec kTimerExpireEntryF[] = {
    pointer("timer", TS_AT(TimerExpireEntryP, timer)),
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
// The text importer reads these records' printed forms as calls (FuncGraphText), not through the fields.
constexpr FieldSpec kFuncgraphEntryF[] = {
    symbol("func", TS_AT(FuncgraphEntryP, func)),
    value("depth", TS_AT(FuncgraphEntryP, depth)),
};
constexpr FieldSpec kFuncgraphExitF[] = {
    symbol("func", TS_AT(FuncgraphExitP, func)),
    value("depth", TS_AT(FuncgraphExitP, depth)),
    value("calltime", TS_AT(FuncgraphExitP, calltime)),
    value("rettime", TS_AT(FuncgraphExitP, rettime)),
    value("overrun", TS_AT(FuncgraphExitP, overrun)).orElse(0),
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
    Kind{K::Generic, "", "generic", size<TextP>(), kGenericF}.printBy(genericPrint),
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
    {K::FuncgraphEntry, "ftrace", "funcgraph_entry", size<FuncgraphEntryP>(), kFuncgraphEntryF},
    {K::FuncgraphExit, "ftrace", "funcgraph_exit", size<FuncgraphExitP>(), kFuncgraphExitF},
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
