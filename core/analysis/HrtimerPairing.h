// SPDX-License-Identifier: GPL-3.0-or-later
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

// Fills the lateness of every expiry. partEvents: the events of a CPU one work item takes (0: 2^18).
void pairHrtimers(const Trace &trace, std::vector<CpuAnalysis> &cpus, int threads = 1, size_t partEvents = 0);

// pairHrtimers for a trace whose events arrive in parts: after each part, through(t) pairs every start
// and expiry up to time t of every CPU (all events up to t must be in, and every CPU's pass must have
// taken them), in the order pairHrtimers takes them, so the lateness comes out the same.
class IncrementalPairing
{
public:
    IncrementalPairing();
    ~IncrementalPairing();
    // darkFrom[cpu]: that CPU lost events after this time that its next page, not read yet, will tell
    // (INT64_MAX: none; empty: none on any CPU): a start there is not paired with a later expiry.
    void through(const Trace &trace, std::vector<CpuAnalysis> &cpus, int64_t t, int threads = 1,
                 const std::vector<int64_t> &darkFrom = {});
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

} // namespace tickscope
