// The cross-CPU steps of the hrtimer part of the analysis, after every CpuPass (rules in TimerRecords.h):
// pairing each hrtimer expiry with the last hrtimer_start of its pointer on any CPU (per CPU for the
// pointers only one CPU names, then one merge by time of the others' starts and expiries), and finding for
// each hrtimer_wakeup wakeup the sched_switch into the woken task (on its target CPU first, then the others).
#pragma once

#include "CpuAnalysis.h"

#include "model/Trace.h"

#include <vector>

namespace tickscope {

// Fills the lateness of every expiry and frees the transient start/expiry arrays.
void pairHrtimers(const Trace &trace, std::vector<CpuAnalysis> &cpus, int threads = 1);

// Who the hrtimer_wakeup expiry `w` of CPU events `ev` woke, and the CPU it was sent to: the event the pass
// found naming the task, then that task's sched_wakeup / sched_migrate_task up to the next expiry event
// (of the expiring task, for a soft expiry).
WakeTarget wokenBy(const Trace &trace, const CpuEvents &ev, const HrtimerWakeup &w);
// The same for expiries visited in event order, their payloads read through one walker of ev.
WakeTarget wokenBy(const Trace &trace, const CpuEvents &ev, const HrtimerWakeup &w,
                   CpuEvents::OffsetWalker &walk);

// Fills HrtimerWakeup::latencyNs; one work item per CPU.
// Frees the transient switch arrays.
void measureWakeupLatency(const Trace &trace, std::vector<CpuAnalysis> &cpus, int threads);

} // namespace tickscope
