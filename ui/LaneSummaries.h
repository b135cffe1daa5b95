// The column summaries of the shown lanes for one (range, width), computed together the first time a lane
// asks, one lane per thread of a pool that lives with it (no thread is created per repaint), and reused by
// every repaint of the same range and width (selection, markers, tooltips). Only the lanes on screen are
// computed together (with 128 CPUs most are scrolled away); another lane is computed when it asks. The lanes'
// draw() reads its columns from here. A lane is one CPU of one run: in the compare view the runs' lanes share
// the range in relative time, each turned into its own run's absolute time by the run's time zero.
#pragma once

#include "util/Parallel.h"
#include "view/TimelineIndex.h"

#include <cstdint>
#include <vector>

namespace tickscope {

class LaneSummaries
{
public:
    struct Source
    {
        const TimelineIndex *index;
        int cpu;
        int64_t zero; // the run's absolute ns at relative time 0
    };
    void setLanes(std::vector<Source> lanes);
    void invalidate() { width_ = -1; }
    // The lanes on screen, by slot (the plot's layout says); empty: all.
    void setVisible(std::vector<bool> visible) { visible_ = std::move(visible); }
    size_t computedLanes() const { return computed_; } // lanes summarized for the current key (tests)

    // The columns of lane `slot` for the relative range [start, end) in `width` columns (computed for all
    // lanes when the key changed).
    const std::vector<ColumnSummary> &columns(size_t slot, int64_t start, int64_t end, int width);

private:
    std::vector<Source> lanes_;
    std::vector<std::vector<ColumnSummary>> columns_; // by slot
    std::vector<uint8_t> fresh_;                      // by slot: columns_ are for the current key
    std::vector<bool> visible_;
    size_t computed_ = 0;
    void compute(size_t slot);
    std::vector<ColumnSummary> empty_;
    WorkerPool pool_{defaultThreads(0)};
    int64_t start_ = 0, end_ = 0;
    int width_ = -1;
};

} // namespace tickscope
