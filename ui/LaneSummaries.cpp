#include "LaneSummaries.h"

#include "util/Parallel.h"

namespace tickscope {

void LaneSummaries::setLanes(std::vector<Source> lanes)
{
    lanes_ = std::move(lanes);
    columns_.assign(lanes_.size(), {});
    invalidate();
}

const std::vector<ColumnSummary> &LaneSummaries::columns(size_t slot, int64_t start, int64_t end, int width)
{
    if (slot >= lanes_.size() || width <= 0) return empty_;
    if (start != start_ || end != end_ || width != width_) {
        pool_.parallelFor(lanes_.size(), [&](size_t k) {
            const Source &l = lanes_[k];
            columns_[k].resize(static_cast<size_t>(width));
            l.index->summarize(l.cpu, l.zero + start, l.zero + end, width, columns_[k].data());
        });
        start_ = start;
        end_ = end;
        width_ = width;
    }
    return columns_[slot];
}

} // namespace tickscope
