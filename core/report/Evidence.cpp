// SPDX-License-Identifier: GPL-3.0-or-later
#include "Evidence.h"

#include "analysis/EventRoles.h"
#include "analysis/TickAnalysis.h"
#include "model/Trace.h"

#include <algorithm>

namespace tickscope {

namespace {

struct FigureName
{
    const char *key, *words;
};
constexpr std::array<FigureName, kFigureCount> kNames{{
    {"ticks", "ticks"},
    {"tick_mode", "user/kernel split of the ticks"},
    {"tick_idle", "ticks in idle"},
    {"tick_polling", "ticks while polling"},
    {"tick_stopped", "tick-stopped time"},
    {"nohz_wakeups", "nohz wakeups"},
    {"tick_stop_failures", "failed tick stops"},
    {"timer_softirqs", "TIMER softirqs"},
    {"catchups", "catch-ups (timer callback time)"},
    {"hrtimer_wakeups", "hrtimer wakeups"},
    {"wakeup_lateness", "wakeup lateness"},
    {"wakeup_latency", "wakeup latency"},
    {"tick_lateness", "tick lateness"},
    {"other_lateness", "other hrtimers' lateness"},
}};

FigureEvidence notRecorded(std::string basis, std::vector<std::string> missing)
{
    return {EvidenceStatus::NotRecorded, std::move(basis), std::move(missing)};
}

} // namespace

const char *figureKey(Figure f)
{
    return kNames[static_cast<size_t>(f)].key;
}

const char *figureWords(Figure f)
{
    return kNames[static_cast<size_t>(f)].words;
}

bool Evidence::complete() const
{
    return std::all_of(figures.begin(), figures.end(),
                       [](const FigureEvidence &e) { return e.status == EvidenceStatus::Measured; });
}

std::vector<std::string> Evidence::missingEvents() const
{
    std::vector<std::string> all;
    for (const FigureEvidence &e : figures)
        all.insert(all.end(), e.missing.begin(), e.missing.end());
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
}

std::vector<std::pair<std::string, std::string>> Evidence::notRecordedReasons() const
{
    std::vector<std::pair<std::string, std::string>> reasons;
    for (size_t f = 0; f < kFigureCount; ++f) {
        const FigureEvidence &x = figures[f];
        if (x.status != EvidenceStatus::NotRecorded) continue;
        auto it =
            std::find_if(reasons.begin(), reasons.end(), [&](const auto &r) { return r.first == x.basis; });
        if (it == reasons.end())
            reasons.emplace_back(x.basis, figureWords(static_cast<Figure>(f)));
        else
            it->second += std::string(", ") + figureWords(static_cast<Figure>(f));
    }
    return reasons;
}

std::string formatEvidenceText(const Evidence &e)
{
    std::string measured, out;
    for (size_t f = 0; f < kFigureCount; ++f)
        if (e.figures[f].status == EvidenceStatus::Measured)
            measured += (measured.empty() ? "" : ", ") + std::string(figureWords(static_cast<Figure>(f)));
    out += "Measured: " + (measured.empty() ? std::string("nothing") : measured) + ".\n";
    for (size_t f = 0; f < kFigureCount; ++f) {
        const FigureEvidence &x = e.figures[f];
        if (x.status == EvidenceStatus::Inferred)
            out += std::string("\nInferred: ") + figureWords(static_cast<Figure>(f)) + ", from " + x.basis +
                   ".\n";
    }
    for (const auto &[basis, figures] : e.notRecordedReasons())
        out += "\nNot recorded: " + figures + ". Why: " + basis + ".\n";
    if (const std::string t = e.traceCmdLine(); !t.empty())
        out += "\nTo record the rest:\n  " + t + "\n  " + e.captureLine() + "\n";
    else if (e.complete())
        out += "\nEvery figure of the report is measured from the trace's own events.\n";
    return out;
}

std::string Evidence::traceCmdLine() const
{
    const std::vector<std::string> m = missingEvents();
    if (m.empty()) return {};
    std::string s = "trace-cmd record";
    for (const std::string &e : m)
        s += " -e " + e;
    return s;
}

std::string Evidence::captureLine() const
{
    const std::vector<std::string> m = missingEvents();
    if (m.empty()) return {};
    std::string s = "tickscope-cli capture --events ";
    for (size_t k = 0; k < m.size(); ++k) {
        std::string e = m[k];
        std::replace(e.begin(), e.end(), ':', '/');
        s += (k ? "," : "") + e;
    }
    return s;
}

Evidence Evidence::of(const Trace &trace, const EventRoles &roles, const TickAnalysis &analysis)
{
    Evidence ev;
    auto set = [&ev](Figure f, FigureEvidence e) { ev.figures[static_cast<size_t>(f)] = std::move(e); };
    const auto has = [&roles](Role r) { return roles.recorded(r); };

    const bool expiries = has(Role::HrtimerExpireEntry);
    const bool starts = has(Role::HrtimerStart);
    // The timer interrupt: x86's local_timer_entry, elsewhere a clock event device's irq_handler_entry.
    const bool vectors = has(Role::LocalTimerEntry);
    // (a stream has let its ticks go by the time it reports: a clock event device's interrupt name in the
    // trace says they were there)
    bool localTimer = vectors || (has(Role::IrqHandlerEntry) && !roles.timerIrqNames(trace).empty());
    for (const CpuAnalysis &c : analysis.cpus)
        localTimer |= analysis.localTimerFallback && !c.ticks.empty();
    const std::string interrupts =
        vectors ? std::string("local timer interrupts (irq_vectors:local_timer_entry)")
                : "timer interrupts (irq:irq_handler_entry name=" + roles.timerIrqNames(trace) +
                      (roles.timerIrqBehaviour().empty() ? "" : ", " + roles.timerIrqBehaviour()) + ")";
    const bool tickMeasured = !analysis.localTimerFallback && !analysis.tickFunction.empty();
    uint64_t unnamedExpiries = 0;
    for (const CpuAnalysis &c : analysis.cpus)
        unnamedExpiries += c.evidence.unnamedExpiries;
    // The ticks: the tick hrtimer's expiries, else (inferred) every local timer interrupt.
    if (tickMeasured) {
        // measured
    } else if (analysis.localTimerFallback && localTimer) {
        std::string from = interrupts;
        from += analysis.inferredTickPeriodNs ? ", those the tick ran into (" + analysis.tickPeriodSource +
                                                    "); other hrtimers' expiries count while it runs"
                                              : ", every one";
        set(Figure::Ticks,
            {EvidenceStatus::Inferred, from,
             expiries ? std::vector<std::string>{} : std::vector<std::string>{"timer:hrtimer_expire_entry"}});
    } else {
        set(Figure::Ticks, notRecorded("the trace holds neither timer:hrtimer_expire_entry nor a timer "
                                       "interrupt (irq_vectors:local_timer_entry; elsewhere than x86 "
                                       "irq:irq_handler_entry of the clock event device)",
                                       {"timer:hrtimer_expire_entry", "irq_vectors:local_timer_entry"}));
    }
    const bool ticks = ev.recorded(Figure::Ticks);
    const bool modes = has(Role::SysEnter) || has(Role::SysExit) || has(Role::UserEnter) ||
                       has(Role::UserExit) || has(Role::PageFaultUser);
    ev.modesRecorded = modes;
    if (!ticks)
        set(Figure::TickMode, ev.of(Figure::Ticks));
    else if (!modes)
        set(Figure::TickMode, notRecorded("the trace holds no raw_syscalls:sys_enter/sys_exit or "
                                          "context_tracking:user_enter/user_exit events",
                                          {"raw_syscalls:sys_enter", "raw_syscalls:sys_exit"}));
    if (!ticks)
        set(Figure::TickIdle, ev.of(Figure::Ticks));
    else if (!has(Role::SchedSwitch) && !has(Role::CpuIdle))
        set(Figure::TickIdle, notRecorded("the trace holds no sched:sched_switch or power:cpu_idle events",
                                          {"sched:sched_switch", "power:cpu_idle"}));
    if (!ev.recorded(Figure::TickIdle))
        set(Figure::TickPolling, ev.of(Figure::TickIdle));
    else if (!has(Role::CpuIdle))
        set(Figure::TickPolling,
            notRecorded("the trace holds no power:cpu_idle event (polling idle is its state 0; "
                        "without it a polling tick counts as idle)",
                        {"power:cpu_idle"}));
    const bool tickStops = has(Role::TickStop);
    if (tickMeasured && !tickStops) {
        // The lane still follows the tick hrtimer (a cancel, an expiry that does not re-arm), but an idle
        // stop that re-programs the tick far ahead without a cancel is seen by tick_stop only.
        set(Figure::TickStopped,
            {EvidenceStatus::Inferred,
             "the tick hrtimer's cancels and expiries (the trace holds no timer:tick_stop "
             "event: a stop that re-programs the tick without cancelling it is not seen, "
             "so this is a lower bound)",
             {"timer:tick_stop"}});
    } else if (tickMeasured) {
        // the tick hrtimer's starts, cancels and expiries and tick_stop say when it ran
    } else if (ticks && analysis.inferredTickPeriodNs) {
        set(Figure::TickStopped,
            {EvidenceStatus::Inferred,
             "no timer interrupt for more than two tick periods (" + analysis.tickPeriodSource + ")",
             {}});
    } else if (ticks && analysis.lanesNotInferred) {
        set(Figure::TickStopped,
            notRecorded("report --stream does not infer it (it folds each CPU's tick "
                        "lane as it reads); a report without --stream infers it from the "
                        "gaps between timer interrupts",
                        {"timer:hrtimer_start", "timer:hrtimer_cancel", "timer:tick_stop"}));
    } else if (ticks) {
        set(Figure::TickStopped,
            notRecorded("the tick hrtimer is not in the trace (timer:hrtimer_start/hrtimer_cancel/"
                        "hrtimer_expire_entry of its callback)",
                        {"timer:hrtimer_start", "timer:hrtimer_cancel", "timer:hrtimer_expire_entry"}));
    } else {
        set(Figure::TickStopped, ev.of(Figure::Ticks));
    }
    if (!tickMeasured)
        set(Figure::NohzWakeups,
            notRecorded("the tick hrtimer's expiries are not in the trace (timer:hrtimer_expire_entry)",
                        {"timer:hrtimer_expire_entry"}));
    if (!tickStops)
        set(Figure::FailedStops,
            notRecorded("the trace holds no timer:tick_stop event", {"timer:tick_stop"}));
    const bool softirqs = has(Role::SoftirqEntry) && has(Role::SoftirqExit);
    if (!softirqs)
        set(Figure::TimerSoftirqs, notRecorded("the trace holds no irq:softirq_entry/softirq_exit events",
                                               {"irq:softirq_entry", "irq:softirq_exit"}));
    if (!softirqs)
        set(Figure::Catchups, ev.of(Figure::TimerSoftirqs));
    else if (!has(Role::TimerExpireEntry))
        set(Figure::Catchups,
            notRecorded(
                "the timers' callbacks are not in the trace (timer:timer_expire_entry/timer_expire_exit)",
                {"timer:timer_expire_entry", "timer:timer_expire_exit"}));
    if (!expiries)
        set(Figure::Wakeups, notRecorded("the trace holds no timer:hrtimer_expire_entry event",
                                         {"timer:hrtimer_expire_entry"}));
    else if (unnamedExpiries)
        set(Figure::Wakeups, notRecorded(std::to_string(unnamedExpiries) +
                                             " hrtimer expiries name their callback by address (a raw text, "
                                             "`trace-cmd report -R`; without -R it names them): which woke a "
                                             "sleeper is not known",
                                         {}));
    const bool wakeups = ev.recorded(Figure::Wakeups);
    if (!wakeups)
        set(Figure::WakeupLateness, ev.of(Figure::Wakeups));
    else if (!starts)
        set(Figure::WakeupLateness,
            notRecorded("the trace holds no timer:hrtimer_start event", {"timer:hrtimer_start"}));
    if (!wakeups)
        set(Figure::WakeupLatency, ev.of(Figure::Wakeups));
    else if (!has(Role::SchedSwitch) || (!has(Role::SchedWaking) && !has(Role::SchedWakeup)))
        set(Figure::WakeupLatency, notRecorded("the trace holds no sched:sched_switch or no "
                                               "sched:sched_waking/sched_wakeup events",
                                               {"sched:sched_switch", "sched:sched_waking"}));
    if (!tickMeasured)
        set(Figure::TickLateness, ev.of(Figure::NohzWakeups));
    else if (!starts)
        set(Figure::TickLateness,
            notRecorded("the trace holds no timer:hrtimer_start event", {"timer:hrtimer_start"}));
    if (!expiries)
        set(Figure::OtherLateness, notRecorded("the trace holds no timer:hrtimer_expire_entry event",
                                               {"timer:hrtimer_expire_entry"}));
    else if (!starts)
        set(Figure::OtherLateness,
            notRecorded("the trace holds no timer:hrtimer_start event", {"timer:hrtimer_start"}));
    return ev;
}

} // namespace tickscope
