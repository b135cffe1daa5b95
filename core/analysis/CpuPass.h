// SPDX-License-Identifier: GPL-3.0-or-later
// The single pass over one CPU's events that fills a CpuAnalysis: a per-CPU state machine for the task
// lane (user / kernel / idle task / cpuidle state / polling) and the IRQ lane (hardirq, softirq nesting),
// the tick hrtimer's expiries with the context each interrupted, and the tick lane.
//
// User vs kernel comes from context_tracking user_enter/user_exit once the CPU shows them, else from the
// inference from syscalls, kernel threads and where a preempted task was (a task preempted in user mode
// resumes there). A task whose mode
// is not known yet (trace start, migrated in, after lost events) is "unknown" until its first revealing
// event (sys_enter: it was in user mode; sys_exit: in the kernel), which relabels the lane and the ticks
// since then. No heap allocation per event; decisions that need the next event are deferred by one.
#pragma once

#include "CpuAnalysis.h"
#include "EventRoles.h"
#include "Migrations.h"
#include "TaskModeTable.h"
#include "TickTracker.h"
#include "TimerTracker.h"
#include "UnknownStretches.h"

#include "model/Trace.h"

#include <array>
#include <vector>

namespace tickscope {

class CpuPass
{
public:
    CpuPass(const Trace &trace, const EventRoles &roles, int cpu, CpuAnalysis &out);
    void run(); // start(events), advance(), finish()

    // The same over a CPU whose events arrive in parts (appended to its CpuEvents in time order): start
    // sizes the lanes for at most `capacity` events, advance takes the events appended since the last
    // call, finish closes what is still open at the end of the data.
    void start(size_t capacity);
    // upTo: take the events before this index only (a stream whose later events are not final yet).
    void advance(size_t upTo = SIZE_MAX);
    void finish();
    // Switch-ins (event indices, ascending, appended as found) of a task that last left another CPU
    // (MigrationSweep): the mode this CPU remembers for it is stale, so it is treated as unknown.
    void addMigrations(const std::vector<Migration> &moves);

    // What a caller taking records as they become final needs to know (between advance() calls).
    size_t processed() const { return next_; } // events taken
    size_t firstUndecidedTick() const { return tick_.firstUndecidedTick(); }
    // The stretch of unknown mode a tick with context Unknown may still be relabelled with (nullptr: none).
    size_t stretchesKept() const { return unknown_.kept(); }
    const PendingMode *unresolvedStretchOf(size_t tick, bool local) const
    {
        return unknown_.unresolvedOf(tick, local);
    }
    size_t firstOpenWakeup() const { return timers_.firstOpenWakeup(); }
    size_t openTimerSoftirq() const { return timers_.openTimerSoftirq(); }
    size_t firstOpenEvent() const { return timers_.firstOpenEvent(); } // npos: none
    bool idleUnknown() const { return idleUnknown_; }
    const std::vector<uint32_t> &scheduledOpens() const { return unknown_.scheduledOpens(); }
    uint32_t chainAt(size_t change) const { return unknown_.chainAt(change); }
    // What a stream's readers are past (UnknownStretches::setFloor).
    void setStretchFloor(size_t changes, size_t ticks, size_t localTicks)
    {
        unknown_.setFloor(changes, ticks, localTicks);
    }

private:
    static constexpr size_t npos = static_cast<size_t>(-1);
    static constexpr unsigned kMaxDepth = 8;

    struct IrqFrame
    {
        IrqState state;
        uint8_t detail;
        TickContext interrupted; // what this interrupt interrupted
        bool wokeFromIdle;       // it ended a cpuidle state (k >= 1)
    };
    void begin(size_t i, int32_t pid);
    void onGap(size_t g, int32_t pid);
    void event(const CpuEvents::Cursor &c, size_t i, Role role);

    void switchIn(size_t i, int32_t pid, bool scheduled);
    const Migration *migrationAt(size_t i); // switch-in i brings its task from another CPU (nullptr: not)
    void onSwitch(size_t i, const SchedSwitchP &p);
    void setTask(size_t i, TaskState s, unsigned detail = 0);
    void relabelTask(size_t change, uint8_t code);
    void resolveMode(TaskState was);
    void onCpuIdle(size_t i, uint32_t state);

    TickContext interrupted() const;
    bool wakesFromIdle() const;
    void irqEntry(size_t i, IrqState s, uint8_t detail);
    void irqExit(size_t i, IrqState s, uint8_t detail);
    void setIrq(size_t i);

    void onTickExpiry(size_t i);
    CtxLevel level(uint8_t flags) const; // of an event on the current task
    bool hardOpen() const { return depth_ && stack_[depth_ - 1].state == IrqState::HardIrq; }
    void saveSoftirq(); // the leaving task's open softirq span, resumed when it runs again

    const Trace &trace_;
    const EventRoles &roles_;
    const CpuEvents &ev_;
    CpuAnalysis &out_;
    TaskModeTable tasks_;
    TickTracker tick_;
    TimerTracker timers_;

    int64_t ts_ = 0;
    int32_t curr_ = -1;
    bool currKernelThread_ = false;
    TaskState taskState_ = TaskState::Unknown;
    uint8_t taskCode_ = 0xff;
    uint8_t irqCode_ = 0xff;
    bool ctActive_ = false; // context_tracking seen on this CPU
    bool faultOpen_ = false;
    bool syscallsSeen_ = false;
    UnknownStretches unknown_;

    bool idleUnknown_ = false; // the idle task since trace start/gap: maybe inside a cpuidle state
    size_t idleUnknownChange_ = 0;
    TaskState exited_ = TaskState::Unknown; // the idle state the last cpu_idle exit left
    bool pollExited_ = false;

    std::array<IrqFrame, kMaxDepth> stack_{};
    unsigned depth_ = 0;
    struct SavedSoftirq
    {
        int32_t pid;
        IrqFrame frame;
    };
    std::array<SavedSoftirq, 4> saved_{}; // preempted softirq spans (PREEMPT_RT), at most one per task
    unsigned savedCount_ = 0;
    bool flagsSeen_ = false; // the trace has irq flags (an expiry showed HARDIRQ or SOFTIRQ)
    bool irqSinceReset_ = false;
    size_t irqResetChange_ = 0;

    Role prevRole_ = Role::Other;
    bool prevIdleExit_ = false;

    size_t next_ = 0;                   // the first event advance() has not taken yet
    std::vector<Migration> migrations_; // addMigrations(), from migrationsNext_ on not reached yet
    size_t migrationsNext_ = 0;
    size_t lostSeen_ = 0;      // lost ranges turned into gaps
    std::vector<size_t> gaps_; // first events after lost events, from nextGap_ on still ahead
    size_t nextGap_ = 0;
};

} // namespace tickscope
