// Cumulative time per state slot of a ChangeLane, for "how long was each state in force between t0 and
// t1" without walking the changes in between: per 64-event block (one word of the lane's change bitmap)
// a checkpoint holds the time spent in each slot up to the block's first event, the number of changes
// before it and the slot in force. A query (given the first event at or after t) reads one checkpoint
// and walks the changes of one bitmap word: the same 64-event block whose timestamps the search has
// just touched. About 1.1 bytes per event.
#pragma once

#include "analysis/ChangeLane.h"
#include "model/CpuEvents.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tickscope {

class StatePrefix
{
public:
    static constexpr int kSlots = 8;
    using Times = std::array<int64_t, kSlots>;
    using SlotFn = uint8_t (*)(uint8_t code); // lane code -> slot (< kSlots); code 0 before the first change

    // end: where the last state stops: the trace's end (a CPU idle to the end has no event after it
    // went idle); at least the CPU's last event.
    void build(const ChangeLane &lane, const CpuEvents &events, SlotFn slot, int64_t end = INT64_MIN);

    // Time spent in each slot from the CPU's first event to t (no time before the first event or after
    // `end`), and how many changes happened at events before t.
    void at(int64_t t, Times &out, size_t &changes) const
    {
        atIndex(t, events_ ? events_->lowerBound(t) : 0, out, changes);
    }
    // The same with i = the first event with ts >= t already known. `slot`: the slot whose time grows at t
    // (kNoSlot before the first event, where no time counts).
    static constexpr uint8_t kNoSlot = 0xff;
    void atIndex(int64_t t, size_t i, Times &out, size_t &changes, uint8_t &slot) const;
    void atIndex(int64_t t, size_t i, Times &out, size_t &changes) const
    {
        uint8_t slot;
        atIndex(t, i, out, changes, slot);
    }
    // atIndex(t1, i) from atIndex(t0, i) (the same i: no event in [t0, t1)): only `slot`'s time grows.
    void advance(Times &out, uint8_t slot, int64_t t0, int64_t t1) const
    {
        if (slot != kNoSlot) out[slot] += std::min(t1, end_) - std::min(t0, end_);
    }

    // Start loading what atIndex reads for an event in 64-event block b: its checkpoint and bitmap word
    // (prefetch), then, once the checkpoint is in, the codes of the block's changes (prefetchCodes).
    void prefetch(size_t b) const
    {
        if (b >= checkpoints_.size()) return;
        prefetchBytes(&checkpoints_[b], sizeof(Checkpoint));
        lane_->prefetchWord(b);
    }
    void prefetchCodes(size_t b) const
    {
        if (b < checkpoints_.size()) lane_->prefetchCode(checkpoints_[b].change);
    }

    size_t bytes() const { return checkpoints_.bytes(); }

private:
    struct Checkpoint
    {
        Times cum;       // time per slot up to the ts of the block's first event
        uint32_t change; // changes at events before the block
        uint8_t slot;    // the slot in force just before the block's first event
    };
    const ChangeLane *lane_ = nullptr;
    const CpuEvents *events_ = nullptr;
    SlotFn slot_ = nullptr;
    int64_t end_ = INT64_MIN;
    Column<Checkpoint> checkpoints_; // its own mapping: populated in stretches, not faulted in page by page
};

} // namespace tickscope
