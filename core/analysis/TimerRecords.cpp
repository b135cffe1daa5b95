// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimerRecords.h"

namespace tickscope {

namespace {

using Kept = std::pair<uint32_t, int32_t>; // a soft lateness kept by record: (event index, value)

// The first record at or after event `index` in a list by index.
template <class V> auto recordFrom(V &records, uint32_t index)
{
    return std::lower_bound(records.begin(), records.end(), index,
                            [](const Kept &r, uint32_t i) { return r.first < i; });
}

} // namespace

uint8_t SoftLateness::slot(uint32_t index, int32_t hard, int32_t soft)
{
    const int64_t d = int64_t{soft} - hard;
    const uint32_t seen = count_.load(std::memory_order_acquire);
    for (uint32_t k = 0; k < seen; ++k) {
        if ((*values_)[k].load(std::memory_order_relaxed) == d) return static_cast<uint8_t>(k);
    }
    const std::lock_guard<std::mutex> lock(mutex_);
    const uint32_t n = count_.load(std::memory_order_relaxed);
    for (uint32_t k = seen; k < n; ++k) { // (values other threads added since the scan above)
        if ((*values_)[k].load(std::memory_order_relaxed) == d) return static_cast<uint8_t>(k);
    }
    if (n < kByRecord) {
        if (!values_) values_ = std::make_unique<std::array<std::atomic<int64_t>, kByRecord>>();
        (*values_)[n].store(d, std::memory_order_relaxed);
        count_.store(n + 1, std::memory_order_release);
        return static_cast<uint8_t>(n);
    }
    byRecord_.emplace_back(index, soft); // (in order by finish(): the pieces of a CPU settle at once)
    return kByRecord;
}

void SoftLateness::finish()
{
    const std::lock_guard<std::mutex> lock(mutex_);
    // Stable: of a record settled twice, the later value stays after the earlier one; the unique pass from
    // the back keeps that one, at the back, and the front left over goes.
    std::stable_sort(byRecord_.begin(), byRecord_.end(),
                     [](const Kept &a, const Kept &b) { return a.first < b.first; });
    const auto kept = std::unique(byRecord_.rbegin(), byRecord_.rend(),
                                  [](const Kept &a, const Kept &b) { return a.first == b.first; });
    byRecord_.erase(byRecord_.begin(), kept.base());
}

int32_t SoftLateness::byRecord(uint32_t index) const
{
    const auto it = recordFrom(byRecord_, index);
    return it != byRecord_.end() && it->first == index ? it->second : kUnknownNs;
}

void SoftLateness::releaseBefore(uint32_t index)
{
    const std::lock_guard<std::mutex> lock(mutex_);
    byRecord_.erase(byRecord_.begin(), recordFrom(byRecord_, index));
}

} // namespace tickscope
