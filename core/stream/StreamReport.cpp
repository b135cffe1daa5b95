// SPDX-License-Identifier: GPL-3.0-or-later
// `report --stream`: the engine's steps and folds (StreamEngine.h), and the loop over the file.
#include "StreamEngine.h"

#include "report/FindingText.h"
#include "util/ProcessStats.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace tickscope {

namespace streamdetail {

void Engine::measure(int64_t t, bool end)
{
    // A wakeup's latency is final once every CPU holds its events to 100 ms after it, its own CPU the
    // events that may name its target, and its expiry is closed.
    std::vector<std::pair<size_t, size_t>> ranges(cpus_.size());
    int64_t oldest = INT64_MAX;
    for (size_t c = 0; c < cpus_.size(); ++c) {
        CpuStream &s = state_[c];
        const CpuTimers &tm = cpus_[c].timers;
        const CpuEvents &ev = trace_.cpu(cpus_[c].cpu);
        size_t j = s.measured;
        const size_t open = end ? tm.wakeups.size() : passes_[c]->firstOpenWakeup();
        const size_t paired = pairing_.paired(c, 0);
        while (j < tm.wakeups.size() && j < open && j < paired) {
            const HrtimerWakeup &w = tm.wakeups[j];
            const int64_t t0 = ev.ts(w.index);
            if (!end && (t0 > t - kMaxWakeupLatencyNs || !wokenByFinal(trace_, ev, w))) break;
            ++j;
        }
        ranges[c] = {s.measured, j};
        s.measured = j;
        if (j < tm.wakeups.size()) oldest = std::min(oldest, ev.ts(tm.wakeups[j].index));
    }
    std::vector<LiveSwitch> live(cpus_.size());
    for (size_t c = 0; c < cpus_.size(); ++c) {
        keepLiveSwitch(c);
        live[c] = state_[c].live;
        live[c].record = state_[c].liveSwitch;
    }
    measureWakeupLatency(trace_, cpus_, threads_, ranges, live, darkFrom_);
    // The switches the wakeups still to measure may read: from the last one before the oldest (a
    // switch-in at the oldest's very time is one its search may find, and one at or before it tells
    // whether the task was running).
    for (size_t c = 0; c < cpus_.size(); ++c) {
        const SwitchRecords &sw = cpus_[c].timers.switches;
        const CpuEvents &ev = trace_.cpu(cpus_[c].cpu);
        size_t &k = state_[c].liveSwitch;
        while (k + 1 < sw.size() && ev.ts(sw[k + 1].index) < oldest && k + 1 < sweep_.switchesTaken(c))
            ++k;
        keepLiveSwitch(c);
    }
}

void Engine::keepLiveSwitch(size_t c)
{
    // While the record is new its event is still in memory (eventsNeeded keeps it until this is done).
    CpuStream &s = state_[c];
    const SwitchRecords &sw = cpus_[c].timers.switches;
    if (s.live.record == s.liveSwitch || s.liveSwitch >= sw.size()) return;
    const CpuEvents &ev = trace_.cpu(cpus_[c].cpu);
    const uint32_t i = sw[s.liveSwitch].index;
    s.live = {s.liveSwitch, ev.ts(i), trace_.kind(ev.type(i)) == EventKind::SchedSwitch};
}

void Engine::advanceLane(size_t c, size_t through)
{
    CpuStream &s = state_[c];
    const ChangeLane &lane = cpus_[c].task;
    const CpuEvents &ev = trace_.cpu(cpus_[c].cpu);
    if (s.laneScan > through) return;
    lane.forEachFrom(s.laneChange, s.laneScan, through, [&](size_t i, uint8_t code) {
        s.laneLast = s.laneChange++;
        s.laneScan = i + 1;
        s.fold.polling(ev.ts(i), StateCode::taskState(code) == TaskState::Poll);
    });
    s.laneScan = std::max(s.laneScan, through + 1);
}

void Engine::lookUpTicks(size_t c, size_t until, bool end)
{
    // The spurious-user look-back reads the 17 task-lane changes up to the tick's: it waits while the pass
    // may still relabel the idle task's change there (a cpuidle state the trace began in).
    if (!end && passes_[c]->idleUnknown()) return;
    CpuStream &s = state_[c];
    const CpuAnalysis &a = cpus_[c];
    const CpuEvents &ev = trace_.cpu(a.cpu);
    auto info = [&](uint32_t index) {
        advanceLane(c, index);
        const PollExit p = pollExitAt(a.task, s.laneLast); // (laneLast: npos before the first change)
        return TickInfo{ev.ts(index), p.afterPoll, p.exit};
    };
    for (;;) {
        const bool hasT = s.looked < a.ticks.size() && a.ticks[s.looked].index < until;
        const bool hasL =
            s.lookedLocal < a.localTimerTicks.size() && a.localTimerTicks[s.lookedLocal].index < until;
        if (!hasT && !hasL) break;
        if (hasT && (!hasL || a.ticks[s.looked].index <= a.localTimerTicks[s.lookedLocal].index)) {
            s.info.push_back(info(a.ticks[s.looked++].index));
        } else {
            s.infoLocal.push_back(info(a.localTimerTicks[s.lookedLocal++].index));
        }
    }
    if (s.lookedLocal > a.localTimerTicks.size()) { // dropped: the CPU has a tick hrtimer
        s.lookedLocal = s.local = a.localTimerTicks.size();
        s.infoLocal.clear();
    }
    if (until) advanceLane(c, until - 1);
}

void Engine::fold(size_t c, bool end)
{
    CpuStream &s = state_[c];
    CpuAnalysis &a = cpus_[c];
    const CpuEvents &ev = trace_.cpu(a.cpu);
    CpuPass &p = *passes_[c];
    const size_t done = end ? ev.size() : p.processed();
    CpuFold &f = s.fold;
    // events (the lost ranges are folded at the end, against the window clamped to the trace)
    if (done > s.counted) {
        const int64_t from = options_.report.from, to = options_.report.to;
        const size_t lo = ev.lowerBound(from, s.counted),
                     hi = to == INT64_MAX ? done : ev.lowerBound(to + 1, s.counted);
        f.events(std::min(hi, done) - std::min(std::max(lo, s.counted), std::min(hi, done)));
        s.counted = done;
    }
    if (done == 0) return;
    // The task lane is read two events behind the pass: a gap found in the next step (its lost-events
    // flag is on the page after) marks the last event taken here with a change of its own.
    lookUpTicks(c, end ? done : done - 1, end);
    // ticks: paired, their periodic flag decided (one whose context is Unknown may still be relabelled
    // when its task's mode shows, here or from another CPU: folded as pending, by stretch)
    const size_t decided = end ? a.ticks.size() : std::min(p.firstUndecidedTick(), pairing_.paired(c, 1));
    auto take = [&](const TickRecord &r, size_t k, bool local, const TickInfo &t) {
        const PendingMode *m =
            !end && r.context == TickContext::Unknown ? p.unresolvedStretchOf(k, local) : nullptr;
        f.tick(t.ts, r, local, t.afterPoll, t.exit, m ? m->root : CpuFold::kFinal);
    };
    for (; s.ticks < std::min(decided, s.looked); ++s.ticks) {
        take(a.ticks[s.ticks], s.ticks, false, s.info.front());
        s.info.pop_front();
    }
    for (; s.local < std::min(a.localTimerTicks.size(), s.lookedLocal); ++s.local) {
        take(a.localTimerTicks[s.local], s.local, true, s.infoLocal.front());
        s.infoLocal.pop_front();
    }
    foldTickLane(c, done, end);
    // failed stops are final as the pass finds them: folded ones are dropped
    for (const FailedStop &x : a.failedStops)
        f.failedStop(ev.ts(x.index), x);
    a.failedStops.clear();
    const size_t openSoftirq = end ? npos : p.openTimerSoftirq();
    for (; s.softirqs < a.timers.timerSoftirqs.size() && s.softirqs != openSoftirq; ++s.softirqs)
        f.timerSoftirq(ev.ts(a.timers.timerSoftirqs[s.softirqs].entry), a.timers.timerSoftirqs[s.softirqs]);
    // long softirqs come as they close: folded ones are dropped
    for (const LongSoftirq &l : a.timers.longSoftirqs)
        f.longSoftirq(ev.ts(l.entry), l);
    a.timers.longSoftirqs.clear();
    for (; s.wakeups < s.measured; ++s.wakeups) {
        const HrtimerWakeup &w = a.timers.wakeups[s.wakeups];
        f.wakeup(ev.ts(w.index), w, a.timers.softLateness->of(w));
    }
    for (const size_t paired = pairing_.paired(c, 2); s.other < paired; ++s.other)
        f.otherLateness(ev.ts(a.timers.otherLateness[s.other].index),
                        a.timers.otherLateness[s.other].latenessNs);
    // batches come as they close (the pass sorts what is left at its end); folded ones are dropped
    for (const WakeupBatch &b : a.timers.batches)
        f.batch(ev.ts(b.first), b);
    a.timers.batches.clear();
    for (const RtDelay &d : a.timers.rtDelays)
        f.rtDelay(ev.ts(d.first), d);
    a.timers.rtDelays.clear();
}

void Engine::foldTickLane(size_t c, size_t done, bool end)
{
    // The lane revises its tail: an expiry re-dates the last change, rewrites an Unknown one, or drops a
    // restart it had inferred, long after the change began. A change is folded once two more follow it,
    // which none of these reach, and once the pass is two events past it (a gap found in the next step
    // resets the lane at the last event taken here).
    CpuStream &s = state_[c];
    const CpuEvents &ev = trace_.cpu(cpus_[c].cpu);
    const TickLane &tl = cpus_[c].tickLane;
    const auto &lane = tl.changes();
    auto tsOf = [&](uint32_t index) {
        for (const auto &[i, ts] : s.laneTs)
            if (i == index) return ts;
        // a change of this step's events, or one the events still held reach
        if (index < ev.releasedBefore())
            throw std::logic_error("CPU " + std::to_string(cpus_[c].cpu) +
                                   ": the tick lane's change at event " + std::to_string(index) +
                                   " was read after its events were handed back");
        return ev.ts(index);
    };
    // (s.tickLane counts every change folded; the lane drops the ones the fold is past)
    const size_t base = tl.dropped(), total = base + lane.size();
    for (; s.tickLane < total &&
           (end || (s.tickLane + 2 < total && size_t{lane[s.tickLane - base].index} + 1 < done));
         ++s.tickLane)
        s.fold.tickLane(tsOf(lane[s.tickLane - base].index), lane[s.tickLane - base].state);
    std::vector<std::pair<uint32_t, int64_t>> keep;
    for (size_t k = s.tickLane - base; k < lane.size(); ++k)
        if (size_t{lane[k].index} + 1 < done) keep.emplace_back(lane[k].index, tsOf(lane[k].index));
    if (const size_t at = tl.pendingRestart(); at != TickLane::npos && at + 1 < done)
        keep.emplace_back(static_cast<uint32_t>(at), tsOf(static_cast<uint32_t>(at)));
    s.laneTs = std::move(keep);
    cpus_[c].tickLane.dropBefore(s.tickLane);
}

TickReport Engine::finish(double seconds)
{
    if (std::getenv("TICKSCOPE_STREAM_DEBUG")) debugMemory();
    // The decisions across CPUs, from the evidence the passes gathered (their records are folded).
    // (their ticks are folded: the decisions would rewrite every one, faulting the released pages back in)
    for (CpuAnalysis &c : cpus_) {
        c.relabelled = nullptr;
        c.pendingModes.clear();
        c.ticks = {};
        c.localTimerTicks = {};
    }
    TickAnalysis analysis =
        TickAnalysis::fromPasses(trace_, roles_, std::move(cpus_), options_.analysis, true);
    analysis.crossCpuResolved = crossCpuResolved_;
    analysis.seconds = seconds;
    const ReportOptions &o = options_.report;
    TickReport r = TickReport::header(trace_, analysis, o, firstTs, lastTs);
    r.derivedBytes = 0;
    const FoldDecisions base = FoldDecisions::of(trace_, analysis);
    std::vector<Finding> findings;
    for (const CpuAnalysis &c : analysis.cpus) {
        if (!o.cpus.empty() && !std::binary_search(o.cpus.begin(), o.cpus.end(), c.cpu)) continue;
        const CpuEvents &ev = trace_.cpu(c.cpu);
        FoldDecisions d = base;
        d.nohzFull = analysis.isNohzFull(c.cpu);
        d.nohzFullWhy = analysis.nohzFullWhy[static_cast<size_t>(c.cpu)];
        d.switchesIntoIdle = c.evidence.switchesIntoIdle;
        d.switchesOutOfIdle = c.evidence.switchesOutOfIdle;
        CpuFold &f = state_[static_cast<size_t>(c.cpu)].fold;
        f.setWindow(r.from, r.to);
        for (const LostRange &l : ev.lost)
            f.lost(l);
        r.cpus.push_back(f.finish(d, lastTs == INT64_MIN ? 0 : lastTs,
                                  ev.empty() ? 0 : lastOf_[static_cast<size_t>(c.cpu)], findings));
        if (f.binned()) r.binnedValues = options_.exactValues;
    }
    sortFindings(findings);
    r.findings = std::move(findings);
    return r;
}

} // namespace streamdetail

namespace {
StreamResult streamed(const std::string &path, const StreamOptions &options);
}

StreamResult streamReport(const std::string &path, const StreamOptions &options)
{
    // As a load: every failure reaches the user as one LoadError naming the file; anything else thrown
    // is a defect of ours (the fuzz target looks for it).
    try {
        return streamed(path, options);
    } catch (const LoadError &) {
        throw;
    } catch (const Cancelled &) {
        throw;
    } catch (const std::bad_alloc &) {
        throw LoadError(path + ": not enough memory to stream it (" +
                        std::to_string(currentRssBytes() >> 20) + " MiB in use)");
    } catch (const std::exception &) {
        throw LoadError(path + ": " + kUnexpectedContent);
    }
}

namespace {

StreamResult streamed(const std::string &path, const StreamOptions &options)
{
    using streamdetail::Engine;
    const auto t0 = std::chrono::steady_clock::now();
    if (options.markers)
        throw LoadError(path + ": --stream reads the file once and needs its window before it starts; the "
                               "print markers' window is known only at its end (give it as --window A:B)");
    // Thousands of steps, each a few parallel loops: on threads that wait between them.
    const int threads = defaultThreads(options.analysis.threads);
    WorkerPool pool(threads);
    const ScopedPool scoped(pool, threads);
    TraceDatStream stream(path, options.load);
    const Trace &trace = stream.trace();
    if (options.opened) options.opened(trace);
    Engine engine(stream, options);
    StreamResult r;
    const int64_t slice = std::max<int64_t>(options.sliceNs, 1);
    for (;;) {
        const int64_t t = stream.nextPageTs();
        if (t == INT64_MAX) break;
        const int64_t to = t > INT64_MAX - slice ? INT64_MAX : t + slice - 1;
        stream.decodeThrough(to);
        if (stream.functionGraphSeen())
            throw LoadError(path + ": the trace has function_graph records, whose report needs the whole "
                                   "trace: report it without --stream");
        ++r.steps;
        engine.noteTimes();
        engine.step(to, false);
        r.maxLiveEvents = std::max(r.maxLiveEvents, engine.liveEvents());
        const auto [held, pending] = engine.heldTicks();
        r.maxHeldTicks = std::max(r.maxHeldTicks, held);
        r.maxPendingChains = std::max(r.maxPendingChains, pending);
        r.maxRecordBytes = std::max<uint64_t>(r.maxRecordBytes, engine.recordBytes().total());
        r.maxCandidates = std::max<uint64_t>(r.maxCandidates, engine.candidateCount());
        r.maxStretches = std::max<uint64_t>(r.maxStretches, engine.stretchesKept());
        if (std::getenv("TICKSCOPE_STREAM_DEBUG") && r.steps % 200 == 0) engine.debugMemory();
    }
    stream.finish();
    engine.noteTimes();
    engine.step(INT64_MAX, true);
    r.report = engine.finish(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    r.warnings = trace.warnings;
    return r;
}

} // namespace

} // namespace tickscope
