#include "TimerRecords.h"

namespace tickscope {

namespace {

// The first record at or after event `index` in a list by index.
template <class V> auto recordFrom(V &records, uint32_t index)
{
    return std::lower_bound(records.begin(), records.end(), index,
                            [](const std::pair<uint32_t, int32_t> &r, uint32_t i) { return r.first < i; });
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
    for (uint32_t k = seen; k < n; ++k) { // (added since)
        if ((*values_)[k].load(std::memory_order_relaxed) == d) return static_cast<uint8_t>(k);
    }
    if (n < kByRecord) {
        if (!values_) values_ = std::make_unique<std::array<std::atomic<int64_t>, kByRecord>>();
        (*values_)[n].store(d, std::memory_order_relaxed);
        count_.store(n + 1, std::memory_order_release);
        return static_cast<uint8_t>(n);
    }
    const auto it = recordFrom(byRecord_, index);
    if (it != byRecord_.end() && it->first == index)
        it->second = soft;
    else
        byRecord_.insert(it, {index, soft});
    return kByRecord;
}

int32_t SoftLateness::byRecord(uint32_t index) const
{
    const auto it = recordFrom(byRecord_, index);
    return it != byRecord_.end() && it->first == index ? it->second : kUnknownNs;
}

void SoftLateness::releaseBefore(uint32_t index)
{
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto it = recordFrom(byRecord_, index);
    byRecord_.erase(byRecord_.begin(), it);
}

} // namespace tickscope
