// SPDX-License-Identifier: GPL-3.0-or-later
// Follows timers on one CPU for CpuPass (the rules are in TimerRecords.h): TIMER softirqs and the wheel
// timers they run, long softirqs of any vector, hrtimer starts and expiries (paired across CPUs later by
// pairHrtimers), the context (hard or soft) of each hrtimer_wakeup expiry and the task it wakes, and bursts
// of them in one interrupt or HRTIMER softirq span.
// No allocation per event beyond the amortised growth of the result vectors.
#pragma once

#include "EventRoles.h"

#include "TimerRecords.h"

#include "model/EventKind.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace tickscope {

class TimerTracker
{
public:
    // roles: its hrtimer_wakeup name id, read at each expiry (a trace read in parts learns it late).
    TimerTracker(CpuTimers &out, const EventRoles &roles) : out_(out), roles_(roles) {}

    void onSoftirqEntry(size_t i, int64_t ts, uint8_t vec);
    void onSoftirqExit(size_t i, int64_t ts, uint8_t vec);
    void onTimerExpireEntry(int64_t ts, const TimerExpireEntryP &p);
    void onTimerExpireExit(int64_t ts, uint64_t ptr);
    void onTickStop(int64_t ts)
    {
        if (stopTs_ < 0) stopTs_ = ts; // idle re-evaluates the stop at every entry: keep the first
    }
    void onTickRunning() { stopTs_ = -1; } // a tick expiry while the tick lane says running

    // `pid` and `level` (CtxLevel) are those of the event: they tie the expiry's wakeup and exit to it.
    // `soft`: the expiry's context, -1 unknown, 0 hard, 1 soft.
    void onHrtimerExpireEntry(size_t i, int64_t ts, const HrtimerExpireEntryP &p, bool tick, int32_t pid,
                              CtxLevel level, int soft);
    void onHrtimerExpireExit(int32_t pid, CtxLevel level);
    // The first sched_waking/sched_wakeup in an open wakeup expiry's context names the woken task.
    void onWake(size_t i, const SchedWakeP &p, int32_t pid, CtxLevel level);
    // Batches: a hard interrupt (outermost entry .. exit, or a switch: its exit was lost), and an HRTIMER
    // softirq span of one task (which may be preempted and resumed on PREEMPT_RT).
    void onHardIrqBegin() { closeBatch(hard_), hard_.open = true; }
    void onHardIrqEnd() { closeBatch(hard_); }
    void onHrtimerSoftirqBegin(int32_t pid);
    void onHrtimerSoftirqEnd(int32_t pid);

    void gap();
    void finish();

    // For a pass whose records are taken as they become final: the first wakeup record that may still
    // change (an open expiry may yet name its task, an open batch flag it), the open TIMER softirq record
    // (npos: none), and the first event index an open softirq or batch still refers to (npos: none).
    size_t firstOpenWakeup() const;
    size_t openTimerSoftirq() const { return timerSoftirq_; }
    size_t firstOpenEvent() const;

private:
    static constexpr size_t npos = static_cast<size_t>(-1);

    CpuTimers &out_;
    const EventRoles &roles_;

    // softirq
    bool softOpen_ = false;
    uint8_t softVec_ = 0;
    int64_t softTs_ = 0;
    uint32_t softEntry_ = 0;
    size_t timerSoftirq_ = npos; // the open TIMER softirq's record
    int64_t prevTimerExit_ = -1;
    int64_t prevNow_ = -1; // jiffies of the previous TIMER softirq's first timer
    bool firstTimer_ = false;
    int64_t stopTs_ = -1; // first successful tick_stop with no running tick since
    bool cbOpen_ = false;
    uint64_t cbTimer_ = 0;
    int64_t cbTs_ = 0;

    // hrtimer: open expiries by context (an expiry can be preempted inside its softirq, and hard ones
    // run meanwhile on other tasks)
    struct Batch
    {
        bool open = false;
        int32_t pid = -1;    // soft batches: the task running the softirq
        size_t first = npos; // wakeups[] index of its first expiry
        uint32_t count = 0;
        int64_t firstNormalTs = -1; // entry of its first expiry that woke a non-RT task
        WakeupBatch rec{};
        RtDelay delay{};
    };
    struct OpenExpiry
    {
        int32_t pid = -1;
        CtxLevel level = CtxLevel::Task;
        size_t wakeup = npos; // wakeups[] index, npos for other functions
        size_t entry = 0;
        int64_t ts = 0;
        Batch *batch = nullptr;
        bool named = false; // a wakeup in its context named the woken task (its target CPU: wokenBy)
    };
    static constexpr size_t kOpen = 8;
    OpenExpiry *findOpen(int32_t pid, CtxLevel level);
    Batch *softBatch(int32_t pid);
    void closeBatch(Batch &b);

    std::array<OpenExpiry, kOpen> open_{};
    size_t openCount_ = 0;
    Batch hard_;
    std::array<Batch, 4> soft_{}; // open HRTIMER softirq spans, one per task running one
};

} // namespace tickscope
