// SPDX-License-Identifier: GPL-3.0-or-later
// The report of one CPU gathered record by record: its record methods are the one definition of every
// per-CPU count and finding of the report, kept as counters, the values of the distributions (binned
// past a bound) and each finding's instances. Two drivers feed it, so that a figure is written once:
//
// - `report --stream` (stream/StreamReport.cpp), in event order while the trace is still being read.
//   The decisions taken across CPUs at the end (no tick hrtimer anywhere: the local timer interrupts are
//   the ticks; no hrtimer_start anywhere: the tick lane says whether a tick was periodic; whether this
//   CPU is nohz_full; which polling idle state 0 is) are not known while the records arrive. Each tick
//   is therefore counted once per possible outcome ("world": fallback or not x starts seen or not), as
//   if the CPU were nohz_full; finish() keeps the world that happened and drops the spurious ticks of a
//   CPU that is not nohz_full.
// - TickReport::make, with a whole analysis: each CPU's final records, with the decisions already taken
//   (the "decided" constructor). It counts the one world that happened and leaves the distributions to
//   make's own parallel work items (which share the value rule, wakeupValue in TickReport.h).
#pragma once

#include "analysis/CpuAnalysis.h"
#include "report/Findings.h"
#include "report/TickReport.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace tickscope {

// min / p50 / p90 / p99 / max of values that arrive one at a time. Exact (the nearest rank, as
// Distribution::of) while at most `exact` values came; past that the percentiles come from log-linear
// buckets of 1/128 of a power of two (within 0.8 % of the value; below 128 ns exact), allocated a power
// of two at a time as values fall in it (a distribution spans a few of the 52: a CPU's binned ones take
// a few KiB, not 53 KiB each). Count, min and max stay exact.
class DistributionFold
{
public:
    static constexpr size_t kDefaultExact = 4096;
    explicit DistributionFold(size_t exact = kDefaultExact) : exact_(exact) {}
    void add(int32_t v);
    Distribution result() const;
    bool binned() const { return binned_; }
    size_t bytes() const; // values and buckets held

    // The bucket of a value and the smallest value of a bucket (exposed for the tests).
    static size_t bucketOf(int32_t v);
    static int64_t bucketFloor(size_t b);

private:
    size_t exact_;
    uint64_t count_ = 0;
    int64_t min_ = 0, max_ = 0;
    std::vector<int32_t> values_;
    bool binned_ = false;
    std::vector<std::unique_ptr<uint64_t[]>> groups_; // kSub buckets each, by bucket / kSub
    void count(size_t bucket);
};

// The decisions across CPUs that finish() applies.
struct FoldDecisions
{
    bool fallback = false;   // no tick hrtimer traced on any CPU
    bool startsSeen = false; // some hrtimer_start traced
    bool nohzFull = false;   // this CPU
    std::string nohzFullWhy;
    PollingKind polling = PollingKind::None;
    bool preemptRt = false;
    std::pair<int, int> release{0, 0}; // the kernel release's (major, minor), (0, 0) unknown
    uint64_t switchesIntoIdle = 0, switchesOutOfIdle = 0;

    // The decisions the whole analysis took (fallback, starts seen, polling, PREEMPT_RT, release); the
    // per-CPU ones are the caller's to fill.
    static FoldDecisions of(const Trace &trace, const TickAnalysis &analysis);
};

class CpuFold
{
public:
    // A stream's fold: every world counted, the distributions gathered, no instance times kept.
    CpuFold(int cpu, int64_t from, int64_t to, int64_t lateWakeupNs, size_t exactValues);
    // A decided fold: the decisions known, the records final (no pending chain), no distribution
    // gathered; each finding keeps the times of its first `instances` instances in Finding::at (the
    // records come in time order, so in order).
    CpuFold(int cpu, int64_t from, int64_t to, int64_t lateWakeupNs, const FoldDecisions &decided,
            size_t instances);

    bool inWindow(int64_t ts) const { return ts >= from_ && ts <= to_; }
    // The report's window once the trace's first and last times are known (the same records fall in it).
    void setWindow(int64_t from, int64_t to)
    {
        from_ = from;
        to_ = to;
    }
    void events(uint64_t inWindow) { events_ += inWindow; }
    // A tick expiry (local: a local timer interrupt kept for the low-res fallback) with its context and
    // flags as the pass left them. afterPoll: the task came back from polling idle (the spurious-user
    // pattern); pollExit numbers that idle stretch. chain: kFinal when the context is final; else the
    // context is Unknown and the tick's stretch of unknown task mode may still relabel it: counted as
    // Unknown now, with what a User or Kernel outcome moves kept per chain of stretches (keyed by the
    // chain's number, PendingMode::root), so that the tick itself can go.
    static constexpr uint32_t kFinal = UINT32_MAX;
    void tick(int64_t ts, const TickRecord &t, bool local, bool afterPoll, size_t pollExit,
              uint32_t chain = kFinal);
    // A stretch of the chain has its mode (User, or Kernel for any other), and so has the whole chain:
    // its pending ticks move to it.
    void stretchResolved(uint32_t chain, TaskState mode);
    size_t pendingChains() const { return pending_.size(); }
    // The tick lane and the task lane's polling spans, change by change.
    void tickLane(int64_t ts, TickState s);
    void polling(int64_t ts, bool poll);
    // Whether finish() needs the polling spans: only a spurious-polling finding reads them (a decided
    // driver walks the task lane for them then only).
    bool needsPolling() const;
    void failedStop(int64_t ts, const FailedStop &f);
    void timerSoftirq(int64_t ts, const TimerSoftirq &s);
    void longSoftirq(int64_t ts, const LongSoftirq &l);
    void wakeup(int64_t ts, const HrtimerWakeup &w, int32_t softLatenessNs);
    void otherLateness(int64_t ts, int32_t latenessNs);
    void batch(int64_t ts, const WakeupBatch &b);
    void rtDelay(int64_t ts, const RtDelay &d);
    void lost(const LostRange &l);

    // end: the trace's last event (the tick lane's last span ends there); lastEvent: this CPU's.
    // Appends the CPU's findings in the report's per-CPU order (lost events, spurious, failed stops,
    // timers), before sortFindings. A decided fold leaves the distributions empty.
    CpuReport finish(const FoldDecisions &d, int64_t end, int64_t lastEvent, std::vector<Finding> &findings);

    // Whether any distribution went past its exact bound.
    bool binned() const;
    // The distributions' values and buckets, and the pending chains (TICKSCOPE_STREAM_DEBUG).
    size_t bytes() const;

private:
    struct World // one outcome of (fallback, starts seen), as if the CPU were nohz_full
    {
        TickCounts n;
        Finding user{FindingKind::SpuriousUser}, poll{FindingKind::SpuriousPolling};
        // Distinct polling exits of the spurious user ticks after polling idle, in whatever order the
        // ticks' modes become known. A tick's exit (the task lane's change that left polling) never
        // decreases in tick order: `counted` keeps the exits counted that a later tick or a pending
        // chain may still name (none below the latest exit seen, `frontier`, but the pending ones).
        uint64_t afterPoll = 0, exits = 0;
        std::vector<size_t> counted; // ascending
        size_t frontier = 0, prunedAt = 0;
    };
    // What the pending ticks of one chain of stretches add to a world once their mode is known.
    struct PendingWorld
    {
        uint64_t periodic = 0;            // counted as Unknown for now
        uint64_t user = 0, afterPoll = 0; // spurious ones if the mode is User (no dependency in force)
        int64_t first = 0, last = 0;      // their times
        std::vector<size_t> exits;        // the distinct polling exits they came after, ascending
    };
    struct Pending
    {
        std::array<PendingWorld, 4> w;
    };
    void countTick(size_t world, bool startsSeen, int64_t ts, const TickRecord &t, bool afterPoll,
                   size_t pollExit, Pending *pending);
    // Counts a polling exit unless already counted (true when it was new).
    bool countExit(World &w, size_t exit);
    void pruneExits(size_t world);
    static size_t worldOf(bool fallback, bool startsSeen)
    {
        return (fallback ? 2 : 0) + (startsSeen ? 1 : 0);
    }

    int cpu_;
    int64_t from_, to_, lateWakeupNs_;
    bool decided_ = false;
    FoldDecisions decisions_; // a decided fold's
    size_t keep_ = 0;         // instance times kept per finding
    uint64_t events_ = 0;
    std::array<World, 4> worlds_;
    std::map<uint32_t, Pending> pending_;                  // by chain
    std::array<DistributionFold, kCpuDistributions> dist_; // cpuDistribution's numbering
    // tick lane
    bool laneOpen_ = false;
    int64_t laneTs_ = 0;
    TickState laneState_ = TickState::Unknown;
    int64_t stoppedNs_ = 0, knownNs_ = 0;
    // polling spans (findings)
    bool pollOpen_ = false;
    int64_t pollTs_ = 0, pollingNs_ = 0;
    std::array<uint64_t, 6> failures_{};
    uint64_t failuresOther_ = 0;
    std::array<Finding, 7> byDep_;
    TimerSoftirqReport timerSoftirq_;
    std::vector<LongSoftirqReport> longest_; // at most kLongSoftirqsShown, longest first
    Finding catchup_{FindingKind::CatchupSoftirq};
    int64_t catchupIdle_ = 0, catchupBehind_ = -1;
    WakeupReport w_;
    Finding late_{FindingKind::LateWakeup}, burst_{FindingKind::WakeupBurst};
    uint64_t lateRt_ = 0, nonRt_ = 0, nonRtHard_ = 0, maxBurst_ = 0;
    Finding lost_{FindingKind::LostEvents};
    uint64_t lostEvents_ = 0;
};

} // namespace tickscope
