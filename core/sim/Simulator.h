// The discrete-event simulator of per-CPU tick and timer behaviour (issue 4). simulate() runs a Scenario
// with a seed and returns the trace (the same model an import produces) and the ground truth.
// Deterministic: the same scenario and seed give the same trace, event for event.
#pragma once

#include "GroundTruth.h"
#include "Scenario.h"

#include "model/Trace.h"

#include <memory>

namespace tickscope::sim {

struct SimResult
{
    std::unique_ptr<Trace> trace;
    GroundTruth truth;
};

SimResult simulate(const Scenario &scenario, uint64_t seed = 1);

} // namespace tickscope::sim
