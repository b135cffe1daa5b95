// SPDX-License-Identifier: GPL-3.0-or-later
// One opened run (OpenRun.h): a loaded trace source, its tick analysis and the timeline's LOD index,
// shared read-only between threads (in the GUI: the GUI thread and the background jobs; views get it from
// the MainWindow and never reload or re-analyse); and a second run compared with it.
#pragma once

#include "ReportMemo.h"

#include "analysis/TickAnalysis.h"
#include "model/Trace.h"
#include "report/Evidence.h"
#include "view/TimelineIndex.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tickscope {

struct Document
{
    std::string title; // file name, or the simulator preset and variant (UTF-8)
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const TickAnalysis> analysis;
    std::shared_ptr<const TimelineIndex> timeline; // the LOD index over trace + analysis (core/view)
    // What the trace can tell (report/Evidence), made once with the analysis for the views that say it.
    std::shared_ptr<const Evidence> evidence;
    // The whole-trace report, made once for the views that show it (copies of a Document share it).
    std::shared_ptr<ReportMemo> reports = std::make_shared<ReportMemo>();

    bool analysed() const { return trace && analysis; }
    bool valid() const { return analysed() && timeline; }
    // Nothing to put on a time axis: a function_graph paste without timestamps (funcgraph-abstime off)
    // and no events. The window shows the calls' table and histogram in the timeline's place.
    bool callsOnly() const
    {
        return valid() && trace->eventCount() == 0 && !trace->functions.empty() && !trace->functions.timed();
    }
};

// A second run shown against the document in the compare view (A = the document, before; B = this, after):
// B's document and where each run's time zero lies. The view state's times stay A's absolute times; B's
// lanes show B's time t - zeroA + zeroB, so both zeros sit at 0 on the shared relative time axis.
struct Comparison
{
    Document b;
    int64_t zeroA = 0, zeroB = 0; // absolute ns of each run's time zero
    std::string how;              // "marker", "start", "offset 0.250000 s"
    std::vector<int> cpuMap;      // A's CPU c is shown against B's CPU cpuMap[c]; absent or -1: B's CPU c

    bool valid() const { return b.valid(); }
    int64_t shift() const { return zeroB - zeroA; } // B's absolute time of A's absolute time 0
    // B's CPU shown against A's CPU `cpuA`; -1 when B has none.
    int cpuB(int cpuA) const
    {
        int c = cpuA;
        if (cpuA >= 0 && cpuA < static_cast<int>(cpuMap.size()) && cpuMap[static_cast<size_t>(cpuA)] >= 0)
            c = cpuMap[static_cast<size_t>(cpuA)];
        return valid() && c >= 0 && c < b.trace->cpuCount() ? c : -1;
    }
    // B's CPUs shown against A's CPUs `cpusA`, in their order (those B has none for left out).
    std::vector<int> cpusB(const std::vector<int> &cpusA) const
    {
        std::vector<int> out;
        for (int c : cpusA)
            if (const int cb = cpuB(c); cb >= 0) out.push_back(cb);
        return out;
    }
};

} // namespace tickscope
