// SPDX-License-Identifier: GPL-3.0-or-later
#include "WakeupSamples.h"

#include <algorithm>

namespace tickscope {

WakeupSamples WakeupSamples::collect(const Trace &trace, const TickAnalysis &analysis,
                                     const std::vector<int> &cpus, int64_t from, int64_t to, WakeupClass cls)
{
    WakeupSamples s;
    struct Part
    {
        const Column<HrtimerWakeup> *w;
        size_t first, last;
    };
    std::vector<Part> parts;
    size_t total = 0;
    for (const CpuAnalysis &c : analysis.cpus) {
        if (!cpus.empty() && std::find(cpus.begin(), cpus.end(), c.cpu) == cpus.end()) continue;
        const Column<HrtimerWakeup> &w = c.timers.wakeups;
        const auto [lo, hi] = trace.cpu(c.cpu).indexRange(from, to);
        // the records are in event order: the window is a slice of them
        const auto byIndex = [](const HrtimerWakeup &x, size_t i) { return x.index < i; };
        const auto first =
            static_cast<size_t>(std::lower_bound(w.data(), w.data() + w.size(), lo, byIndex) - w.data());
        const auto last =
            static_cast<size_t>(std::lower_bound(w.data(), w.data() + w.size(), hi, byIndex) - w.data());
        parts.push_back({&w, first, last});
        total += last - first;
    }
    s.latenessNs.reserve(total, true); // (huge pages once big enough to gain from them)
    s.latencyNs.reserve(total, true);
    for (const Part &p : parts) {
        for (size_t k = p.first; k < p.last; ++k) {
            const HrtimerWakeup &x = (*p.w)[k];
            if (!cls.has(x.flags)) continue;
            if (x.latenessNs != kUnknownNs) s.latenessNs.push_back(x.latenessNs);
            if ((x.flags & WakeupFlag::TaskKnown) && x.latencyNs != kUnknownNs)
                s.latencyNs.push_back(x.latencyNs);
        }
    }
    return s;
}

} // namespace tickscope
