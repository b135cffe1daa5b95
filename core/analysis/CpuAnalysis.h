// SPDX-License-Identifier: GPL-3.0-or-later
// What the tick analysis derives for one CPU: the task and IRQ lanes, the ticks with the context each
// interrupted, the tick lane (running / stopped) and the failed tick stops. All arrays are sorted by
// event index on the CPU (CpuEvents::ts() gives the time), and are small next to the events.
#pragma once

#include "ChangeLane.h"
#include "StateCode.h"
#include "TickLane.h"
#include "TimerRecords.h"

#include "util/Gallop.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace tickscope {

namespace TickFlag {
constexpr uint8_t Periodic = 0x01;    // the tick re-armed itself: a periodic tick (else a nohz wakeup)
constexpr uint8_t Resolved = 0x02;    // Periodic was decided from the re-arm (else from the tick lane)
constexpr uint8_t LaneStopped = 0x04; // the tick lane said "stopped" when it fired
constexpr uint8_t DependencyInForce =
    0x08;                          // the CPU's last tick_stop evaluation failed (tick_stop success=0)
constexpr uint8_t Spurious = 0x10; // see TickAnalysis: user tick on nohz_full without dependency, or polling
constexpr uint8_t LocalTimer = 0x20;   // low-res fallback: a local timer interrupt counted as the tick
constexpr uint8_t WokeFromIdle = 0x40; // its interrupt ended a cpuidle state >= 1 (nested in it, or right
                                       // after its exit record when the driver exits first)
} // namespace TickFlag

struct TickRecord
{
    uint32_t index; // the tick hrtimer's hrtimer_expire_entry (local_timer_entry in the low-res fallback)
    TickContext context;
    uint8_t flags;
    // now - expires of the tick hrtimer's last start (HrtimerPairing); kUnknownNs when unpaired or in the
    // fallback. Kept here rather than in a list of its own: every tick expiry has one.
    int32_t latenessNs = kUnknownNs;
    bool periodic() const { return flags & TickFlag::Periodic; }
};

// The rules both reports apply to a tick expiry, so that a whole analysis (TickAnalysis) and a report
// gathered record by record (report/CpuFold) cannot drift apart.
//
// Whether the expiry was a periodic tick (else a wakeup of the stopped tick for its next event). Without
// any hrtimer_start in the trace (startsSeen false), or when the re-arm was not seen (at the trace's end,
// before lost events), the tick lane says whether the tick ran. Applied to flags it already rewrote
// (TickAnalysis::decideFallback), it gives the same answer again.
inline bool tickPeriodicIn(uint8_t flags, bool startsSeen)
{
    if (!(flags & TickFlag::Resolved) || !startsSeen) return !(flags & TickFlag::LaneStopped);
    return flags & TickFlag::Periodic;
}

// Whether a periodic tick on a nohz_full CPU was spurious: it interrupted user mode while no tick
// dependency was in force, or polling idle. (A housekeeping CPU keeps its tick on purpose.)
inline bool spuriousOnNohzFull(const TickRecord &t)
{
    const bool user = t.context == TickContext::User && !(t.flags & TickFlag::DependencyInForce);
    return user || t.context == TickContext::Polling;
}

struct FailedStop
{
    uint32_t index;
    uint32_t
        dependency;  // tick dependency mask (TickDependency bits); 0 when an old string reason is not known
    uint32_t reason; // string id of an old kernel's string reason, 0 when none
};

// Evidence gathered by the pass, for the decisions taken across CPUs (nohz_full, polling kind, fallback).
struct CpuEvidence
{
    uint64_t contextTracking = 0; // user_enter / user_exit events
    uint64_t stopsInTask = 0;     // tick_stop success=1 while a task (not the idle task) ran
    uint64_t stopsInIdle = 0;
    uint64_t failedStops = 0;       // tick_stop success=0 (only nohz_full CPUs evaluate them)
    uint64_t pollEnters = 0;        // cpu_idle state=0
    uint64_t deeperEnters = 0;      // cpu_idle state>=1
    uint64_t pollReselects = 0;     // state 0 -> exit -> state k without a switch: the cpuidle POLL state
    uint64_t hrtimerStarts = 0;     // any hrtimer_start: the re-arm of a periodic tick can be seen
    uint64_t cancelNoise = 0;       // hrtimer_cancel of the tick hrtimer dropped as pre-f2e388a019e4 noise
    uint64_t unmatchedExits = 0;    // IRQ exits without an entry (trace start, lost events)
    uint64_t gaps = 0;              // lost-event ranges that reset the state machine
    uint64_t switchesIntoIdle = 0;  // sched_switch next_pid=0
    uint64_t switchesOutOfIdle = 0; // sched_switch prev_pid=0 (a kernel may not record them: a 6.18 guest)
    uint64_t unnamedExpiries = 0;   // hrtimer_expire_entry whose callback is an address, not a name
    int64_t busyStoppedNs = 0; // inferred tick lane (TickAnalysis::inferTickLanes): a task ran, tick stopped
};

// A stretch of a task switched in with its user/kernel mode unknown (it ran on another CPU before) that
// revealed nothing on this CPU; CrossCpuModes resolves it from the CPU it last left. Transient.
struct PendingMode
{
    uint32_t switchIndex; // the sched_switch that switched it in
    int32_t pid;
    uint32_t change, changeEnd;       // its task-lane changes
    uint32_t tick, tickEnd;           // its ticks
    uint32_t localTick, localTickEnd; // its local timer ticks (low-res fallback candidates)
    int32_t prev; // the pending stretch of the task it continues on this CPU (switched out
                  // runnable in the unknown mode); kHead: it came from another CPU;
                  // kLost: it continues one that cannot be resolved
    static constexpr int32_t kHead = -1;
    static constexpr int32_t kLost = -2;
    // The chain of stretches it belongs to on this CPU, numbered as they begin (a stretch that continues
    // none begins one): a chain's stretches all take one mode, the one its latest stretch shows.
    uint32_t root = 0;
    bool scheduled = false; // began with a sched_switch (a stretch the trace began in, or found after
                            // lost events, may share its event with one that did)
    // Began a chain with a sched_switch: its chain's mode may come from the CPU the task left, so the
    // sweep finds it a candidate (the stretches that continue it take its mode and need none).
    bool head = false;
};

// The stretch of `v` (stretches in task-lane order: their change ranges ascend and do not overlap; `mode`
// gives an element's PendingMode) whose changes hold change `change`; nullptr when none does.
template <class T, class Mode> const T *stretchHolding(const std::vector<T> &v, size_t change, Mode mode)
{
    auto it = std::upper_bound(v.begin(), v.end(), change,
                               [&](size_t c, const T &x) { return c < mode(x).change; });
    if (it == v.begin()) return nullptr;
    --it;
    return change < mode(*it).changeEnd ? &*it : nullptr;
}

// The first record of `v` (records in event order, each with an event `index`) whose event is at or after
// `index`; v.size() when none.
template <class V> size_t firstRecordFrom(const V &v, size_t index)
{
    return bisect(0, v.size(), [&](size_t k) { return v[k].index < index; });
}

// The same when every record before lo has a smaller index and the answer is usually near lo (a sweep of
// growing indices): a gallop from lo.
template <class V> size_t firstRecordNear(const V &v, size_t index, size_t lo)
{
    return gallop(v.size(), lo, [&](size_t k) { return v[k].index < index; });
}

struct CpuAnalysis
{
    static constexpr size_t npos = static_cast<size_t>(-1);

    int cpu = 0;
    ChangeLane task;                    // StateCode::task(TaskState, detail)
    ChangeLane irq;                     // StateCode::irq(IrqState, detail)
    Column<TickRecord> ticks;           // every expiry of the tick hrtimer (periodic or nohz wakeup)
    Column<TickRecord> localTimerTicks; // local timer interrupts while no tick hrtimer is known (fallback)
    TickLane tickLane;
    std::vector<FailedStop> failedStops;
    uint64_t tickTimer = 0;    // the tick hrtimer's pointer, 0 when none was traced on this CPU
    uint32_t tickFunction = 0; // string id of its callback name
    CpuEvidence evidence;
    std::vector<PendingMode> pendingModes; // emptied by CrossCpuModes
    // The mode each chain of stretches took, by its number (PendingMode::root), as StateCode::task: set when
    // one is relabelled (here or by CrossCpuModes), Unknown (0) until then. A byte per chain: a candidate
    // of another CPU that left its task in a stretch of the chain reads it instead of the lane's code.
    std::vector<uint8_t> chainModes;
    uint8_t chainMode(uint32_t root) const { return root < chainModes.size() ? chainModes[root] : 0; }
    void setChainMode(uint32_t root, uint8_t code)
    {
        if (root >= chainModes.size()) chainModes.resize(root + 1, 0);
        chainModes[root] = code;
    }
    // Told of each stretch relabelled (UnknownStretches::apply), with its mode: `report --stream` counts
    // the ticks it folded before their mode was known, and which were handed back, by stretch.
    std::function<void(const PendingMode &, TaskState)> relabelled;
    size_t firstPrint = npos; // event indices of the first and last ftrace print marker
    size_t lastPrint = npos;
    CpuTimers timers; // TIMER softirqs, long softirqs, hrtimer lateness and wakeups (TimerRecords.h)

    size_t bytes() const;
};

// The idle stretch a task came back from before task-lane change `change` (the one in force at a tick):
// the last Poll or Idle change at most 16 changes back. afterPoll: it was polling idle (the pattern of
// the spurious user ticks); exit numbers that change. {false, 0} when change is ChangeLane::npos.
struct PollExit
{
    bool afterPoll = false;
    size_t exit = 0;
};
PollExit pollExitAt(const ChangeLane &lane, size_t change);

// The tick dependency mask an old kernel's string reason stands for ("more than 1 task in runqueue" ->
// SCHED, ...); 0 when not recognised.
uint32_t dependencyFromReason(std::string_view reason);

} // namespace tickscope
