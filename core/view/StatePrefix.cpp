#include "StatePrefix.h"

#include <algorithm>

namespace tickscope {

void StatePrefix::build(const ChangeLane &lane, const CpuEvents &events, SlotFn slot)
{
    lane_ = &lane;
    events_ = &events;
    slot_ = slot;
    checkpoints_.clear();
    if (events.empty() || lane.changes() == 0) return;
    checkpoints_.reserve(lane.changes() / kStride + 1);
    Times cum{};
    int64_t prevTs = events.ts(0);
    uint8_t prevSlot = slot(0);
    size_t c = 0;
    lane.forEach([&](size_t i, uint8_t code) {
        const int64_t t = events.ts(i);
        cum[prevSlot] += t - prevTs;
        if (c % kStride == 0) checkpoints_.push_back({static_cast<uint32_t>(i), cum});
        prevTs = t;
        prevSlot = slot(code);
        ++c;
    });
}

void StatePrefix::atIndex(int64_t t, size_t i, Times &out, size_t &changes) const
{
    out.fill(0);
    changes = 0;
    if (!events_ || events_->empty() || i == 0) return; // events before i have ts < t
    const int64_t first = events_->ts(0);
    t = std::min(t, events_->ts(events_->size() - 1)); // no state after the CPU's last event
    const size_t c = lane_->changeAt(i - 1);
    if (c == ChangeLane::npos) {
        out[slot_(0)] = t - first;
        return;
    }
    const Checkpoint &cp = checkpoints_[c / kStride];
    out = cp.cum;
    int64_t prevTs = 0;
    uint8_t prevSlot = 0;
    bool firstChange = true;
    lane_->forEachFrom(c / kStride * kStride, cp.event, i - 1, [&](size_t idx, uint8_t code) {
        const int64_t ts = events_->ts(idx);
        if (!firstChange) out[prevSlot] += ts - prevTs;
        firstChange = false;
        prevTs = ts;
        prevSlot = slot_(code);
    });
    out[prevSlot] += t - prevTs;
    changes = c + 1;
}

} // namespace tickscope
