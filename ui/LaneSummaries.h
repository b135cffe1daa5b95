// The column summaries of every shown CPU lane for one (range, width), computed together the first time a
// lane asks, one CPU per thread of a pool that lives with it (no thread is created per repaint), and reused
// by every repaint of the same range and width (selection, markers, tooltips). The lanes' draw() reads its
// CPU's columns from here.
#pragma once

#include "util/Parallel.h"
#include "view/TimelineIndex.h"

#include <cstdint>
#include <vector>

namespace tickscope {

class LaneSummaries
{
public:
    void setIndex(const TimelineIndex *index, std::vector<int> cpus);
    void invalidate() { width_ = -1; }

    // The columns of `cpu` for [start, end) in `width` columns (computed for all lanes when the key changed).
    const std::vector<ColumnSummary> &columns(int cpu, int64_t start, int64_t end, int width);

private:
    const TimelineIndex *index_ = nullptr;
    std::vector<int> cpus_;
    std::vector<std::vector<ColumnSummary>> columns_; // by position in cpus_
    std::vector<ColumnSummary> empty_;
    WorkerPool pool_{defaultThreads(0)};
    int64_t start_ = 0, end_ = 0;
    int width_ = -1;
};

} // namespace tickscope
