// The level-of-detail index of one CPU lane, built once per document from the events and the tick
// analysis: cumulative state times (StatePrefix) for the task and IRQ lanes, the tick lane's change times
// with their cumulative times, and range trees over the ticks' classes, the wakeups' lateness and latency
// and the failed stops' dependencies. summarize() then fills one ColumnSummary per pixel column with a
// few binary searches and tree queries per column: O(columns x log events), never a walk over the events
// of the range.
#pragma once

#include "ColumnSummary.h"
#include "RangeTree.h"
#include "StatePrefix.h"

#include "analysis/CpuAnalysis.h"
#include "model/CpuEvents.h"

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
    void build(const CpuEvents &events, const CpuAnalysis &analysis);

    // Column j covers [start + (end - start) * j / columns, start + (end - start) * (j + 1) / columns).
    void summarize(int64_t start, int64_t end, int columns, ColumnSummary *out) const;

    const std::vector<TimeSpan> &catchups() const { return catchups_; } // catch-up TIMER softirqs
    const std::vector<TimeSpan> &lost() const { return lost_; }         // lost-event ranges, by time
    static TickClass tickClass(const TickRecord &t);
    size_t bytes() const;

private:
    // Tick lane state times up to t (clamped like StatePrefix).
    void tickStateAt(int64_t t, std::array<int64_t, 3> &out) const;
    template <class Rec> static size_t lowerIndex(const Rec *recs, size_t n, size_t eventIndex);
    static bool overlaps(const std::vector<TimeSpan> &spans, int64_t t0, int64_t t1);

    const CpuEvents *events_ = nullptr;
    const CpuAnalysis *analysis_ = nullptr;
    StatePrefix task_, irq_;
    std::vector<int64_t> tickTs_;                  // ts of each tick-lane change
    std::vector<std::array<int64_t, 3>> tickCum_; // time per TickState up to each change
    RangeTree<int8_t, MaxOp> tickClass_;
    RangeTree<int32_t, MaxOp> lateness_, latency_;
    RangeTree<uint32_t, OrOp> dependencies_;
    std::vector<uint32_t> spuriousPrefix_; // spurious ticks before each tick
    std::vector<TimeSpan> catchups_, lost_;
};

} // namespace tickscope
