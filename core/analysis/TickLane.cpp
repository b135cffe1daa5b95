// SPDX-License-Identifier: GPL-3.0-or-later
#include "TickLane.h"

#include <algorithm>

namespace tickscope {

void TickLane::push(size_t i, TickState s)
{
    if (!changes_.empty() && changes_.back().index == i) {
        changes_.back().state = s;
        // The replaced change lasted no time; merge with the one before when they now agree.
        if (changes_.size() > 1 && changes_[changes_.size() - 2].state == s) changes_.pop_back();
    } else if (changes_.empty() || changes_.back().state != s) {
        changes_.push_back({static_cast<uint32_t>(i), s});
    }
    state_ = s;
}

size_t TickLane::restartPoint(size_t fallback) const
{
    const size_t last = lastIndex();
    return lastArm_ != npos && (last == npos || lastArm_ > last) ? lastArm_ : fallback;
}

void TickLane::reset(size_t i)
{
    push(i, TickState::Unknown);
    stopArmPending_ = cancelSeen_ = provisional_ = false;
    lastArm_ = npos;
}

void TickLane::gap(size_t gapStart, size_t resume)
{
    reset(gapStart);
    if (resume != gapStart) changes_.push_back({static_cast<uint32_t>(resume), TickState::Unknown});
}

void TickLane::onTickStop(size_t i)
{
    // Only the running -> stopped transition is traced: a stop while "stopped" means a restart was missed.
    if (state_ == TickState::Stopped) {
        const size_t at = restartPoint(i);
        if (at != i) push(at, TickState::Running);
    }
    push(i, TickState::Stopped);
    stopArmPending_ = true;
    cancelSeen_ = provisional_ = false;
    lastArm_ = npos;
}

void TickLane::onCancel(size_t)
{
    if (stopArmPending_) { // tick_sched_timer_cancel(): stopped with no next event
        stopArmPending_ = false;
        return;
    }
    cancelSeen_ = true;
}

void TickLane::onArm(size_t i)
{
    if (stopArmPending_) { // the stopped tick programmed to the next event
        stopArmPending_ = false;
        cancelSeen_ = false;
        return;
    }
    if (state_ != TickState::Running && cancelSeen_) { // cancel + ABS|PINNED|HARD arm: tick_nohz_restart()
        push(i, TickState::Running);
        provisional_ = true;
        lastArm_ = npos;
    } else {
        lastArm_ = i; // a re-program of the stopped tick, or a restart: the next expiry tells
    }
    cancelSeen_ = false;
}

void TickLane::onExpiry()
{
    stopArmPending_ = false;
    cancelSeen_ = false;
}

void TickLane::onExpiryResolved(size_t expiryIndex, bool rearmed)
{
    if (rearmed) { // the tick was running when it fired
        if (state_ == TickState::Unknown && changes_.size() && restartPoint(npos) == npos) {
            changes_.back().state = TickState::Running; // since the lane's start
            state_ = TickState::Running;
        } else if (state_ != TickState::Running)
            push(restartPoint(expiryIndex), TickState::Running);
        provisional_ = false;
    } else { // a nohz wakeup: the tick was stopped
        if (state_ == TickState::Running && provisional_) {
            changes_.pop_back(); // the inferred restart was a re-program
            state_ = changes_.empty() ? TickState::Unknown : changes_.back().state;
        } else if (state_ == TickState::Unknown && changes_.size() && restartPoint(npos) == npos) {
            changes_.back().state = TickState::Stopped;
            state_ = TickState::Stopped;
        } else if (state_ != TickState::Stopped) {
            push(restartPoint(expiryIndex), TickState::Stopped); // stopped without a traced tick_stop
        }
        provisional_ = false;
    }
    if (changes_.size() > 1 && state_ != TickState::Unknown && changes_[changes_.size() - 2].state == state_)
        changes_.pop_back();
    lastArm_ = npos;
}

void TickLane::dropBefore(size_t k)
{
    constexpr size_t kKeep = 4, kBatch = 64;
    if (k < dropped_ + kKeep) return;
    const size_t n = std::min(k - kKeep - dropped_, changes_.size());
    if (n < kBatch || n < changes_.size() / 2) return; // (an erase moves what is left)
    changes_.erase(changes_.begin(), changes_.begin() + static_cast<std::ptrdiff_t>(n));
    dropped_ += n;
}

void TickLane::onIdleExitWithoutTimer(size_t i)
{
    if (state_ == TickState::Stopped) push(i, TickState::Running);
}

} // namespace tickscope
