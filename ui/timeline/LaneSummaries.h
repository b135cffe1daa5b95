// SPDX-License-Identifier: GPL-3.0-or-later
// The column summaries of the shown lanes for one (range, width), reused by every repaint of the same range
// and width (selection, markers, tooltips). A lane's columns are computed in parts (an eighth of them
// each). When the key changes, the pool's helper threads (a pool that lives with it: no thread is created
// per repaint) start on the lanes on screen in drawing order: a repaint sets the key before it paints the
// background and axes (prime), else the first lane to ask does and computes its own columns meanwhile. A
// lane that asks later takes the parts of its own no helper has taken yet, then, while a helper finishes
// the others, parts of the lanes drawn after it (it waits only when none are left): the helpers summarize
// lanes ahead while the GUI thread paints the ones before. Only the lanes on screen are computed ahead
// (with 128 CPUs most are scrolled away); another lane is computed when it asks. The lanes' draw() reads
// its columns from here. A collapsed lane's columns hold only what its thin row draws
// (SummaryDetail::Collapsed: the task states, not the IRQ and tick lanes and the records). A lane is one CPU
// of one run: in the compare view the runs' lanes share the range in relative time, each turned into its own
// run's absolute time by the run's time zero.
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
        // What keeps the index (and the trace and analysis it reads) alive while the lane exists: a helper
        // may still be summarizing a lane on screen that no draw asked for when the document is replaced.
        std::shared_ptr<const void> owner = {};
    };
    // drawOrder: the slots in the order the lanes are drawn (empty: slot order), the order the helpers take
    // them in.
    void setLanes(std::vector<Source> lanes, std::vector<size_t> drawOrder = {});
    void invalidate(); // the next ask computes anew (helpers still at work on the current key are waited for)
    // The lanes on screen, by slot (the plot's layout says); empty: all.
    void setVisible(std::vector<bool> visible) { visible_ = std::move(visible); }
    // The collapsed lanes, by slot (empty: none). A lane that expands is computed anew (its columns held
    // the collapsed fields only); one that collapses keeps its full columns, which hold those fields too.
    void setCollapsed(std::vector<bool> collapsed);
    // Lanes summarized for the current key, once the helpers are done (tests).
    size_t computedLanes() const;
    size_t keys() const { return keys_; } // keys set so far (tests: a repaint sets one)

    // The columns of lane `slot` for the relative range [start, end) in `width` columns (the other lanes
    // on screen are started on the helpers when the key changed).
    const std::vector<ColumnSummary> &columns(size_t slot, int64_t start, int64_t end, int width);
    // Starts the helpers on the lanes on screen for a key the lanes will ask for, before the first asks: a
    // repaint paints the background and the axes first (0.4 ms at 1920x1080), time the helpers can use.
    // A key no lane then asks for costs only the part a helper is in when one asks for another.
    void prime(int64_t start, int64_t end, int width);

private:
    static constexpr uint32_t kParts = 8;
    static constexpr uint32_t kAllParts = (1u << kParts) - 1;
    bool claimPart(size_t slot);  // computes a part of the lane no one has taken; false: none left
    void take(size_t slot);       // the lane's columns, all parts done (computed here, or waited for)
    bool claimAhead(size_t slot); // a part of another lane on screen no one has taken (drawing order)
    void settle();                // the helpers stop taking parts; waits for the ones they hold
    bool isKey(int64_t start, int64_t end, int width) const
    {
        return start == start_ && end == end_ && width == width_;
    }
    // A new key: the helpers start on the lanes on screen in drawing order but `except` (the one asking).
    void rekey(int64_t start, int64_t end, int width, size_t except);

    std::vector<Source> lanes_;
    std::vector<std::vector<ColumnSummary>> columns_; // by slot
    // By slot, for the current key: the parts taken (bit p: part p) and the parts done. A part a helper
    // failed on is handed back (its taken bit cleared) and kHandedBack flipped in done_, so that a thread
    // waiting on done_ wakes and takes it (the thread that asked computes it, and sees the error itself).
    static constexpr uint32_t kHandedBack = 1u << 31;
    std::unique_ptr<std::atomic<uint32_t>[]> taken_, done_;
    std::vector<bool> visible_, collapsed_;
    std::vector<size_t> order_; // slots in drawing order
    std::vector<size_t> ahead_; // the lanes on screen the helpers take, in drawing order
    std::function<void(size_t)> helperItem_;
    std::atomic<bool> stop_{false};
    std::atomic<size_t> computed_{0};
    std::vector<ColumnSummary> empty_;
    int64_t start_ = 0, end_ = 0;
    int width_ = -1;
    size_t keys_ = 0;
    mutable WorkerPool pool_{defaultThreads(0)}; // (computedLanes waits for its helpers)
};

} // namespace tickscope
