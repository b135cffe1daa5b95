#include "TimerRecords.h"

#include <span>

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
    if (sorted_ == byRecord_.size()) return;
    const auto byIndex = [](const std::pair<uint32_t, int32_t> &a, const std::pair<uint32_t, int32_t> &b) {
        return a.first < b.first;
    };
    const auto mid = byRecord_.begin() + static_cast<std::ptrdiff_t>(sorted_);
    std::stable_sort(mid, byRecord_.end(), byIndex);
    std::inplace_merge(byRecord_.begin(), mid, byRecord_.end(), byIndex); // (stable: the later ones last)
    size_t kept = 0;
    for (size_t k = 0; k < byRecord_.size(); ++k) {
        if (k + 1 < byRecord_.size() && byRecord_[k + 1].first == byRecord_[k].first) continue;
        byRecord_[kept++] = byRecord_[k];
    }
    byRecord_.resize(kept);
    sorted_ = kept;
}

int32_t SoftLateness::byRecord(uint32_t index) const
{
    const auto sorted = std::span(byRecord_).first(sorted_); // (all of them after finish())
    const auto it = recordFrom(sorted, index);
    return it != sorted.end() && it->first == index ? it->second : kUnknownNs;
}

void SoftLateness::releaseBefore(uint32_t index)
{
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto it = recordFrom(byRecord_, index);
    sorted_ -= static_cast<size_t>(it - byRecord_.begin());
    byRecord_.erase(byRecord_.begin(), it);
}

} // namespace tickscope
