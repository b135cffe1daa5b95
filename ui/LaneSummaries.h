// The column summaries of the shown lanes for one (range, width), and reused by every repaint of the same
// range and width (selection, markers, tooltips). When the key changes, the first lane to ask computes its
// own columns while the pool's helper threads (a pool that lives with it: no thread is created per
// repaint) go on down the other lanes on screen in drawing order; each lane then takes its columns when
// ready or computes them itself, so the helpers summarize lanes while the GUI thread paints the ones before.
// Only the lanes on screen are computed ahead (with 128 CPUs most are scrolled away); another lane is
// computed when it asks. The lanes' draw() reads its columns from here. A lane is one CPU of one run: in the
// compare view the runs' lanes share the range in relative time, each turned into its own run's absolute
// time by the run's time zero.
#pragma once

#include "util/Parallel.h"
#include "view/TimelineIndex.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace tickscope {

class LaneSummaries
{
public:
    LaneSummaries();
    ~LaneSummaries();
    LaneSummaries(const LaneSummaries &) = delete;
    LaneSummaries &operator=(const LaneSummaries &) = delete;

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
    // Lanes summarized for the current key, once the helpers are done (tests).
    size_t computedLanes() const;

    // The columns of lane `slot` for the relative range [start, end) in `width` columns (the other lanes
    // on screen are started on the helpers when the key changed).
    const std::vector<ColumnSummary> &columns(size_t slot, int64_t start, int64_t end, int width);

private:
    void compute(size_t slot);
    // The lane's columns: computed here, or by a helper (computing meanwhile lanes from the back of
    // ahead_ that no one has taken).
    void take(size_t slot);
    bool claim(size_t slot); // computes the lane's columns unless someone has taken them
    bool claimFromBack();
    void settle(); // the helpers stop taking lanes; waits for the ones they hold

    std::vector<Source> lanes_;
    std::vector<std::vector<ColumnSummary>> columns_; // by slot
    // By slot, for the current key: kNotStarted, kComputing (by a helper or the GUI thread), kReady.
    static constexpr uint32_t kNotStarted = 0, kComputing = 1, kReady = 2;
    std::unique_ptr<std::atomic<uint32_t>[]> state_;
    std::vector<bool> visible_;
    std::vector<size_t> ahead_; // the lanes on screen the helpers take, in drawing order
    size_t back_ = 0;           // the GUI thread takes from ahead_[back_ - 1] down while it waits
    std::function<void(size_t)> helperItem_;
    std::atomic<bool> stop_{false};
    std::atomic<size_t> computed_{0};
    std::vector<ColumnSummary> empty_;
    int64_t start_ = 0, end_ = 0;
    int width_ = -1;
    mutable WorkerPool pool_{defaultThreads(0)}; // (computedLanes waits for its helpers)
};

} // namespace tickscope
