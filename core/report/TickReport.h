// SPDX-License-Identifier: GPL-3.0-or-later
// The numbers behind `tickscope-cli report`: per CPU, over a time window, the ticks by the context they
// interrupted, the spurious ones, the time the tick was stopped and the failed tick stops by dependency.
#pragma once

#include "Evidence.h"
#include "Findings.h"
#include "analysis/TickAnalysis.h"

#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tickscope {

struct ReportOptions
{
    std::vector<int> cpus; // empty: every CPU
    int64_t from = INT64_MIN;
    int64_t to = INT64_MAX;
    std::string windowSource = "trace";             // "trace", "window", "markers"
    int64_t lateWakeupNs = kLateWakeupNs;           // findings: a wakeup latency at least this long is late
    std::vector<std::string> functions;             // function_graph calls to report besides the timer ones
    size_t findingInstances = kMaxFindingInstances; // instance times kept per finding (Finding::at)
    // A CPU with more wakeup and tick records than this has each of its distributions made as a work item
    // of its own (one busy CPU's report then runs on every thread); the result is the same.
    size_t splitRecords = size_t{1} << 15;
};

// The span between the first and last ftrace print marker (nullopt when the trace has fewer than two).
std::optional<std::pair<int64_t, int64_t>> markerWindow(const Trace &trace, const TickAnalysis &analysis);
// The time of the first ftrace print marker (nullopt when the trace has none).
std::optional<int64_t> firstMarker(const Trace &trace, const TickAnalysis &analysis);

struct TickCounts
{
    uint64_t total = 0; // periodic ticks
    uint64_t user = 0, kernel = 0, irq = 0, idle = 0, polling = 0, unknown = 0;
    uint64_t spurious = 0, spuriousUser = 0, spuriousPolling = 0;
    uint64_t nohzWakeups = 0; // expiries of the stopped tick: a wakeup for the next event, not a tick

    // A periodic tick that interrupted `c` (total and its context's count).
    void addPeriodic(TickContext c)
    {
        ++total;
        uint64_t *by[] = {&unknown, &user, &kernel, &irq, &idle, &polling};
        ++*by[static_cast<size_t>(c)];
    }
};

// Tick dependency names in the kernel's check order, the JSON keys of tick_stop_failures.
constexpr std::array<const char *, 6> kDependencyNames{"POSIX_TIMER",    "PERF_EVENTS", "SCHED",
                                                       "CLOCK_UNSTABLE", "RCU",         "RCU_EXP"};

// min / p50 / p90 / p99 / max of a set of nanosecond values (nearest rank: the value at rank
// ceil(p/100 * n) of the sorted values); all 0 when count == 0.
struct Distribution
{
    uint64_t count = 0;
    int64_t min = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
    // p50/p90/p99 come from log-linear buckets (within 0.8 %), not the values: `report --stream` keeps a
    // bounded number of values per distribution (count, min and max stay exact)
    bool binned = false;
    static Distribution of(std::vector<int64_t> &values); // reorders values
    static Distribution of(std::span<int32_t> values);    // may reorder values
};

class JsonWriter;
// {"count", "min", "p50", "p90", "p99", "max"} under `key`.
void distributionJson(JsonWriter &j, const char *key, const Distribution &d);

constexpr size_t kHistogramBuckets = 32; // log2 buckets: [0] <= 1 ns, [k] in (2^(k-1), 2^k] ns, last: above
// The log2 bucket of a duration, unbounded: 0 for v <= 1 ns, else ceil(log2 v) (exact, integer).
inline int log2Bucket(int64_t v)
{
    return v <= 1 ? 0 : static_cast<int>(std::bit_width(static_cast<uint64_t>(v - 1)));
}

struct TimerSoftirqReport
{
    uint64_t count = 0;    // TIMER softirqs entered in the window
    int64_t maxNs = 0;     // the longest one
    uint64_t catchup = 0;  // flagged catch-ups (TimerRecords.h)
    uint64_t timers = 0;   // timer_expire_entry inside them
    int64_t maxIdleNs = 0; // the longest tickless span before one
    int64_t maxJiffiesBehind = -1;
};

struct LongSoftirqReport
{
    int64_t ts = 0;
    uint8_t vec = 0;
    int64_t durationNs = 0;
    uint32_t timers = 0; // for TIMER: timers in it (0 otherwise)
    int64_t callbackNs = 0;
    int64_t idleNs = 0;
    bool catchup = false;
};

struct WakeupReport
{
    uint64_t count = 0;        // hrtimer_wakeup expiries in the window
    Distribution lateness;     // now - expires
    Distribution softLateness; // now - softexpires
    Distribution latency;      // expiry -> switch into the woken task
    Distribution latencyRt, latencyNormal, latencyUnknownPolicy;
    std::array<uint64_t, kHistogramBuckets> histogram{}; // of latency
    uint64_t bursts = 0;                                 // interrupts that woke >= 2 sleepers
    uint64_t inBursts = 0;                               // wakeups that were part of one
    uint64_t maxBurst = 0;
    // Where each expiry ran and whom it woke: [0 hard, 1 soft][0 RT, 1 normal] (rules in TimerRecords.h)
    struct ClassCell
    {
        uint64_t count = 0;
        Distribution latency;
    };
    std::array<std::array<ClassCell, 2>, 2> byContext{};
    uint64_t contextUnknown = 0; // expiries whose context the trace does not show
    uint64_t rtDelayed = 0;      // RT wakeups run after a non-RT sleeper's expiry in the same hard interrupt
    int64_t rtDelayNs = 0, rtDelayMaxNs = 0;
    uint64_t longestHardRun = 0; // most hrtimer_wakeup expiries in one hard interrupt
    uint64_t noTask = 0;         // no wakeup traced inside the expiry
    uint64_t noSwitch = 0;       // the woken task's switch-in not found
    uint64_t latencyBounds = 0;  // latencies measured to the task's first event (switch-in not traced)
    uint64_t unpaired = 0;       // no hrtimer_start of its pointer before it
};

struct CpuReport
{
    int cpu = 0;
    bool nohzFull = false;
    std::string nohzFullWhy;
    TickCounts ticks;
    int64_t tickStoppedNs = 0;
    int64_t laneKnownNs = 0; // the part of the window where the tick lane is known (running or stopped)
    uint64_t events = 0;     // the CPU's events in the window
    // Over the whole trace: switches into and out of the idle task. Many in and none out: the kernel did
    // not record the switches out (seen on a 6.18 guest), so latencies to a task woken from idle there
    // are measured to the task's first event (upper bounds).
    uint64_t switchesIntoIdle = 0, switchesOutOfIdle = 0;
    bool idleSwitchOutsMissing() const { return switchesIntoIdle >= 20 && switchesOutOfIdle == 0; }
    // Nothing is known of the CPU in the window: no event, and no tick state carried into it (a CPU
    // outside the recording's CPU mask, or a number a sparse text trace skipped).
    bool silent() const { return events == 0 && laneKnownNs == 0; }
    std::array<uint64_t, 6> failures{}; // by the first set dependency bit, in kDependencyNames order
    uint64_t failuresOther = 0;         // old string reasons not recognised
    TimerSoftirqReport timerSoftirq;
    std::vector<LongSoftirqReport> longSoftirqs; // the longest (any vector), at most kLongSoftirqsShown
    WakeupReport wakeup;
    // The share (0..1) of the time the tick lane is known during which the tick was stopped.
    double tickStoppedShare() const
    {
        return laneKnownNs > 0 ? static_cast<double>(tickStoppedNs) / static_cast<double>(laneKnownNs) : 0.0;
    }
    Distribution tickLateness;  // the tick hrtimer: now - expires
    Distribution otherLateness; // every other hrtimer: now - expires
};

constexpr size_t kLongSoftirqsShown = 5;

// A CPU report's distributions, numbered: 0-9 the wakeups' (kWakeupDistributions: lateness, soft
// lateness, latency of all, RT, normal and unknown-policy sleepers, then the latency of each class cell
// [hard RT, hard normal, soft RT, soft normal]), 10 the tick's lateness and 11 every other expiry's.
constexpr size_t kWakeupDistributions = 10;
constexpr size_t kTickLatenessDistribution = 10, kOtherLatenessDistribution = 11;
constexpr size_t kCpuDistributions = 12;
Distribution &cpuDistribution(CpuReport &cr, size_t d);

// The value an hrtimer_wakeup expiry gives wakeup distribution d (< kWakeupDistributions), kUnknownNs
// when it gives none: the one rule of the report made from a whole analysis and the one gathered while
// the trace is read. softLatenessNs: its soft lateness (SoftLateness::of; read for d == 1 only).
inline int32_t wakeupValue(size_t d, const HrtimerWakeup &x, int32_t softLatenessNs)
{
    if (d == 0) return x.latenessNs;
    if (d == 1) return softLatenessNs;
    if (!(x.flags & WakeupFlag::TaskKnown)) return kUnknownNs; // no woken task: no latency
    uint8_t mask = 0, want = 0;
    switch (d) {
    case 2: // every one
        break;
    case 3:
        mask = WakeupFlag::PrioKnown | WakeupFlag::Rt;
        want = WakeupFlag::PrioKnown | WakeupFlag::Rt;
        break;
    case 4:
        mask = WakeupFlag::PrioKnown | WakeupFlag::Rt;
        want = WakeupFlag::PrioKnown;
        break;
    case 5:
        mask = WakeupFlag::PrioKnown;
        break;
    default: { // the class cells [0 hard, 1 soft][0 RT, 1 normal]
        const size_t soft = (d - 6) / 2, normal = (d - 6) % 2;
        mask = WakeupFlag::ContextKnown | WakeupFlag::PrioKnown | WakeupFlag::Soft | WakeupFlag::Rt;
        want = static_cast<uint8_t>(WakeupFlag::ContextKnown | WakeupFlag::PrioKnown |
                                    (soft ? WakeupFlag::Soft : 0) | (normal ? 0 : WakeupFlag::Rt));
    }
    }
    return (x.flags & mask) == want ? x.latencyNs : kUnknownNs;
}

struct FunctionReport;

struct TickReport
{
    std::string path, uname, tickTimer, polling, pollingWhy, nohzFullSource, nohzFullList;
    std::string windowSource, markerFrom, markerTo;
    int64_t from = 0, to = 0;
    uint64_t events = 0;
    std::vector<CpuReport> cpus;
    double analysisSeconds = 0;
    int threads = 1;
    uint64_t derivedBytes = 0;
    double loadSeconds = 0;        // filled by the caller (0: not shown)
    uint64_t peakRssBytes = 0;     // filled by the caller (0: not shown)
    size_t binnedValues = 0;       // some distribution binned past this many values (Distribution::binned)
    std::vector<Finding> findings; // worst first (Findings.h, sortFindings)
    Evidence evidence;             // per figure: measured, inferred (from what) or not recorded
    // function_graph calls (FunctionReport.h); null when the trace has none and none were asked for
    std::shared_ptr<const FunctionReport> functions;

    // Each CPU's counts and findings come from report/CpuFold, fed the CPU's final records: the one
    // definition of them, which `report --stream` feeds as the trace is read.
    static TickReport make(const Trace &trace, const TickAnalysis &analysis, const ReportOptions &options);
    // make()'s header (file, kernel, decisions, window, counts) without the CPUs and findings, for a trace
    // whose first and last event times are given (a trace read in parts has let its events go).
    static TickReport header(const Trace &trace, const TickAnalysis &analysis, const ReportOptions &options,
                             int64_t firstTs, int64_t lastTs);
};

// Whether make() with `options` gives the numbers of make() with ReportOptions{} (the defaults: every CPU,
// the whole trace), so that one whole-trace report can serve both; the window's name (windowSource) may
// still differ.
bool sameAsWholeTrace(const ReportOptions &options, const Trace &trace);
// Whether make() with `options` gives the whole-trace report's numbers on a subset of its CPUs only (the
// CPU list is all that differs, and no function_graph report sums over the CPUs), so that
// cpuSubset(whole, options.cpus) gives the same report.
bool cpuSubsetOfWholeTrace(const ReportOptions &options, const Trace &trace);
// The report of `whole` on the CPUs `cpus` (sorted or not): their CPU reports and findings, in order.
TickReport cpuSubset(const TickReport &whole, const std::vector<int> &cpus);

std::string formatReportText(const TickReport &report);
std::string formatReportJson(const TickReport &report, int indent = 2); // 0: one line

} // namespace tickscope
