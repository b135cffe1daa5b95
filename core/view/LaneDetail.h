// SPDX-License-Identifier: GPL-3.0-or-later
// What the timeline draws only zoomed in, where there are few enough to read one by one: the stretches
// each task ran on a CPU (for the task's name in the state row and its identity colour) and the hrtimer
// wakeups with their latency (an arrow from the expiry to the woken task's switch-in). Each query gives up
// (nullopt) when the range holds more than the caller can draw: the cost stays bounded by what is shown.
#pragma once

#include "analysis/TickAnalysis.h"
#include "model/Trace.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tickscope {

struct TaskSpan
{
    int64_t from, to; // clipped to the range
    int32_t pid;
};

// The tasks current on `cpu` over [from, to], in time order. A task's stretch starts at the event before
// its first one (the sched_switch that switched it in) and ends where the next task's starts.
std::optional<std::vector<TaskSpan>> taskSpans(const Trace &trace, int cpu, int64_t from, int64_t to,
                                               size_t maxSpans);

struct WakeupArrow
{
    int64_t expiry;    // hrtimer_expire_entry of hrtimer_wakeup
    int32_t latencyNs; // to the woken task's switch-in
    bool bound;        // the switch-in was not traced: the latency runs to the task's first event
};

// The hrtimer wakeups on `cpu` expiring in [from, to] whose latency is known.
std::optional<std::vector<WakeupArrow>> wakeupArrows(const Trace &trace, const TickAnalysis &analysis,
                                                     int cpu, int64_t from, int64_t to, size_t maxArrows);

} // namespace tickscope
