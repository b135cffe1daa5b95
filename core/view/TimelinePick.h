// SPDX-License-Identifier: GPL-3.0-or-later
// What is under the pointer in a timeline row: the event a click selects and the text its tooltip shows
// (time, event, task, fields, and for ticks the analysis' verdict). Plain strings, no Qt.
#pragma once

#include "TimelineIndex.h"

#include <cstdint>
#include <string>

namespace tickscope {

enum class TimelineRow
{
    State,
    Tick,
    Event,
    Function, // function_graph calls
};

struct TimelinePickResult
{
    bool found = false; // an event within the tolerance (else text describes the state at t, if any)
    int cpu = -1;
    size_t event = 0;
    std::string text;
};

// The event of `row` on `cpu` nearest to t within `tolerance` ns (ticks: the worst class first).
// modesRecorded: the trace tells user from kernel mode (else a task's state says "mode not recorded").
TimelinePickResult pickEvent(const TimelineIndex &index, int cpu, TimelineRow row, int64_t t,
                             int64_t tolerance, bool modesRecorded = true);

// "12.345678 s" style time relative to the trace start, with a unit that fits `resolution`.
std::string formatRelativeTime(int64_t ns, int64_t resolution = 1000);

// One line on one event: relative time, CPU, event name, task (comm-pid), fields.
std::string describeEvent(const TimelineIndex &index, int cpu, size_t event);

// The analysis' verdict on a tick: periodic or nohz wakeup, what it interrupted, spurious and why.
std::string tickVerdict(const TickAnalysis &analysis, int cpu, const TickRecord &tick);

} // namespace tickscope
