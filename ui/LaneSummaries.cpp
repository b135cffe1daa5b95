#include "LaneSummaries.h"

#include "util/Parallel.h"

namespace tickscope {

void LaneSummaries::setLanes(std::vector<Source> lanes)
{
    lanes_ = std::move(lanes);
    columns_.assign(lanes_.size(), {});
    fresh_.assign(lanes_.size(), 0);
    visible_.clear();
    invalidate();
}

void LaneSummaries::compute(size_t k)
{
    const Source &l = lanes_[k];
    columns_[k].resize(static_cast<size_t>(width_));
    l.index->summarize(l.cpu, l.zero + start_, l.zero + end_, width_, columns_[k].data());
    fresh_[k] = 1;
}

const std::vector<ColumnSummary> &LaneSummaries::columns(size_t slot, int64_t start, int64_t end, int width)
{
    if (slot >= lanes_.size() || width <= 0) return empty_;
    if (start != start_ || end != end_ || width != width_) {
        start_ = start;
        end_ = end;
        width_ = width;
        std::fill(fresh_.begin(), fresh_.end(), 0);
        std::vector<size_t> shown;
        for (size_t k = 0; k < lanes_.size(); ++k)
            if (visible_.size() != lanes_.size() || visible_[k] || k == slot) shown.push_back(k);
        pool_.parallelFor(shown.size(), [&](size_t i) { compute(shown[i]); });
        computed_ = shown.size();
    }
    if (!fresh_[slot]) { // scrolled into view since
        compute(slot);
        ++computed_;
    }
    return columns_[slot];
}

} // namespace tickscope
