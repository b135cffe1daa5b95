// SPDX-License-Identifier: GPL-3.0-or-later
// The text and JSON forms of a TickReport (`tickscope-cli report`, the GUI's summary copy).
#include "TickReport.h"

#include "FunctionReport.h"
#include "analysis/CpuList.h"

#include "stats/TraceStats.h"
#include "util/JsonWriter.h"
#include "util/Text.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace tickscope {

namespace {

std::string bytesText(uint64_t b)
{
    char buf[32];
    if (b >= 1u << 20)
        std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(b) / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.1f KB", static_cast<double>(b) / 1e3);
    return buf;
}

// Where the expiries ran (hard / soft) and whom they woke (RT / normal), and what the non-RT ones in a hard
// interrupt cost the RT ones after them.
void appendExpiryClasses(std::string &out, const WakeupReport &w)
{
    if (w.contextUnknown == w.count) return; // the trace shows no context (no irq flags or spans)
    out += "      by context:";
    const char *sep = " ";
    for (size_t soft = 0; soft < 2; ++soft) {
        for (size_t normal = 0; normal < 2; ++normal) {
            const WakeupReport::ClassCell &c = w.byContext[soft][normal];
            appendf(out, "%s%s %s %" PRIu64, sep, soft ? "soft" : "hard", normal ? "normal" : "RT", c.count);
            if (c.latency.count)
                appendf(out, " (%s/%s µs)", usText(c.latency.p50).c_str(), usText(c.latency.max).c_str());
            sep = ", ";
        }
    }
    if (w.contextUnknown) appendf(out, ", %" PRIu64 " unknown", w.contextUnknown);
    appendf(out, " (latency p50/max)\n      longest run in one hard interrupt %" PRIu64, w.longestHardRun);
    if (w.rtDelayed)
        appendf(out,
                "; %" PRIu64 " RT wakeups ran after a non-RT sleeper's in the same interrupt: %s µs in all, "
                "max %s µs",
                w.rtDelayed, usText(w.rtDelayNs).c_str(), usText(w.rtDelayMaxNs).c_str());
    out += "\n";
}

// A figure's value right-aligned in `width` columns, or "–" (one column, three bytes) when its figure is
// not recorded.
std::string cell(const std::string &v, bool recorded, int width)
{
    const std::string text = recorded ? v : "–";
    const int shown = recorded ? static_cast<int>(v.size()) : 1;
    return std::string(static_cast<size_t>(std::max(0, width - shown)), ' ') + text;
}
std::string cell(uint64_t v, bool recorded, int width)
{
    return cell(std::to_string(v), recorded, width);
}

// Under the tables: one line per reason a figure is not recorded ("–"), what was inferred and from what,
// and the recording that would give the rest.
void appendEvidenceText(std::string &out, const Evidence &e)
{
    if (e.complete()) return;
    const char *lead = "not recorded (–): ";
    for (const auto &[basis, figures] : e.notRecordedReasons()) {
        appendf(out, "%s%s: %s\n", lead, figures.c_str(), basis.c_str());
        lead = "                  ";
    }
    for (size_t f = 0; f < kFigureCount; ++f) {
        const FigureEvidence &x = e.figures[f];
        if (x.status == EvidenceStatus::Inferred)
            appendf(out, "inferred:  %s from %s\n", figureWords(static_cast<Figure>(f)), x.basis.c_str());
    }
    if (const std::string t = e.traceCmdLine(); !t.empty())
        appendf(out, "to record the rest: %s\n                    %s\n", t.c_str(), e.captureLine().c_str());
}

} // namespace

void distributionJson(JsonWriter &j, const char *key, const Distribution &d)
{
    j.beginObject(key).value("count", d.count).value("min", d.min).value("p50", d.p50).value("p90", d.p90);
    j.value("p99", d.p99).value("max", d.max);
    if (d.binned) j.value("binned", true);
    j.endObject();
}

std::string formatReportText(const TickReport &r)
{
    std::string out;
    appendf(out, "file:       %s\n", r.path.c_str());
    if (!r.uname.empty()) appendf(out, "kernel:     %s\n", r.uname.c_str());
    if (r.events == 0 && r.functions) { // a function_graph paste: no tracepoints for the tick analysis
        out += "events:     none: the tick, timer softirq and wakeup analysis needs tracepoints; the "
               "function_graph calls:\n";
        appendFunctionReportText(out, *r.functions);
        return out;
    }
    appendf(out, "tick:       %s\n", r.tickTimer.c_str());
    appendf(out, "polling:    %s%s%s%s\n", r.polling.c_str(), r.pollingWhy.empty() ? "" : " (",
            r.pollingWhy.c_str(), r.pollingWhy.empty() ? "" : ")");
    appendf(out, "nohz_full:  %s (%s)\n", r.nohzFullList.empty() ? "none" : r.nohzFullList.c_str(),
            r.nohzFullSource.c_str());
    const char *src = r.windowSource == "markers"  ? ", between the first and last ftrace print marker"
                      : r.windowSource == "window" ? ", from --window"
                                                   : ", the whole trace";
    appendf(out, "window:     %s .. %s s (%s s)%s\n", formatSeconds(r.from).c_str(),
            formatSeconds(r.to).c_str(), formatSeconds(r.to - r.from).c_str(), src);
    if (!r.markerFrom.empty())
        appendf(out, "            \"%s\" .. \"%s\"\n", r.markerFrom.c_str(), r.markerTo.c_str());
    // The CPU column is as wide as the largest CPU number (3 digits at least), the header with it.
    int cpuWidth = 3;
    for (const CpuReport &c : r.cpus)
        cpuWidth = std::max(cpuWidth, static_cast<int>(std::to_string(c.cpu).size()));
    std::string cpuHead = "\nCPU";
    cpuHead.append(static_cast<size_t>(cpuWidth - 3), ' ');
    out += cpuHead + "  nohz_full   ticks    user  kernel     irq    idle polling  spurious  nohz wakeups"
                     "     tick stopped  failed stops\n";
    const double span = r.to > r.from ? static_cast<double>(r.to - r.from) : 1.0;
    // CPUs nothing is known of get one line under the tables, not a row of zeros each (a recording of 4
    // CPUs of a 64-CPU machine, a sparse text trace naming CPU 7000).
    std::vector<int> silent;
    for (const CpuReport &c : r.cpus)
        if (c.silent()) silent.push_back(c.cpu);
    const Evidence &ev = r.evidence;
    const bool ticksRec = ev.recorded(Figure::Ticks), modeRec = ev.recorded(Figure::TickMode),
               idleRec = ev.recorded(Figure::TickIdle);
    for (const CpuReport &c : r.cpus) {
        if (c.silent()) continue;
        const TickCounts &n = c.ticks;
        std::string failed;
        for (size_t b = 0; b < c.failures.size(); ++b) {
            if (c.failures[b])
                failed += (failed.empty() ? "" : ", ") + std::string(kDependencyNames[b]) + " " +
                          std::to_string(c.failures[b]);
        }
        if (c.failuresOther)
            failed += (failed.empty() ? "" : ", ") + std::string("other ") + std::to_string(c.failuresOther);
        if (!ev.recorded(Figure::FailedStops)) failed = "–";
        const std::string stopped = ev.recorded(Figure::TickStopped)
                                        ? textf("%s s %5.1f%%", formatSeconds(c.tickStoppedNs).c_str(),
                                                100.0 * static_cast<double>(c.tickStoppedNs) / span)
                                        : cell(std::string(), false, 17);
        appendf(out, "%*d  %-9s %s %s %s %s %s %s %s %s  %s  %s\n", cpuWidth, c.cpu,
                c.nohzFull ? "yes" : "no", cell(n.total, ticksRec, 7).c_str(),
                cell(n.user, modeRec, 7).c_str(), cell(n.kernel, modeRec, 7).c_str(),
                cell(n.irq, ticksRec, 7).c_str(), cell(n.idle, idleRec, 7).c_str(),
                cell(n.polling, ev.recorded(Figure::TickPolling), 7).c_str(),
                cell(n.spurious, modeRec, 9).c_str(),
                cell(n.nohzWakeups, ev.recorded(Figure::NohzWakeups), 13).c_str(), stopped.c_str(),
                failed.empty() ? "-" : failed.c_str());
        if (ticksRec && !modeRec && n.user + n.kernel + n.unknown)
            appendf(out, "     (%" PRIu64 " %s in a task: user or kernel mode not recorded)\n",
                    n.user + n.kernel + n.unknown, n.user + n.kernel + n.unknown == 1 ? "tick" : "ticks");
        else if (n.unknown)
            appendf(out, "     (%" PRIu64 " %s in an unknown context)\n", n.unknown,
                    n.unknown == 1 ? "tick" : "ticks");
        if (c.idleSwitchOutsMissing())
            appendf(out,
                    "     (%" PRIu64 " switches into the idle task traced and none out of it: latencies of"
                    " wakeups from idle are upper bounds)\n",
                    c.switchesIntoIdle);
    }
    out += cpuHead + "  timer softirqs  max µs  catch-ups   hrtimer wakeups  lateness p50/p99/max µs"
                     "   latency p50/p99/max µs  bursts   tick lateness p50/max µs\n";
    for (const CpuReport &c : r.cpus) {
        if (c.silent()) continue;
        const WakeupReport &w = c.wakeup;
        const std::string late =
            usText(w.lateness.p50) + "/" + usText(w.lateness.p99) + "/" + usText(w.lateness.max);
        const std::string lat =
            usText(w.latency.p50) + "/" + usText(w.latency.p99) + "/" + usText(w.latency.max);
        const std::string tick = usText(c.tickLateness.p50) + "/" + usText(c.tickLateness.max);
        const bool softRec = ev.recorded(Figure::TimerSoftirqs), wakeRec = ev.recorded(Figure::Wakeups);
        appendf(out, "%*d  %s %s %s %s  %s  %s %s   %s\n", cpuWidth, c.cpu,
                cell(c.timerSoftirq.count, softRec, 14).c_str(),
                cell(usText(c.timerSoftirq.maxNs), softRec, 7).c_str(),
                cell(c.timerSoftirq.catchup, ev.recorded(Figure::Catchups), 10).c_str(),
                cell(w.count, wakeRec, 17).c_str(),
                cell(late, ev.recorded(Figure::WakeupLateness), 23).c_str(),
                cell(lat, ev.recorded(Figure::WakeupLatency), 23).c_str(), cell(w.bursts, wakeRec, 7).c_str(),
                cell(tick, ev.recorded(Figure::TickLateness), 24).c_str());
    }
    if (!silent.empty())
        appendf(out, "(no events and no tick state in the window on CPU%s %s: not listed)\n",
                silent.size() == 1 ? "" : "s", formatCpuList(silent).c_str());
    for (const CpuReport &c : r.cpus) {
        const WakeupReport &w = c.wakeup;
        if (!w.count) continue;
        // "N (p50 x, p99 y, max z µs)", or "0": no percentiles of nothing
        auto latencies = [](const Distribution &d) {
            std::string s = std::to_string(d.count);
            if (d.count)
                s += " (p50 " + usText(d.p50) + ", p99 " + usText(d.p99) + ", max " + usText(d.max) + " µs)";
            return s;
        };
        appendf(out, "CPU %d wakeup latency: RT %s, normal %s; largest burst %" PRIu64 "\n", c.cpu,
                latencies(w.latencyRt).c_str(), latencies(w.latencyNormal).c_str(), w.maxBurst);
        appendExpiryClasses(out, w);
        if (w.latencyBounds)
            appendf(out,
                    "      %" PRIu64 " of %" PRIu64
                    " latencies are upper bounds (switch-in not traced: measured to"
                    " the task's first event)\n",
                    w.latencyBounds, w.latency.count);
        if (w.noSwitch)
            appendf(out,
                    "      %" PRIu64 " wakeups without a latency (task already running, no"
                    " switch-in within 100 ms, or some CPU lost events before it)\n",
                    w.noSwitch);
        std::string h;
        for (size_t b = 0; b < w.histogram.size(); ++b) {
            if (!w.histogram[b]) continue;
            h += (h.empty() ? "" : "  ") + std::string(b + 1 == w.histogram.size() ? ">" : "<=") +
                 (b + 1 == w.histogram.size() ? usText(int64_t{1} << (b - 1)) : usText(int64_t{1} << b)) +
                 ":" + std::to_string(w.histogram[b]);
        }
        if (!h.empty()) appendf(out, "      histogram (µs): %s\n", h.c_str()); // (every latency unknown)
    }
    for (const CpuReport &c : r.cpus) {
        for (const LongSoftirqReport &l : c.longSoftirqs) {
            appendf(out, "CPU %d long softirq vec %u at %s s: %s µs", c.cpu, unsigned{l.vec},
                    formatSeconds(l.ts).c_str(), usText(l.durationNs).c_str());
            if (l.vec == 1 && !ev.recorded(Figure::Catchups))
                out += ", timer callbacks not recorded";
            else if (l.vec == 1)
                appendf(out, ", %u timers, %s µs in callbacks, tickless %s ms before%s", l.timers,
                        usText(l.callbackNs).c_str(), usText(l.idleNs / 1000).c_str(),
                        l.catchup ? ": CATCH-UP" : "");
            out += "\n";
        }
    }
    appendEvidenceText(out, ev);
    if (r.functions) appendFunctionReportText(out, *r.functions);
    appendFindingsText(out, r.findings);
    out += "\n";
    for (const CpuReport &c : r.cpus) {
        if (c.nohzFull && !c.nohzFullWhy.empty())
            appendf(out, "nohz_full CPU %d: %s\n", c.cpu, c.nohzFullWhy.c_str());
    }
    out +=
        "ticks: periodic ticks by the context they interrupted; nohz wakeups: expiries of the stopped tick.\n"
        "spurious (nohz_full CPUs): ticks in user mode with no tick dependency in force, and ticks while\n"
        "polling idle.\n"
        "timer softirqs: vec 1; catch-up: >= 50 µs with >= 80% of it outside the timers' callbacks.\n"
        "hrtimer wakeups: lateness = now - expires (hrtimer clock); latency = expiry -> switch into the "
        "woken\n"
        "task (or, when the trace lacks that switch, to its first event: an upper bound); bursts: timer\n"
        "interrupts that woke >= 2 sleepers.\n";
    if (r.binnedValues)
        appendf(out,
                "percentiles: of a distribution of more than %zu values, p50/p90/p99 come from log-linear\n"
                "buckets (within 0.8 %%; --stream keeps that many values per distribution); counts, min and\n"
                "max are exact.\n",
                r.binnedValues);
    appendf(
        out,
        "analysis:   %.3f s on %d thread%s for %" PRIu64 " events; derived arrays %s (%.2f bytes/event)\n",
        r.analysisSeconds, r.threads, r.threads == 1 ? "" : "s", r.events, bytesText(r.derivedBytes).c_str(),
        r.events ? static_cast<double>(r.derivedBytes) / static_cast<double>(r.events) : 0.0);
    if (r.loadSeconds > 0) appendf(out, "load:       %.3f s\n", r.loadSeconds);
    if (r.peakRssBytes)
        appendf(out, "memory:     peak RSS %.1f MB (%.1f bytes/event)\n",
                static_cast<double>(r.peakRssBytes) / 1e6,
                r.events ? static_cast<double>(r.peakRssBytes) / static_cast<double>(r.events) : 0.0);
    return out;
}

std::string formatReportJson(const TickReport &r, int indent)
{
    JsonWriter j(indent);
    // About 3.5 KB per CPU indented, 1.6 KB in one line: no copy after copy as it grows (a sparse text
    // trace naming CPU 7000 writes 24 MB)
    j.beginObject();
    j.value("file", r.path).value("tick_timer", r.tickTimer).value("polling_idle", r.polling);
    j.value("nohz_full_source", r.nohzFullSource).value("nohz_full_cpus", r.nohzFullList);
    j.beginObject("window")
        .value("from_ns", r.from)
        .value("to_ns", r.to)
        .value("source", r.windowSource)
        .endObject();
    const Evidence &ev = r.evidence;
    // A figure the trace does not record is null (never 0); "evidence" below says why.
    const auto num = [&j](const char *key, auto v, bool recorded) {
        if (recorded)
            j.value(key, v);
        else
            j.null(key);
    };
    const bool ticksRec = ev.recorded(Figure::Ticks), modeRec = ev.recorded(Figure::TickMode),
               idleRec = ev.recorded(Figure::TickIdle), softRec = ev.recorded(Figure::TimerSoftirqs);
    j.beginArray("cpus");
    for (const CpuReport &c : r.cpus) {
        const TickCounts &n = c.ticks;
        j.beginObject().value("cpu", c.cpu).value("nohz_full", c.nohzFull);
        j.beginObject("ticks");
        num("total", n.total, ticksRec);
        num("user", n.user, modeRec);
        num("kernel", n.kernel, modeRec);
        num("irq", n.irq, ticksRec);
        num("idle", n.idle, idleRec);
        num("polling", n.polling, ev.recorded(Figure::TickPolling));
        num("spurious", n.spurious, modeRec);
        j.endObject();
        num("ticks_unknown_context", n.unknown, ticksRec);
        num("nohz_wakeups", n.nohzWakeups, ev.recorded(Figure::NohzWakeups));
        num("tick_stopped_ns", c.tickStoppedNs, ev.recorded(Figure::TickStopped));
        // the part of the window over which the tick's state (running or stopped) is known
        num("tick_state_known_ns", c.laneKnownNs, ev.recorded(Figure::TickStopped));
        if (ev.recorded(Figure::FailedStops)) {
            j.beginObject("tick_stop_failures");
            for (size_t b = 0; b < kDependencyNames.size(); ++b)
                j.value(kDependencyNames[b], c.failures[b]);
            j.endObject();
        } else {
            j.null("tick_stop_failures");
        }
        num("tick_stop_failures_other", c.failuresOther, ev.recorded(Figure::FailedStops));
        const TimerSoftirqReport &ts = c.timerSoftirq;
        j.beginObject("timer_softirq");
        num("count", ts.count, softRec);
        num("max_ns", ts.maxNs, softRec);
        num("catchup", ts.catchup, ev.recorded(Figure::Catchups));
        num("timers", ts.timers, ev.recorded(Figure::Catchups));
        num("max_idle_before_ns", ts.maxIdleNs, softRec);
        j.value("max_jiffies_behind", ts.maxJiffiesBehind).endObject();
        j.beginArray("long_softirqs");
        for (const LongSoftirqReport &l : c.longSoftirqs) {
            j.beginObject()
                .value("ts_ns", l.ts)
                .value("vec", static_cast<int>(l.vec))
                .value("duration_ns", l.durationNs);
            if (l.vec == 1) {
                j.value("timers", static_cast<uint64_t>(l.timers))
                    .value("callback_ns", l.callbackNs)
                    .value("idle_before_ns", l.idleNs);
                j.value("catchup", l.catchup);
            }
            j.endObject();
        }
        j.endArray();
        const WakeupReport &w = c.wakeup;
        const bool lateRec = ev.recorded(Figure::WakeupLateness), latRec = ev.recorded(Figure::WakeupLatency);
        const auto dist = [&j](const char *key, const Distribution &d, bool recorded) {
            if (recorded)
                distributionJson(j, key, d);
            else
                j.null(key);
        };
        j.beginObject("hrtimer_wakeup");
        num("count", w.count, ev.recorded(Figure::Wakeups));
        dist("lateness_ns", w.lateness, lateRec);
        dist("soft_lateness_ns", w.softLateness, lateRec);
        dist("latency_ns", w.latency, latRec);
        dist("latency_rt_ns", w.latencyRt, latRec);
        dist("latency_normal_ns", w.latencyNormal, latRec);
        j.beginArray("latency_histogram");
        for (size_t b = 0; b < w.histogram.size(); ++b) {
            if (!w.histogram[b]) continue;
            j.beginObject().value("le_ns", b + 1 == w.histogram.size() ? int64_t{-1} : int64_t{1} << b);
            j.value("count", w.histogram[b]).endObject();
        }
        j.endArray();
        j.value("bursts", w.bursts).value("in_bursts", w.inBursts).value("max_burst", w.maxBurst);
        j.value("no_task", w.noTask).value("no_switch", w.noSwitch).value("unpaired", w.unpaired);
        j.value("latency_upper_bounds", w.latencyBounds);
        j.beginObject("by_context");
        for (size_t soft = 0; soft < 2; ++soft) {
            j.beginObject(soft ? "soft" : "hard");
            for (size_t normal = 0; normal < 2; ++normal) {
                j.beginObject(normal ? "normal" : "rt").value("count", w.byContext[soft][normal].count);
                distributionJson(j, "latency_ns", w.byContext[soft][normal].latency);
                j.endObject();
            }
            j.endObject();
        }
        j.value("unknown", w.contextUnknown).endObject();
        j.value("longest_hard_run", w.longestHardRun);
        j.beginObject("rt_delayed_by_normal").value("count", w.rtDelayed).value("total_ns", w.rtDelayNs);
        j.value("max_ns", w.rtDelayMaxNs).endObject();
        j.endObject();
        dist("tick_lateness_ns", c.tickLateness, ev.recorded(Figure::TickLateness));
        dist("hrtimer_other_lateness_ns", c.otherLateness, ev.recorded(Figure::OtherLateness));
        j.value("events", c.events);
        j.value("switches_into_idle", c.switchesIntoIdle).value("switches_out_of_idle", c.switchesOutOfIdle);
        j.endObject();
    }
    j.endArray();
    findingsJson(j, r.findings);
    // Every figure that is not measured: {"status": "inferred"|"not_recorded", "from"|"needs": ...}, and
    // the recording that would give the rest.
    j.beginObject("evidence");
    for (size_t f = 0; f < kFigureCount; ++f) {
        const FigureEvidence &x = ev.figures[f];
        if (x.status == EvidenceStatus::Measured) continue;
        j.beginObject(figureKey(static_cast<Figure>(f)));
        if (x.status == EvidenceStatus::Inferred) {
            j.value("status", "inferred").value("from", x.basis);
        } else {
            j.value("status", "not_recorded").value("why", x.basis);
            j.beginArray("needs");
            for (const std::string &e : x.missing)
                j.value(std::string_view{}, std::string_view(e));
            j.endArray();
        }
        j.endObject();
    }
    j.endObject();
    j.value("record_hint", ev.traceCmdLine());
    if (r.functions) functionReportJson(j, *r.functions);
    j.beginObject("analysis").value("seconds", r.analysisSeconds).value("threads", r.threads);
    j.value("events", r.events).value("derived_bytes", r.derivedBytes).endObject();
    j.value("load_seconds", r.loadSeconds).value("peak_rss_bytes", r.peakRssBytes);
    j.endObject();
    std::string out = j.take();
    out += '\n';
    return out;
}

} // namespace tickscope
