// SPDX-License-Identifier: GPL-3.0-or-later
#include "StatePrefix.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace tickscope {

void StatePrefix::build(const ChangeLane &lane, const CpuEvents &events, SlotFn slot, int64_t end)
{
    lane_ = &lane;
    events_ = &events;
    checkpoints_.clear();
    if (events.empty()) return;
    end_ = std::max(end, events.ts(events.size() - 1));
    first_ = events.ts(0);
    const size_t blocks = (events.size() + 63) / 64;
    checkpoints_.reserve(blocks, true); // (huge pages once it is big enough to gain from them)
    Times cum{};
    int64_t prevTs = first_;
    for (size_t code = 0; code < slots_.size(); ++code)
        slots_[code] = slot(static_cast<uint8_t>(code));
    auto slotOf = [&](uint8_t code) {
        const uint8_t s = slots_[code];
        if (s > kStored) throw std::logic_error("StatePrefix: a slot above the ones a checkpoint holds");
        return s;
    };
    uint8_t prevSlot = slotOf(0);
    uint32_t c = 0;
    for (size_t b = 0; b < blocks; ++b) {
        const int64_t t0 = events.ts(b * 64);
        cum[prevSlot] += t0 - prevTs;
        prevTs = t0;
        const uint64_t word = b < lane.words() ? lane.word(b) : 0;
        Checkpoint cp{};
        std::copy_n(cum.begin(), kStored, cp.cum.begin());
        cp.word = word;
        cp.change = c;
        cp.slot = prevSlot;
        checkpoints_.push_back(cp);
        for (uint64_t w = word; w; w &= w - 1) {
            const int64_t t = events.ts(b * 64 + static_cast<size_t>(std::countr_zero(w)));
            cum[prevSlot] += t - prevTs;
            prevTs = t;
            prevSlot = slotOf(lane.code(c++));
        }
    }
}

void StatePrefix::atIndex(int64_t t, size_t i, Times &out, size_t &changes, uint8_t &slot) const
{
    out.fill(0);
    changes = 0;
    slot = kNoSlot;
    if (!events_ || events_->empty() || i == 0) return; // events before i have ts < t
    t = std::min(t, end_);                              // no state after the trace's end
    const size_t last = i - 1;                          // the last event before t
    const size_t b = last / 64;
    const Checkpoint &cp = checkpoints_[b];
    const CpuEvents::BlockClock clock(*events_, b);
    int64_t prevTs = clock.ts(b * 64);
    int64_t rest = prevTs - first_;
    for (int s = 0; s < kStored; ++s) {
        out[s] = cp.cum[s];
        rest -= cp.cum[s];
    }
    out[kStored] = rest;
    uint8_t prevSlot = cp.slot;
    size_t c = cp.change;
    const unsigned bit = last % 64;
    const uint64_t mask = bit == 63 ? ~uint64_t{0} : (uint64_t{1} << (bit + 1)) - 1;
    for (uint64_t w = cp.word & mask; w; w &= w - 1) {
        const int64_t ts = clock.ts(b * 64 + static_cast<size_t>(std::countr_zero(w)));
        out[prevSlot] += ts - prevTs;
        prevTs = ts;
        prevSlot = slots_[lane_->code(c++)];
    }
    out[prevSlot] += t - prevTs;
    changes = c;
    slot = prevSlot;
}

} // namespace tickscope
