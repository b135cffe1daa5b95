// SPDX-License-Identifier: GPL-3.0-or-later
// Two runs' report numbers side by side, per CPU: the rows `compare` prints (before -> after) and the GUI's
// difference panel shows, each with the direction in which the metric gets better.
#pragma once

#include "TickReport.h"
#include "analysis/TimerListPairing.h"

#include <vector>

namespace tickscope {

enum class Better : uint8_t
{
    Neutral, // neither direction is better by itself (tick counts of housekeeping CPUs, wakeups)
    Lower,   // fewer spurious ticks, lower latency, fewer late timers
    Higher,  // more time with the tick stopped
};

struct MetricDiff
{
    const char *name;     // the JSON key of `compare --json`
    double before, after; // NaN where that run's trace does not record the figure (Evidence)
    Better better;
    bool changed() const; // a value that differs, or a figure recorded by one run only
    bool recordedBefore() const { return before == before; } // NaN: the trace does not record it
    bool recordedAfter() const { return after == after; }
    // +1 better, -1 worse, 0 unchanged or neutral.
    int verdict() const;
};

struct CpuDiff
{
    int cpuA = 0, cpuB = 0;
    std::vector<MetricDiff> metrics;
    bool changed() const;
};

// A's CPUs against B's: A's CPU c against B's CPU cpuMap[c] (-1 or beyond the map: B's CPU c), skipping
// CPUs the other report lacks. timersA/B: per CPU (pairTimerList), may be shorter than the reports.
std::vector<CpuDiff> diffReports(const TickReport &a, const std::vector<TimerListCpu> &timersA,
                                 const TickReport &b, const std::vector<TimerListCpu> &timersB,
                                 const std::vector<int> &cpuMap = {});

} // namespace tickscope
