// Cumulative time per state slot of a ChangeLane, for "how long was each state in force between t0 and
// t1" in O(log events + K) instead of a walk over the changes in between: a checkpoint every K changes
// holds the event index of that change and the time spent in each slot up to it; a query binary-searches
// the events, finds the change in force in O(1) (ChangeLane's rank directory) and walks at most K changes
// from its checkpoint. About 9 bytes per change.
#pragma once

#include "analysis/ChangeLane.h"
#include "model/CpuEvents.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tickscope {

class StatePrefix
{
public:
    static constexpr int kSlots = 8;
    static constexpr size_t kStride = 8; // changes per checkpoint
    using Times = std::array<int64_t, kSlots>;
    using SlotFn = uint8_t (*)(uint8_t code); // lane code -> slot (< kSlots); code 0 before the first change

    void build(const ChangeLane &lane, const CpuEvents &events, SlotFn slot);

    // Time spent in each slot from the CPU's first event to t (no time before the first event or after
    // the last), and how many changes happened at events before t.
    void at(int64_t t, Times &out, size_t &changes) const
    {
        atIndex(t, events_ ? events_->lowerBound(t) : 0, out, changes);
    }
    // The same with i = the first event with ts >= t already known.
    void atIndex(int64_t t, size_t i, Times &out, size_t &changes) const;

    size_t bytes() const { return checkpoints_.capacity() * sizeof(Checkpoint); }

private:
    struct Checkpoint
    {
        uint32_t event; // event index of change k * kStride
        Times cum;      // time per slot up to that change's ts
    };
    const ChangeLane *lane_ = nullptr;
    const CpuEvents *events_ = nullptr;
    SlotFn slot_ = nullptr;
    std::vector<Checkpoint> checkpoints_;
};

} // namespace tickscope
