// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimelineIndex.h"

#include "util/Cancel.h"
#include "util/Parallel.h"

#include <algorithm>
#include <map>

namespace tickscope {

TimelineIndex TimelineIndex::build(const Trace &trace, const TickAnalysis &analysis, int threads,
                                   const std::atomic<bool> *cancel)
{
    TimelineIndex x;
    x.trace_ = &trace;
    x.analysis_ = &analysis;
    const int n = std::min(trace.cpuCount(), static_cast<int>(analysis.cpus.size()));
    x.cpus_.resize(static_cast<size_t>(n));
    const int64_t end = trace.endTs(); // a walk over every CPU: once, not per CPU (7001 CPUs, quadratic)
    x.startTs_ = trace.startTs();
    x.endTs_ = end;
    parallelFor(static_cast<size_t>(n), std::min(defaultThreads(threads), std::max(n, 1)), [&](size_t c) {
        throwIfCancelled(cancel);
        x.cpus_[c].build(trace.cpu(static_cast<int>(c)), analysis.cpus[c],
                         c < trace.functions.cpus.size() ? &trace.functions.cpus[c] : nullptr, end);
    });
    throwIfCancelled(cancel);
    x.findTickPeriod();
    return x;
}

void TimelineIndex::findTickPeriod()
{
    // Round intervals to 10 us and take the most common: jitter and the odd skipped tick do not move it.
    std::map<int64_t, size_t> votes;
    for (int c = 0; c < cpuCount(); ++c) {
        const CpuEvents &ev = trace_->cpu(c);
        const auto &ticks = analysis_->cpus[c].ticks;
        for (size_t k = 1; k < ticks.size(); ++k) {
            if (!ticks[k].periodic() || !ticks[k - 1].periodic()) continue;
            const int64_t d = ev.ts(ticks[k].index) - ev.ts(ticks[k - 1].index);
            if (d > 0 && d < 100'000'000) ++votes[(d + 5'000) / 10'000 * 10'000];
        }
    }
    size_t best = 0;
    for (const auto &[d, n] : votes) {
        if (n > best) {
            best = n;
            tickPeriod_ = d;
        }
    }
    if (best < 3) tickPeriod_ = 0;
}

std::optional<TimelineHit> TimelineIndex::jumpOnCpu(JumpTarget target, int cpu, int64_t t, bool forward,
                                                    int64_t threshold) const
{
    const CpuEvents &ev = trace_->cpu(cpu);
    const CpuAnalysis &a = analysis_->cpus[cpu];
    // Records are sorted by event index; events after t start at lowerBound(t + 1), before at lowerBound(t).
    const size_t pivot = ev.lowerBound(forward ? t + 1 : t);
    auto scan = [&](const auto *recs, size_t n, auto &&accept) -> std::optional<TimelineHit> {
        const auto *p =
            std::lower_bound(recs, recs + n, pivot, [](const auto &r, size_t v) { return r.index < v; });
        if (forward) {
            for (; p != recs + n; ++p)
                if (accept(*p)) return TimelineHit{cpu, p->index, ev.ts(p->index)};
        } else {
            while (p != recs) {
                --p;
                if (accept(*p)) return TimelineHit{cpu, p->index, ev.ts(p->index)};
            }
        }
        return std::nullopt;
    };
    switch (target) {
    case JumpTarget::SpuriousTick:
        return scan(a.ticks.data(), a.ticks.size(),
                    [](const TickRecord &r) { return r.flags & TickFlag::Spurious; });
    case JumpTarget::SpuriousUser: // the report's split: user mode, or else polling
    case JumpTarget::SpuriousPolling: {
        const bool user = target == JumpTarget::SpuriousUser;
        return scan(a.ticks.data(), a.ticks.size(), [user](const TickRecord &r) {
            return (r.flags & TickFlag::Spurious) && (r.context == TickContext::User) == user;
        });
    }
    case JumpTarget::LateWakeup:
        return scan(a.timers.wakeups.data(), a.timers.wakeups.size(), [threshold](const HrtimerWakeup &w) {
            return w.latencyNs != kUnknownNs && w.latencyNs >= threshold;
        });
    case JumpTarget::CatchupSoftirq: {
        const auto &spans = cpus_[cpu].catchups();
        const auto &softirqs = a.timers.timerSoftirqs;
        auto it = std::lower_bound(spans.begin(), spans.end(), t,
                                   [](const TimeSpan &s, int64_t v) { return s.from <= v; });
        if (!forward) {
            // the last span starting before t
            it = std::lower_bound(spans.begin(), spans.end(), t,
                                  [](const TimeSpan &s, int64_t v) { return s.from < v; });
            if (it == spans.begin()) return std::nullopt;
            --it;
        }
        if (it == spans.end()) return std::nullopt;
        return TimelineHit{cpu, softirqs[it->record].entry, it->from};
    }
    }
    return std::nullopt;
}

std::optional<TimelineHit> TimelineIndex::jump(JumpTarget target, const std::vector<int> &cpus, int64_t t,
                                               bool forward, int64_t threshold) const
{
    std::optional<TimelineHit> best;
    for (int c : cpus) {
        if (c < 0 || c >= cpuCount()) continue;
        const auto h = jumpOnCpu(target, c, t, forward, threshold);
        if (h && (!best || (forward ? h->ts < best->ts : h->ts > best->ts))) best = h;
    }
    return best;
}

size_t TimelineIndex::bytes() const
{
    size_t b = 0;
    for (const auto &c : cpus_)
        b += c.bytes();
    return b;
}

} // namespace tickscope
