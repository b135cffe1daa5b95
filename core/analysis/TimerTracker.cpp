// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimerTracker.h"

#include <algorithm>
#include <cstdint>

namespace tickscope {

namespace {
constexpr uint8_t kTimerVec = 1;
} // namespace

void TimerTracker::onSoftirqEntry(size_t i, int64_t ts, uint8_t vec)
{
    timerSoftirq_ = npos; // softirqs do not nest on a CPU: an open one lost its exit
    cbOpen_ = false;
    softOpen_ = true;
    softVec_ = vec;
    softTs_ = ts;
    softEntry_ = static_cast<uint32_t>(i);
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
        // Without timer_expire_* in the trace the callbacks' time is not known: a long TIMER softirq is
        // then just long, never a catch-up (the report says the callbacks were not recorded).
        r.catchup = roles_.recorded(Role::TimerExpireEntry) && d >= kCatchupMinNs &&
                    unexplained * 100 >= d * kCatchupUnexplainedPct;
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

TimerTracker::OpenExpiry *TimerTracker::findOpen(int32_t pid, CtxLevel level)
{
    for (size_t k = openCount_; k-- > 0;) {
        if (open_[k].pid == pid && open_[k].level == level) return &open_[k];
    }
    return nullptr;
}

TimerTracker::Batch *TimerTracker::softBatch(int32_t pid)
{
    for (Batch &b : soft_) {
        if (b.open && b.pid == pid) return &b;
    }
    return nullptr;
}

void TimerTracker::onHrtimerExpireEntry(size_t i, int64_t ts, const HrtimerExpireEntryP &p, bool tick,
                                        int32_t pid, CtxLevel level, int soft)
{
    const auto index = static_cast<uint32_t>(i);
    if (OpenExpiry *stale = findOpen(pid, level)) // its exit was lost: one expiry per context at a time
        *stale = open_[--openCount_];
    if (openCount_ == kOpen) { // exits lost in several contexts: drop the oldest
        std::copy(open_.begin() + 1, open_.end(), open_.begin());
        --openCount_;
    }
    OpenExpiry &o = open_[openCount_++];
    o = OpenExpiry{};
    o.pid = pid;
    o.level = level;
    o.entry = i;
    o.ts = ts;
    if (tick) return; // its lateness is kept in its TickRecord
    const uint32_t wakeup = roles_.hrtimerWakeupFunction();
    if (p.function != wakeup || !wakeup) {
        out_.otherLateness.push_back({index, kUnknownNs});
        return;
    }
    o.wakeup = out_.wakeups.size();
    HrtimerWakeup w;
    w.index = index;
    if (soft >= 0) w.flags |= WakeupFlag::ContextKnown | (soft ? WakeupFlag::Soft : 0);
    out_.wakeups.push_back(w);
    Batch *b = soft == 0 && hard_.open ? &hard_ : soft == 1 ? softBatch(pid) : nullptr;
    if (!b) return;
    o.batch = b;
    if (b->count++ == 0) {
        b->first = o.wakeup;
        b->rec = WakeupBatch{};
        b->rec.first = index;
        b->delay = RtDelay{index};
        b->rec.soft = soft == 1;
        return;
    }
    out_.wakeups[b->first].flags |= WakeupFlag::Burst | WakeupFlag::BurstStart;
    out_.wakeups[o.wakeup].flags |= WakeupFlag::Burst;
}

void TimerTracker::onHrtimerExpireExit(int32_t pid, CtxLevel level)
{
    if (OpenExpiry *o = findOpen(pid, level)) *o = open_[--openCount_];
}

void TimerTracker::onWake(size_t i, const SchedWakeP &p, int32_t pid, CtxLevel level)
{
    OpenExpiry *o = findOpen(pid, level);
    if (!o || o->wakeup == npos || o->named) return;
    o->named = true;
    HrtimerWakeup &w = out_.wakeups[o->wakeup];
    const bool rt = p.prio < kRtPrioLimit; // DL: prio -1
    if (i - o->entry <= UINT16_MAX) {
        w.wakeOffset = static_cast<uint16_t>(i - o->entry);
        w.flags |= WakeupFlag::TaskKnown | WakeupFlag::PrioKnown | (rt ? WakeupFlag::Rt : 0);
    }
    Batch *b = o->batch;
    if (!b || b->rec.soft) return;
    if (!rt && b->firstNormalTs < 0) b->firstNormalTs = o->ts;
    if (rt && b->firstNormalTs >= 0) {
        const int64_t d = std::min<int64_t>(o->ts - b->firstNormalTs, INT32_MAX);
        if (b->rec.rtDelayed < UINT8_MAX) ++b->rec.rtDelayed;
        b->delay.totalNs = static_cast<int32_t>(std::min<int64_t>(int64_t{b->delay.totalNs} + d, INT32_MAX));
        b->delay.maxNs = std::max(b->delay.maxNs, static_cast<int32_t>(d));
    }
}

void TimerTracker::onHrtimerSoftirqBegin(int32_t pid)
{
    Batch *b = softBatch(pid);
    if (b) {
        closeBatch(*b); // softirqs do not nest on a task: the open one lost its exit
    } else {
        b = &soft_[0];
        for (Batch &x : soft_) {
            if (!x.open) {
                b = &x;
                break;
            }
        }
        closeBatch(*b); // all in use: the oldest stale one goes
    }
    b->open = true;
    b->pid = pid;
}

void TimerTracker::onHrtimerSoftirqEnd(int32_t pid)
{
    if (Batch *b = softBatch(pid)) closeBatch(*b);
}

void TimerTracker::closeBatch(Batch &b)
{
    if (b.open && b.count >= 2) {
        b.rec.count = static_cast<uint16_t>(std::min<uint32_t>(b.count, UINT16_MAX));
        out_.batches.push_back(b.rec);
        if (b.rec.rtDelayed) out_.rtDelays.push_back(b.delay);
    }
    for (size_t k = 0; k < openCount_; ++k) {
        if (open_[k].batch == &b) open_[k].batch = nullptr;
    }
    b = Batch{};
}

size_t TimerTracker::firstOpenWakeup() const
{
    size_t first = out_.wakeups.size();
    for (size_t k = 0; k < openCount_; ++k)
        if (open_[k].wakeup != npos) first = std::min(first, open_[k].wakeup);
    if (hard_.open && hard_.first != npos) first = std::min(first, hard_.first);
    for (const Batch &b : soft_)
        if (b.open && b.first != npos) first = std::min(first, b.first);
    return first;
}

size_t TimerTracker::firstOpenEvent() const
{
    size_t first = npos;
    if (softOpen_) first = std::min<size_t>(first, softEntry_);
    for (size_t k = 0; k < openCount_; ++k)
        first = std::min(first, open_[k].entry);
    if (hard_.open && hard_.count) first = std::min<size_t>(first, hard_.rec.first);
    for (const Batch &b : soft_)
        if (b.open && b.count) first = std::min<size_t>(first, b.rec.first);
    return first;
}

void TimerTracker::gap()
{
    softOpen_ = cbOpen_ = false;
    closeBatch(hard_);
    for (Batch &b : soft_)
        closeBatch(b);
    openCount_ = 0;
    timerSoftirq_ = npos;
    prevTimerExit_ = prevNow_ = stopTs_ = -1;
}

void TimerTracker::finish()
{
    gap();
    std::sort(out_.batches.begin(), out_.batches.end(),
              [](const WakeupBatch &a, const WakeupBatch &b) { return a.first < b.first; });
    out_.batches.trim();
    out_.rtDelays.trim(); // (in order as they closed: one hard interrupt's burst at a time)
    out_.timerSoftirqs.trim();
    out_.longSoftirqs.shrink_to_fit();
    out_.wakeups.trim();
    out_.otherLateness.trim();
}

} // namespace tickscope
