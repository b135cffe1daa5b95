// SPDX-License-Identifier: GPL-3.0-or-later
// The wakeup latency of hrtimer_wakeup expiries, after the pairing: who each one woke (the task the pass
// saw it name, then that task's sched_wakeup / sched_migrate_task), and the sched_switch into that task,
// on its target CPU first, then on the others. Unknown when any CPU lost events between the wakeup and
// that switch-in (the task may have run there first), or when none is found within 100 ms.
#pragma once

#include "CpuAnalysis.h"

#include "model/Trace.h"

#include <utility>
#include <vector>

namespace tickscope {

// Who the hrtimer_wakeup expiry `w` of CPU events `ev` woke, and the CPU it was sent to: the event the pass
// found naming the task, then that task's sched_wakeup / sched_migrate_task up to the next expiry event
// (of the expiring task, for a soft expiry).
WakeTarget wokenBy(const Trace &trace, const CpuEvents &ev, const HrtimerWakeup &w);
// The same for expiries visited in event order, their payloads read through one walker of ev.
WakeTarget wokenBy(const Trace &trace, const CpuEvents &ev, const HrtimerWakeup &w,
                   CpuEvents::OffsetWalker &walk);

// Whether the events ev holds so far decide wokenBy(w): the expiry's end is among them, or the most events
// wokenBy reads (a trace read in parts: later events cannot change what it names).
bool wokenByFinal(const Trace &trace, const CpuEvents &ev, const HrtimerWakeup &w);

// Fills HrtimerWakeup::latencyNs, a work item per partWakeups wakeups of a CPU (0: 2^15). The caller frees
// the transient switch arrays after.
void measureWakeupLatency(const Trace &trace, std::vector<CpuAnalysis> &cpus, int threads,
                          size_t partWakeups = 0);
// The same for the wakeups [ranges[k].first, ranges[k].second) of each CPU k:
// for a trace whose events arrive in parts, once every CPU holds its events to 100 ms after the last
// of them (the longest latency measured) and, on its own CPU, the events that decide what it woke
// (wokenByFinal).
// live[c]: CPU c's first switch record still in memory (the ones before may be gone), at or before the
// last switch-in at or before the earliest wakeup measured, with its event's time and kind: that event
// may be gone too (a CPU that stops switching would otherwise hold every event after its last switch).
struct LiveSwitch
{
    size_t record = 0;
    int64_t ts = 0;
    bool shown = false; // a sched_switch (not a pid change the trace did not explain)
};
// darkFrom: some CPU lost events after this time that its next page, not read yet, will tell (INT64_MIN: a
// CPU whose data opens with lost events has no event read yet; INT64_MAX: none).
void measureWakeupLatency(const Trace &trace, std::vector<CpuAnalysis> &cpus, int threads,
                          const std::vector<std::pair<size_t, size_t>> &ranges,
                          const std::vector<LiveSwitch> &live, int64_t darkFrom);
constexpr int64_t kMaxWakeupLatencyNs = 100000000; // a switch-in later than this is not the wakeup's
constexpr size_t kWokenByEvents = 256;             // events after a wakeup that may name its target

} // namespace tickscope
