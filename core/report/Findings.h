// SPDX-License-Identifier: GPL-3.0-or-later
// What the analysis found, as a list a reader goes through worst first: each finding is one kind of
// trouble on one CPU (spurious ticks in user mode, spurious ticks while polling, failed tick stops of one
// dependency, catch-up TIMER softirqs, late hrtimer wakeups, wakeup bursts, lost events), with its count
// over the report's window, the pattern it follows, the known kernel cause it matches when one does
// (docs/FINDINGS.md), and the time of each instance so that a view can step through them. They are
// counted with the report's own figures, in report/CpuFold (TickReport::make and `report --stream`), so
// that `report` and the Findings panel never disagree.
#pragma once

#include "analysis/TickAnalysis.h"
#include "model/Trace.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tickscope {

class JsonWriter;

enum class FindingKind : uint8_t
{
    LostEvents, // in this order when two findings weigh the same
    SpuriousUser,
    CatchupSoftirq,
    LateWakeup,
    SpuriousPolling,
    FailedStops,
    WakeupBurst,
};
std::string_view findingKindName(FindingKind k); // JSON: "lost_events", "spurious_user", ...

struct Finding
{
    FindingKind kind;
    int cpu = -1;
    uint64_t count = 0;
    std::string what;            // one line: "201 spurious ticks in user mode"
    std::string pattern;         // how they occur ("one per wakeup from polling idle (199 wakeups)"), or ""
    std::string cause;           // the known cause it matches, one sentence, or ""
    std::string dependency;      // FailedStops: the dependency's name
    int64_t first = 0, last = 0; // the first and last instance's time (absolute ns), when count > 0
    // Each instance's time (absolute ns), in order: the first ReportOptions::findingInstances of them. A view
    // steps through them; a printed report needs only first and last (at 8 bytes an instance, keeping
    // them for a 100 M-event trace took 1.5 bytes per event).
    std::vector<int64_t> at;
    int64_t worstNs = 0; // LateWakeup: the longest latency; CatchupSoftirq: the longest softirq
};

constexpr size_t kMaxFindingInstances = 1'000'000;
constexpr int64_t kLateWakeupNs = 100'000; // a wakeup latency at least this long is a finding

// Sorts the findings of a report (each CPU's in the report's per-CPU order, the CPUs in order) worst
// first: lost events (the rest may be wrong) first, then by kind in FindingKind order, then by count,
// then by CPU.
void sortFindings(std::vector<Finding> &findings);

void appendFindingsText(std::string &out, const std::vector<Finding> &findings);
void findingsJson(JsonWriter &j, const std::vector<Finding> &findings);

} // namespace tickscope
