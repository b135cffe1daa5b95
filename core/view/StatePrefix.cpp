#include "StatePrefix.h"

#include <algorithm>
#include <bit>

namespace tickscope {

void StatePrefix::build(const ChangeLane &lane, const CpuEvents &events, SlotFn slot, int64_t end)
{
    lane_ = &lane;
    events_ = &events;
    slot_ = slot;
    checkpoints_.clear();
    if (events.empty()) return;
    end_ = std::max(end, events.ts(events.size() - 1));
    const size_t blocks = (events.size() + 63) / 64;
    checkpoints_.reserve(blocks, true); // (huge pages once it is big enough to gain from them)
    Times cum{};
    int64_t prevTs = events.ts(0);
    uint8_t prevSlot = slot(0);
    uint32_t c = 0;
    for (size_t b = 0; b < blocks; ++b) {
        const int64_t t0 = events.ts(b * 64);
        cum[prevSlot] += t0 - prevTs;
        prevTs = t0;
        checkpoints_.push_back({cum, c, prevSlot});
        for (uint64_t w = b < lane.words() ? lane.word(b) : 0; w; w &= w - 1) {
            const int64_t t = events.ts(b * 64 + static_cast<size_t>(std::countr_zero(w)));
            cum[prevSlot] += t - prevTs;
            prevTs = t;
            prevSlot = slot(lane.code(c++));
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
    out = cp.cum;
    int64_t prevTs = events_->ts(b * 64);
    uint8_t prevSlot = cp.slot;
    size_t c = cp.change;
    const unsigned bit = last % 64;
    const uint64_t mask = bit == 63 ? ~uint64_t{0} : (uint64_t{1} << (bit + 1)) - 1;
    for (uint64_t w = b < lane_->words() ? lane_->word(b) & mask : 0; w; w &= w - 1) {
        const int64_t ts = events_->ts(b * 64 + static_cast<size_t>(std::countr_zero(w)));
        out[prevSlot] += ts - prevTs;
        prevTs = ts;
        prevSlot = slot_(lane_->code(c++));
    }
    out[prevSlot] += t - prevTs;
    changes = c;
    slot = prevSlot;
}

} // namespace tickscope
