// SPDX-License-Identifier: GPL-3.0-or-later
// The discrete-event simulator of per-CPU tick and timer behaviour (issue 4). simulate() runs a Scenario
// with a seed and returns the trace (the same model an import produces) and the ground truth.
// Deterministic: the same scenario and seed give the same trace, event for event.
#pragma once

#include "GroundTruth.h"
#include "Scenario.h"

#include "model/Trace.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tickscope::sim {

struct SimResult
{
    std::unique_ptr<Trace> trace;
    GroundTruth truth;
};

// The largest run simulate() accepts, in estimated events (README, simulate): with the analysis that
// follows, about kBytesPerEvent each, so 1.5 GB at most.
constexpr double kMaxEvents = 50e6;
// The limit in force: kMaxEvents, or TICKSCOPE_SIM_MAX_EVENTS when set (for making the big benchmark inputs,
// tests/bench/make-big-trace.sh; the user takes on the memory it needs, about kBytesPerEvent each).
double maxEvents();
// Peak RSS of `tickscope-cli simulate` per event: 29 on seed003-rt-hrtimer run for 20 s and 60 s.
constexpr double kBytesPerEvent = 30;

// What a run will make, from the scenario alone, before it runs; an upper bound within a small factor
// (SimLimitsTest checks every preset and variant). Per CPU: its ticks (all of them while it polls, works
// or keeps the timekeeping; a few per wakeup when it halts), each task's wakeups (no more than the CPU can
// serve at its platform's costs), each interrupt and wheel timer expiry, times the events each emits.
struct Estimate
{
    // One source of events.
    struct Source
    {
        std::string what;  // "tasks[2] (stress, 16 threads)", "the ticks of ...", ...
        std::string key;   // the key to lower when that is not duration_ms ("irqs[0].count"), else ""
        std::string value; // its value
        double events = 0;
    };
    std::vector<double> cpuEvents; // per CPU
    double events = 0;
    double ticks = 0;
    double wakeups = 0;
    double irqEvents = 0; // the part that does not grow with duration_ms
    Source top;           // where most events come from
};
Estimate estimate(const Scenario &s);

// validateScenario() and the estimate against kMaxEvents: throws a ScenarioError naming what to lower,
// else returns the estimate.
Estimate checkLimits(const Scenario &s);

// What a caller may watch and stop a run with (the GUI runs it off its own thread).
struct SimControl
{
    const std::atomic<bool> *cancel = nullptr; // set: simulate() throws Cancelled soon after
    std::function<void(double)> progress;      // simulated time done, 0..1
};

// Runs the scenario once checkLimits() accepts it.
SimResult simulate(const Scenario &scenario, uint64_t seed = 1, const SimControl &control = {});

} // namespace tickscope::sim
