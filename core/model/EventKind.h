// SPDX-License-Identifier: GPL-3.0-or-later
// The event kinds tickscope decodes into compact columns, and the payload layout of each. What each kind's
// fields are called in formats and texts, and how they print, is the kind's entry in EventKindTable.cpp.
// Everything else is kept as a Generic event (name + text where the source has text).
#pragma once

#include <cstdint>
#include <string_view>

namespace tickscope {

enum class EventKind : uint8_t
{
    Generic,
    HrtimerStart,
    HrtimerCancel,
    HrtimerExpireEntry,
    HrtimerExpireExit,
    HrtimerInit, // hrtimer_init (old) and hrtimer_setup (6.15+)
    TimerStart,
    TimerExpireEntry,
    TimerExpireExit,
    TimerCancel,
    TimerInit,
    TimerBaseIdle,
    TickStop,
    CpuIdle,
    CpuIdleMiss,
    SoftirqRaise,
    SoftirqEntry,
    SoftirqExit,
    IrqHandlerEntry,
    IrqHandlerExit,
    LocalTimerEntry,
    LocalTimerExit,
    VectorEntry, // any other irq_vectors:*_entry (reschedule, irq_work, call_function, ...)
    VectorExit,
    SchedSwitch,
    SchedWaking,
    SchedWakeup,
    SchedWakeupNew,
    SchedMigrateTask,
    SchedWakeIdleNoIpi,
    UserEnter,
    UserExit,
    SysEnter,
    SysExit,
    Print,
    IpiSendCpu,
    FuncgraphEntry, // the function_graph tracer's records (ftrace system): a call entered
    FuncgraphExit,  // and returned (calltime and rettime in the trace clock)
    Count           // the built-in kinds; kinds::add() numbers kinds added at run time from here
};

// Maps "system", "name" to the kind (an empty system: any). Unknown events map to Generic.
EventKind kindForEvent(std::string_view system, std::string_view name);
std::string_view kindName(EventKind k);

// Payload layouts. Stored packed, byte-wise, in a per-CPU arena; read them with CpuEvents::payload<T>().
// Pointers (hrtimer=, timer=) are ids of the 64-bit value the source shows (a raw kernel address in
// trace.dat, the hashed %p value in tracefs text), Trace::strings.pointer(id) gives it back: equal values,
// equal ids, within one trace. Symbols (function=) are ids in Trace::strings.
#pragma pack(push, 1)
struct HrtimerStartP
{
    uint32_t timer; // pointer id
    uint32_t function;
    int64_t expires;
    int64_t softexpires;
    uint8_t
        mode; // enum hrtimer_mode bits (ABS=0, REL=1, PINNED=2, SOFT=4, HARD=8); kModeUnknown when not traced
    int8_t wasArmed; // -1 when the kernel has no was_armed field
};
struct HrtimerExpireEntryP
{
    uint32_t timer; // pointer id
    int64_t now;
    uint32_t function;
};
struct PtrP
{
    uint32_t ptr; // pointer id: hrtimer_cancel/expire_exit, timer_cancel/expire_exit/init
};
struct HrtimerInitP
{
    uint32_t timer; // pointer id
    int32_t clockid;
    uint32_t mode;
};
struct TimerStartP
{
    uint32_t timer; // pointer id
    uint32_t function;
    uint64_t expires;
    uint64_t now;
    uint64_t bucketExpiry; // == expires when the kernel has no bucket_expiry (before 6.8)
    uint32_t flags;
};
struct TimerExpireEntryP
{
    uint32_t timer; // pointer id
    uint32_t function;
    uint64_t now;
    uint64_t baseclk; // == now when the kernel has no baseclk
};
struct TimerBaseIdleP
{
    uint8_t isIdle;
    uint32_t cpu;
};
struct TickStopP
{
    int32_t success;
    uint32_t dependency; // mask: 1<<bit, see TickDependency; 0 = NONE
    uint32_t reason;     // string id of an old kernel's string reason, 0 when none
};
struct CpuIdleP
{
    uint32_t state; // 4294967295 = exit
    uint32_t cpu;
};
struct CpuIdleMissP
{
    uint32_t cpu;
    uint32_t state;
    uint8_t below;
};
struct SoftirqP
{
    uint8_t vec;
};
struct IrqEntryP
{
    int32_t irq;
    uint32_t name;
};
struct IrqExitP
{
    int32_t irq;
    int32_t ret;
};
struct VectorP
{
    int32_t vector;
};
struct SchedSwitchP
{
    int32_t prevPid;
    int32_t nextPid;
    int16_t prevPrio;
    int16_t nextPrio;
    uint16_t prevState; // kernel bits (TASK_REPORT_MAX 0x100 set when preempted: "R+")
};
struct SchedWakeP
{
    int32_t pid;
    int16_t prio;
    int16_t targetCpu;
};
struct SchedMigrateP
{
    int32_t pid;
    int16_t prio;
    int16_t origCpu;
    int16_t destCpu;
};
struct CpuP
{
    int32_t cpu; // sched_wake_idle_without_ipi
};
struct SyscallP
{
    int32_t id;
};
struct TextP
{
    uint32_t text; // string id: ftrace print text, or a generic event's field text (0 = not kept)
};
struct IpiSendCpuP
{
    uint32_t cpu;
    uint32_t callsite;
    uint32_t callback;
};
struct FuncgraphEntryP
{
    uint32_t func; // symbol id
    int32_t depth;
};
struct FuncgraphExitP
{
    uint32_t func;
    int32_t depth;
    uint64_t calltime; // ns, trace clock
    uint64_t rettime;
    uint32_t overrun;
};
#pragma pack(pop)

// Payload size in bytes of each kind; the arena layout depends on it.
uint8_t payloadSize(EventKind k);

// tick_stop dependency bits (include/linux/tick.h, enum tick_dep_bits).
enum class TickDependency : uint32_t
{
    None = 0,
    PosixTimer = 1u << 0,
    PerfEvents = 1u << 1,
    Sched = 1u << 2,
    ClockUnstable = 1u << 3,
    Rcu = 1u << 4,
    RcuExp = 1u << 5,
};
std::string_view tickDependencyName(uint32_t mask);     // first set bit's name, "NONE" for 0
uint32_t tickDependencyFromName(std::string_view name); // 0 and ok=false when unknown
bool isTickDependencyName(std::string_view name);

constexpr uint32_t kCpuIdleExit = 4294967295u;
constexpr uint8_t kModeUnknown = 0xFF; // HrtimerStartP::mode of kernels that do not trace it

} // namespace tickscope
