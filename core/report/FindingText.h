// SPDX-License-Identifier: GPL-3.0-or-later
// The words of each finding, from its counts (report/CpuFold counts them for both reports).
#pragma once

#include "Findings.h"
#include "analysis/StateCode.h"

#include <cstdint>
#include <string>
#include <utility>

namespace tickscope {

class Trace;

namespace findingtext {

// The kernel release's (major, minor), or (0, 0) when the trace does not say; whether it is PREEMPT_RT.
std::pair<int, int> releaseVersion(const Trace &trace);
bool preemptRt(const Trace &trace);

// Notes an instance at ts of f, whose count already includes it: first and last (instances may come in
// any order), and ts in f.at while it holds fewer than `keep` (in the order they come).
void note(Finding &f, int64_t ts, size_t keep);

void lost(Finding &f, uint64_t events);
// afterPoll: the spurious user ticks that came after polling idle, in `exits` distinct idle exits.
void spuriousUser(Finding &f, uint64_t afterPoll, uint64_t exits, double windowSeconds, bool nohzFull,
                  PollingKind polling);
void spuriousPolling(Finding &f, double pollingSeconds, PollingKind polling);
// bucket: the first dependency bit (kDependencyNames order), 6 for an old kernel's text reason
void failedStops(Finding &f, size_t bucket, int cpu);
void catchup(Finding &f, int64_t maxIdleNs, int64_t jiffiesBehind, std::pair<int, int> release);
// The PREEMPT_RT cause of late wakeups and bursts: non-RT sleepers expiring in hard interrupt context.
std::string hardCause(bool rt, uint64_t nonRtHard, uint64_t nonRt);
void lateWakeups(Finding &f, int64_t lateWakeupNs, uint64_t lateRt, const std::string &hardCause);
void bursts(Finding &f, uint64_t maxBurst, const std::string &hardCause, bool anyLate);

} // namespace findingtext
} // namespace tickscope
