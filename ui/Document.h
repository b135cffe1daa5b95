// What every view shows: one loaded trace source, its tick analysis and the timeline's LOD index, shared
// read-only between the GUI thread and background jobs. Views get it from the MainWindow; they never
// reload or re-analyse.
#pragma once

#include "analysis/TickAnalysis.h"
#include "model/Trace.h"
#include "view/TimelineIndex.h"

#include <QString>

#include <memory>

namespace tickscope {

struct Document
{
    QString title; // file name, or the simulator preset and variant
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const TickAnalysis> analysis;
    std::shared_ptr<const TimelineIndex> timeline; // the LOD index over trace + analysis (core/view)

    bool valid() const { return trace && analysis && timeline; }
};

} // namespace tickscope
