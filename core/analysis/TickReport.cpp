#include "TickReport.h"

#include "FunctionReport.h"

#include "CpuList.h"

#include "stats/TraceStats.h"
#include "util/JsonWriter.h"

#include <algorithm>
#include <bit>
#include <cinttypes>
#include <cstdio>

namespace tickscope {

namespace {

struct Marker
{
    int cpu = -1;
    size_t index = 0;
    int64_t ts = 0;
};

// The first and last ftrace print marker over all CPUs.
std::pair<Marker, Marker> markers(const Trace &trace, const TickAnalysis &analysis)
{
    Marker first, last;
    for (const CpuAnalysis &c : analysis.cpus) {
        if (c.firstPrint == CpuAnalysis::npos) continue;
        const CpuEvents &ev = trace.cpu(c.cpu);
        const int64_t a = ev.ts(c.firstPrint);
        const int64_t b = ev.ts(c.lastPrint);
        if (first.cpu < 0 || a < first.ts) first = {c.cpu, c.firstPrint, a};
        if (last.cpu < 0 || b >= last.ts) last = {c.cpu, c.lastPrint, b};
    }
    return {first, last};
}

std::string markerText(const Trace &trace, const Marker &m)
{
    std::string s(trace.strings.str(trace.cpu(m.cpu).payload<TextP>(m.index).text));
    while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
        s.pop_back();
    return s;
}

int64_t overlap(int64_t a, int64_t b, int64_t from, int64_t to)
{
    const int64_t lo = std::max(a, from);
    const int64_t hi = std::min(b, to);
    return hi > lo ? hi - lo : 0;
}

void appendf(std::string &out, const char *fmt, auto... args)
{
    char buf[512];
    std::snprintf(buf, sizeof buf, fmt, args...);
    out += buf;
}

std::string bytesText(uint64_t b)
{
    char buf[32];
    if (b >= 1u << 20)
        std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(b) / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.1f KB", static_cast<double>(b) / 1e3);
    return buf;
}

size_t histogramBucket(int64_t v)
{
    return std::min(static_cast<size_t>(log2Bucket(v)), kHistogramBuckets - 1);
}

void timerReport(const Trace &trace, const CpuAnalysis &c, int64_t from, int64_t to, CpuReport &cr)
{
    const CpuEvents &ev = trace.cpu(c.cpu);
    const CpuTimers &t = c.timers;
    // The window as event indices (the CPU's events are in time order): [lo, hi).
    const auto window = ev.indexRange(from, to);
    auto in = [lo = window.first, hi = window.second](uint32_t index) { return index >= lo && index < hi; };
    TimerSoftirqReport &ts = cr.timerSoftirq;
    std::vector<LongSoftirqReport> longest;
    for (const TimerSoftirq &r : t.timerSoftirqs) {
        if (!in(r.entry)) continue;
        ++ts.count;
        ts.maxNs = std::max(ts.maxNs, r.durationNs);
        ts.catchup += r.catchup;
        ts.timers += r.timers;
        ts.maxIdleNs = std::max(ts.maxIdleNs, r.idleNs);
        ts.maxJiffiesBehind = std::max(ts.maxJiffiesBehind, r.jiffiesBehind);
        if (r.durationNs >= kLongSoftirqNs)
            longest.push_back({ev.ts(r.entry), 1, r.durationNs, r.timers, r.callbackNs, r.idleNs, r.catchup});
    }
    for (const LongSoftirq &l : t.longSoftirqs) {
        if (l.vec != 1 && in(l.entry))
            longest.push_back({ev.ts(l.entry), l.vec, l.durationNs, 0, 0, 0, false});
    }
    std::sort(longest.begin(), longest.end(), [](const LongSoftirqReport &a, const LongSoftirqReport &b) {
        return a.durationNs > b.durationNs;
    });
    if (longest.size() > kLongSoftirqsShown) longest.resize(kLongSoftirqsShown);
    cr.longSoftirqs = std::move(longest);

    WakeupReport &w = cr.wakeup;
    // The records are in event order: the window is a slice of them.
    const auto byIndex = [](const HrtimerWakeup &x, size_t i) { return x.index < i; };
    const HrtimerWakeup *const wFirst =
        std::lower_bound(t.wakeups.data(), t.wakeups.data() + t.wakeups.size(), window.first, byIndex);
    const HrtimerWakeup *const wLast =
        std::lower_bound(wFirst, t.wakeups.data() + t.wakeups.size(), window.second, byIndex);
    constexpr uint8_t kClassMask =
        WakeupFlag::ContextKnown | WakeupFlag::PrioKnown | WakeupFlag::Soft | WakeupFlag::Rt;
    // The flags of a class cell: [0 hard, 1 soft][0 RT, 1 normal]
    auto classFlags = [](size_t soft, size_t normal) {
        return static_cast<uint8_t>(WakeupFlag::ContextKnown | WakeupFlag::PrioKnown |
                                    (soft ? WakeupFlag::Soft : 0) | (normal ? 0 : WakeupFlag::Rt));
    };
    for (const HrtimerWakeup *it = wFirst; it != wLast; ++it) {
        const HrtimerWakeup &x = *it;
        ++w.count;
        w.inBursts += (x.flags & WakeupFlag::Burst) != 0;
        if (!(x.flags & WakeupFlag::ContextKnown))
            ++w.contextUnknown;
        else if (!(x.flags & WakeupFlag::Soft))
            w.longestHardRun = std::max<uint64_t>(w.longestHardRun, 1);
        for (size_t soft = 0; soft < 2; ++soft) {
            for (size_t normal = 0; normal < 2; ++normal)
                w.byContext[soft][normal].count += (x.flags & kClassMask) == classFlags(soft, normal);
        }
        if (x.latenessNs == kUnknownNs) ++w.unpaired;
        if (!(x.flags & WakeupFlag::TaskKnown)) {
            ++w.noTask;
            continue;
        }
        if (x.latencyNs == kUnknownNs) {
            ++w.noSwitch;
            continue;
        }
        w.latencyBounds += (x.flags & WakeupFlag::LatencyBound) != 0;
        ++w.histogram[histogramBucket(x.latencyNs)];
    }
    // One distribution at a time through one buffer: a busy trace has a wakeup per ~9 events, and six
    // copies of them would outgrow the analysis itself.
    std::vector<int32_t> v;
    v.reserve(w.count);
    auto distribution = [&](auto value) {
        v.clear();
        for (const HrtimerWakeup *it = wFirst; it != wLast; ++it) {
            const int32_t y = value(*it);
            if (y != kUnknownNs) v.push_back(y);
        }
        return Distribution::of(v);
    };
    auto latencyIf = [](uint8_t mask, uint8_t want) {
        return [mask, want](const HrtimerWakeup &x) {
            return (x.flags & WakeupFlag::TaskKnown) && (x.flags & mask) == want ? x.latencyNs : kUnknownNs;
        };
    };
    w.lateness = distribution([](const HrtimerWakeup &x) { return x.latenessNs; });
    w.softLateness = distribution(
        [](const HrtimerWakeup &x) { return x.latenessNs == kUnknownNs ? kUnknownNs : x.softLatenessNs; });
    w.latency = distribution(latencyIf(0, 0));
    w.latencyRt = distribution(
        latencyIf(WakeupFlag::PrioKnown | WakeupFlag::Rt, WakeupFlag::PrioKnown | WakeupFlag::Rt));
    w.latencyNormal = distribution(latencyIf(WakeupFlag::PrioKnown | WakeupFlag::Rt, WakeupFlag::PrioKnown));
    w.latencyUnknownPolicy = distribution(latencyIf(WakeupFlag::PrioKnown, 0));
    for (size_t soft = 0; soft < 2; ++soft) {
        for (size_t normal = 0; normal < 2; ++normal)
            w.byContext[soft][normal].latency = distribution(latencyIf(kClassMask, classFlags(soft, normal)));
    }
    for (const WakeupBatch &b : t.batches) {
        if (!in(b.first)) continue;
        ++w.bursts;
        w.maxBurst = std::max<uint64_t>(w.maxBurst, b.count);
        if (b.soft) continue;
        w.longestHardRun = std::max<uint64_t>(w.longestHardRun, b.count);
        w.rtDelayed += b.rtDelayed;
        w.rtDelayNs += b.rtDelayNs;
        w.rtDelayMaxNs = std::max<int64_t>(w.rtDelayMaxNs, b.rtDelayMaxNs);
    }
    v.clear();
    for (size_t k = 0; k < t.tickLateness.size(); ++k) {
        if (t.tickLateness[k].latenessNs != kUnknownNs && in(t.tickLateness[k].index))
            v.push_back(t.tickLateness[k].latenessNs);
    }
    cr.tickLateness = Distribution::of(v);
    v.clear();
    for (size_t k = 0; k < t.otherLateness.size(); ++k) {
        if (t.otherLateness[k].latenessNs != kUnknownNs && in(t.otherLateness[k].index))
            v.push_back(t.otherLateness[k].latenessNs);
    }
    cr.otherLateness = Distribution::of(v);
}

std::string us(int64_t ns)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(ns) / 1e3);
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
                appendf(out, " (%s/%s µs)", us(c.latency.p50).c_str(), us(c.latency.max).c_str());
            sep = ", ";
        }
    }
    if (w.contextUnknown) appendf(out, ", %" PRIu64 " unknown", w.contextUnknown);
    appendf(out, " (latency p50/max)\n      longest run in one hard interrupt %" PRIu64, w.longestHardRun);
    if (w.rtDelayed)
        appendf(out,
                "; %" PRIu64 " RT wakeups ran after a non-RT sleeper's in the same interrupt: %s µs in all, "
                "max %s µs",
                w.rtDelayed, us(w.rtDelayNs).c_str(), us(w.rtDelayMaxNs).c_str());
    out += "\n";
}

} // namespace

void distributionJson(JsonWriter &j, const char *key, const Distribution &d)
{
    j.beginObject(key).value("count", d.count).value("min", d.min).value("p50", d.p50).value("p90", d.p90);
    j.value("p99", d.p99).value("max", d.max).endObject();
}

template <class T> Distribution distributionOf(std::vector<T> &v)
{
    Distribution d;
    d.count = v.size();
    if (v.empty()) return d;
    // Selection, not a full sort: each rank partitions the part above the previous one.
    auto begin = v.begin();
    auto rank = [&](int p) {
        const size_t r =
            std::max<size_t>((v.size() * static_cast<size_t>(p) + 99) / 100, 1) - 1; // ceil(p/100*n)
        const auto it = v.begin() + static_cast<std::ptrdiff_t>(r);
        std::nth_element(begin, it, v.end());
        begin = it;
        return *it;
    };
    d.min = *std::min_element(v.begin(), v.end());
    d.p50 = rank(50);
    d.p90 = rank(90);
    d.p99 = rank(99);
    d.max = *std::max_element(begin, v.end());
    return d;
}

Distribution Distribution::of(std::vector<int64_t> &v)
{
    return distributionOf(v);
}

Distribution Distribution::of(std::vector<int32_t> &v)
{
    return distributionOf(v);
}

std::optional<std::pair<int64_t, int64_t>> markerWindow(const Trace &trace, const TickAnalysis &analysis)
{
    const auto [first, last] = markers(trace, analysis);
    if (first.cpu < 0 || (first.cpu == last.cpu && first.index == last.index)) return std::nullopt;
    return std::make_pair(first.ts, last.ts);
}

std::optional<int64_t> firstMarker(const Trace &trace, const TickAnalysis &analysis)
{
    const Marker first = markers(trace, analysis).first;
    if (first.cpu < 0) return std::nullopt;
    return first.ts;
}

TickReport TickReport::make(const Trace &trace, const TickAnalysis &analysis, const ReportOptions &options)
{
    TickReport r;
    r.path = trace.meta.path;
    r.uname = trace.meta.uname;
    r.tickTimer = analysis.localTimerFallback
                      ? std::string("none traced: local timer interrupts (low-res fallback)")
                      : "hrtimer " + analysis.tickFunction;
    r.polling = std::string(pollingKindName(analysis.polling));
    r.pollingWhy = analysis.pollingWhy;
    r.nohzFullSource = std::string(nohzFullSourceName(analysis.nohzFullSource));
    std::vector<int> full;
    for (size_t c = 0; c < analysis.nohzFull.size(); ++c) {
        if (analysis.nohzFull[c]) full.push_back(static_cast<int>(c));
    }
    r.nohzFullList = formatCpuList(full);
    const int64_t end = trace.eventCount() ? trace.lastTs() : 0;
    r.from = std::max(options.from, trace.eventCount() ? trace.firstTs() : 0);
    r.to = std::min(options.to, end);
    r.windowSource = options.windowSource;
    if (options.windowSource == "markers") {
        const auto [first, last] = markers(trace, analysis);
        if (first.cpu >= 0) {
            r.markerFrom = markerText(trace, first);
            r.markerTo = markerText(trace, last);
        }
    }
    r.events = trace.eventCount();
    r.analysisSeconds = analysis.seconds;
    r.threads = analysis.threads;
    r.derivedBytes = analysis.bytes();

    for (const CpuAnalysis &c : analysis.cpus) {
        if (!options.cpus.empty() && !std::binary_search(options.cpus.begin(), options.cpus.end(), c.cpu))
            continue;
        const CpuEvents &ev = trace.cpu(c.cpu);
        CpuReport cr;
        cr.cpu = c.cpu;
        cr.nohzFull = analysis.isNohzFull(c.cpu);
        cr.nohzFullWhy = analysis.nohzFullWhy[static_cast<size_t>(c.cpu)];
        TickCounts &n = cr.ticks;
        for (const TickRecord &t : c.ticks) {
            const int64_t ts = ev.ts(t.index);
            if (ts < r.from || ts > r.to) continue;
            if (!t.periodic()) {
                ++n.nohzWakeups;
                continue;
            }
            ++n.total;
            switch (t.context) {
            case TickContext::User:
                ++n.user;
                break;
            case TickContext::Kernel:
                ++n.kernel;
                break;
            case TickContext::Irq:
                ++n.irq;
                break;
            case TickContext::Idle:
                ++n.idle;
                break;
            case TickContext::Polling:
                ++n.polling;
                break;
            case TickContext::Unknown:
                ++n.unknown;
                break;
            }
            if (t.flags & TickFlag::Spurious) {
                ++n.spurious;
                ++(t.context == TickContext::User ? n.spuriousUser : n.spuriousPolling);
            }
        }
        const auto &lane = c.tickLane.changes();
        for (size_t k = 0; k < lane.size(); ++k) {
            const int64_t a = ev.ts(lane[k].index);
            const int64_t b = k + 1 < lane.size() ? ev.ts(lane[k + 1].index) : end;
            const int64_t d = overlap(a, b, r.from, r.to);
            if (lane[k].state == TickState::Stopped) cr.tickStoppedNs += d;
            if (lane[k].state != TickState::Unknown) cr.laneKnownNs += d;
        }
        for (const FailedStop &f : c.failedStops) {
            const int64_t ts = ev.ts(f.index);
            if (ts < r.from || ts > r.to) continue;
            const int bit =
                f.dependency ? std::countr_zero(f.dependency) : 32; // the kernel reports the first
            if (bit < static_cast<int>(kDependencyNames.size()))
                ++cr.failures[static_cast<size_t>(bit)];
            else
                ++cr.failuresOther;
        }
        timerReport(trace, c, r.from, r.to, cr);
        r.cpus.push_back(std::move(cr));
    }
    r.findings = findFindings(trace, analysis, r, FindingOptions{options.lateWakeupNs});
    if (!trace.functions.empty() || !options.functions.empty())
        r.functions = std::make_shared<const FunctionReport>(
            makeFunctionReport(trace, options.functions, options.cpus, options.from, options.to));
    return r;
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
    out += "\nCPU  nohz_full   ticks    user  kernel     irq    idle polling  spurious  nohz wakeups"
           "     tick stopped  failed stops\n";
    const double span = r.to > r.from ? static_cast<double>(r.to - r.from) : 1.0;
    for (const CpuReport &c : r.cpus) {
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
                "%3d  %-9s %7" PRIu64 " %7" PRIu64 " %7" PRIu64 " %7" PRIu64 " %7" PRIu64 " %7" PRIu64
                " %9" PRIu64 " %13" PRIu64 "  %s s %5.1f%%  %s\n",
                c.cpu, c.nohzFull ? "yes" : "no", n.total, n.user, n.kernel, n.irq, n.idle, n.polling,
                n.spurious, n.nohzWakeups, formatSeconds(c.tickStoppedNs).c_str(),
                100.0 * static_cast<double>(c.tickStoppedNs) / span, failed.empty() ? "-" : failed.c_str());
        if (n.unknown) appendf(out, "     (%" PRIu64 " ticks in an unknown context)\n", n.unknown);
    }
    out += "\nCPU  timer softirqs  max µs  catch-ups   hrtimer wakeups  lateness p50/p99/max µs"
           "   latency p50/p99/max µs  bursts   tick lateness p50/max µs\n";
    for (const CpuReport &c : r.cpus) {
        const WakeupReport &w = c.wakeup;
        const std::string late = us(w.lateness.p50) + "/" + us(w.lateness.p99) + "/" + us(w.lateness.max);
        const std::string lat = us(w.latency.p50) + "/" + us(w.latency.p99) + "/" + us(w.latency.max);
        const std::string tick = us(c.tickLateness.p50) + "/" + us(c.tickLateness.max);
        appendf(out, "%3d  %14" PRIu64 " %7s %10" PRIu64 " %17" PRIu64 "  %23s  %23s %7" PRIu64 "   %24s\n",
                c.cpu, c.timerSoftirq.count, us(c.timerSoftirq.maxNs).c_str(), c.timerSoftirq.catchup,
                w.count, late.c_str(), lat.c_str(), w.bursts, tick.c_str());
    }
    for (const CpuReport &c : r.cpus) {
        const WakeupReport &w = c.wakeup;
        if (!w.count) continue;
        appendf(out,
                "CPU %d wakeup latency: RT %" PRIu64 " (p50 %s, p99 %s, max %s µs), normal %" PRIu64
                " (p50 %s, p99 %s, max %s µs); largest burst %" PRIu64 "\n",
                c.cpu, w.latencyRt.count, us(w.latencyRt.p50).c_str(), us(w.latencyRt.p99).c_str(),
                us(w.latencyRt.max).c_str(), w.latencyNormal.count, us(w.latencyNormal.p50).c_str(),
                us(w.latencyNormal.p99).c_str(), us(w.latencyNormal.max).c_str(), w.maxBurst);
        appendExpiryClasses(out, w);
        if (w.latencyBounds)
            appendf(out,
                    "      %" PRIu64 " of %" PRIu64
                    " latencies are upper bounds (switch-in not traced: measured to"
                    " the task's first event)\n",
                    w.latencyBounds, w.latency.count);
        if (w.noSwitch)
            appendf(out,
                    "      %" PRIu64 " wakeups without a latency (task already running, or no"
                    " switch-in within 100 ms)\n",
                    w.noSwitch);
        std::string h;
        for (size_t b = 0; b < w.histogram.size(); ++b) {
            if (!w.histogram[b]) continue;
            h += (h.empty() ? "" : "  ") + std::string(b + 1 == w.histogram.size() ? ">" : "<=") +
                 (b + 1 == w.histogram.size() ? us(int64_t{1} << (b - 1)) : us(int64_t{1} << b)) + ":" +
                 std::to_string(w.histogram[b]);
        }
        appendf(out, "      histogram (µs): %s\n", h.c_str());
    }
    for (const CpuReport &c : r.cpus) {
        for (const LongSoftirqReport &l : c.longSoftirqs) {
            appendf(out, "CPU %d long softirq vec %u at %s s: %s µs", c.cpu, unsigned{l.vec},
                    formatSeconds(l.ts).c_str(), us(l.durationNs).c_str());
            if (l.vec == 1)
                appendf(out, ", %u timers, %s µs in callbacks, tickless %s ms before%s", l.timers,
                        us(l.callbackNs).c_str(), us(l.idleNs / 1000).c_str(), l.catchup ? ": CATCH-UP" : "");
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

std::string formatReportJson(const TickReport &r)
{
    JsonWriter j;
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
        j.endObject();
    }
    j.endArray();
    findingsJson(j, r.findings);
    if (r.functions) functionReportJson(j, *r.functions);
    j.beginObject("analysis").value("seconds", r.analysisSeconds).value("threads", r.threads);
    j.value("events", r.events).value("derived_bytes", r.derivedBytes).endObject();
    j.value("load_seconds", r.loadSeconds).value("peak_rss_bytes", r.peakRssBytes);
    j.endObject();
    std::string out = j.str();
    out += '\n';
    return out;
}

} // namespace tickscope
