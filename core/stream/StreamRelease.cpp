// SPDX-License-Identifier: GPL-3.0-or-later
// What `report --stream` still holds per CPU, and handing the rest back: the events and records behind
// every reader, and the sweep candidates of stretches resolved since.
#include "StreamEngine.h"

#include "util/ProcessStats.h"

#include <cstdio>

namespace tickscope::streamdetail {

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
    if (!a.failedStops.empty()) need = std::min<size_t>(need, a.failedStops.front().index);
    if (s.softirqs < a.timers.timerSoftirqs.size())
        need = std::min<size_t>(need, a.timers.timerSoftirqs[s.softirqs].entry);
    if (s.wakeups < a.timers.wakeups.size()) need = std::min<size_t>(need, a.timers.wakeups[s.wakeups].index);
    if (s.other < a.timers.otherLateness.size())
        need = std::min<size_t>(need, a.timers.otherLateness[s.other].index);
    // the pairing's next start and expiries, the sweep's next switch, the latency step's switches
    const SwitchRecords &sw = a.timers.switches;
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
    // A CPU's columns are handed back together, once its pass has taken `every` events since the last
    // time, and every CPU's in one batch: each hand-back flushes the TLB of every CPU the threads ran on,
    // and a column that grows a page a step would otherwise make one per step (62,842 calls, 2.2 s of
    // system time, on a 40-CPU 21 M-event trace; 35,480 ranges in 368 calls with both). 4096 events, but
    // no more than about a million in all: past 256 CPUs each holding 4096 events was most of the memory
    // (1024 CPUs: 243 -> 190 MB peak, same time; 512 events is a page of their times).
    const size_t every = std::clamp<size_t>((size_t{1} << 20) / std::max<size_t>(cpus_.size(), 1), 512, 4096);
    const ColumnReleaseBatch batch; // every CPU's hand-backs in one call where the kernel allows
    for (size_t c = 0; c < cpus_.size(); ++c) {
        CpuStream &s = state_[c];
        if (passes_[c]->processed() < s.releasedAt + every) continue;
        s.releasedAt = passes_[c]->processed();
        CpuEvents &ev = trace_.cpu(cpus_[c].cpu);
        const size_t need = eventsNeeded(c);
        if (need > ev.releasedBefore()) ev.releaseBefore(need);
        CpuTimers &tm = cpus_[c].timers;
        tm.releaseWakeupsBefore(std::min(s.wakeups, pairing_.paired(c, 0)));
        tm.otherLateness.releaseBefore(s.other);
        tm.timerSoftirqs.releaseBefore(s.softirqs);
        tm.switches.releaseBefore(std::min(s.liveSwitch, sweep_.switchesTaken(c)));
        CpuAnalysis &a = cpus_[c];
        a.ticks.releaseBefore(s.ticks);
        a.localTimerTicks.releaseBefore(s.local);
        // The lanes' bitmaps behind their readers, and their codes. The task lane's codes behind the
        // spurious-user look-back (16 changes) and the sweep's last change (a candidate left in a stretch
        // of unknown mode names its chain, whose mode CpuAnalysis::chainModes keeps: no released code is
        // read again). While the idle task's first change may still be relabelled, none go.
        const size_t done = passes_[c]->processed();
        size_t codes = s.laneLast == npos ? 0 : s.laneLast - std::min<size_t>(s.laneLast, 16);
        const size_t seen = sweep_.laneChangesSeen(c);
        codes = std::min(codes, seen ? seen - 1 : 0);
        if (passes_[c]->idleUnknown()) codes = 0;
        a.task.releaseCodes(std::min({s.laneScan, sweep_.laneScanned(c), done}), codes,
                            StateCode::task(TaskState::Unknown, StateCode::kDetailLost));
        // The stretches of unknown mode in the middle of their chains that nothing reads any more go.
        passes_[c]->setStretchFloor(codes, s.ticks, s.local);
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
        b.lane += a.tickLane.bytes() + a.failedStops.capacity() * sizeof(FailedStop);
        b.softirqs +=
            a.timers.timerSoftirqs.liveBytes() + a.timers.longSoftirqs.capacity() * sizeof(LongSoftirq);
        b.wakeups += a.timers.wakeups.liveBytes() + a.timers.softLateness->bytes() +
                     a.timers.batches.liveBytes() + a.timers.rtDelays.liveBytes();
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
        "tick info %.1f MB, tick lanes and failed stops %.1f MB, softirqs %.1f MB, wakeups and bursts %.1f "
        "MB, "
        "switches %.1f MB, lateness %.1f MB; folds %.1f MB; live events %zu; names %zu; pending chains %zu; "
        "candidates %zu; "
        "heads handed back %zu in %zu calls\n",
        static_cast<double>(currentRssBytes()) / 1e6, b.taskCodes / 1e6, b.taskBits / 1e6, b.irq / 1e6,
        b.ticks / 1e6, b.info / 1e6, b.lane / 1e6, b.softirqs / 1e6, b.wakeups / 1e6, b.sw / 1e6,
        b.other / 1e6, static_cast<double>(foldBytes) / 1e6, static_cast<size_t>(liveEvents()),
        trace_.tasks.entries().size(), static_cast<size_t>(heldTicks().second), candidateCount(),
        ColumnReleaseBatch::ranges(), ColumnReleaseBatch::calls());
}

} // namespace tickscope::streamdetail
