// The hrtimer_wakeup values behind the report's lateness and latency columns, as samples (histograms):
// for the given CPUs and the window [from, to] (inclusive, by the expiry's time), the lateness of every
// paired expiry and the wakeup latency of every one whose switch-in was found.
#pragma once

#include "TickAnalysis.h"

#include <cstdint>
#include <vector>

namespace tickscope {

struct WakeupSamples
{
    std::vector<int32_t> latenessNs; // now - expires (int32, as the analysis keeps them)
    std::vector<int32_t> latencyNs;  // expiry -> switch into the woken task

    // cpus empty: every CPU.
    static WakeupSamples collect(const Trace &trace, const TickAnalysis &analysis,
                                 const std::vector<int> &cpus, int64_t from, int64_t to);
};

} // namespace tickscope
