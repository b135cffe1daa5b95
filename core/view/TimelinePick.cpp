// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimelinePick.h"

#include "analysis/StateCode.h"
#include "analysis/WakeupLatency.h"
#include "model/EventFormat.h"
#include "report/FunctionReport.h"
#include "report/TickReport.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>

namespace tickscope {

std::string formatRelativeTime(int64_t ns, int64_t resolution)
{
    char buf[64];
    const double s = static_cast<double>(ns) / 1e9;
    if (resolution >= 1'000'000)
        std::snprintf(buf, sizeof buf, "%.3f s", s);
    else if (resolution >= 1'000)
        std::snprintf(buf, sizeof buf, "%.6f s", s);
    else
        std::snprintf(buf, sizeof buf, "%.9f s", s);
    return buf;
}

std::string describeEvent(const TimelineIndex &index, int cpu, size_t event)
{
    const Trace &tr = index.trace();
    const CpuEvents &ev = tr.cpu(cpu);
    const int32_t pid = ev.pid(event);
    const std::string comm = taskComm(tr, cpu, event);
    std::string s = formatRelativeTime(ev.ts(event) - tr.startTs()) + "  CPU " + std::to_string(cpu) + "  " +
                    tr.types()[ev.type(event)].name + "  " + (comm.empty() ? std::string("<...>") : comm) +
                    "-" + std::to_string(pid);
    const std::string fields = formatEventFields(tr, cpu, event);
    if (!fields.empty()) s += "\n" + fields;
    return s;
}

std::string tickVerdict(const TickAnalysis &analysis, int cpu, const TickRecord &tick)
{
    std::string v = tick.periodic() ? "periodic tick" : "expiry of the stopped tick (nohz wakeup)";
    if (tick.flags & TickFlag::LocalTimer) v += " (local timer interrupt, low-res fallback)";
    v += ", interrupted ";
    v += tickContextName(tick.context);
    v += "; ";
    v += cpuGroupName(analysis.group(cpu));
    v += " CPU";
    if (tick.flags & TickFlag::Spurious) {
        v += tick.context == TickContext::Polling
                 ? "; SPURIOUS: a tick while polling idle"
                 : "; SPURIOUS: a tick in user mode with no tick dependency in force";
    } else if (tick.flags & TickFlag::DependencyInForce) {
        v += "; a tick dependency was in force (the last tick_stop failed)";
    }
    if (tick.flags & TickFlag::WokeFromIdle) v += "; woke the CPU from idle";
    return v;
}

namespace {

struct Candidate
{
    size_t event = 0;
    int64_t distance = INT64_MAX;
    int rank = -1;
    std::string extra;
};

void consider(Candidate &best, size_t event, int64_t distance, int rank, std::string extra)
{
    if (rank > best.rank || (rank == best.rank && distance < best.distance))
        best = {event, distance, rank, std::move(extra)};
}

std::string woke(const WakeTarget &t)
{
    return t.pid >= 0 ? ", woke pid " + std::to_string(t.pid) : std::string();
}

// Records sorted by event index whose event lies in [t - tol, t + tol]; bounded so a hover over a
// zoomed-out view stays cheap.
template <class Rec, class F>
void nearRecords(const CpuEvents &ev, const Rec *recs, size_t n, int64_t t, int64_t tol, F &&f)
{
    const size_t lo = ev.lowerBound(t - tol), hi = ev.lowerBound(t + tol + 1);
    const Rec *p = std::lower_bound(recs, recs + n, lo, [](const Rec &r, size_t v) { return r.index < v; });
    for (int budget = 4096; p != recs + n && p->index < hi && budget; ++p, --budget)
        f(*p, ev.ts(p->index));
}

std::string ns(int32_t v)
{
    return v == kUnknownNs
               ? std::string("unknown")
               : std::to_string(v / 1000) + "." + std::to_string(std::abs(v % 1000) / 100) + " us";
}

} // namespace

namespace {
// The function row: the deepest call running at t (or the nearest), with the tick analysis at its entry.
// Not an event: `found` stays false.
TimelinePickResult pickCall(const TimelineIndex &index, int cpu, int64_t t, int64_t tol)
{
    TimelinePickResult r;
    const FunctionLane &fl = index.cpu(cpu).functions();
    const int64_t k = fl.pick(t, tol);
    if (k < 0) return r;
    const FunctionSpan &c = fl.call(static_cast<size_t>(k));
    const Trace &trace = index.trace();
    r.cpu = cpu;
    r.text = formatRelativeTime(c.start() - trace.startTs()) + "  CPU " + std::to_string(cpu) + "  " +
             std::string(trace.strings.str(c.name)) + "()  " + usText(c.durationNs) + " µs, depth " +
             std::to_string(c.depth) + ((c.flags & FunctionSpan::InIrq) ? ", in an interrupt" : "");
    const std::string context =
        callContextText(callContextAt(trace, index.analysis(), cpu, c.start(), c.tiedBefore));
    if (!context.empty()) r.text += "\nat entry: " + context;
    return r;
}
} // namespace

TimelinePickResult pickEvent(const TimelineIndex &index, int cpu, TimelineRow row, int64_t t, int64_t tol,
                             bool modesRecorded)
{
    TimelinePickResult r;
    if (cpu < 0 || cpu >= index.cpuCount()) return r;
    if (row == TimelineRow::Function) return pickCall(index, cpu, t, tol);
    const CpuEvents &ev = index.trace().cpu(cpu);
    if (ev.empty()) return r;
    const CpuAnalysis &a = index.analysis().cpus[cpu];
    Candidate best;
    auto dist = [t](int64_t ts) { return ts > t ? ts - t : t - ts; };
    if (row == TimelineRow::Tick) {
        nearRecords(ev, a.ticks.data(), a.ticks.size(), t, tol, [&](const TickRecord &k, int64_t ts) {
            consider(best, k.index, dist(ts), static_cast<int>(CpuTimelineIndex::tickClass(k)),
                     tickVerdict(index.analysis(), cpu, k));
        });
        nearRecords(ev, a.failedStops.data(), a.failedStops.size(), t, tol,
                    [&](const FailedStop &f, int64_t ts) {
                        std::string deps;
                        for (size_t b = 0; b < kDependencyNames.size(); ++b)
                            if (f.dependency & (1u << b))
                                deps += std::string(deps.empty() ? "" : ",") + kDependencyNames[b];
                        consider(best, f.index, dist(ts), -1,
                                 "failed tick stop, dependency " + (deps.empty() ? std::string("?") : deps));
                    });
    } else if (row == TimelineRow::Event) {
        nearRecords(ev, a.timers.wakeups.data(), a.timers.wakeups.size(), t, tol,
                    [&](const HrtimerWakeup &w, int64_t ts) {
                        const char *where = !(w.flags & WakeupFlag::ContextKnown) ? ""
                                            : (w.flags & WakeupFlag::Soft)        ? " (soft: HRTIMER softirq)"
                                                                                  : " (hard interrupt)";
                        consider(best, w.index, dist(ts), 1,
                                 std::string("hrtimer wakeup") + where + ": lateness " + ns(w.latenessNs) +
                                     ", wakeup latency " + ns(w.latencyNs) +
                                     woke(wokenBy(index.trace(), ev, w)));
                    });
        for (const TimeSpan &s : index.cpu(cpu).catchups()) {
            if (s.to < t - tol || s.from > t + tol) continue;
            const TimerSoftirq &q = a.timers.timerSoftirqs[s.record];
            consider(best, q.entry, s.from <= t && t <= s.to ? 0 : dist(s.from), 2,
                     "catch-up TIMER softirq: " + std::to_string(q.durationNs / 1000) + " us, " +
                         std::to_string(q.timers) + " timers, " + std::to_string(q.callbackNs / 1000) +
                         " us in callbacks, tickless " + std::to_string(q.idleNs / 1'000'000) + " ms before");
        }
    } else {
        const size_t i = ev.lowerBound(t);
        for (size_t k : {i, i - 1}) {
            if (k < ev.size() && dist(ev.ts(k)) <= tol) consider(best, k, dist(ev.ts(k)), 0, {});
        }
    }
    if (best.distance > tol) {
        // Nothing near: the state in force at t.
        const size_t i = ev.lowerBound(t + 1);
        if (i == 0 || row != TimelineRow::State) return r;
        const uint8_t task = a.task.codeAt(i - 1), irq = a.irq.codeAt(i - 1);
        r.cpu = cpu;
        const auto slot = static_cast<TaskSlot>(taskSlotOf(task));
        const bool mode = slot == TaskSlot::User || slot == TaskSlot::Kernel;
        r.text = formatRelativeTime(t - index.trace().startTs()) + "  CPU " + std::to_string(cpu) + "  " +
                 (mode && !modesRecorded ? std::string("task (mode not recorded)")
                                         : std::string(taskSlotName(slot)));
        if (StateCode::irqState(irq) != IrqState::None)
            r.text += " + " + std::string(irqSlotName(static_cast<IrqSlot>(irqSlotOf(irq))));
        return r;
    }
    r.found = true;
    r.cpu = cpu;
    r.event = best.event;
    r.text = describeEvent(index, cpu, best.event);
    if (!best.extra.empty()) r.text += "\n" + best.extra;
    return r;
}

} // namespace tickscope
