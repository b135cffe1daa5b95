#include "LaneSummaries.h"

namespace tickscope {

LaneSummaries::LaneSummaries()
{
    helperItem_ = [this](size_t k) {
        if (stop_.load(std::memory_order_relaxed)) return;
        claim(ahead_[k]); // (a lane that throws is handed back: the GUI thread computes it when it asks)
    };
}

LaneSummaries::~LaneSummaries()
{
    stop_ = true;
    try {
        pool_.wait();
    } catch (...) { // a lane that failed is no one's concern any more
    }
}

void LaneSummaries::settle()
{
    stop_ = true;
    try {
        pool_.wait();
    } catch (...) {
        stop_ = false;
        throw;
    }
    stop_ = false;
}

void LaneSummaries::setLanes(std::vector<Source> lanes)
{
    settle();
    lanes_ = std::move(lanes);
    columns_.assign(lanes_.size(), {});
    state_ = std::make_unique<std::atomic<uint32_t>[]>(lanes_.size());
    visible_.clear();
    invalidate();
}

size_t LaneSummaries::computedLanes() const
{
    pool_.wait();
    return computed_;
}

void LaneSummaries::compute(size_t k)
{
    const Source &l = lanes_[k];
    columns_[k].resize(static_cast<size_t>(width_));
    l.index->summarize(l.cpu, l.zero + start_, l.zero + end_, width_, columns_[k].data());
    computed_.fetch_add(1, std::memory_order_relaxed);
}

void LaneSummaries::take(size_t slot)
{
    std::atomic<uint32_t> &s = state_[slot];
    for (;;) {
        uint32_t v = s.load(std::memory_order_acquire);
        if (v == kReady) return;
        if (v == kComputing) {
            // A helper has it: meanwhile the last lane on screen no one has taken yet, else wait.
            if (!claimFromBack()) s.wait(kComputing, std::memory_order_acquire);
            continue;
        }
        if (claim(slot)) return;
    }
}

bool LaneSummaries::claim(size_t slot)
{
    std::atomic<uint32_t> &s = state_[slot];
    uint32_t expected = kNotStarted;
    if (!s.compare_exchange_strong(expected, kComputing, std::memory_order_acquire)) return false;
    try {
        compute(slot);
    } catch (...) {
        s.store(kNotStarted, std::memory_order_release);
        s.notify_all();
        throw;
    }
    s.store(kReady, std::memory_order_release);
    s.notify_all();
    return true;
}

bool LaneSummaries::claimFromBack()
{
    while (back_ > 0)
        if (claim(ahead_[--back_])) return true;
    return false;
}

const std::vector<ColumnSummary> &LaneSummaries::columns(size_t slot, int64_t start, int64_t end, int width)
{
    if (slot >= lanes_.size() || width <= 0) return empty_;
    if (start != start_ || end != end_ || width != width_) {
        settle(); // the helpers write the columns of the old key until then
        start_ = start;
        end_ = end;
        width_ = width;
        for (size_t k = 0; k < lanes_.size(); ++k)
            state_[k].store(kNotStarted, std::memory_order_relaxed);
        computed_ = 0;
        ahead_.clear();
        for (size_t k = 0; k < lanes_.size(); ++k)
            if (k != slot && (visible_.size() != lanes_.size() || visible_[k])) ahead_.push_back(k);
        back_ = ahead_.size();
        pool_.start(ahead_.size(), helperItem_);
    }
    take(slot);
    return columns_[slot];
}

} // namespace tickscope
