// Follows timers on one CPU for CpuPass (the rules are in TimerRecords.h): TIMER softirqs and the wheel
// timers they run, long softirqs of any vector, hrtimer starts and expiries (paired across CPUs later by
// pairHrtimers), the task each hrtimer_wakeup expiry wakes, and bursts of them in one timer interrupt.
// No allocation per event beyond the amortised growth of the result vectors.
#pragma once

#include "TimerRecords.h"

#include "model/EventKind.h"

#include <cstddef>
#include <cstdint>

namespace tickscope {

class TimerTracker
{
public:
    TimerTracker(CpuTimers &out, uint32_t wakeupFunction) : out_(out), wakeupFunction_(wakeupFunction) {}

    void onSoftirqEntry(size_t i, int64_t ts, uint8_t vec);
    void onSoftirqExit(size_t i, int64_t ts, uint8_t vec);
    void onTimerExpireEntry(int64_t ts, const TimerExpireEntryP &p);
    void onTimerExpireExit(int64_t ts, uint64_t ptr);
    void onTickStop(int64_t ts)
    {
        if (stopTs_ < 0) stopTs_ = ts; // idle re-evaluates the stop at every entry: keep the first
    }
    void onTickRunning() { stopTs_ = -1; } // a tick expiry while the tick lane says running

    void onHrtimerExpireEntry(size_t i, const HrtimerExpireEntryP &p, bool tick);
    void onHrtimerExpireExit() { openWakeup_ = npos; }
    void onWake(const SchedWakeP &p, bool wakeup);
    void onMigrate(const SchedMigrateP &p); // try_to_wake_up chose another CPU for the woken task
    void onTimerIrqEntry();
    void onTimerIrqExit();

    void gap();
    void finish();

private:
    static constexpr size_t npos = static_cast<size_t>(-1);

    CpuTimers &out_;
    uint32_t wakeupFunction_;

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

    // hrtimer
    size_t openWakeup_ = npos;
    WakeTarget open_; // who the open wakeup expiry woke
    unsigned batchDepth_ = 0; // open timer interrupts / HRTIMER softirqs
    size_t batchFirst_ = 0;
};

} // namespace tickscope
