// SPDX-License-Identifier: GPL-3.0-or-later
// What the timer part of the analysis derives for one CPU (issue 3, items 4 and 5): every TIMER softirq
// with its cost and what explains it, the long softirqs of any vector, the lateness of every hrtimer
// expiry in the timer's own clock base, and the latency of every hrtimer_wakeup wakeup.
//
// Rules:
// - TIMER softirq: softirq_entry vec=1 .. softirq_exit vec=1 on the CPU. Inside it, timer_expire_entry
//   count and the callbacks' run time (timer_expire_entry -> timer_expire_exit of the same timer).
//   Catch-up: duration >= kCatchupMinNs and the time not spent in callbacks >= kCatchupUnexplainedPct % of
//   the duration (a long softirq with few or no, or only quick, timers: the wheel walking missed jiffies
//   after a tickless idle, seed 002). A long softirq whose time went into a slow callback is not one.
//   The tickless span before it: the time since the first successful tick_stop after which no tick ran
//   with the tick lane running and no TIMER softirq ran (0 when the tick was running); the jiffies gap:
//   max(now - baseclk) of its timers, and now - the previous TIMER softirq's now (first timer of each), where
//   the kernel traces jiffies.
// - hrtimer lateness: now - expires and now - softexpires, `now` from hrtimer_expire_entry and the
//   expiries from the last hrtimer_start of the same pointer before it on any CPU (never a trace-clock
//   timestamp against an hrtimer clock value). The tick hrtimer's lateness is kept apart.
// - hrtimer_wakeup latency: ts(sched_switch into the woken task) - ts(hrtimer_expire_entry); the woken
//   task is the first sched_waking/sched_wakeup between that expire_entry and its expire_exit on the
//   CPU; its switch-in is looked for on the wakeup's target CPU (sched_wakeup's target_cpu, or the
//   dest_cpu of a sched_migrate_task of it inside the expiry; sched_waking's target_cpu is only the CPU it
//   last ran on), then on the others. RT when prio < 100.
//   When the trace does not show that switch-in (the CPU's events change pid without a sched_switch:
//   seen on 6.18 for idle -> task), the latency runs to the task's first event instead and is flagged
//   an upper bound (LatencyBound). It is unknown (not counted) when the task was still running when
//   the wakeup came, or the switch-in comes more than 100 ms later (then it most likely belongs to a
//   later wakeup).
//   A burst: two or more hrtimer_wakeup expiries in one hard interrupt, or in one HRTIMER softirq (vec 8)
//   span of one task.
// - Expiry context: hard (run by the hrtimer interrupt) or soft (by the HRTIMER softirq; on PREEMPT_RT in
//   the ktimers/N thread). From the event's irq flags where the trace has them (HARDIRQ 0x08 wins over
//   SOFTIRQ 0x10: a hard interrupt of a softirq shows both), else from the spans: inside an open hard
//   interrupt of the CPU, or inside the current task's own HRTIMER softirq span. Softirq spans belong to
//   the task that runs them: on PREEMPT_RT that thread is preempted inside a span, and an RT task's hard
//   expiry then runs while the span is still open, on another task.
// - The woken task is the first sched_waking/sched_wakeup in the expiry's own context (same task, same
//   hard/soft/task level) before that context's expire_exit: the softirq thread can be preempted inside a
//   soft expiry, and the next waking on the CPU may then be another task's.
// - RT delay: an RT task's hard expiry run after the expiry of a non-RT sleeper in the same hard
//   interrupt waited for it (and for everything between): the delay is the time from that first non-RT
//   expiry to the RT one (moving non-RT sleepers to softirq context removes it).
#pragma once

#include "SwitchRecords.h"
#include "model/Column.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace tickscope {

constexpr int64_t kCatchupMinNs = 50000;       // a TIMER softirq this long is "large"
constexpr int64_t kCatchupUnexplainedPct = 80; // % of it not spent in timer callbacks: catch-up
constexpr int64_t kLongSoftirqNs = 50000;      // softirqs of any vector at least this long are listed
constexpr int32_t kUnknownNs = INT32_MIN;      // a lateness or latency that could not be paired
// A lateness or latency in ns as the records keep it: clamped to int32, above kUnknownNs.
inline int32_t saturateNs(int64_t v)
{
    return static_cast<int32_t>(std::clamp<int64_t>(v, int64_t{INT32_MIN} + 1, INT32_MAX));
}
// saturateNs(to - from) without overflowing: the times come from the file (a damaged expiry field may
// hold any 64-bit value).
inline int32_t saturateNsBetween(int64_t from, int64_t to)
{
    int64_t d = 0;
    if (__builtin_sub_overflow(to, from, &d)) return to > from ? INT32_MAX : INT32_MIN + 1;
    return saturateNs(d);
}
constexpr int kRtPrioLimit = 100; // kernel prio < 100: an RT task (DL: -1)

namespace WakeupFlag {
constexpr uint8_t Burst = 0x01; // one of >= 2 hrtimer_wakeup expiries of one timer interrupt
constexpr uint8_t Rt = 0x02;    // the woken task's prio < 100
constexpr uint8_t PrioKnown = 0x04;
constexpr uint8_t BurstStart = 0x08;   // the first of a burst
constexpr uint8_t TaskKnown = 0x10;    // a sched_waking/sched_wakeup inside the expiry named the woken task
constexpr uint8_t LatencyBound = 0x20; // latencyNs runs to the woken task's first event: its switch-in
                                       // is not in the trace, so the value is an upper bound
constexpr uint8_t ContextKnown = 0x40; // hard or soft is known (Soft says which)
constexpr uint8_t Soft = 0x80;         // run by the HRTIMER softirq, not the hard interrupt
} // namespace WakeupFlag

// The level of an event's context on its task: the key that ties a wakeup to its expiry.
enum class CtxLevel : uint8_t
{
    Task,
    Soft,
    Hard
};

struct TimerSoftirq
{
    uint32_t entry = 0;            // softirq_entry vec=1 (event index on the CPU)
    uint32_t exit = 0;             // softirq_exit (== entry when not seen: trace end, lost events)
    int64_t durationNs = -1;       // -1 when the exit was not seen
    int64_t callbackNs = 0;        // time in the expired timers' callbacks
    uint32_t timers = 0;           // timer_expire_entry inside it
    int64_t idleNs = 0;            // tickless span before it (since the tick last ran), 0 when it ran
    int64_t sincePrevNs = -1;      // since the previous TIMER softirq's exit on the CPU, -1 for the first
    int64_t jiffiesBehind = -1;    // max(now - baseclk) of its timers, -1 without timers
    int64_t jiffiesSincePrev = -1; // its first timer's now - the previous TIMER softirq's, -1 unknown
    bool catchup = false;
};

struct LongSoftirq
{
    uint32_t entry;
    uint8_t vec;
    int64_t durationNs;
};

// 16 bytes per wakeup (a busy trace has one per ~9 events); who was woken is not kept, only where the
// event that named it is: the latency step and the tooltips read it again (wokenBy). The soft lateness
// is kept by slot (SoftLateness).
struct HrtimerWakeup
{
    uint32_t index;                  // hrtimer_expire_entry function=hrtimer_wakeup
    int32_t latenessNs = kUnknownNs; // now - expires (saturated to int32)
    int32_t latencyNs = kUnknownNs;  // ts(switch into the woken task) - ts(expire_entry)
    uint8_t flags = 0;               // WakeupFlag
    uint8_t softSlot = 0;            // SoftLateness: its now - softexpires
    // the naming sched_waking/wakeup is event index + wakeOffset (0: none)
    uint16_t wakeOffset = 0;
};
static_assert(sizeof(HrtimerWakeup) == 16);

// The soft lateness (now - softexpires) of one CPU's hrtimer_wakeup expiries, kept as its difference
// from their lateness (now - expires). That difference is the timer's slack, expires - softexpires (unless
// a lateness saturates): the sleeping task's timer_slack_ns, 50 us by default and 0 for RT tasks, so most
// CPUs see a handful of values. Each value is stored once and a record keeps its slot, a byte instead of
// four. A poll, select or epoll sleeper's slack grows with its timeout (a thousandth of it past 50 ms), so
// an event loop's CPU can see many: past 255 values the soft lateness is kept by record, exactly, in 8
// more bytes per record. The pairing's threads settle one CPU's expiries at once: a slot is published once
// and never changes; the records kept by record are put in order when the pairing is done (finish()).
class SoftLateness
{
public:
    static constexpr uint8_t kByRecord = 255;

    // The slot of the expiry at event `index` whose lateness is `hard` and soft lateness `soft` (both
    // known); kByRecord when that value is then kept by record. Several threads may call it at once (but
    // none of the other members meanwhile).
    uint8_t slot(uint32_t index, int32_t hard, int32_t soft);
    // Puts the records kept by record in order (a record settled twice keeps its last value). Once the
    // writers are done, before of() or releaseBefore() read them.
    void finish();
    // Its now - softexpires: kUnknownNs when its lateness is unknown. After finish().
    int32_t of(const HrtimerWakeup &w) const
    {
        if (w.latenessNs == kUnknownNs) return kUnknownNs;
        if (w.softSlot == kByRecord) return byRecord(w.index);
        return static_cast<int32_t>(w.latenessNs + (*values_)[w.softSlot].load(std::memory_order_relaxed));
    }
    // A stream's hand-back of the records of the expiries before event `index`.
    void releaseBefore(uint32_t index);
    size_t values() const { return count_.load(std::memory_order_relaxed); } // slots taken
    size_t records() const { return byRecord_.size(); }                      // kept by record
    size_t bytes() const
    {
        return (values_ ? sizeof(*values_) : 0) + byRecord_.capacity() * sizeof(byRecord_[0]);
    }

private:
    int32_t byRecord(uint32_t index) const;

    // soft - hard, by slot: made with the first value (a CPU without wakeups has none), before count_
    // says there is one
    std::unique_ptr<std::array<std::atomic<int64_t>, kByRecord>> values_;
    std::atomic<uint32_t> count_{0};
    std::mutex mutex_; // the writers that add a value or a record
    // (event index, soft lateness): in order after finish(), slot() appends
    std::vector<std::pair<uint32_t, int32_t>> byRecord_;
};

// The hrtimer_wakeup expiries of one hard interrupt or of one HRTIMER softirq span, when there were at
// least two (a burst). 8 bytes: a busy trace has one per ~40 events.
struct WakeupBatch
{
    uint32_t first;        // event index of its first expiry
    uint16_t count = 0;    // hrtimer_wakeup expiries in it (saturated)
    bool soft = false;     // an HRTIMER softirq span, not a hard interrupt
    uint8_t rtDelayed = 0; // RT wakeups run after a non-RT one of the same hard interrupt (saturated)
};
static_assert(sizeof(WakeupBatch) == 8);

// What the non-RT expiries of a hard interrupt's burst cost the RT ones run after them, for the bursts
// where that happened (few: a batch keeps only their count, so the other bursts carry no zeros).
struct RtDelay
{
    uint32_t first;      // the burst's first expiry, as its WakeupBatch
    int32_t totalNs = 0; // the RT wakeups' summed delay (saturated)
    int32_t maxNs = 0;
};

// Who an hrtimer_wakeup expiry woke, and the CPU it was sent to, read from the model by wokenBy (the pass
// only records where the naming event is).
struct WakeTarget
{
    int32_t pid = -1; // -1 when no wakeup was traced inside the expiry
    int16_t cpu = -1; // sched_wakeup's target_cpu, or a sched_migrate_task's dest_cpu inside the expiry
    int16_t prio = -1;

    // sched_waking (wakeup false) or sched_wakeup inside the expiry; true when it named the woken task.
    bool onWake(int32_t p, int16_t prio_, int16_t targetCpu, bool wakeup)
    {
        if (pid < 0) {
            pid = p;
            cpu = targetCpu;
            prio = prio_;
            return true;
        }
        if (wakeup && p == pid) cpu = targetCpu; // sched_wakeup has the CPU chosen; sched_waking the last one
        return false;
    }
    void onMigrate(int32_t p, int16_t destCpu) // try_to_wake_up chose another CPU for the woken task
    {
        if (p == pid) cpu = destCpu;
    }
};

// 8 bytes per expiry of the tick and of timers other than sleepers' (the report shows their now -
// expires only; a sleeper's soft lateness is in SoftLateness).
struct HrtimerLateness
{
    uint32_t index; // hrtimer_expire_entry
    int32_t latenessNs = kUnknownNs;
};
static_assert(sizeof(HrtimerLateness) == 8);

struct CpuTimers
{
    std::vector<LongSoftirq> longSoftirqs; // every softirq >= kLongSoftirqNs, any vector
    // One per TIMER softirq, per hrtimer expiry and per burst: in their own mappings (Column: no copy on
    // growth, few page faults; a stream hands the folded records back, and clears the folded bursts).
    Column<TimerSoftirq> timerSoftirqs;
    Column<HrtimerWakeup> wakeups;
    // the wakeups' soft lateness (their slots' values)
    std::unique_ptr<SoftLateness> softLateness = std::make_unique<SoftLateness>();
    Column<HrtimerLateness> otherLateness; // every other expiry
    Column<WakeupBatch> batches;           // bursts, in the order they closed
    Column<RtDelay> rtDelays;              // of the hard bursts with rtDelayed, in event order
    SwitchRecords switches;                // transient (emptied after the steps across CPUs)

    size_t bytes() const
    {
        return timerSoftirqs.bytes() + longSoftirqs.capacity() * sizeof(LongSoftirq) + wakeups.bytes() +
               softLateness->bytes() + otherLateness.bytes() + batches.bytes() + rtDelays.bytes();
    }
    // A stream's hand-back of the wakeups before n (folded), their soft lateness with them.
    void releaseWakeupsBefore(size_t n)
    {
        softLateness->releaseBefore(n < wakeups.size() ? wakeups[n].index : UINT32_MAX);
        wakeups.releaseBefore(n);
    }
};

} // namespace tickscope
