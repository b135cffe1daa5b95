#include "LaneSummaries.h"

#include "util/Parallel.h"

#include <algorithm>

namespace tickscope {

void LaneSummaries::setIndex(const TimelineIndex *index, std::vector<int> cpus)
{
    index_ = index;
    cpus_ = std::move(cpus);
    columns_.assign(cpus_.size(), {});
    invalidate();
}

const std::vector<ColumnSummary> &LaneSummaries::columns(int cpu, int64_t start, int64_t end, int width)
{
    const auto it = std::find(cpus_.begin(), cpus_.end(), cpu);
    if (!index_ || it == cpus_.end() || width <= 0) return empty_;
    if (start != start_ || end != end_ || width != width_) {
        pool_.parallelFor(cpus_.size(), [&](size_t k) {
            columns_[k].resize(static_cast<size_t>(width));
            index_->summarize(cpus_[k], start, end, width, columns_[k].data());
        });
        start_ = start;
        end_ = end;
        width_ = width;
    }
    return columns_[static_cast<size_t>(it - cpus_.begin())];
}

} // namespace tickscope
