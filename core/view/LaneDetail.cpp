// SPDX-License-Identifier: GPL-3.0-or-later
#include "LaneDetail.h"

#include <algorithm>

namespace tickscope {

std::optional<std::vector<TaskSpan>> taskSpans(const Trace &trace, int cpu, int64_t from, int64_t to,
                                               size_t maxSpans)
{
    std::vector<TaskSpan> out;
    if (cpu < 0 || cpu >= trace.cpuCount() || from > to) return out;
    const CpuEvents &ev = trace.cpu(cpu);
    if (ev.size() == 0) return out;
    // the run in force at `from`: the one holding the last event before it
    const size_t first = ev.lowerBound(from);
    size_t k = ev.runOf(first == 0 ? 0 : first - 1);
    auto startOf = [&](size_t r) { return ev.ts(ev.runFirst(r) == 0 ? 0 : ev.runFirst(r) - 1); };
    const int64_t last = ev.ts(ev.size() - 1);
    for (; k < ev.runCount(); ++k) {
        const int64_t a = k == 0 ? ev.ts(0) : startOf(k);
        if (a > to) break;
        const int64_t b = k + 1 < ev.runCount() ? startOf(k + 1) : last;
        if (b < from) continue;
        if (out.size() == maxSpans) return std::nullopt;
        out.push_back({std::max(a, from), std::min(b, to), ev.runPid(k)});
    }
    return out;
}

std::optional<std::vector<WakeupArrow>> wakeupArrows(const Trace &trace, const TickAnalysis &analysis,
                                                     int cpu, int64_t from, int64_t to, size_t maxArrows)
{
    std::vector<WakeupArrow> out;
    if (cpu < 0 || static_cast<size_t>(cpu) >= analysis.cpus.size() || cpu >= trace.cpuCount()) return out;
    const CpuEvents &ev = trace.cpu(cpu);
    const auto [lo, hi] = ev.indexRange(from, to);
    const auto &w = analysis.cpus[static_cast<size_t>(cpu)].timers.wakeups;
    const HrtimerWakeup *b = w.data(), *e = b + w.size();
    const HrtimerWakeup *it =
        std::lower_bound(b, e, lo, [](const HrtimerWakeup &x, size_t v) { return x.index < v; });
    for (; it != e && it->index < hi; ++it) {
        if (it->latencyNs == kUnknownNs || !(it->flags & WakeupFlag::TaskKnown)) continue;
        if (out.size() == maxArrows) return std::nullopt;
        out.push_back({ev.ts(it->index), it->latencyNs, (it->flags & WakeupFlag::LatencyBound) != 0});
    }
    return out;
}

} // namespace tickscope
