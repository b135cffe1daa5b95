#include "WakeupSamples.h"

#include <algorithm>

namespace tickscope {

WakeupSamples WakeupSamples::collect(const Trace &trace, const TickAnalysis &analysis,
                                     const std::vector<int> &cpus, int64_t from, int64_t to)
{
    WakeupSamples s;
    for (const CpuAnalysis &c : analysis.cpus) {
        if (!cpus.empty() && std::find(cpus.begin(), cpus.end(), c.cpu) == cpus.end()) continue;
        const CpuEvents &ev = trace.cpu(c.cpu);
        const Column<HrtimerWakeup> &w = c.timers.wakeups;
        const auto [lo, hi] = ev.indexRange(from, to);
        for (size_t k = 0; k < w.size(); ++k) {
            const HrtimerWakeup &x = w[k];
            if (x.index < lo || x.index >= hi) continue;
            if (x.latenessNs != kUnknownNs) s.latenessNs.push_back(x.latenessNs);
            if ((x.flags & WakeupFlag::TaskKnown) && x.latencyNs != kUnknownNs) s.latencyNs.push_back(x.latencyNs);
        }
    }
    return s;
}

} // namespace tickscope
