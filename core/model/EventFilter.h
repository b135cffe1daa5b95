// SPDX-License-Identifier: GPL-3.0-or-later
// Which events a list shows (CPUs, tasks, event types) and a text search over them, over the merged rows
// of every CPU read by MergedCursors, each chunk of rows on its own thread. The filter and the search walk
// the rows with one Cursor per CPU (no per-event search, no per-event allocation except the formatted text
// the search compares) and stop when *cancel becomes true.
#pragma once

#include "MergedOrder.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tickscope {

struct EventFilter
{
    std::vector<bool> cpus;    // per CPU; empty: every CPU
    std::vector<bool> types;   // per event type id; empty: every type
    std::vector<int32_t> pids; // sorted; empty: every task
    bool taskGiven = false;    // a task filter was given (pids may then be empty: nothing matches)

    bool active() const { return !cpus.empty() || !types.empty() || taskGiven; }

    // One CPU (-1: all); task: a pid, or a part of a comm (case-insensitive); event: an event name, or
    // a part of one when no type has exactly that name. Empty texts do not filter.
    static EventFilter make(const Trace &trace, int cpu, std::string_view task, std::string_view event);

    bool matches(int cpu, uint16_t type, int32_t pid) const;
};

// An event in 8 bytes (the rows a filter keeps): its CPU in the high half, its index in the low.
using EventKey = uint64_t;
inline EventKey keyOf(EventPos e)
{
    return (static_cast<uint64_t>(static_cast<uint32_t>(e.cpu)) << 32) | static_cast<uint32_t>(e.index);
}
inline EventPos posOf(EventKey k)
{
    return {static_cast<int>(k >> 32), static_cast<size_t>(static_cast<uint32_t>(k))};
}
// Whether a comes before b in the merged order (time, then CPU, then index).
bool mergedBefore(const Trace &trace, EventPos a, EventPos b);

// The events the filter keeps, in merged order, without the order: chunks of rows read by MergedCursors
// (MergedCursor::usable(trace) must hold) on `threads` threads (0: every hardware thread); nullopt when
// cancelled.
std::optional<std::vector<EventKey>> filterEvents(const Trace &trace, const EventFilter &filter,
                                                  const std::atomic<bool> *cancel, int threads = 0);

// The text a search compares with: "comm:pid event fields".
std::string searchText(const Trace &trace, EventPos e);

// The first merged row from `from` on (forward) or back whose search text contains needle
// (case-insensitive); -1 when none, or cancelled. MergedCursor::usable(trace) must hold. Big spans are
// searched in chunks on every hardware thread.
int64_t findRow(const Trace &trace, int64_t from, bool forward, std::string_view needle,
                const std::atomic<bool> *cancel);
// The same over the events a filter kept (filterEvents): the first of rows[from], rows[from+1] ... or
// rows[from], rows[from-1] ...
int64_t findRow(const Trace &trace, const std::vector<EventKey> &rows, int64_t from, bool forward,
                std::string_view needle, const std::atomic<bool> *cancel);

} // namespace tickscope
