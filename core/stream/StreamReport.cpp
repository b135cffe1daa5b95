#include "StreamReport.h"

#include "ReportFold.h"
#include "analysis/CpuPass.h"
#include "analysis/EventRoles.h"
#include "analysis/FunctionReport.h"
#include "import/TraceDatStream.h"
#include "util/Cancel.h"
#include "util/Parallel.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>

namespace tickscope {

namespace {

// The report from the analysis' records through one CpuFold per CPU.
TickReport foldedReport(const Trace &trace, const TickAnalysis &analysis, const ReportOptions &options,
                        size_t exactValues)
{
    // The header as TickReport::make gives it, without its CPUs and findings.
    ReportOptions none = options;
    none.cpus = {-1};
    TickReport r = TickReport::make(trace, analysis, none);
    r.cpus.clear();
    r.findings.clear();
    if (r.functions)
        r.functions = std::make_shared<const FunctionReport>(
            makeFunctionReport(trace, &analysis, options.functions, options.cpus, options.from, options.to));
    const int64_t end = trace.eventCount() ? trace.lastTs() : 0;
    FoldDecisions base;
    base.fallback = analysis.localTimerFallback;
    for (const CpuAnalysis &c : analysis.cpus)
        base.startsSeen |= c.evidence.hrtimerStarts > 0;
    base.polling = analysis.polling;
    base.preemptRt = trace.meta.uname.find("PREEMPT_RT") != std::string::npos ||
                     trace.meta.kernelRelease.find("-rt") != std::string::npos;
    if (std::sscanf(trace.meta.kernelRelease.c_str(), "%d.%d", &base.release.first, &base.release.second) !=
        2)
        base.release = {0, 0};
    std::vector<Finding> findings;
    for (const CpuAnalysis &c : analysis.cpus) {
        if (!options.cpus.empty() && !std::binary_search(options.cpus.begin(), options.cpus.end(), c.cpu))
            continue;
        const CpuEvents &ev = trace.cpu(c.cpu);
        CpuFold f(c.cpu, r.from, r.to, options.lateWakeupNs, exactValues);
        const auto w = ev.indexRange(r.from, r.to);
        f.events(w.second - w.first);
        for (const LostRange &l : ev.lost)
            f.lost(l);
        for (const TickRecord &t : c.ticks) {
            bool afterPoll = false;
            size_t exit = 0;
            const size_t ch = c.task.changeAt(t.index);
            if (ch != ChangeLane::npos) {
                size_t k = ch;
                int limit = 16;
                while (k != ChangeLane::npos && k > 0 && limit-- > 0) {
                    const TaskState s = StateCode::taskState(c.task.code(k));
                    if (s == TaskState::Poll || s == TaskState::Idle) break;
                    --k;
                }
                afterPoll = StateCode::taskState(c.task.code(k)) == TaskState::Poll;
                exit = k;
            }
            f.tick(ev.ts(t.index), t, analysis.localTimerFallback, afterPoll, exit);
        }
        for (const TickLaneChange &l : c.tickLane.changes())
            f.tickLane(ev.ts(l.index), l.state);
        c.task.forEach([&](size_t i, uint8_t code) {
            f.polling(ev.ts(i), StateCode::taskState(code) == TaskState::Poll);
        });
        for (const FailedStop &s : c.failedStops)
            f.failedStop(ev.ts(s.index), s);
        for (const TimerSoftirq &s : c.timers.timerSoftirqs)
            f.timerSoftirq(ev.ts(s.entry), s);
        for (const LongSoftirq &l : c.timers.longSoftirqs)
            f.longSoftirq(ev.ts(l.entry), l);
        for (size_t k = 0; k < c.timers.wakeups.size(); ++k)
            f.wakeup(ev.ts(c.timers.wakeups[k].index), c.timers.wakeups[k]);
        for (size_t k = 0; k < c.timers.otherLateness.size(); ++k)
            f.otherLateness(ev.ts(c.timers.otherLateness[k].index), c.timers.otherLateness[k].latenessNs);
        for (const WakeupBatch &b : c.timers.batches)
            f.batch(ev.ts(b.first), b);
        FoldDecisions d = base;
        d.nohzFull = analysis.isNohzFull(c.cpu);
        d.nohzFullWhy = analysis.nohzFullWhy[static_cast<size_t>(c.cpu)];
        d.switchesIntoIdle = c.evidence.switchesIntoIdle;
        d.switchesOutOfIdle = c.evidence.switchesOutOfIdle;
        r.cpus.push_back(f.finish(d, end, ev.empty() ? 0 : ev.ts(ev.size() - 1), findings));
        if (f.binned()) r.binnedValues = exactValues;
    }
    std::stable_sort(findings.begin(), findings.end(), [](const Finding &a, const Finding &b) {
        if (a.kind != b.kind) return a.kind < b.kind;
        if (a.count != b.count) return a.count > b.count;
        return a.cpu < b.cpu;
    });
    r.findings = std::move(findings);
    return r;
}

} // namespace

StreamResult streamReport(const std::string &path, const StreamOptions &options)
{
    const auto t0 = std::chrono::steady_clock::now();
    TraceDatStream stream(path, options.load);
    const Trace &trace = stream.trace();
    if (options.opened) options.opened(trace);
    const int n = trace.cpuCount();
    const int threads = std::clamp(defaultThreads(options.analysis.threads), 1, std::max(n, 1));
    EventRoles roles(trace);
    std::vector<CpuAnalysis> cpus(static_cast<size_t>(n));
    std::vector<std::unique_ptr<CpuPass>> passes;
    for (int c = 0; c < n; ++c) {
        passes.push_back(std::make_unique<CpuPass>(trace, roles, c, cpus[static_cast<size_t>(c)]));
        passes.back()->start(0);
    }
    StreamResult r;
    const int64_t slice = std::max<int64_t>(options.sliceNs, 1);
    for (;;) {
        const int64_t t = stream.nextPageTs();
        if (t == INT64_MAX) break;
        stream.decodeThrough(t > INT64_MAX - slice ? INT64_MAX : t + slice - 1);
        ++r.steps;
        roles.refresh(trace);
        parallelFor(passes.size(), threads, [&](size_t c) {
            throwIfCancelled(options.analysis.cancel);
            passes[c]->advance();
        });
    }
    stream.finish();
    for (auto &p : passes)
        p->finish();
    passes.clear();
    TickAnalysis analysis = TickAnalysis::fromPasses(trace, roles, std::move(cpus), options.analysis);
    analysis.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    ReportOptions ro = options.report;
    if (options.markers) {
        const auto span = markerWindow(trace, analysis);
        if (!span) throw LoadError(path + ": --markers: the trace has fewer than two ftrace print markers");
        ro.from = span->first;
        ro.to = span->second;
        ro.windowSource = "markers";
    }
    r.report = foldedReport(trace, analysis, ro, options.exactValues);
    r.warnings = trace.warnings;
    return r;
}

} // namespace tickscope
