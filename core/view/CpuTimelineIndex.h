// SPDX-License-Identifier: GPL-3.0-or-later
// The level-of-detail index of one CPU lane, built once per document from the events and the tick
// analysis: cumulative state times (StatePrefix) for the task and IRQ lanes, the tick lane's change times
// with their cumulative times, and range trees over the ticks' classes, the wakeups' lateness and latency
// and the failed stops' dependencies. summarize() then fills one ColumnSummary per pixel column with a
// few binary searches and tree queries per column: O(columns x log events), never a walk over the events
// of the range.
#pragma once

#include "ColumnSummary.h"
#include "FunctionLane.h"
#include "RangeTree.h"
#include "StatePrefix.h"

#include "analysis/CpuAnalysis.h"
#include "model/Column.h"
#include "model/CpuEvents.h"

#include <array>
#include <cstdint>
#include <vector>

namespace tickscope {

struct TimeSpan
{
    int64_t from, to;
    uint32_t record; // index into the analysis array it came from
};

class CpuTimelineIndex
{
public:
    // spans: the CPU's function_graph calls (null: none); they must outlive the index.
    // end: the trace's end; a CPU's last states (task, IRQ, tick) last until then.
    void build(const CpuEvents &events, const CpuAnalysis &analysis,
               const std::vector<FunctionSpan> *spans = nullptr, int64_t end = INT64_MIN);

    // Column j covers [start + (end - start) * j / columns, start + (end - start) * (j + 1) / columns).
    // Columns wholly outside [spanFrom, spanTo] (the trace's span) stay empty: a range may reach beyond
    // the trace (the compare view's shared axis covers both runs). Only columns [firstColumn, endColumn)
    // are written (endColumn -1: up to `columns`), the same as in a call over all of them: threads can
    // share a lane's columns. `detail` Collapsed: only the fields a collapsed lane draws (SummaryDetail).
    void summarize(int64_t start, int64_t end, int columns, ColumnSummary *out, int64_t spanFrom = INT64_MIN,
                   int64_t spanTo = INT64_MAX, int firstColumn = 0, int endColumn = -1,
                   SummaryDetail detail = SummaryDetail::Full) const;

    const FunctionLane &functions() const { return functions_; }
    const std::vector<TimeSpan> &catchups() const { return catchups_; } // catch-up TIMER softirqs
    const std::vector<TimeSpan> &lost() const { return lost_; }         // lost-event ranges, by time
    static TickClass tickClass(const TickRecord &t);
    size_t bytes() const;

private:
    // Tick lane state times up to t (clamped like StatePrefix). `change`: the last tick lane change at or
    // before the previous t of the same sweep (t only grows), 0 for the first; updated.
    void tickStateAt(int64_t t, std::array<int64_t, 3> &out, size_t &change) const;
    // CpuEvents::lowerBound(t) in two steps, over a sample of every 64th timestamp: the first sample >= t
    // (b: the sample of event b * 64), at or after `from`, the previous edge's sample (t only grows),
    // galloping from `guess` (util/Gallop.h); then the first event >= t in the block before it.
    size_t sampleFrom(int64_t t, size_t from, size_t guess) const;
    size_t searchBlock(size_t b, int64_t t) const;
    // Per 64-event block b: the first record of each kind (the ticks, the wakeups, the failed stops and the
    // TIMER softirqs) whose event is at or after event b * 64: a column edge finds its records with one
    // lookup and a short scan instead of a binary search over a large array. The four sit side by side: an
    // edge reads those of its block and the next from one cache line, not from four arrays.
    enum StartKind
    {
        kTicks,
        kWakeups,
        kFails,
        kSoftirqs
    };
    Column<std::array<uint32_t, 4>> starts_;
    template <class Rec> void buildStarts(StartKind k, const Rec *recs, size_t n);
    template <class Rec> size_t lowerIndex(StartKind k, const Rec *recs, size_t n, size_t eventIndex) const;
    // Start loading what lowerIndex reads for an event of block b: the entries (prefetchStarts), then,
    // once they are in, the first record (prefetchRecord).
    void prefetchStarts(size_t b) const
    {
        if (b < starts_.size()) tickscope::prefetch(&starts_[b]);
        if (b + 1 < starts_.size()) tickscope::prefetch(&starts_[b + 1]);
    }
    template <class Rec> void prefetchRecord(StartKind k, const Rec *recs, size_t n, size_t b) const
    {
        if (b < starts_.size() && starts_[b][k] < n) tickscope::prefetch(&recs[starts_[b][k]]);
    }
    static bool overlaps(const std::vector<TimeSpan> &spans, int64_t t0, int64_t t1);

    const CpuEvents *events_ = nullptr;
    const CpuAnalysis *analysis_ = nullptr;
    int64_t end_ = INT64_MIN; // the trace's end (at least the CPU's last event)
    StatePrefix task_, irq_;
    static constexpr unsigned kSampleShift = 6;
    Column<int64_t> sample_;                      // ts of every 64th event
    std::vector<int64_t> tickTs_;                 // ts of each tick-lane change
    std::vector<std::array<int64_t, 3>> tickCum_; // time per TickState up to each change
    RangeTree<int8_t, MaxOp> tickClass_;
    // Wakeup lateness: the max per 64-event block in a small tree; a column's partial blocks at its
    // edges are read from the records themselves (they sit next to the ones the edge search touched).
    RangeTree<int32_t, MaxOp> blockLateness_;
    int32_t maxLateness(size_t lo, size_t hi) const; // over wakeup records [lo, hi)
    RangeTree<uint32_t, OrOp> dependencies_;
    std::vector<uint32_t> spuriousPrefix_; // spurious ticks before each tick
    std::vector<uint32_t> softPrefix_;     // soft expiries before each wakeup (empty: none on the CPU)
    std::vector<TimeSpan> catchups_, lost_;
    FunctionLane functions_;
};

} // namespace tickscope
