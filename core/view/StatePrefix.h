// SPDX-License-Identifier: GPL-3.0-or-later
// Cumulative time per state slot of a ChangeLane, for "how long was each state in force between t0 and
// t1" without walking the changes in between: per 64-event block (one word of the lane's change bitmap)
// a checkpoint holds the time spent in each slot up to the block's first event (all slots but one: that
// one's is the rest), the number of changes before it, the slot in force and the block's bitmap word, in
// one 64-byte cache line. A query (given the first event at or after t) reads one checkpoint and walks the
// changes of its word: the same 64-event block whose timestamps the search has just touched. One byte per
// event.
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
    // lane code -> slot (<= kStored: 7 slots, slot kSlots - 1 stays empty); code 0 before the first change
    using SlotFn = uint8_t (*)(uint8_t code);
    static constexpr int kStored = 6; // slots whose times a checkpoint holds; slot kStored's is the rest

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
        if (b < checkpoints_.size()) tickscope::prefetch(&checkpoints_[b]);
    }
    void prefetchCodes(size_t b) const
    {
        if (b < checkpoints_.size()) lane_->prefetchCode(checkpoints_[b].change);
    }

    size_t bytes() const { return checkpoints_.bytes(); }

private:
    struct alignas(64) Checkpoint
    {
        // Time per slot up to the ts of the block's first event, slots [0, kStored). Slot kStored's is the
        // rest of the time since the CPU's first event (the slots' times add up to it).
        std::array<int64_t, kStored> cum;
        uint64_t word;   // the lane's change bitmap word of the block
        uint32_t change; // changes at events before the block
        uint8_t slot;    // the slot in force just before the block's first event
    };
    static_assert(sizeof(Checkpoint) == 64);
    const ChangeLane *lane_ = nullptr;
    const CpuEvents *events_ = nullptr;
    std::array<uint8_t, 256> slots_{}; // SlotFn's slot of each code
    int64_t first_ = 0;                // the CPU's first event's ts
    int64_t end_ = INT64_MIN;
    Column<Checkpoint> checkpoints_; // its own mapping: populated in stretches, not faulted in page by page
};

} // namespace tickscope
