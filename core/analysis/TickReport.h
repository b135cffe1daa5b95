// The numbers behind `tickscope-cli report`: per CPU, over a time window, the ticks by the context they
// interrupted, the spurious ones, the time the tick was stopped and the failed tick stops by dependency.
#pragma once

#include "TickAnalysis.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tickscope {

struct ReportOptions
{
    std::vector<int> cpus; // empty: every CPU
    int64_t from = INT64_MIN;
    int64_t to = INT64_MAX;
    std::string windowSource = "trace"; // "trace", "window", "markers"
};

// The span between the first and last ftrace print marker (nullopt when the trace has fewer than two).
std::optional<std::pair<int64_t, int64_t>> markerWindow(const Trace &trace, const TickAnalysis &analysis);

struct TickCounts
{
    uint64_t total = 0; // periodic ticks
    uint64_t user = 0, kernel = 0, irq = 0, idle = 0, polling = 0, unknown = 0;
    uint64_t spurious = 0, spuriousUser = 0, spuriousPolling = 0;
    uint64_t nohzWakeups = 0; // expiries of the stopped tick: a wakeup for the next event, not a tick
};

// Tick dependency names in the kernel's check order (§1.5), the JSON keys of tick_stop_failures.
constexpr std::array<const char *, 6> kDependencyNames{"POSIX_TIMER",    "PERF_EVENTS", "SCHED",
                                                       "CLOCK_UNSTABLE", "RCU",         "RCU_EXP"};

struct CpuReport
{
    int cpu = 0;
    bool nohzFull = false;
    std::string nohzFullWhy;
    TickCounts ticks;
    int64_t tickStoppedNs = 0;
    int64_t laneKnownNs = 0; // the part of the window where the tick lane is known (running or stopped)
    std::array<uint64_t, 6> failures{}; // by the first set dependency bit, in kDependencyNames order
    uint64_t failuresOther = 0;         // old string reasons not recognised
};

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
    double loadSeconds = 0;    // filled by the caller (0: not shown)
    uint64_t peakRssBytes = 0; // filled by the caller (0: not shown)

    static TickReport make(const Trace &trace, const TickAnalysis &analysis, const ReportOptions &options);
};

std::string formatReportText(const TickReport &report);
std::string formatReportJson(const TickReport &report);

} // namespace tickscope
