// SPDX-License-Identifier: GPL-3.0-or-later
#include "TickReport.h"

#include "CpuFold.h"
#include "FindingText.h"
#include "FunctionReport.h"

#include "analysis/CpuList.h"
#include "analysis/EventRoles.h"

#include "stats/TraceStats.h"

#include "util/Parallel.h"

#include <algorithm>
#include <array>
#include <bit>
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

} // namespace

Distribution &cpuDistribution(CpuReport &cr, size_t d)
{
    WakeupReport &w = cr.wakeup;
    switch (d) {
    case 0:
        return w.lateness;
    case 1:
        return w.softLateness;
    case 2:
        return w.latency;
    case 3:
        return w.latencyRt;
    case 4:
        return w.latencyNormal;
    case 5:
        return w.latencyUnknownPolicy;
    case kTickLatenessDistribution:
        return cr.tickLateness;
    case kOtherLatenessDistribution:
        return cr.otherLateness;
    default:
        return w.byContext[(d - 6) / 2][(d - 6) % 2].latency;
    }
}

namespace {

// The hrtimer_wakeup records of a window given as event indices [lo, hi): a slice, as the records are in
// event order.
std::pair<const HrtimerWakeup *, const HrtimerWakeup *> wakeupsIn(const CpuTimers &t,
                                                                  std::pair<size_t, size_t> window)
{
    const auto byIndex = [](const HrtimerWakeup &x, size_t i) { return x.index < i; };
    const HrtimerWakeup *const first =
        std::lower_bound(t.wakeups.data(), t.wakeups.data() + t.wakeups.size(), window.first, byIndex);
    return {first, std::lower_bound(first, t.wakeups.data() + t.wakeups.size(), window.second, byIndex)};
}

// A CPU report's distributions, each filled on its own (a work item of its own for a CPU with many
// records): the wakeups' lateness, soft lateness and latency (all, RT, normal, unknown policy), the
// latency per class cell, the tick's lateness and the other expiries'.
constexpr size_t kDistributions = kCpuDistributions;

void fillDistribution(const Trace &trace, const CpuAnalysis &c, int64_t from, int64_t to, size_t d,
                      CpuReport &cr, std::vector<int32_t> &v)
{
    const CpuTimers &t = c.timers;
    const auto window = trace.cpu(c.cpu).indexRange(from, to);
    auto in = [lo = window.first, hi = window.second](uint32_t index) { return index >= lo && index < hi; };
    v.clear();
    if (d == kTickLatenessDistribution) {
        for (const TickRecord &k : c.ticks) {
            if (k.latenessNs != kUnknownNs && in(k.index)) v.push_back(k.latenessNs);
        }
        cr.tickLateness = Distribution::of(v);
        return;
    }
    if (d == kOtherLatenessDistribution) {
        for (size_t k = 0; k < t.otherLateness.size(); ++k) {
            if (t.otherLateness[k].latenessNs != kUnknownNs && in(t.otherLateness[k].index))
                v.push_back(t.otherLateness[k].latenessNs);
        }
        cr.otherLateness = Distribution::of(v);
        return;
    }
    const auto [first, last] = wakeupsIn(t, window);
    v.reserve(static_cast<size_t>(last - first));
    for (const HrtimerWakeup *it = first; it != last; ++it) {
        const int32_t y = wakeupValue(d, *it, d == 1 ? t.softLateness->of(*it) : kUnknownNs);
        if (y != kUnknownNs) v.push_back(y);
    }
    cpuDistribution(cr, d) = Distribution::of(v);
}
// One CPU's counts and findings over [r.from, r.to]: its final records, in time order, through a decided
// CpuFold, the one definition of them the streamed report shares. Appends its findings to `findings`.
CpuReport foldCpu(const Trace &trace, const TickAnalysis &analysis, const CpuAnalysis &c, FoldDecisions d,
                  const TickReport &r, const ReportOptions &options, int64_t end,
                  std::vector<Finding> &findings)
{
    const CpuEvents &ev = trace.cpu(c.cpu);
    const CpuTimers &t = c.timers;
    d.nohzFull = analysis.isNohzFull(c.cpu);
    d.nohzFullWhy = analysis.nohzFullWhy[static_cast<size_t>(c.cpu)];
    d.switchesIntoIdle = c.evidence.switchesIntoIdle;
    d.switchesOutOfIdle = c.evidence.switchesOutOfIdle;
    CpuFold f(c.cpu, r.from, r.to, options.lateWakeupNs, d, options.findingInstances);
    // The window as event indices (the CPU's events are in time order): [lo, hi).
    const auto window = ev.indexRange(r.from, r.to);
    auto in = [lo = window.first, hi = window.second](uint32_t index) { return index >= lo && index < hi; };
    f.events(window.second - window.first);
    // The ticks of the window (in the low-res fallback the analysis made the local timer interrupts the
    // ticks). The polling exit a spurious user tick came back from is looked up for those only.
    for (size_t k = firstRecordFrom(c.ticks, window.first), n = firstRecordFrom(c.ticks, window.second);
         k < n; ++k) {
        const TickRecord &x = c.ticks[k];
        const PollExit p = x.context == TickContext::User && (x.flags & TickFlag::Spurious)
                               ? pollExitAt(c.task, c.task.changeAt(x.index))
                               : PollExit{};
        f.tick(ev.ts(x.index), x, analysis.localTimerFallback, p.afterPoll, p.exit);
    }
    for (const auto &change : c.tickLane.changes())
        f.tickLane(ev.ts(change.index), change.state);
    for (const FailedStop &x : c.failedStops)
        f.failedStop(ev.ts(x.index), x);
    // TIMER softirqs before the other long ones: of two equally long at one time, the TIMER one first
    for (const TimerSoftirq &x : t.timerSoftirqs)
        if (in(x.entry)) f.timerSoftirq(ev.ts(x.entry), x);
    for (const LongSoftirq &x : t.longSoftirqs)
        if (in(x.entry)) f.longSoftirq(ev.ts(x.entry), x);
    const auto [wFirst, wLast] = wakeupsIn(t, window);
    for (const HrtimerWakeup *x = wFirst; x != wLast; ++x)
        f.wakeup(ev.ts(x->index), *x, kUnknownNs); // (a decided fold gathers no distribution)
    for (const WakeupBatch &x : t.batches)
        if (in(x.first)) f.batch(ev.ts(x.first), x);
    for (const RtDelay &x : t.rtDelays)
        if (in(x.first)) f.rtDelay(ev.ts(x.first), x);
    for (const LostRange &l : ev.lost)
        f.lost(l);
    if (f.needsPolling())
        c.task.forEach([&](size_t i, uint8_t code) {
            f.polling(ev.ts(i), StateCode::taskState(code) == TaskState::Poll);
        });
    return f.finish(d, end, ev.size() ? ev.ts(ev.size() - 1) : 0, findings);
}

} // namespace

// The 0-based rank of the p-th percentile of n values: ceil(p / 100 * n) - 1, at least 0.
size_t percentileRank(size_t n, size_t p)
{
    return std::max<size_t>((n * p + 99) / 100, 1) - 1;
}

template <class T> Distribution distributionOf(std::span<T> v)
{
    Distribution d;
    d.count = v.size();
    if (v.empty()) return d;
    // Selection, not a full sort: each rank partitions the part above the previous one.
    auto begin = v.begin();
    auto rank = [&](size_t p) {
        const auto it = v.begin() + static_cast<std::ptrdiff_t>(percentileRank(v.size(), p));
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
    return distributionOf(std::span<int64_t>(v));
}

namespace {

// The values at 0-based ranks r[0..2] of v in sorted order, by radix selection over the values' 32 bits
// in three digits (11, 11 and 10 bits): a pass per digit counts, for each rank still open, the values
// that share its digits so far. Three passes over v (a fourth finds min and max) and 24 KiB of counts,
// where a selection per rank moves the values around (the histograms and the report rank hundreds of
// thousands of latencies).
std::array<int32_t, 3> radixRanks(std::span<const int32_t> v, std::array<size_t, 3> r)
{
    constexpr int kShift[3] = {21, 10, 0};
    constexpr uint32_t kDigits[3] = {2048, 2048, 1024};
    const auto key = [](int32_t x) { return static_cast<uint32_t>(x) ^ 0x80000000u; }; // order kept
    std::array<uint32_t, 3> prefix{}; // the digits found so far, per rank (above the current digit)
    for (int level = 0; level < 3; ++level) {
        const int shift = kShift[level];
        const uint32_t digits = kDigits[level];
        const int above = shift + static_cast<int>(std::bit_width(digits - 1)); // bits decided before
        std::array<std::array<uint32_t, 2048>, 3> count{};
        if (level == 0) { // every value counts for every rank
            for (const int32_t x : v)
                ++count[0][key(x) >> shift];
            count[1] = count[2] = count[0];
        } else {
            for (const int32_t x : v) {
                const uint32_t k = key(x);
                const uint32_t high = k >> above;
                const uint32_t digit = (k >> shift) & (digits - 1);
                for (size_t t = 0; t < 3; ++t)
                    if (high == prefix[t]) ++count[t][digit];
            }
        }
        for (size_t t = 0; t < 3; ++t) {
            uint32_t d = 0;
            while (r[t] >= count[t][d]) // rank r[t] lies past digit d's values
                r[t] -= count[t][d++];
            prefix[t] = (prefix[t] << std::bit_width(digits - 1)) | d;
        }
    }
    std::array<int32_t, 3> out;
    for (size_t t = 0; t < 3; ++t)
        out[t] = static_cast<int32_t>(prefix[t] ^ 0x80000000u);
    return out;
}

} // namespace

Distribution Distribution::of(std::span<int32_t> v)
{
    if (v.size() < (size_t{1} << 14)) return distributionOf(v);
    Distribution d;
    d.count = v.size();
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    d.min = *lo;
    d.max = *hi;
    const size_t n = v.size();
    const std::array<int32_t, 3> at =
        radixRanks(v, {percentileRank(n, 50), percentileRank(n, 90), percentileRank(n, 99)});
    d.p50 = at[0];
    d.p90 = at[1];
    d.p99 = at[2];
    return d;
}

bool sameAsWholeTrace(const ReportOptions &o, const Trace &trace)
{
    const ReportOptions d;
    if (o.lateWakeupNs != d.lateWakeupNs || !o.functions.empty() || o.findingInstances != d.findingInstances)
        return false;
    if (o.from != d.from || o.to != d.to || o.windowSource != d.windowSource) {
        // A window over all of the trace ("window") clamps to the same span in make(); only its name
        // differs. A function report keeps the window it is given, so not with function_graph calls.
        const bool covers = o.windowSource == "window" && trace.eventCount() && o.from <= trace.firstTs() &&
                            o.to >= trace.lastTs() && trace.functions.empty();
        if (!covers) return false;
    }
    const int cpuCount = trace.cpuCount();
    if (o.cpus.empty()) return true;
    // Every CPU listed, in order: the same report as none listed.
    if (static_cast<int>(o.cpus.size()) != cpuCount) return false;
    for (int c = 0; c < cpuCount; ++c)
        if (o.cpus[static_cast<size_t>(c)] != c) return false;
    return true;
}

bool cpuSubsetOfWholeTrace(const ReportOptions &o, const Trace &trace)
{
    if (o.cpus.empty() || !trace.functions.empty()) return false;
    ReportOptions all = o;
    all.cpus.clear();
    return sameAsWholeTrace(all, trace);
}

TickReport cpuSubset(const TickReport &whole, const std::vector<int> &cpus)
{
    std::vector<int> keep = cpus;
    std::sort(keep.begin(), keep.end());
    auto kept = [&](int cpu) { return std::binary_search(keep.begin(), keep.end(), cpu); };
    // make() keeps the analysis' CPU order and sorts the findings stably: filtering keeps both orders.
    TickReport r = whole;
    r.cpus.clear();
    r.findings.clear();
    for (const CpuReport &c : whole.cpus)
        if (kept(c.cpu)) r.cpus.push_back(c);
    for (const Finding &f : whole.findings)
        if (kept(f.cpu)) r.findings.push_back(f);
    return r;
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

TickReport TickReport::header(const Trace &trace, const TickAnalysis &analysis, const ReportOptions &options,
                              int64_t firstTs, int64_t lastTs)
{
    TickReport r;
    r.path = trace.meta.path;
    r.uname = trace.meta.uname;
    const EventRoles roles(trace);
    r.evidence = Evidence::of(trace, roles, analysis);
    if (!analysis.localTimerFallback)
        r.tickTimer = "hrtimer " + analysis.tickFunction;
    else if (!r.evidence.recorded(Figure::Ticks))
        r.tickTimer = "not recorded (no tick hrtimer expiry, no timer interrupt)";
    else if (roles.recorded(Role::HrtimerExpireEntry))
        r.tickTimer = "none traced: timer interrupts (low-res fallback)";
    else
        r.tickTimer = "inferred from timer interrupts (the trace holds no hrtimer expiry)";
    r.polling = std::string(pollingKindName(analysis.polling));
    r.pollingWhy = analysis.pollingWhy;
    r.nohzFullSource = std::string(nohzFullSourceName(analysis.nohzFullSource));
    std::vector<int> full;
    for (size_t c = 0; c < analysis.nohzFull.size(); ++c) {
        if (analysis.nohzFull[c]) full.push_back(static_cast<int>(c));
    }
    r.nohzFullList = formatCpuList(full);
    const bool any = trace.eventCount() > 0;
    r.from = std::max(options.from, any ? firstTs : 0);
    r.to = std::min(options.to, any ? lastTs : 0);
    r.windowSource = options.windowSource;
    r.events = trace.eventCount();
    r.analysisSeconds = analysis.seconds;
    r.threads = analysis.threads;
    r.derivedBytes = analysis.bytes();
    return r;
}

TickReport TickReport::make(const Trace &trace, const TickAnalysis &analysis, const ReportOptions &options)
{
    const bool any = trace.eventCount() > 0;
    TickReport r = header(trace, analysis, options, any ? trace.firstTs() : 0, any ? trace.lastTs() : 0);
    const int64_t end = any ? trace.lastTs() : 0;
    if (options.windowSource == "markers") {
        const auto [first, last] = markers(trace, analysis);
        if (first.cpu >= 0) {
            r.markerFrom = markerText(trace, first);
            r.markerTo = markerText(trace, last);
        }
    }
    const FoldDecisions base = FoldDecisions::of(trace, analysis);

    // The CPUs at once (each reads its own records only), in their order after.
    std::vector<const CpuAnalysis *> chosen;
    for (const CpuAnalysis &c : analysis.cpus)
        if (options.cpus.empty() || std::binary_search(options.cpus.begin(), options.cpus.end(), c.cpu))
            chosen.push_back(&c);
    r.cpus.resize(chosen.size());
    // Work items: each CPU's counts and findings (foldCpu), with its distributions when it has few
    // records; a CPU with many has each distribution as an item of its own, first, so that one busy CPU's
    // report runs on every thread. The distributions go aside and into the CPU reports after.
    struct Item
    {
        size_t k;
        size_t part; // a distribution (fillDistribution), or kDistributions: the counts
    };
    const auto split = [&](size_t k) {
        return chosen[k]->timers.wakeups.size() + chosen[k]->ticks.size() > options.splitRecords;
    };
    std::vector<Item> items;
    for (size_t k = 0; k < chosen.size(); ++k) {
        for (size_t d = 0; split(k) && d < kDistributions; ++d)
            items.push_back({k, d});
    }
    for (size_t k = 0; k < chosen.size(); ++k)
        items.push_back({k, kDistributions});
    std::vector<CpuReport> distributions(chosen.size()); // only their distributions are written
    std::vector<std::vector<Finding>> findings(chosen.size());
    parallelFor(items.size(), std::max(analysis.threads, 1), [&](size_t item) {
        const size_t k = items[item].k;
        const CpuAnalysis &c = *chosen[k];
        if (items[item].part < kDistributions) {
            std::vector<int32_t> v;
            fillDistribution(trace, c, r.from, r.to, items[item].part, distributions[k], v);
            return;
        }
        r.cpus[k] = foldCpu(trace, analysis, c, base, r, options, end, findings[k]);
        if (!split(k)) {
            std::vector<int32_t> v; // one buffer through all: a busy CPU has a wakeup per ~9 events
            for (size_t d = 0; d < kDistributions; ++d)
                fillDistribution(trace, c, r.from, r.to, d, distributions[k], v);
        }
    });
    for (size_t k = 0; k < chosen.size(); ++k) {
        for (size_t d = 0; d < kDistributions; ++d)
            cpuDistribution(r.cpus[k], d) = cpuDistribution(distributions[k], d);
        for (Finding &f : findings[k])
            r.findings.push_back(std::move(f));
    }
    sortFindings(r.findings);
    if (!trace.functions.empty() || !options.functions.empty())
        r.functions = std::make_shared<const FunctionReport>(
            makeFunctionReport(trace, &analysis, options.functions, options.cpus, options.from, options.to));
    return r;
}

} // namespace tickscope
