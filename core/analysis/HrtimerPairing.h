// The cross-CPU steps of the hrtimer part of the analysis, after every CpuPass (rules in TimerRecords.h):
// pairing each hrtimer expiry with the last hrtimer_start of its pointer on any CPU (per CPU for the
// pointers only one CPU names, then one merge by time of the others' starts and expiries), and finding for
// each hrtimer_wakeup wakeup the sched_switch into the woken task (on its target CPU first, then the others).
#pragma once

#include "CpuAnalysis.h"

#include "model/Trace.h"

#include <memory>
#include <utility>
#include <vector>

namespace tickscope {

// Fills the lateness of every expiry and frees the transient start/expiry arrays.
void pairHrtimers(const Trace &trace, std::vector<CpuAnalysis> &cpus, int threads = 1);

// pairHrtimers for a trace whose events arrive in parts: after each part, through(t) pairs every start
// and expiry up to time t of every CPU (all events up to t must be in, and every CPU's pass must have
// taken them), in the order pairHrtimers takes them, so the lateness comes out the same.
class IncrementalPairing
{
public:
    IncrementalPairing();
    ~IncrementalPairing();
    void through(const Trace &trace, std::vector<CpuAnalysis> &cpus, int64_t t, int threads = 1);
    // How many of CPU c's wakeups (kind 0), ticks (1) and other expiries (2) are paired.
    size_t paired(size_t c, int kind) const;
    // The event index from which CPU c's starts are still to be taken.
    size_t nextStart(size_t c) const;

private:
    static constexpr size_t kShards = 16; // pointers merged apart, by id modulo this
    struct Cursor;
    struct Table;
    struct Item;
    std::vector<Cursor> cursors_;
    std::vector<std::vector<Item>> items_; // per CPU and shard (c * kShards + s), reused
    std::vector<Table> last_;              // per shard
};

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
// The same for the wakeups [ranges[k].first, ranges[k].second) of each CPU k, keeping the switch arrays:
// for a trace whose events arrive in parts, once every CPU holds its events to 100 ms after the last
// of them (the longest latency measured) and the 256 events after each on its own CPU.
// live[c]: CPU c's first switch record still in memory (the ones before may be gone), at or before the
// last switch-in at or before the earliest wakeup measured, with its event's time and kind: that event
// may be gone too (a CPU that stops switching would otherwise hold every event after its last switch).
struct LiveSwitch
{
    size_t record = 0;
    int64_t ts = 0;
    bool shown = false; // a sched_switch (not a pid change the trace did not explain)
};
void measureWakeupLatency(const Trace &trace, std::vector<CpuAnalysis> &cpus, int threads,
                          const std::vector<std::pair<size_t, size_t>> &ranges,
                          const std::vector<LiveSwitch> &live);
constexpr int64_t kMaxWakeupLatencyNs = 100000000; // a switch-in later than this is not the wakeup's
constexpr size_t kWokenByEvents = 256;             // events after a wakeup that may name its target

} // namespace tickscope
