#include "TimerTracker.h"

#include <algorithm>

namespace tickscope {

namespace {
constexpr uint8_t kTimerVec = 1;
constexpr uint8_t kHrtimerVec = 8;
} // namespace

void TimerTracker::onSoftirqEntry(size_t i, int64_t ts, uint8_t vec)
{
    timerSoftirq_ = npos; // softirqs do not nest on a CPU: an open one lost its exit
    cbOpen_ = false;
    softOpen_ = true;
    softVec_ = vec;
    softTs_ = ts;
    softEntry_ = static_cast<uint32_t>(i);
    if (vec == kHrtimerVec) onTimerIrqEntry();
    if (vec != kTimerVec) return;
    TimerSoftirq r;
    r.entry = r.exit = static_cast<uint32_t>(i);
    r.idleNs = stopTs_ >= 0 && stopTs_ > prevTimerExit_ ? ts - stopTs_ : 0;
    r.sincePrevNs = prevTimerExit_ >= 0 ? ts - prevTimerExit_ : -1;
    out_.timerSoftirqs.push_back(r);
    timerSoftirq_ = out_.timerSoftirqs.size() - 1;
    firstTimer_ = true;
    cbOpen_ = false;
}

void TimerTracker::onSoftirqExit(size_t i, int64_t ts, uint8_t vec)
{
    if (vec == kHrtimerVec) onTimerIrqExit();
    if (!softOpen_ || softVec_ != vec) return;
    softOpen_ = false;
    const int64_t d = ts - softTs_;
    uint32_t entryIndex = softEntry_;
    if (vec == kTimerVec && timerSoftirq_ != npos) {
        TimerSoftirq &r = out_.timerSoftirqs[timerSoftirq_];
        entryIndex = r.entry;
        r.exit = static_cast<uint32_t>(i);
        r.durationNs = d;
        const int64_t unexplained = d - r.callbackNs;
        r.catchup = d >= kCatchupMinNs && unexplained * 100 >= d * kCatchupUnexplainedPct;
        timerSoftirq_ = npos;
        prevTimerExit_ = ts;
        stopTs_ = -1; // the wheel is current again
        cbOpen_ = false;
    }
    if (d >= kLongSoftirqNs) out_.longSoftirqs.push_back({entryIndex, vec, d});
}

void TimerTracker::onTimerExpireEntry(int64_t ts, const TimerExpireEntryP &p)
{
    if (timerSoftirq_ == npos) return;
    TimerSoftirq &r = out_.timerSoftirqs[timerSoftirq_];
    ++r.timers;
    const auto now = static_cast<int64_t>(p.now);
    r.jiffiesBehind = std::max(r.jiffiesBehind, static_cast<int64_t>(p.now - p.baseclk));
    if (firstTimer_) {
        firstTimer_ = false;
        if (prevNow_ >= 0) r.jiffiesSincePrev = now - prevNow_;
        prevNow_ = now;
    }
    cbOpen_ = true;
    cbTimer_ = p.timer;
    cbTs_ = ts;
}

void TimerTracker::onTimerExpireExit(int64_t ts, uint64_t ptr)
{
    if (!cbOpen_ || ptr != cbTimer_ || timerSoftirq_ == npos) return;
    cbOpen_ = false;
    out_.timerSoftirqs[timerSoftirq_].callbackNs += ts - cbTs_;
}

void TimerTracker::onHrtimerExpireEntry(size_t i, const HrtimerExpireEntryP &p, bool tick)
{
    openWakeup_ = npos;
    const auto index = static_cast<uint32_t>(i);
    if (tick) {
        out_.tickLateness.push_back({index, kUnknownNs, kUnknownNs});
    } else if (p.function == wakeupFunction_ && wakeupFunction_) {
        openWakeup_ = out_.wakeups.size();
        HrtimerWakeup w;
        w.index = index;
        out_.wakeups.push_back(w);
        open_ = WakeTarget{};
    } else {
        out_.otherLateness.push_back({index, kUnknownNs, kUnknownNs});
    }
}

void TimerTracker::onWake(const SchedWakeP &p, bool wakeup)
{
    if (openWakeup_ == npos || !open_.onWake(p.pid, p.prio, p.targetCpu, wakeup)) return;
    out_.wakeups[openWakeup_].flags |= WakeupFlag::TaskKnown | WakeupFlag::PrioKnown |
                                       (p.prio < kRtPrioLimit ? WakeupFlag::Rt : 0); // DL: prio -1
}

void TimerTracker::onMigrate(const SchedMigrateP &p)
{
    if (openWakeup_ != npos) open_.onMigrate(p.pid, p.destCpu);
}

void TimerTracker::onTimerIrqEntry()
{
    // A HRTIMER softirq run from the interrupt's exit path belongs to the same batch.
    if (batchDepth_++ == 0) batchFirst_ = out_.wakeups.size();
}

void TimerTracker::onTimerIrqExit()
{
    if (batchDepth_ == 0 || --batchDepth_ > 0) return;
    const size_t n = out_.wakeups.size() - batchFirst_;
    if (n < 2) return;
    ++out_.bursts;
    out_.maxBurst = std::max(out_.maxBurst, static_cast<uint32_t>(n));
    for (size_t k = batchFirst_; k < out_.wakeups.size(); ++k)
        out_.wakeups[k].flags |= WakeupFlag::Burst;
    out_.wakeups[batchFirst_].flags |= WakeupFlag::BurstStart;
}

void TimerTracker::gap()
{
    softOpen_ = cbOpen_ = false;
    batchDepth_ = 0;
    timerSoftirq_ = openWakeup_ = npos;
    prevTimerExit_ = prevNow_ = stopTs_ = -1;
}

void TimerTracker::finish()
{
    out_.timerSoftirqs.shrink_to_fit();
    out_.longSoftirqs.shrink_to_fit();
    out_.wakeups.trim();
    out_.tickLateness.trim();
    out_.otherLateness.trim();
}

} // namespace tickscope
