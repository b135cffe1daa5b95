// SPDX-License-Identifier: GPL-3.0-or-later
// What really happened in a simulation, recorded by the simulator as it decides it (not derived from the
// trace): each tick's context, each timer's intended and actual expiry, timers never fired, each sleeper's
// wakeup, each TIMER softirq and cyclictest's own latency figures. Tests compare the analysis with it.
#pragma once

#include "analysis/StateCode.h"
#include "model/Column.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tickscope::sim {

struct GtTick
{
    int cpu;
    int64_t ts; // of its hrtimer_expire_entry
    TickContext context;
    bool periodic;   // false: an expiry of the stopped tick (nohz wakeup)
    bool spurious;   // nohz_full CPU, periodic, and interrupting polling idle or user mode without dependency
    bool dependency; // a tick dependency was in force
};

struct GtTimer // a timer_list timer
{
    int cpu;
    int source;          // index of the IrqSpec that enqueued it, -1 for a scenario wheel timer
    int64_t startTs;     // timer_start
    uint64_t expires;    // intended expiry (jiffies)
    uint64_t bucket;     // the wheel's rounded expiry (jiffies)
    int64_t intendedNs;  // when jiffies reaches bucket
    int64_t fireTs = -1; // timer_expire_entry, -1: never fired
    uint64_t fireJiffies = 0;
};

struct GtWakeup // an hrtimer_wakeup expiry
{
    int cpu;
    int32_t pid;
    bool rt;
    bool hard; // expired in hard interrupt context
    int64_t softexpires;
    int64_t expiryTs;      // hrtimer_expire_entry
    int64_t switchTs = -1; // the woken task's switch-in
};

struct GtSoftirq // a TIMER softirq
{
    int cpu;
    int64_t entryTs, exitTs;
    uint64_t jiffiesWalked; // legacy wheel: jiffies of the __run_timers walk
    uint32_t timers;
};

struct CyclicResult // one cyclictest thread, as cyclictest prints it
{
    std::string name;
    int cpu;
    int32_t pid;
    int64_t intervalNs;
    uint64_t cycles = 0;
    int64_t minNs = INT64_MAX, maxNs = 0, sumNs = 0;
    int64_t avgNs() const { return cycles ? sumNs / static_cast<int64_t>(cycles) : 0; }
};

// Thresholds shared with the analysis' timer_list pairing (TimerListPairing.h).
struct GroundTruth
{
    GroundTruth() = default;
    GroundTruth(const GroundTruth &o) { *this = o; }
    GroundTruth(GroundTruth &&) = default;
    GroundTruth &operator=(const GroundTruth &o);
    GroundTruth &operator=(GroundTruth &&) = default;

    // Columns: a simulator run's records go to mappings an earlier run freed (a what-if panel re-runs it).
    Column<GtTick> ticks;
    Column<GtTimer> timers;
    Column<GtWakeup> wakeups;
    Column<GtSoftirq> softirqs;
    std::vector<CyclicResult> cyclic;
    int64_t markerFrom = -1, markerTo = -1; // the workload's print markers
    uint64_t events = 0;
    double seconds = 0; // wall time of the simulation

    struct CpuSummary
    {
        uint64_t ticks = 0, user = 0, kernel = 0, irq = 0, idle = 0, polling = 0, spurious = 0,
                 nohzWakeups = 0;
        uint64_t timers = 0, fired = 0, lost = 0, late = 0;
        int64_t maxLateJiffies = 0;
        uint64_t catchups = 0;
        int64_t maxSoftirqNs = 0;
    };
    // Per CPU over [from, to] (ticks by their ts, timers by their start).
    std::vector<CpuSummary> summary(int cpus, int64_t from = INT64_MIN, int64_t to = INT64_MAX) const;
};

std::string formatGroundTruthText(const GroundTruth &gt, int cpus, int64_t from, int64_t to);
std::string formatGroundTruthJson(const GroundTruth &gt, int cpus, int64_t from, int64_t to);

} // namespace tickscope::sim
