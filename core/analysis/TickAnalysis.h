// SPDX-License-Identifier: GPL-3.0-or-later
// The tick analysis of one trace: a CpuPass per CPU (in parallel), then the decisions that need every
// CPU: the low-res fallback (no tick hrtimer anywhere: the local timer interrupt is the tick), which
// polling idle state 0 is, which CPUs are nohz_full, and which ticks are spurious.
//
// Spurious ticks, on a nohz_full CPU: a periodic tick that interrupted user mode while no tick dependency
// was in force (the CPU's last tick_stop evaluation had not failed), and every periodic tick while polling
// idle. A housekeeping CPU is expected to tick (it keeps timekeeping; seed 000: "housekeeping CPUs
// unchanged"), so it has no spurious ticks; its ticks while polling are still counted as "polling".
//
// The same pass also follows the timers (TimerTracker: TIMER softirqs and catch-ups, long softirqs,
// hrtimer starts and expiries, hrtimer_wakeup wakeups and bursts); then two cross-CPU steps
// (HrtimerPairing) pair every expiry with the last hrtimer_start of its pointer on any CPU and find the
// switch-in of each woken task. Rules and constants: TimerRecords.h.
#pragma once

#include <atomic>
#include <optional>

#include "CpuAnalysis.h"

#include "model/Trace.h"

#include <string>
#include <vector>

namespace tickscope {

struct MachineFacts;
class EventRoles;

struct AnalysisOptions
{
    bool nohzFullGiven = false; // --nohz-full LIST
    std::vector<int> nohzFull;
    int threads = 0;                           // 0: one per hardware thread, at most one per CPU
    const std::atomic<bool> *cancel = nullptr; // set: run() throws Cancelled at its next step
    // The events (wakeups for the wakeup latency) of one CPU a work item of the steps across CPUs takes
    // at most, so that a busy CPU's share is spread over every core; 0: each step's default. Tests set a
    // few to cut every CPU into many pieces.
    size_t partEvents = 0;
    // The events of all CPUs the migration sweep takes at a time (MigrationSweep's slice); 0: its default.
    // Tests set a few so that a busy CPU's pass, run beside the sweep, takes its events in many steps.
    size_t sliceEvents = 0;
};

enum class NohzFullSource
{
    Option,
    Metadata,
    Inferred
};
std::string_view nohzFullSourceName(NohzFullSource s); // "option", "metadata", "inferred"

// What a CPU is for, as the boot parameters made it: nohz_full (the tick stops while one task runs),
// isolated (isolcpus= without nohz_full: out of the scheduler's balancing, the tick still runs), or
// housekeeping (the rest, which keep timekeeping and take the unbound work).
enum class CpuGroup : uint8_t
{
    Housekeeping,
    Isolated,
    NohzFull
};
std::string_view cpuGroupName(CpuGroup g); // "housekeeping", "isolated", "nohz_full"

// A CPU whose inferred tick lane says a task ran this long while the tick was stopped is nohz_full.
constexpr int64_t kNohzFullBusyStoppedNs = 1000000000;

class TickAnalysis
{
public:
    static TickAnalysis run(const Trace &trace, const AnalysisOptions &options = {});
    // The steps across CPUs and the decisions, after every CPU's pass (CpuPass) has filled `cpus`: for a
    // trace whose passes ran as its events arrived. seconds stays 0.
    // acrossDone: the steps across CPUs (pairing, latency, modes) were done as the events came; only the
    // decisions remain (they read the passes' evidence and flag the ticks kept).
    static TickAnalysis fromPasses(const Trace &trace, const EventRoles &roles, std::vector<CpuAnalysis> cpus,
                                   const AnalysisOptions &options = {}, bool acrossDone = false);

    std::vector<CpuAnalysis> cpus;
    std::vector<bool> nohzFull;           // per CPU
    std::vector<std::string> nohzFullWhy; // per CPU: the evidence, when inferred
    std::vector<bool> isolated;           // per CPU: in isolcpus= (command line, or the capture's list)
    NohzFullSource nohzFullSource = NohzFullSource::Inferred;
    PollingKind polling = PollingKind::None;
    std::string pollingWhy;
    bool localTimerFallback = false; // no tick hrtimer traced: ticks are local timer interrupts
    std::string tickFunction;        // the tick hrtimer's callback name ("" in the fallback)
    // In the fallback without tick_stop events, the tick lanes (when the tick ran, when it was stopped)
    // inferred from the gaps between each CPU's timer interrupts (inferTickLanes); 0 when not inferred.
    int64_t inferredTickPeriodNs = 0;
    std::string tickPeriodSource;  // "CONFIG_HZ=250 from the capture", "HZ=250 from the interrupt intervals"
    bool lanesNotInferred = false; // they would be, but a stream folded its lanes as it read them
    size_t crossCpuResolved = 0;   // task stretches whose mode came from the CPU they migrated from
    int threads = 1;
    int passesBesideSweep = 0; // CPUs whose pass ran beside the migration sweep (run(): busy CPUs)
    double seconds = 0;        // wall time of run()

    size_t bytes() const; // the derived arrays
    bool isNohzFull(int cpu) const
    {
        return cpu >= 0 && cpu < static_cast<int>(nohzFull.size()) && nohzFull[cpu];
    }
    CpuGroup group(int cpu) const
    {
        if (isNohzFull(cpu)) return CpuGroup::NohzFull;
        const bool iso = cpu >= 0 && cpu < static_cast<int>(isolated.size()) && isolated[cpu];
        return iso ? CpuGroup::Isolated : CpuGroup::Housekeeping;
    }

private:
    void acrossCpus(const Trace &trace, const EventRoles &roles, const AnalysisOptions &options,
                    bool stepsDone = false);
    void decideFallback(const Trace &trace, const EventRoles &roles, int factsHz, bool inferLanes);
    void inferTickLanes(const Trace &trace, const EventRoles &roles, int factsHz);
    void decidePolling(const Trace &trace);
    void decideNohzFull(const Trace &trace, const MachineFacts &facts, const AnalysisOptions &options);
    void decideIsolated(const Trace &trace, const MachineFacts &facts);
    void flagTicks();
};

// The value of "key=" on a kernel command line ("" when absent).
std::string cmdlineValue(std::string_view cmdline, std::string_view key);
// The CPUs of an isolcpus= value: "[flag,...,]LIST" with the flags nohz, domain and managed_irq
// (2.6.x-era values are a bare LIST); nullopt when it is not one.
std::optional<std::vector<int>> isolcpusList(std::string_view value);

} // namespace tickscope
