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
            const int64_t s = l.zero + start, e = l.zero + end;
            l.index->summarize(l.cpu, s, e, width, columns_[k].data());
            // A compared run may not cover the whole shared range: nothing is drawn outside its span.
            const int64_t first = l.index->trace().firstTs(), last = l.index->trace().lastTs();
            if (s >= first && e <= last) return;
            for (int j = 0; j < width; ++j) {
                const int64_t t0 = s + (e - s) * j / width, t1 = s + (e - s) * (j + 1) / width;
                if (t1 <= first || t0 > last) columns_[k][static_cast<size_t>(j)] = ColumnSummary{};
            }
        });
        start_ = start;
        end_ = end;
        width_ = width;
    }
    return columns_[slot];
}

} // namespace tickscope
