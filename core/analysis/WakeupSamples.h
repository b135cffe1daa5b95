// SPDX-License-Identifier: GPL-3.0-or-later
// The hrtimer_wakeup values behind the report's lateness and latency columns, as samples (histograms):
// for the given CPUs and the window [from, to] (inclusive, by the expiry's time), the lateness of every
// paired expiry and the wakeup latency of every one whose switch-in was found; optionally only the expiries
// of one class (hard / soft context, RT / non-RT woken task, or both).
#pragma once

#include "TickAnalysis.h"
#include "model/Column.h"

#include <cstdint>
#include <vector>

namespace tickscope {

// Which expiries: those whose WakeupFlag bits under `mask` equal `want` (mask 0: all).
struct WakeupClass
{
    uint8_t mask = 0, want = 0;
    bool operator==(const WakeupClass &) const = default;
    bool has(uint8_t flags) const { return (flags & mask) == want; }
};

struct WakeupSamples
{
    // In their own mappings (Column): a whole trace's are megabytes, populated in stretches, not faulted in
    // page by page.
    Column<int32_t> latenessNs; // now - expires (int32, as the analysis keeps them)
    Column<int32_t> latencyNs;  // expiry -> switch into the woken task

    // cpus empty: every CPU.
    static WakeupSamples collect(const Trace &trace, const TickAnalysis &analysis,
                                 const std::vector<int> &cpus, int64_t from, int64_t to,
                                 WakeupClass cls = {});
};

} // namespace tickscope
