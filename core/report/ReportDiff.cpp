// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReportDiff.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tickscope {

bool MetricDiff::changed() const
{
    if (!recordedBefore() || !recordedAfter()) return recordedBefore() != recordedAfter();
    return before != after;
}

int MetricDiff::verdict() const
{
    if (!recordedBefore() || !recordedAfter()) return 0; // nothing to judge against
    if (before == after || better == Better::Neutral) return 0;
    return (after < before) == (better == Better::Lower) ? 1 : -1;
}

bool CpuDiff::changed() const
{
    return std::any_of(metrics.begin(), metrics.end(), [](const MetricDiff &m) { return m.changed(); });
}

namespace {

const CpuReport *findCpu(const TickReport &r, int cpu)
{
    for (const CpuReport &c : r.cpus)
        if (c.cpu == cpu) return &c;
    return nullptr;
}

TimerListCpu timersOf(const std::vector<TimerListCpu> &t, int cpu)
{
    return cpu >= 0 && cpu < static_cast<int>(t.size()) ? t[static_cast<size_t>(cpu)] : TimerListCpu{};
}

} // namespace

std::vector<CpuDiff> diffReports(const TickReport &a, const std::vector<TimerListCpu> &timersA,
                                 const TickReport &b, const std::vector<TimerListCpu> &timersB,
                                 const std::vector<int> &cpuMap)
{
    std::vector<CpuDiff> out;
    for (const CpuReport &x : a.cpus) {
        int cpuB = x.cpu;
        if (x.cpu < static_cast<int>(cpuMap.size()) && cpuMap[static_cast<size_t>(x.cpu)] >= 0)
            cpuB = cpuMap[static_cast<size_t>(x.cpu)];
        const CpuReport *yp = findCpu(b, cpuB);
        if (!yp) continue;
        const CpuReport &y = *yp;
        const TimerListCpu tx = timersOf(timersA, x.cpu), ty = timersOf(timersB, y.cpu);
        auto d = [](uint64_t v) { return static_cast<double>(v); };
        // A figure a run's trace does not record is NaN on its side (never 0): "not recorded".
        const auto nr = [](const TickReport &r, Figure f, double v) {
            return r.evidence.recorded(f) ? v : std::numeric_limits<double>::quiet_NaN();
        };
        // On a nohz_full CPU every tick is one the isolation did not prevent; on a housekeeping CPU the
        // count is just HZ times the time.
        const Better ticks = x.nohzFull || y.nohzFull ? Better::Lower : Better::Neutral;
        out.push_back({x.cpu,
                       y.cpu,
                       {
                           {"ticks", nr(a, Figure::Ticks, d(x.ticks.total)),
                            nr(b, Figure::Ticks, d(y.ticks.total)), ticks},
                           {"ticks_user", nr(a, Figure::TickMode, d(x.ticks.user)),
                            nr(b, Figure::TickMode, d(y.ticks.user)), ticks},
                           {"ticks_polling", nr(a, Figure::TickPolling, d(x.ticks.polling)),
                            nr(b, Figure::TickPolling, d(y.ticks.polling)), Better::Lower},
                           {"ticks_idle", nr(a, Figure::TickIdle, d(x.ticks.idle)),
                            nr(b, Figure::TickIdle, d(y.ticks.idle)), Better::Lower},
                           {"spurious", nr(a, Figure::TickMode, d(x.ticks.spurious)),
                            nr(b, Figure::TickMode, d(y.ticks.spurious)), Better::Lower},
                           {"nohz_wakeups", nr(a, Figure::NohzWakeups, d(x.ticks.nohzWakeups)),
                            nr(b, Figure::NohzWakeups, d(y.ticks.nohzWakeups)), Better::Neutral},
                           {"tick_stopped_s", nr(a, Figure::TickStopped, x.tickStoppedNs / 1e9),
                            nr(b, Figure::TickStopped, y.tickStoppedNs / 1e9), Better::Higher},
                           {"timer_softirq_max_us", nr(a, Figure::TimerSoftirqs, x.timerSoftirq.maxNs / 1e3),
                            nr(b, Figure::TimerSoftirqs, y.timerSoftirq.maxNs / 1e3), Better::Lower},
                           {"catchups", nr(a, Figure::Catchups, d(x.timerSoftirq.catchup)),
                            nr(b, Figure::Catchups, d(y.timerSoftirq.catchup)), Better::Lower},
                           {"wakeup_latency_max_us", nr(a, Figure::WakeupLatency, x.wakeup.latency.max / 1e3),
                            nr(b, Figure::WakeupLatency, y.wakeup.latency.max / 1e3), Better::Lower},
                           {"wakeup_latency_p99_us", nr(a, Figure::WakeupLatency, x.wakeup.latency.p99 / 1e3),
                            nr(b, Figure::WakeupLatency, y.wakeup.latency.p99 / 1e3), Better::Lower},
                           // where the expiries ran (PREEMPT_RT: non-RT sleepers hard -> soft) and what
                           // that did to the RT tasks
                           {"wakeups_hard_rt", nr(a, Figure::Wakeups, d(x.wakeup.byContext[0][0].count)),
                            nr(b, Figure::Wakeups, d(y.wakeup.byContext[0][0].count)), Better::Neutral},
                           {"wakeups_hard_normal", nr(a, Figure::Wakeups, d(x.wakeup.byContext[0][1].count)),
                            nr(b, Figure::Wakeups, d(y.wakeup.byContext[0][1].count)), Better::Neutral},
                           {"wakeups_soft_rt", nr(a, Figure::Wakeups, d(x.wakeup.byContext[1][0].count)),
                            nr(b, Figure::Wakeups, d(y.wakeup.byContext[1][0].count)), Better::Neutral},
                           {"wakeups_soft_normal", nr(a, Figure::Wakeups, d(x.wakeup.byContext[1][1].count)),
                            nr(b, Figure::Wakeups, d(y.wakeup.byContext[1][1].count)), Better::Neutral},
                           {"rt_latency_max_us", nr(a, Figure::WakeupLatency, x.wakeup.latencyRt.max / 1e3),
                            nr(b, Figure::WakeupLatency, y.wakeup.latencyRt.max / 1e3), Better::Lower},
                           {"rt_latency_p99_us", nr(a, Figure::WakeupLatency, x.wakeup.latencyRt.p99 / 1e3),
                            nr(b, Figure::WakeupLatency, y.wakeup.latencyRt.p99 / 1e3), Better::Lower},
                           {"rt_delayed_by_normal", nr(a, Figure::Wakeups, d(x.wakeup.rtDelayed)),
                            nr(b, Figure::Wakeups, d(y.wakeup.rtDelayed)), Better::Lower},
                           {"rt_delay_max_us", nr(a, Figure::Wakeups, x.wakeup.rtDelayMaxNs / 1e3),
                            nr(b, Figure::Wakeups, y.wakeup.rtDelayMaxNs / 1e3), Better::Lower},
                           {"longest_hard_run", nr(a, Figure::Wakeups, d(x.wakeup.longestHardRun)),
                            nr(b, Figure::Wakeups, d(y.wakeup.longestHardRun)), Better::Lower},
                           {"timers_never_fired", d(tx.neverFired), d(ty.neverFired), Better::Neutral},
                           {"timers_late", d(tx.late), d(ty.late), Better::Lower},
                           {"timer_max_late_jiffies", static_cast<double>(tx.maxLateJiffies),
                            static_cast<double>(ty.maxLateJiffies), Better::Lower},
                       }});
    }
    return out;
}

} // namespace tickscope
