#include "StreamReport.h"

#include "ReportFold.h"
#include "analysis/CpuPass.h"
#include "analysis/CrossCpuModes.h"
#include "analysis/EventRoles.h"
#include "analysis/FindingText.h"
#include "analysis/HrtimerPairing.h"
#include "analysis/WakeupLatency.h"
#include "import/TraceDatStream.h"
#include "util/Cancel.h"
#include "util/Parallel.h"

#include "util/ProcessStats.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <stdexcept>

namespace tickscope {

namespace {

constexpr size_t npos = static_cast<size_t>(-1);

// What a tick needs from the task lane for the spurious-user pattern, found while the lane around it is
// in memory: whether the task came back from polling idle, and which polling stretch that was.
struct TickInfo
{
    int64_t ts;
    bool afterPoll;
    size_t exit;
};

// One CPU's records on their way into its fold: each kind taken in order once final (the steps across
// CPUs done, no later decision of the pass can change it), after which its events can go.
struct CpuStream
{
    explicit CpuStream(CpuFold f) : fold(std::move(f)) {}
    CpuFold fold;
    size_t counted = 0;                 // events counted
    size_t lost = 0;                    // lost ranges
    size_t looked = 0, lookedLocal = 0; // ticks / local timer ticks whose TickInfo is known
    std::deque<TickInfo> info, infoLocal;
    size_t ticks = 0, local = 0;                          // folded
    size_t laneChange = 0, laneScan = 0, laneLast = npos; // task-lane cursor: changes seen, next index
    size_t tickLane = 0, failed = 0, softirqs = 0, wakeups = 0, other = 0;
    size_t measured = 0;    // wakeups whose latency is measured
    size_t liveSwitch = 0;  // the first switch record the latency step may still read
    LiveSwitch live{npos};  // that record with its event's time and kind (the event may go)
    size_t batchesSeen = 0; // batches folded (the pass appends them as they close)
    size_t releasedAt = 0;  // events the pass had taken when this CPU's columns were last handed back
    // The switch-ins of the stretches the pass relabelled whose sweep candidate may still be kept.
    std::vector<uint32_t> resolvedOpens;
    // The times of the tick-lane changes not folded yet, and of the event a later expiry may date a
    // restart at, kept aside (index, ts) so that their events can go.
    std::vector<std::pair<uint32_t, int64_t>> laneTs;
};

class Engine
{
public:
    Engine(TraceDatStream &stream, const StreamOptions &o)
        : trace_(stream.trace()), options_(o), roles_(trace_), cpus_(static_cast<size_t>(trace_.cpuCount()))
    {
        const int n = trace_.cpuCount();
        threads_ = std::clamp(defaultThreads(o.analysis.threads), 1, std::max(n, 1));
        for (int c = 0; c < n; ++c) {
            passes_.push_back(std::make_unique<CpuPass>(trace_, roles_, c, cpus_[static_cast<size_t>(c)]));
            passes_.back()->start(0);
            state_.emplace_back(CpuFold(c, o.report.from, o.report.to, o.report.lateWakeupNs, o.exactValues));
            // (from this CPU's pass, or from CrossCpuModes at the end: one thread per CPU's fold)
            cpus_[static_cast<size_t>(c)].relabelled = [this, c](const PendingMode &m, TaskState mode) {
                CpuStream &s = state_[static_cast<size_t>(c)];
                s.fold.stretchResolved(m.root, mode);
                if (m.scheduled) s.resolvedOpens.push_back(m.switchIndex); // only these have a candidate
            };
        }
        opens_.resize(static_cast<size_t>(n));
    }

    // One step: every CPU's events up to t are in (end: all of them).
    void step(int64_t t, bool end)
    {
        roles_.refresh(trace_);
        parallelFor(passes_.size(), threads_, [&](size_t c) {
            throwIfCancelled(options_.analysis.cancel);
            passes_[c]->advance();
        });
        if (end) {
            for (auto &p : passes_)
                p->finish();
            t = INT64_MAX;
        }
        pairing_.through(trace_, cpus_, t, threads_);
        for (size_t c = 0; c < cpus_.size(); ++c) {
            const auto &heads = end ? headsAtEnd_[c] : passes_[c]->scheduledOpens();
            for (size_t k = opens_[c].size(); k < heads.size(); ++k)
                opens_[c].push_back(heads[k]);
        }
        sweep_.through(trace_, roles_, cpus_, opens_, t, candidates_);
        if (!end) forgetResolvedCandidates();
        // (a gap found in the next step may still set a change at the last event taken: two back)
        for (size_t c = 0; c < cpus_.size() && !end; ++c)
            if (const size_t n = passes_[c]->processed(); n >= 2) sweep_.readLaneThrough(c, cpus_[c], n - 2);
        if (end) crossCpuResolved_ = CrossCpuModes::resolve(cpus_, candidates_);
        measure(t, end);
        parallelFor(cpus_.size(), threads_, [&](size_t c) { fold(c, end); });
        if (!end) release();
    }

    // Before the passes finish (they hand their unresolved stretches over and forget the list).
    void keepHeads()
    {
        headsAtEnd_.resize(cpus_.size());
        for (size_t c = 0; c < cpus_.size(); ++c)
            headsAtEnd_[c] = passes_[c]->scheduledOpens();
    }

    TickReport finish(double seconds);
    struct RecordBytes
    {
        size_t taskCodes = 0, taskBits = 0, irq = 0, ticks = 0, lane = 0, softirqs = 0, wakeups = 0, sw = 0,
               other = 0, info = 0;
        size_t total() const
        {
            return taskCodes + taskBits + irq + ticks + lane + softirqs + wakeups + sw + other + info;
        }
    };
    RecordBytes recordBytes() const;
    void debugMemory() const;
    // Ticks the passes took that are not folded yet, and chains of stretches with pending ticks.
    std::pair<uint64_t, uint64_t> heldTicks() const
    {
        uint64_t n = 0, stretches = 0;
        for (size_t c = 0; c < cpus_.size(); ++c) {
            const CpuStream &s = state_[c];
            n += cpus_[c].ticks.size() - std::min(s.ticks, cpus_[c].ticks.size());
            n += cpus_[c].localTimerTicks.size() - std::min(s.local, cpus_[c].localTimerTicks.size());
            stretches += s.fold.pendingChains();
        }
        return {n, stretches};
    }
    size_t candidateCount() const
    {
        size_t n = 0;
        for (const auto &m : candidates_)
            n += m.size();
        return n;
    }
    size_t stretchesKept() const
    {
        size_t n = 0;
        for (const auto &p : passes_)
            n += p->stretchesKept();
        return n;
    }
    uint64_t liveEvents() const
    {
        uint64_t n = 0;
        for (const CpuAnalysis &a : cpus_)
            n += trace_.cpu(a.cpu).size() - trace_.cpu(a.cpu).releasedBefore();
        return n;
    }

private:
    void measure(int64_t t, bool end);
    void keepLiveSwitch(size_t c);
    void fold(size_t c, bool end);
    void foldTickLane(size_t c, size_t done, bool end);
    void lookUpTicks(size_t c, size_t until, bool end);
    void advanceLane(size_t c, size_t through);
    void release();
    void forgetResolvedCandidates();
    size_t eventsNeeded(size_t c) const;

    Trace &trace_;
    const StreamOptions &options_;
    EventRoles roles_;
    std::vector<CpuAnalysis> cpus_;
    std::vector<std::unique_ptr<CpuPass>> passes_;
    std::deque<CpuStream> state_;
    int threads_ = 1;
    IncrementalPairing pairing_;
    SwitchOutSweep sweep_;
    SwitchOutCandidates candidates_;
    std::vector<std::vector<uint32_t>> opens_, headsAtEnd_;
    size_t crossCpuResolved_ = 0;

    std::vector<int64_t> lastOf_; // per CPU: its last event's time

public:
    int64_t firstTs = INT64_MAX, lastTs = INT64_MIN; // over the events seen
    void noteTimes()
    {
        lastOf_.resize(cpus_.size(), 0);
        for (size_t c = 0; c < cpus_.size(); ++c) {
            const CpuEvents &ev = trace_.cpu(cpus_[c].cpu);
            const size_t seen = state_[c].counted;
            if (seen == ev.size() || ev.empty()) continue;
            if (seen == 0) firstTs = std::min(firstTs, ev.ts(0));
            lastOf_[c] = ev.ts(ev.size() - 1);
            lastTs = std::max(lastTs, lastOf_[c]);
        }
    }
};

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
            if (!end &&
                (t0 > t - kMaxWakeupLatencyNs || ev.size() < size_t{w.index} + w.wakeOffset + kWokenByEvents))
                break;
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
    measureWakeupLatency(trace_, cpus_, threads_, ranges, live);
    // The switches the wakeups still to measure may read: from the last one before the oldest (a
    // switch-in at the oldest's very time is one its search may find, and one at or before it tells
    // whether the task was running).
    for (size_t c = 0; c < cpus_.size(); ++c) {
        const Column<SwitchRec> &sw = cpus_[c].timers.switches;
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
    const Column<SwitchRec> &sw = cpus_[c].timers.switches;
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
        TickInfo t{ev.ts(index), false, 0};
        if (s.laneLast == npos) return t;
        size_t k = s.laneLast;
        int limit = 16;
        while (k > 0 && limit-- > 0) {
            const TaskState st = StateCode::taskState(a.task.code(k));
            if (st == TaskState::Poll || st == TaskState::Idle) break;
            --k;
        }
        t.afterPoll = StateCode::taskState(a.task.code(k)) == TaskState::Poll;
        t.exit = k;
        return t;
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
    // events and lost ranges
    if (done > s.counted) {
        const int64_t from = options_.report.from, to = options_.report.to;
        const size_t lo = ev.lowerBound(from, s.counted),
                     hi = to == INT64_MAX ? done : ev.lowerBound(to + 1, s.counted);
        f.events(std::min(hi, done) - std::min(std::max(lo, s.counted), std::min(hi, done)));
        s.counted = done;
    }
    for (; s.lost < ev.lost.size(); ++s.lost)
        f.lost(ev.lost[s.lost]);
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
    for (; s.failed < a.failedStops.size(); ++s.failed)
        f.failedStop(ev.ts(a.failedStops[s.failed].index), a.failedStops[s.failed]);
    const size_t openSoftirq = end ? npos : p.openTimerSoftirq();
    for (; s.softirqs < a.timers.timerSoftirqs.size() && s.softirqs != openSoftirq; ++s.softirqs)
        f.timerSoftirq(ev.ts(a.timers.timerSoftirqs[s.softirqs].entry), a.timers.timerSoftirqs[s.softirqs]);
    // long softirqs come as they close: folded ones are dropped
    for (const LongSoftirq &l : a.timers.longSoftirqs)
        f.longSoftirq(ev.ts(l.entry), l);
    a.timers.longSoftirqs.clear();
    for (; s.wakeups < s.measured; ++s.wakeups)
        f.wakeup(ev.ts(a.timers.wakeups[s.wakeups].index), a.timers.wakeups[s.wakeups]);
    for (const size_t paired = pairing_.paired(c, 2); s.other < paired; ++s.other)
        f.otherLateness(ev.ts(a.timers.otherLateness[s.other].index),
                        a.timers.otherLateness[s.other].latenessNs);
    // batches come as they close (the pass sorts what is left at its end); folded ones are dropped
    for (const WakeupBatch &b : a.timers.batches)
        f.batch(ev.ts(b.first), b);
    a.timers.batches.clear();
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
    for (; s.tickLane < lane.size() &&
           (end || (s.tickLane + 2 < lane.size() && size_t{lane[s.tickLane].index} + 1 < done));
         ++s.tickLane)
        s.fold.tickLane(tsOf(lane[s.tickLane].index), lane[s.tickLane].state);
    std::vector<std::pair<uint32_t, int64_t>> keep;
    for (size_t k = s.tickLane; k < lane.size(); ++k)
        if (size_t{lane[k].index} + 1 < done) keep.emplace_back(lane[k].index, tsOf(lane[k].index));
    if (const size_t at = tl.pendingRestart(); at != TickLane::npos && at + 1 < done)
        keep.emplace_back(static_cast<uint32_t>(at), tsOf(static_cast<uint32_t>(at)));
    s.laneTs = std::move(keep);
}

size_t Engine::eventsNeeded(size_t c) const
{
    const CpuStream &s = state_[c];
    const CpuAnalysis &a = cpus_[c];
    const CpuPass &p = *passes_[c];
    size_t need = p.processed() ? p.processed() - 1 : 0;
    need = std::min(need, s.counted);
    need = std::min(need, p.firstOpenEvent());
    // records not folded yet read their events' times
    if (s.looked < a.ticks.size()) need = std::min<size_t>(need, a.ticks[s.looked].index);
    if (s.lookedLocal < a.localTimerTicks.size())
        need = std::min<size_t>(need, a.localTimerTicks[s.lookedLocal].index);
    // (the tick lane's changes not folded yet: their times are kept aside, but for those at the last event
    // taken, which is held above; and a tick whose re-arm the next event decides: the lane may date a
    // change back at its expiry)
    if (const size_t k = p.firstUndecidedTick(); k < a.ticks.size())
        need = std::min<size_t>(need, a.ticks[k].index);
    if (s.laneScan < need) need = s.laneScan;
    if (s.failed < a.failedStops.size()) need = std::min<size_t>(need, a.failedStops[s.failed].index);
    if (s.softirqs < a.timers.timerSoftirqs.size())
        need = std::min<size_t>(need, a.timers.timerSoftirqs[s.softirqs].entry);
    if (s.wakeups < a.timers.wakeups.size()) need = std::min<size_t>(need, a.timers.wakeups[s.wakeups].index);
    if (s.other < a.timers.otherLateness.size())
        need = std::min<size_t>(need, a.timers.otherLateness[s.other].index);
    // the pairing's next start and expiries, the sweep's next switch, the latency step's switches
    const Column<SwitchRec> &sw = a.timers.switches;
    // (the first one's time and kind are kept aside once it is the first)
    const size_t firstRead = s.live.record == s.liveSwitch ? s.liveSwitch + 1 : s.liveSwitch;
    if (firstRead < sw.size()) need = std::min<size_t>(need, sw[firstRead].index);
    const size_t taken = sweep_.switchesTaken(c);
    if (taken < sw.size()) need = std::min<size_t>(need, sw[taken].index);
    need = std::min(need, pairing_.nextStart(c));
    if (const size_t k = pairing_.paired(c, 1); k < a.ticks.size())
        need = std::min<size_t>(need, a.ticks[k].index);
    if (const size_t k = sweep_.opensTaken(c); k < opens_[c].size())
        need = std::min<size_t>(need, opens_[c][k]);
    return need;
}

void Engine::forgetResolvedCandidates()
{
    // The step across CPUs at the end reads the candidates of the stretches still unknown then: a
    // relabelled stretch's goes once the sweep has made it (one in every first switch-in of a task on a
    // CPU, or migration, for as long as the stream runs).
    for (size_t c = 0; c < cpus_.size(); ++c) {
        std::vector<uint32_t> &resolved = state_[c].resolvedOpens;
        if (resolved.empty()) continue;
        const auto notTaken = opens_[c].begin() + static_cast<std::ptrdiff_t>(sweep_.opensTaken(c));
        size_t kept = 0;
        for (const uint32_t at : resolved) {
            if (candidates_[c].erase(at)) continue;
            if (std::binary_search(notTaken, opens_[c].end(), at)) resolved[kept++] = at; // not swept yet
        }
        resolved.resize(kept);
    }
}

void Engine::release()
{
    // A CPU's columns are handed back together, once its pass has taken kReleaseEvery events since the
    // last time: each hand-back is an madvise that flushes the TLB of every CPU the threads ran on, and
    // a column that grows a page a step would otherwise make one per step (62,842 calls, 2.2 s of
    // system time, on a 40-CPU 21 M-event trace).
    constexpr size_t kReleaseEvery = 4096;
    for (size_t c = 0; c < cpus_.size(); ++c) {
        CpuStream &s = state_[c];
        if (passes_[c]->processed() < s.releasedAt + kReleaseEvery) continue;
        s.releasedAt = passes_[c]->processed();
        CpuEvents &ev = trace_.cpu(cpus_[c].cpu);
        const size_t need = eventsNeeded(c);
        if (need > ev.releasedBefore()) ev.releaseBefore(need);
        CpuTimers &tm = cpus_[c].timers;
        tm.wakeups.releaseBefore(std::min(s.wakeups, pairing_.paired(c, 0)));
        tm.otherLateness.releaseBefore(s.other);
        tm.timerSoftirqs.releaseBefore(s.softirqs);
        tm.switches.releaseBefore(std::min(s.liveSwitch, sweep_.switchesTaken(c)));
        CpuAnalysis &a = cpus_[c];
        a.ticks.releaseBefore(s.ticks);
        a.localTimerTicks.releaseBefore(s.local);
        // The lanes' bitmaps behind their readers, and their codes. The task lane's codes behind the
        // spurious-user look-back (16 changes) and the sweep's last change; the mode-unknown ones are kept
        // apart (a task's mode found later, here or from another CPU, relabels them; the sweep's candidates
        // read them at the end). While the idle task's first change may still be relabelled, none go.
        const size_t done = passes_[c]->processed();
        size_t codes = s.laneLast == npos ? 0 : s.laneLast - std::min<size_t>(s.laneLast, 16);
        const size_t seen = sweep_.laneChangesSeen(c);
        codes = std::min(codes, seen ? seen - 1 : 0);
        if (passes_[c]->idleUnknown()) codes = 0;
        a.task.releaseKeeping(std::min({s.laneScan, sweep_.laneScanned(c), done}), codes,
                              StateCode::task(TaskState::Unknown),
                              StateCode::task(TaskState::Unknown, StateCode::kDetailLost));
        a.irq.releaseBefore(done, a.irq.changes() > 64 ? a.irq.changes() - 64 : 0);
    }
}

Engine::RecordBytes Engine::recordBytes() const
{
    // Bytes not handed back yet (released heads read as zeros and hold no memory).
    RecordBytes b;
    for (size_t c = 0; c < cpus_.size(); ++c) {
        const CpuAnalysis &a = cpus_[c];
        b.taskCodes += a.task.liveCodeBytes();
        b.taskBits += a.task.liveBitBytes();
        b.irq += a.irq.liveCodeBytes() + a.irq.liveBitBytes();
        b.ticks += a.ticks.liveBytes() + a.localTimerTicks.liveBytes();
        b.lane += a.tickLane.bytes();
        b.softirqs +=
            a.timers.timerSoftirqs.liveBytes() + a.timers.longSoftirqs.capacity() * sizeof(LongSoftirq);
        b.wakeups += a.timers.wakeups.liveBytes();
        b.sw += a.timers.switches.liveBytes();
        b.other += a.timers.otherLateness.liveBytes();
        b.info += (state_[c].info.size() + state_[c].infoLocal.size()) * sizeof(TickInfo);
    }
    return b;
}

void Engine::debugMemory() const
{
    const RecordBytes b = recordBytes();
    size_t foldBytes = 0;
    for (const CpuStream &s : state_)
        foldBytes += s.fold.bytes();
    std::fprintf(
        stderr,
        "stream: rss %.1f MB; task codes %.1f MB, task bits %.1f MB, irq lanes %.1f MB, ticks %.1f MB, "
        "tick info %.1f MB, tick lanes %.1f MB, softirqs %.1f MB, wakeups %.1f MB, switches %.1f MB, "
        "lateness %.1f MB; folds %.1f MB; live events %zu; names %zu; pending chains %zu; candidates %zu\n",
        static_cast<double>(currentRssBytes()) / 1e6, b.taskCodes / 1e6, b.taskBits / 1e6, b.irq / 1e6,
        b.ticks / 1e6, b.info / 1e6, b.lane / 1e6, b.softirqs / 1e6, b.wakeups / 1e6, b.sw / 1e6,
        b.other / 1e6, static_cast<double>(foldBytes) / 1e6, static_cast<size_t>(liveEvents()),
        trace_.tasks.entries().size(), static_cast<size_t>(heldTicks().second), candidateCount());
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
    FoldDecisions base;
    base.fallback = analysis.localTimerFallback;
    for (const CpuAnalysis &c : analysis.cpus)
        base.startsSeen |= c.evidence.hrtimerStarts > 0;
    base.polling = analysis.polling;
    base.preemptRt = findingtext::preemptRt(trace_);
    base.release = findingtext::releaseVersion(trace_);
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
        r.cpus.push_back(f.finish(d, lastTs == INT64_MIN ? 0 : lastTs,
                                  ev.empty() ? 0 : lastOf_[static_cast<size_t>(c.cpu)], findings));
        if (f.binned()) r.binnedValues = options_.exactValues;
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
    engine.keepHeads();
    engine.step(INT64_MAX, true);
    if (!trace.functions.empty())
        throw LoadError(path + ": the trace has function_graph records, whose report needs the whole trace: "
                               "report it without --stream");
    r.report = engine.finish(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    r.warnings = trace.warnings;
    return r;
}

} // namespace

} // namespace tickscope
