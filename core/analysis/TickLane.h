// SPDX-License-Identifier: GPL-3.0-or-later
// The tick lane of one CPU: when the periodic tick ran and when it was stopped.
//
// `tick_stop success=1` stops it. There is no restart tracepoint, so restarts are inferred from the tick
// hrtimer: an arm (`hrtimer_start` outside the expiry path) after a real `hrtimer_cancel` is the
// tick_nohz_restart() sequence, and every expiry tells the truth afterwards: a periodic tick
// re-arms itself with mode ABS, a stopped tick's expiry (a nohz wakeup for the next event) does not.
// So an expiry that re-arms while the lane says "stopped" dates the restart at the last arm before it,
// and one that does not re-arm reverts a provisional restart. Retroactive fixes only touch the tail.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace tickscope {

enum class TickState : uint8_t
{
    Unknown = 0,
    Running,
    Stopped
};

struct TickLaneChange
{
    uint32_t index; // event index on the CPU where the state begins
    TickState state;
};

class TickLane
{
public:
    void reset(size_t i); // trace start: Unknown from event i
    // Lost events between events gapStart and resume: Unknown over the gap, and Unknown again from
    // `resume` (a later decision may relabel the latter, never the gap).
    void gap(size_t gapStart, size_t resume);

    void onTickStop(size_t i); // tick_stop success=1
    void onCancel(size_t i);   // a real hrtimer_cancel of the tick hrtimer (noise already dropped)
    void onArm(size_t i);      // hrtimer_start of the tick hrtimer outside the expiry path
    void onExpiry();           // hrtimer_expire_entry of the tick hrtimer
    void onExpiryResolved(size_t expiryIndex, bool rearmed);
    void onIdleExitWithoutTimer(size_t i); // low-res fallback: the idle exit restarts a stopped tick
    // A lane inferred after the pass (TickAnalysis: the timer interrupts' gaps) replaces the one it made.
    void assign(std::vector<TickLaneChange> changes)
    {
        changes_ = std::move(changes);
        dropped_ = 0;
        state_ = changes_.empty() ? TickState::Unknown : changes_.back().state;
    }

    TickState state() const { return state_; }
    // The arm a later expiry may date a restart at (a change then appears at that event): npos for none.
    size_t pendingRestart() const { return lastArm_; }
    static constexpr size_t npos = static_cast<size_t>(-1);
    // The changes from dropped() on (a whole analysis drops none: they are every change).
    const std::vector<TickLaneChange> &changes() const { return changes_; }
    size_t dropped() const { return dropped_; }
    // A stream's fold is past the changes before the k-th (counted from the first ever): they go, in
    // batches, all but the last few before k (the retroactive fixes read no further back than three).
    void dropBefore(size_t k);
    size_t bytes() const { return changes_.capacity() * sizeof(TickLaneChange); }
    void shrink() { changes_.shrink_to_fit(); }

private:
    void push(size_t i, TickState s);
    size_t lastIndex() const { return changes_.empty() ? npos : changes_.back().index; }
    size_t restartPoint(size_t fallback) const; // the last arm after the last change, else fallback

    std::vector<TickLaneChange> changes_;
    size_t dropped_ = 0;
    TickState state_ = TickState::Unknown;
    bool stopArmPending_ = false; // the arm (or cancel) right after tick_stop programs the stopped tick
    bool cancelSeen_ = false;     // a real cancel since the last arm: the next arm restarts
    bool provisional_ = false;    // Running since an inferred restart no expiry has confirmed yet
    size_t lastArm_ = npos;
};

} // namespace tickscope
