// SPDX-License-Identifier: GPL-3.0-or-later
// `report --stream`'s engine, shared by StreamReport.cpp (the steps and the folds) and StreamRelease.cpp
// (what each CPU still holds and hands back): each CPU's pass, the steps across CPUs, and the records
// on their way into each CPU's fold.
#pragma once

#include "StreamReport.h"
#include "analysis/CpuPass.h"
#include "analysis/CrossCpuModes.h"
#include "analysis/EventRoles.h"
#include "analysis/HrtimerPairing.h"
#include "analysis/Migrations.h"
#include "analysis/WakeupLatency.h"
#include "import/TraceDatStream.h"
#include "report/CpuFold.h"
#include "util/Cancel.h"
#include "util/Parallel.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <vector>

namespace tickscope::streamdetail {

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
    size_t looked = 0, lookedLocal = 0; // ticks / local timer ticks whose TickInfo is known
    std::deque<TickInfo> info, infoLocal;
    size_t ticks = 0, local = 0;                          // folded
    size_t laneChange = 0, laneScan = 0, laneLast = npos; // task-lane cursor: changes seen, next index
    size_t tickLane = 0, softirqs = 0, wakeups = 0, other = 0;
    size_t measured = 0;   // wakeups whose latency is measured
    size_t liveSwitch = 0; // the first switch record the latency step may still read
    LiveSwitch live{npos}; // that record with its event's time and kind (the event may go)
    size_t releasedAt = 0; // events the pass had taken when this CPU's columns were last handed back
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
        : stream_(stream), trace_(stream.trace()), options_(o), roles_(trace_),
          cpus_(static_cast<size_t>(trace_.cpuCount()))
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
                if (m.head) s.resolvedOpens.push_back(m.switchIndex); // only these have a candidate
            };
        }
        opens_.resize(static_cast<size_t>(n));
    }

    // One step: every CPU's events up to t are in (end: all of them).
    void step(int64_t t, bool end)
    {
        roles_.refresh(trace_);
        // CPUs still losing events (the page after the gap is not read yet): the sweep and the wakeup
        // latency take the earliest, the pairing the ones after a CPU's first event (gaps that open a CPU's
        // data, it leaves alone, as a whole load does)
        dark_.clear();
        darkFrom_ = INT64_MAX;
        if (!end) {
            dark_ = stream_.lostBeforeNextPages();
            for (int64_t &d : dark_) {
                darkFrom_ = std::min(darkFrom_, d);
                if (d == INT64_MIN) d = INT64_MAX;
            }
        }
        // Which switch-ins bring a task from another CPU, before the passes take them: every CPU's events up
        // to t are in, and the passes take those only (a page may run past t on one CPU).
        // (and where a CPU lost events that the next page, not read yet, will tell: a task may run there)
        migrations_.through(trace_, roles_, end ? INT64_MAX : t, newMigrations_, threads_, darkFrom_);
        for (size_t c = 0; c < passes_.size(); ++c) {
            passes_[c]->addMigrations(newMigrations_[c]);
            newMigrations_[c].clear();
        }
        parallelFor(passes_.size(), threads_, [&](size_t c) {
            throwIfCancelled(options_.analysis.cancel);
            passes_[c]->advance(migrations_.scanned(c));
        });
        if (end) {
            keepHeads(); // (the last events may open heads too)
            for (auto &p : passes_)
                p->finish();
            t = INT64_MAX;
        }
        pairing_.through(trace_, cpus_, t, threads_, dark_);
        for (size_t c = 0; c < cpus_.size(); ++c) {
            const auto &heads = end ? headsAtEnd_[c] : passes_[c]->scheduledOpens();
            for (size_t k = opens_[c].size(); k < heads.size(); ++k)
                opens_[c].push_back(heads[k]);
        }
        // (a finished pass handed its stretches over: the pending ones are the ones that may still resolve)
        const auto chainAt = [&](size_t c, size_t change) {
            return end ? CrossCpuModes::pendingChainAt(cpus_[c], change) : passes_[c]->chainAt(change);
        };
        sweep_.through(trace_, roles_, cpus_, opens_, t, chainAt, candidates_);
        if (!end) forgetResolvedCandidates();
        // (a gap found in the next step may still set a change at the last event taken: two back)
        for (size_t c = 0; c < cpus_.size() && !end; ++c)
            if (const size_t n = passes_[c]->processed(); n >= 2) sweep_.readLaneThrough(c, cpus_[c], n - 2);
        if (end) crossCpuResolved_ = CrossCpuModes::resolve(cpus_, candidates_);
        measure(t, end);
        parallelFor(cpus_.size(), threads_, [&](size_t c) { fold(c, end); });
        if (!end) release();
    }

    TickReport finish(double seconds);
    struct RecordBytes
    {
        size_t taskCodes = 0, taskBits = 0, irq = 0, ticks = 0, lane = 0, softirqs = 0, wakeups = 0, sw = 0,
               other = 0, info = 0; // (wakeups: with their soft lateness and the bursts)
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
    // After the passes took the last events, before they finish (they hand their unresolved stretches
    // over and forget the list).
    void keepHeads()
    {
        headsAtEnd_.resize(cpus_.size());
        for (size_t c = 0; c < cpus_.size(); ++c)
            headsAtEnd_[c] = passes_[c]->scheduledOpens();
    }
    size_t eventsNeeded(size_t c) const;

    TraceDatStream &stream_;
    Trace &trace_;
    const StreamOptions &options_;
    EventRoles roles_;
    std::vector<CpuAnalysis> cpus_;
    std::vector<std::unique_ptr<CpuPass>> passes_;
    std::deque<CpuStream> state_;
    int threads_ = 1;
    IncrementalPairing pairing_;
    MigrationSweep migrations_;
    Migrations newMigrations_;
    SwitchOutSweep sweep_;
    SwitchOutCandidates candidates_;
    std::vector<std::vector<uint32_t>> opens_, headsAtEnd_;
    size_t crossCpuResolved_ = 0;

    std::vector<int64_t> dark_;    // per CPU: where it still loses events after its first event (step)
    int64_t darkFrom_ = INT64_MAX; // the earliest time some CPU still loses events after (step; INT64_MIN:
                                   // a CPU whose data opens with lost events has none read yet)
    std::vector<int64_t> lastOf_;  // per CPU: its last event's time

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

} // namespace tickscope::streamdetail
