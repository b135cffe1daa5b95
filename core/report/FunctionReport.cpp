// SPDX-License-Identifier: GPL-3.0-or-later
#include "FunctionReport.h"

#include "analysis/TimerRecords.h"
#include "stats/TraceStats.h"
#include "util/JsonWriter.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>

namespace tickscope {

std::string usText(int64_t ns)
{
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ns) / 1e3);
    return buf;
}

std::string callPlaceText(const FunctionCall &c)
{
    std::string s = "CPU " + std::to_string(c.cpu) +
                    (c.timed ? " at " + formatSeconds(c.at) + " s" : " line " + std::to_string(c.at));
    if (c.inIrq) s += " (in an interrupt)";
    return s;
}

CallContext callContextAt(const Trace &trace, const TickAnalysis &analysis, int cpu, int64_t t,
                          uint8_t tiedBefore)
{
    CallContext c;
    if (cpu < 0 || cpu >= trace.cpuCount() || static_cast<size_t>(cpu) >= analysis.cpus.size()) return c;
    const CpuEvents &ev = trace.cpu(cpu);
    // Only inside the CPU's events: before the first or after the last nothing is known.
    if (ev.empty() || t < ev.ts(0) || t > ev.ts(ev.size() - 1)) return c;
    // the last event before the call: of those at t, the ones that came before it (all when not known)
    const size_t before = tiedBefore == FunctionSpan::kTiesUnknown
                              ? ev.lowerBound(t + 1)
                              : std::min(ev.lowerBound(t) + tiedBefore, ev.lowerBound(t + 1));
    if (before == 0) return c;
    const size_t i = before - 1;
    const CpuAnalysis &a = analysis.cpus[static_cast<size_t>(cpu)];
    c.known = true;
    c.task = StateCode::taskState(a.task.codeAt(i));
    c.irq = StateCode::irqState(a.irq.codeAt(i));
    const auto &changes = a.tickLane.changes();
    auto it = std::upper_bound(changes.begin(), changes.end(), i,
                               [](size_t x, const TickLaneChange &ch) { return x < ch.index; });
    if (it != changes.begin()) c.tick = std::prev(it)->state;
    return c;
}

std::string callContextText(const CallContext &c)
{
    if (!c.known) return {};
    std::string s = c.tick == TickState::Stopped   ? "tick stopped"
                    : c.tick == TickState::Running ? "tick running"
                                                   : "tick state unknown";
    s += " · ";
    s += taskStateName(c.task);
    if (c.irq != IrqState::None) s += std::string(" + ") + std::string(irqStateName(c.irq));
    return s;
}

namespace {

// The TIMER softirq (by its tracepoints) running at t on the CPU; null when none.
const TimerSoftirq *timerSoftirqAt(const CpuEvents &ev, const CpuAnalysis &a, int64_t t)
{
    const auto &q = a.timers.timerSoftirqs;
    // the last softirq entered at or before t
    auto it = std::upper_bound(q.begin(), q.end(), t,
                               [&](int64_t x, const TimerSoftirq &s) { return x < ev.ts(s.entry); });
    if (it == q.begin()) return nullptr;
    const TimerSoftirq &s = *std::prev(it);
    if (s.durationNs < 0 || t > ev.ts(s.exit)) return nullptr;
    return &s;
}

// The nested call_timer_fn time of spans[k] (its descendants come right before it, deeper).
int64_t callbackNs(const std::vector<FunctionSpan> &spans, size_t k, uint32_t callTimerFn)
{
    int64_t sum = 0;
    int outermost = INT32_MAX;
    for (size_t j = k; j-- > 0 && spans[j].depth > spans[k].depth;) {
        if (spans[j].name != callTimerFn) continue;
        // only the outermost call_timer_fn calls (a callback's own nested one is inside its time)
        if (spans[j].depth <= outermost) {
            outermost = spans[j].depth;
            sum += spans[j].durationNs;
        }
    }
    return sum;
}

} // namespace

FunctionReport makeFunctionReport(const Trace &trace, const TickAnalysis *analysis,
                                  const std::vector<std::string> &names, const std::vector<int> &cpus,
                                  int64_t from, int64_t to)
{
    FunctionReport r;
    // The functions to report, by pool id: the timer ones present, then the requested ones in order.
    std::vector<std::pair<std::string, bool>> wanted;
    wanted.reserve(std::size(kTimerFunctions) + names.size());
    for (std::string_view f : kTimerFunctions)
        wanted.emplace_back(std::string(f), false);
    for (const std::string &n : names) {
        auto it = std::find_if(wanted.begin(), wanted.end(), [&](const auto &w) { return w.first == n; });
        if (it == wanted.end())
            wanted.emplace_back(n, true);
        else
            it->second = true;
    }
    std::map<uint32_t, size_t> byId; // pool id -> index in wanted
    for (size_t k = 0; k < wanted.size(); ++k)
        if (const uint32_t id = trace.strings.find(wanted[k].first)) byId.emplace(id, k);
    const uint32_t runTimerSoftirq = trace.strings.find("run_timer_softirq");
    const uint32_t callTimerFn = trace.strings.find("call_timer_fn");

    struct Acc
    {
        std::map<int, std::vector<int64_t>> perCpu;
        std::vector<FunctionCall> calls;
        uint64_t tickStopped = 0, tickRunning = 0;
    };
    std::vector<Acc> acc(wanted.size());
    // run_timer_softirq calls joined to a TIMER softirq; the calls' verdict is settled at the end (it
    // depends on whether call_timer_fn is traced anywhere).
    struct Joined
    {
        FunctionCall call;
        int64_t softirqNs, callbackNs;
        bool softirqCatchup, longCall, callCatchup;
    };
    std::vector<Joined> joined;
    const auto &all = trace.functions.cpus;
    for (size_t c = 0; c < all.size(); ++c) {
        const int cpu = static_cast<int>(c);
        if (!cpus.empty() && !std::binary_search(cpus.begin(), cpus.end(), cpu)) continue;
        const std::vector<FunctionSpan> &spans = all[c];
        for (size_t k = 0; k < spans.size(); ++k) {
            const FunctionSpan &s = spans[k];
            if (s.timed() && (s.start() < from || s.start() > to)) continue;
            ++r.calls;
            r.timed = r.timed || s.timed();
            if (callTimerFn && s.name == callTimerFn) r.callbacksTraced = true;
            const FunctionCall call{cpu,          s.at,    s.timed(),
                                    s.durationNs, s.depth, (s.flags & FunctionSpan::InIrq) != 0};
            if (runTimerSoftirq && s.name == runTimerSoftirq) {
                ++r.timerCalls;
                const bool longCall = s.durationNs >= kCatchupMinNs;
                const int64_t callbacks = callbackNs(spans, k, callTimerFn);
                const bool catchup =
                    longCall && callTimerFn &&
                    (s.durationNs - callbacks) * 100 >= s.durationNs * kCatchupUnexplainedPct;
                r.timerLong += longCall;
                r.timerCatchups += catchup;
                if (analysis && s.timed() && c < analysis->cpus.size() && cpu < trace.cpuCount()) {
                    if (const TimerSoftirq *q = timerSoftirqAt(trace.cpu(cpu), analysis->cpus[c], s.start()))
                        joined.push_back({call, q->durationNs, callbacks, q->catchup, longCall, catchup});
                }
            }
            const auto it = byId.find(s.name);
            if (it == byId.end()) continue;
            Acc &a = acc[it->second];
            a.perCpu[cpu].push_back(s.durationNs);
            a.calls.push_back(call);
            if (analysis && s.timed()) {
                const CallContext cc = callContextAt(trace, *analysis, cpu, s.start(), s.tiedBefore);
                a.tickStopped += cc.tick == TickState::Stopped;
                a.tickRunning += cc.tick == TickState::Running;
            }
        }
    }
    if (!r.callbacksTraced) r.timerCatchups = 0; // not judged: see the header
    for (const Joined &j : joined) {
        const bool byCalls = r.callbacksTraced ? j.callCatchup : j.longCall;
        ++r.join.calls;
        r.join.softirqCatchups += j.softirqCatchup;
        r.join.callCatchups += byCalls;
        if (byCalls == j.softirqCatchup) continue;
        ++r.join.differing;
        if (r.join.differences.size() < kLongestCallsShown)
            r.join.differences.push_back({j.call, j.softirqNs, j.callbackNs, j.softirqCatchup});
    }
    for (size_t k = 0; k < wanted.size(); ++k) {
        Acc &a = acc[k];
        if (a.calls.empty() && !wanted[k].second) continue;
        FunctionStats f;
        f.name = wanted[k].first;
        f.requested = wanted[k].second;
        std::vector<int64_t> durations;
        for (auto &[cpu, v] : a.perCpu) {
            FunctionCpuStats cs;
            cs.cpu = cpu;
            for (int64_t d : v)
                cs.totalNs += d;
            f.totalNs += cs.totalNs;
            durations.insert(durations.end(), v.begin(), v.end());
            cs.duration = Distribution::of(v);
            f.cpus.push_back(cs);
        }
        f.duration = Distribution::of(durations);
        const size_t n = std::min(kLongestCallsShown, a.calls.size());
        std::partial_sort(a.calls.begin(), a.calls.begin() + static_cast<long>(n), a.calls.end(),
                          [](const FunctionCall &x, const FunctionCall &y) {
                              return x.durationNs != y.durationNs ? x.durationNs > y.durationNs
                                     : x.cpu != y.cpu             ? x.cpu < y.cpu
                                                                  : x.at < y.at;
                          });
        f.longest.assign(a.calls.begin(), a.calls.begin() + static_cast<long>(n));
        f.tickStopped = a.tickStopped;
        f.tickRunning = a.tickRunning;
        r.functions.push_back(std::move(f));
    }
    return r;
}

void appendFunctionReportText(std::string &out, const FunctionReport &r)
{
    char buf[256];
    std::snprintf(buf, sizeof buf, "\nfunctions (function_graph, %" PRIu64 " calls%s):\n", r.calls,
                  r.timed ? "" : ", no timestamps: a call's place is the file line of its return");
    out += buf;
    if (r.functions.empty()) {
        out += "  none of the timer functions is in the trace (--functions NAME,... names others)\n";
    }
    for (const FunctionStats &f : r.functions) {
        if (!f.duration.count) {
            std::snprintf(buf, sizeof buf, "  %-26s not in the trace\n", f.name.c_str());
            out += buf;
            continue;
        }
        auto line = [&](const std::string &label, const Distribution &d, int64_t total) {
            std::snprintf(buf, sizeof buf,
                          "  %-26s %6" PRIu64 " call%s  p50 %s  p99 %s  max %s µs  total %s µs\n",
                          label.c_str(), d.count, d.count == 1 ? " " : "s", usText(d.p50).c_str(),
                          usText(d.p99).c_str(), usText(d.max).c_str(), usText(total).c_str());
            out += buf;
        };
        line(f.name, f.duration, f.totalNs);
        for (const FunctionCpuStats &c : f.cpus)
            line("  CPU " + std::to_string(c.cpu), c.duration, c.totalNs);
        for (size_t k = 0; k < f.longest.size(); ++k)
            out += std::string(k ? "             " : "    longest: ") + usText(f.longest[k].durationNs) +
                   " µs " + callPlaceText(f.longest[k]) + "\n";
        if (f.tickStopped + f.tickRunning)
            out += "    tick at entry: " + std::to_string(f.tickStopped) + " stopped, " +
                   std::to_string(f.tickRunning) + " running, " +
                   std::to_string(f.duration.count - f.tickStopped - f.tickRunning) + " unknown\n";
    }
    if (r.timerCalls) out += "  " + timerVerdictText(r) + "\n";
    for (const std::string &line : timerJoinText(r))
        out += "  " + line + "\n";
}

std::string timerVerdictText(const FunctionReport &r)
{
    if (!r.timerCalls) return {};
    std::string v = "TIMER softirq from run_timer_softirq: " + std::to_string(r.timerLong) + " of " +
                    std::to_string(r.timerCalls) + " calls at least " + usText(kCatchupMinNs) + " µs";
    if (r.callbacksTraced)
        return v + "; " + std::to_string(r.timerCatchups) + " catch-up" + (r.timerCatchups == 1 ? "" : "s") +
               " (at least " + std::to_string(kCatchupUnexplainedPct) + " % outside call_timer_fn)";
    return v + "; the timer callbacks (call_timer_fn) are not traced, so a catch-up cannot be told from a "
               "slow callback";
}

std::vector<std::string> timerJoinText(const FunctionReport &r)
{
    const TimerJoin &j = r.join;
    if (!j.calls) return {};
    const std::string calls = r.callbacksTraced ? " catch-ups" : " long calls";
    std::vector<std::string> lines{
        "beside the TIMER softirq tracepoints: " + std::to_string(j.calls) + " of " +
        std::to_string(r.timerCalls) + " calls ran in one; " + std::to_string(j.softirqCatchups) +
        " catch-ups by the softirqs, " + std::to_string(j.callCatchups) + calls + " by the calls" +
        (j.differing ? "; they differ on " + std::to_string(j.differing) + ":" : "")};
    for (const TimerJoin::Difference &d : j.differences) {
        std::string why;
        if (d.softirqCatchup && d.call.durationNs < kCatchupMinNs)
            why = "the call is below " + usText(kCatchupMinNs) +
                  " µs (the softirq's own overhead makes up the rest)";
        else if (d.softirqCatchup)
            why = "the callbacks took " + usText(d.callbackNs) + " µs of the call";
        else if (r.callbacksTraced)
            why = "the softirq rule did not count it (its timers' callbacks or jiffies explain it)";
        else
            why = "a long call; the softirq rule did not count it";
        lines.push_back("  " + callPlaceText(d.call) + ": softirq " + usText(d.softirqNs) + " µs, call " +
                        usText(d.call.durationNs) + " µs, " +
                        (d.softirqCatchup ? "catch-up by the softirq only: " : "by the call only: ") + why);
    }
    return lines;
}

void functionReportJson(JsonWriter &j, const FunctionReport &r)
{
    j.beginObject("functions").value("calls", r.calls).value("timed", r.timed);
    j.beginArray("list");
    for (const FunctionStats &f : r.functions) {
        j.beginObject().value("name", f.name).value("requested", f.requested);
        distributionJson(j, "duration_ns", f.duration);
        j.value("total_ns", f.totalNs).value("tick_stopped_at_entry", f.tickStopped);
        j.value("tick_running_at_entry", f.tickRunning);
        j.beginArray("cpus");
        for (const FunctionCpuStats &c : f.cpus) {
            j.beginObject().value("cpu", c.cpu);
            distributionJson(j, "duration_ns", c.duration);
            j.value("total_ns", c.totalNs).endObject();
        }
        j.endArray();
        j.beginArray("longest");
        for (const FunctionCall &c : f.longest) {
            j.beginObject().value("cpu", c.cpu).value("duration_ns", c.durationNs);
            j.value(c.timed ? "ts_ns" : "line", c.at).value("depth", c.depth).value("in_irq", c.inIrq);
            j.endObject();
        }
        j.endArray().endObject();
    }
    j.endArray();
    j.beginObject("timer_softirq").value("calls", r.timerCalls).value("long", r.timerLong);
    j.value("callbacks_traced", r.callbacksTraced);
    if (r.callbacksTraced)
        j.value("catchups", r.timerCatchups);
    else
        j.null("catchups");
    j.beginObject("softirq_tracepoints").value("joined_calls", r.join.calls);
    j.value("softirq_catchups", r.join.softirqCatchups).value("call_verdicts", r.join.callCatchups);
    j.value("differing", r.join.differing).beginArray("differences");
    for (const TimerJoin::Difference &d : r.join.differences) {
        j.beginObject().value("cpu", d.call.cpu).value("ts_ns", d.call.at);
        j.value("call_ns", d.call.durationNs).value("softirq_ns", d.softirqNs);
        j.value("callback_ns", d.callbackNs).value("softirq_catchup", d.softirqCatchup).endObject();
    }
    j.endArray().endObject();
    j.endObject().endObject();
}

} // namespace tickscope
