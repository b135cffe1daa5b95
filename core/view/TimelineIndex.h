// SPDX-License-Identifier: GPL-3.0-or-later
// The level-of-detail index of a whole trace for the timeline (level of detail lives in
// core, sized to pixels): one CpuTimelineIndex per CPU, built once per document off the GUI thread, plus the
// searches the navigation needs (next / previous spurious tick, catch-up softirq, wakeup above a latency).
#pragma once

#include <atomic>

#include "CpuTimelineIndex.h"

#include "analysis/TickAnalysis.h"
#include "model/Trace.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tickscope {

struct TimelineHit
{
    int cpu = -1;
    size_t event = 0; // event index on the CPU
    int64_t ts = 0;
};

enum class JumpTarget
{
    SpuriousTick,
    SpuriousUser,    // spurious ticks in user mode only
    SpuriousPolling, // spurious ticks while polling idle only
    CatchupSoftirq,
    LateWakeup, // an hrtimer_wakeup whose wakeup latency is at least the threshold
};

class TimelineIndex
{
public:
    // cancel: when set, build() throws Cancelled before the next CPU.
    static TimelineIndex build(const Trace &trace, const TickAnalysis &analysis, int threads = 0,
                               const std::atomic<bool> *cancel = nullptr);

    const Trace &trace() const { return *trace_; }
    const TickAnalysis &analysis() const { return *analysis_; }
    int cpuCount() const { return static_cast<int>(cpus_.size()); }
    const CpuTimelineIndex &cpu(int c) const { return cpus_[c]; }

    // One ColumnSummary per column of [start, end) for CPU `cpu` (see CpuTimelineIndex::summarize), or
    // only those of columns [firstColumn, endColumn); `detail`: which fields.
    void summarize(int cpu, int64_t start, int64_t end, int columns, ColumnSummary *out, int firstColumn = 0,
                   int endColumn = -1, SummaryDetail detail = SummaryDetail::Full) const
    {
        cpus_[cpu].summarize(start, end, columns, out, startTs_, endTs_, firstColumn, endColumn, detail);
    }
    // The trace's startTs() and endTs() when the index was built (each a walk over every CPU).
    int64_t startTs() const { return startTs_; }
    int64_t endTs() const { return endTs_; }

    // The nearest target strictly after t (forward) or strictly before it, on the given CPUs.
    std::optional<TimelineHit> jump(JumpTarget target, const std::vector<int> &cpus, int64_t t, bool forward,
                                    int64_t latencyThresholdNs = 0) const;

    // The period of the periodic tick (1/HZ): the most common interval between consecutive periodic ticks,
    // 0 when the trace has too few.
    int64_t tickPeriodNs() const { return tickPeriod_; }
    size_t bytes() const;

private:
    std::optional<TimelineHit> jumpOnCpu(JumpTarget target, int cpu, int64_t t, bool forward,
                                         int64_t threshold) const;
    void findTickPeriod();

    const Trace *trace_ = nullptr;
    const TickAnalysis *analysis_ = nullptr;
    std::vector<CpuTimelineIndex> cpus_;
    int64_t tickPeriod_ = 0;
    int64_t startTs_ = 0, endTs_ = 0;
};

} // namespace tickscope
