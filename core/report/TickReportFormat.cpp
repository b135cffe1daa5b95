// SPDX-License-Identifier: GPL-3.0-or-later
// The text and JSON forms of a TickReport (`tickscope-cli report`, the GUI's summary copy).
#include "TickReport.h"

#include "FunctionReport.h"
#include "analysis/CpuList.h"

#include "stats/TraceStats.h"
#include "util/JsonWriter.h"
#include "util/Text.h"

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
        appendf(out,
                "%*d  %-9s %7" PRIu64 " %7" PRIu64 " %7" PRIu64 " %7" PRIu64 " %7" PRIu64 " %7" PRIu64
                " %9" PRIu64 " %13" PRIu64 "  %s s %5.1f%%  %s\n",
                cpuWidth, c.cpu, c.nohzFull ? "yes" : "no", n.total, n.user, n.kernel, n.irq, n.idle,
                n.polling, n.spurious, n.nohzWakeups, formatSeconds(c.tickStoppedNs).c_str(),
                100.0 * static_cast<double>(c.tickStoppedNs) / span, failed.empty() ? "-" : failed.c_str());
        if (n.unknown)
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
        appendf(out, "%*d  %14" PRIu64 " %7s %10" PRIu64 " %17" PRIu64 "  %23s  %23s %7" PRIu64 "   %24s\n",
                cpuWidth, c.cpu, c.timerSoftirq.count, usText(c.timerSoftirq.maxNs).c_str(),
                c.timerSoftirq.catchup, w.count, late.c_str(), lat.c_str(), w.bursts, tick.c_str());
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
            if (l.vec == 1)
                appendf(out, ", %u timers, %s µs in callbacks, tickless %s ms before%s", l.timers,
                        usText(l.callbackNs).c_str(), usText(l.idleNs / 1000).c_str(),
                        l.catchup ? ": CATCH-UP" : "");
            out += "\n";
        }
    }
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
    j.reserve((indent ? 4096 : 1792) * (r.cpus.size() + 2));
    j.beginObject();
    j.value("file", r.path).value("tick_timer", r.tickTimer).value("polling_idle", r.polling);
    j.value("nohz_full_source", r.nohzFullSource).value("nohz_full_cpus", r.nohzFullList);
    j.beginObject("window")
        .value("from_ns", r.from)
        .value("to_ns", r.to)
        .value("source", r.windowSource)
        .endObject();
    j.beginArray("cpus");
    for (const CpuReport &c : r.cpus) {
        const TickCounts &n = c.ticks;
        j.beginObject().value("cpu", c.cpu).value("nohz_full", c.nohzFull);
        j.beginObject("ticks");
        j.value("total", n.total).value("user", n.user).value("kernel", n.kernel).value("irq", n.irq);
        j.value("idle", n.idle).value("polling", n.polling).value("spurious", n.spurious);
        j.endObject();
        j.value("ticks_unknown_context", n.unknown).value("nohz_wakeups", n.nohzWakeups);
        j.value("tick_stopped_ns", c.tickStoppedNs);
        j.beginObject("tick_stop_failures");
        for (size_t b = 0; b < kDependencyNames.size(); ++b)
            j.value(kDependencyNames[b], c.failures[b]);
        j.endObject();
        j.value("tick_stop_failures_other", c.failuresOther);
        const TimerSoftirqReport &ts = c.timerSoftirq;
        j.beginObject("timer_softirq").value("count", ts.count).value("max_ns", ts.maxNs);
        j.value("catchup", ts.catchup).value("timers", ts.timers).value("max_idle_before_ns", ts.maxIdleNs);
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
        j.beginObject("hrtimer_wakeup").value("count", w.count);
        distributionJson(j, "lateness_ns", w.lateness);
        distributionJson(j, "soft_lateness_ns", w.softLateness);
        distributionJson(j, "latency_ns", w.latency);
        distributionJson(j, "latency_rt_ns", w.latencyRt);
        distributionJson(j, "latency_normal_ns", w.latencyNormal);
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
        distributionJson(j, "tick_lateness_ns", c.tickLateness);
        distributionJson(j, "hrtimer_other_lateness_ns", c.otherLateness);
        j.value("events", c.events);
        j.value("switches_into_idle", c.switchesIntoIdle).value("switches_out_of_idle", c.switchesOutOfIdle);
        j.endObject();
    }
    j.endArray();
    findingsJson(j, r.findings);
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
