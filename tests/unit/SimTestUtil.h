// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the simulator tests: run a preset (with its variant) at a fixed seed and analyse the result.
#pragma once

#include "sim/Presets.h"
#include "sim/SimReport.h"

#include <algorithm>
#include <string>

namespace tickscope::simtest {

constexpr uint64_t kSeed = 1;

struct Run
{
    sim::SimResult result;
    sim::Analysed a;
    const sim::GroundTruth &truth() const { return result.truth; }
    const CpuReport &cpu(int c) const { return a.report.cpus[static_cast<size_t>(c)]; }
};

inline Run runSpec(const std::string &spec, bool markers = true, uint64_t seed = kSeed)
{
    Run r;
    r.a = sim::simulateAndAnalyse(sim::scenarioFromSpec(spec), seed, r.result, markers);
    return r;
}

inline int64_t maxCyclicNs(const sim::GroundTruth &gt)
{
    int64_t m = 0;
    for (const auto &c : gt.cyclic)
        m = std::max(m, c.maxNs);
    return m;
}

} // namespace tickscope::simtest
