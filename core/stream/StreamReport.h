// SPDX-License-Identifier: GPL-3.0-or-later
// `report --stream`: the tick report of a trace.dat read a slice of time at a time. Every CPU's pages are
// decoded in time lockstep (TraceDatStream) and each CPU's pass (CpuPass) takes the new events after
// every slice, so that the analysis follows the file instead of a loaded model.
#pragma once

#include "analysis/TickAnalysis.h"
#include "import/Loader.h"
#include "report/TickReport.h"

#include <functional>
#include <string>
#include <vector>

namespace tickscope {

struct StreamOptions
{
    LoadOptions load; // instance, threads, cancel
    AnalysisOptions analysis;
    ReportOptions report;
    bool markers = false; // the report's window: the first to the last ftrace print marker
    // The time decoded per step on every CPU (whole pages): as long as the look-ahead the wakeup latency
    // holds anyway, so the events held at most double, and the steps' fixed costs (a parallel loop per
    // part, a release per CPU) weigh little (25.6 M events: 10 ms slices 3.8-4.4 s, 100 ms 3.1-3.9 s).
    int64_t sliceNs = 100'000'000;
    // Values a distribution keeps for exact percentiles before it bins them (DistributionFold).
    size_t exactValues = 4096;
    // Called once the file is open, before any page is decoded (the caller checks its options against
    // the trace's CPU count, names and metadata there, and may throw).
    std::function<void(const Trace &)> opened;
};

struct StreamResult
{
    TickReport report;
    std::vector<std::string> warnings; // the file's, as a load gives them
    uint64_t steps = 0;                // slices decoded
    uint64_t maxLiveEvents = 0;        // the most events held in memory at once (after a step)
    uint64_t maxHeldTicks = 0;         // the most tick records not folded yet (after a step)
    uint64_t maxPendingChains = 0;     // the most chains of unknown task mode with ticks folded
    uint64_t maxRecordBytes = 0;       // the most bytes of analysis records and lanes not folded yet
    uint64_t maxCandidates = 0;        // the most switch-out candidates kept for the step at the end
    uint64_t maxStretches = 0;         // the most stretches of unknown mode the passes kept
};

// Throws LoadError (naming the file) for what cannot be streamed or read, and for --markers without two
// print markers.
StreamResult streamReport(const std::string &path, const StreamOptions &options);

} // namespace tickscope
