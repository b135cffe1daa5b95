// SPDX-License-Identifier: GPL-3.0-or-later
#include "CpuFold.h"

#include "report/FindingText.h"

#include <algorithm>
#include <bit>
#include <cinttypes>
#include <cstdio>
#include <stdexcept>

namespace tickscope {

namespace {

constexpr size_t kSub = 128;               // buckets per power of two
constexpr size_t kHalf = kSub + 25 * kSub; // buckets of the values >= 0 (and as many below)
static_assert(kHalf % kSub == 0);

// Log-linear bucket of u >= 0: exact below kSub, then kSub per power of two.
size_t magnitudeBucket(uint32_t u)
{
    if (u < kSub) return u;
    const int e = std::bit_width(u) - 1; // >= 7
    const uint32_t mantissa = (u >> (e - 7)) & (kSub - 1);
    return kSub + static_cast<size_t>(e - 7) * kSub + mantissa;
}

int64_t magnitudeFloor(size_t b)
{
    if (b < kSub) return static_cast<int64_t>(b);
    const size_t e = (b - kSub) / kSub + 7;
    const size_t mantissa = (b - kSub) % kSub;
    return static_cast<int64_t>((uint64_t{kSub} + mantissa) << (e - 7));
}

} // namespace

FoldDecisions FoldDecisions::of(const Trace &trace, const TickAnalysis &analysis)
{
    FoldDecisions d;
    d.fallback = analysis.localTimerFallback;
    for (const CpuAnalysis &c : analysis.cpus)
        d.startsSeen |= c.evidence.hrtimerStarts > 0;
    d.polling = analysis.polling;
    d.preemptRt = findingtext::preemptRt(trace);
    d.release = findingtext::releaseVersion(trace);
    return d;
}

namespace {

size_t histogramBucket(int64_t v)
{
    return std::min(static_cast<size_t>(log2Bucket(v)), kHistogramBuckets - 1);
}

// Where an expiry ran and whom it woke: its cell of WakeupReport::byContext as soft * 2 + normal, or -1
// when its context or priority is not known.
int wakeupClass(uint8_t flags)
{
    constexpr uint8_t kClassMask =
        WakeupFlag::ContextKnown | WakeupFlag::PrioKnown | WakeupFlag::Soft | WakeupFlag::Rt;
    for (int soft = 0; soft < 2; ++soft) {
        for (int normal = 0; normal < 2; ++normal) {
            const auto want =
                static_cast<uint8_t>(WakeupFlag::ContextKnown | WakeupFlag::PrioKnown |
                                     (soft ? WakeupFlag::Soft : 0) | (normal ? 0 : WakeupFlag::Rt));
            if ((flags & kClassMask) == want) return soft * 2 + normal;
        }
    }
    return -1;
}

// Counts one hrtimer_wakeup expiry into w's counters and latency histogram (not its distributions);
// true when it has a latency.
bool countWakeup(WakeupReport &w, const HrtimerWakeup &x)
{
    ++w.count;
    w.inBursts += (x.flags & WakeupFlag::Burst) != 0;
    if (!(x.flags & WakeupFlag::ContextKnown))
        ++w.contextUnknown;
    else if (!(x.flags & WakeupFlag::Soft))
        w.longestHardRun = std::max<uint64_t>(w.longestHardRun, 1);
    if (const int k = wakeupClass(x.flags); k >= 0)
        ++w.byContext[static_cast<size_t>(k / 2)][static_cast<size_t>(k % 2)].count;
    if (x.latenessNs == kUnknownNs) ++w.unpaired;
    if (!(x.flags & WakeupFlag::TaskKnown)) {
        ++w.noTask;
        return false;
    }
    if (x.latencyNs == kUnknownNs) {
        ++w.noSwitch;
        return false;
    }
    w.latencyBounds += (x.flags & WakeupFlag::LatencyBound) != 0;
    ++w.histogram[histogramBucket(x.latencyNs)];
    return true;
}

} // namespace

size_t DistributionFold::bucketOf(int32_t v)
{
    // negatives mirror the positives below kHalf, so that bucket order is value order
    if (v >= 0) return kHalf + magnitudeBucket(static_cast<uint32_t>(v));
    return kHalf - 1 - magnitudeBucket(static_cast<uint32_t>(-(static_cast<int64_t>(v) + 1)));
}

int64_t DistributionFold::bucketFloor(size_t b)
{
    if (b >= kHalf) return magnitudeFloor(b - kHalf);
    // the most negative value of a negative bucket: -(the largest magnitude in it + 1)
    const size_t m = kHalf - 1 - b;
    const int64_t next = m + 1 < kHalf ? magnitudeFloor(m + 1) : int64_t{1} << 31;
    return -next;
}

void DistributionFold::count(size_t bucket)
{
    std::unique_ptr<uint64_t[]> &g = groups_[bucket / kSub];
    if (!g) g = std::make_unique<uint64_t[]>(kSub); // zeroed
    ++g[bucket % kSub];
}

void DistributionFold::add(int32_t v)
{
    if (count_ == 0) min_ = max_ = v;
    min_ = std::min<int64_t>(min_, v);
    max_ = std::max<int64_t>(max_, v);
    ++count_;
    if (!binned_) {
        values_.push_back(v);
        if (values_.size() <= exact_) return;
        binned_ = true;
        groups_.resize(2 * kHalf / kSub);
        for (int32_t x : values_)
            count(bucketOf(x));
        std::vector<int32_t>().swap(values_);
        return;
    }
    count(bucketOf(v));
}

size_t DistributionFold::bytes() const
{
    size_t n = values_.capacity() * sizeof(int32_t) + groups_.capacity() * sizeof(groups_[0]);
    for (const auto &g : groups_)
        n += g ? kSub * sizeof(uint64_t) : 0;
    return n;
}

Distribution DistributionFold::result() const
{
    if (!binned_) {
        std::vector<int32_t> v = values_;
        return Distribution::of(v);
    }
    Distribution d;
    d.count = count_;
    d.min = min_;
    d.max = max_;
    d.binned = true;
    // the nearest rank, ceil(p/100 * n), found in the buckets; the bucket's floor, kept within [min, max]
    auto rank = [&](int p) {
        const uint64_t r = std::max<uint64_t>((count_ * static_cast<uint64_t>(p) + 99) / 100, 1);
        uint64_t seen = 0;
        for (size_t g = 0; g < groups_.size(); ++g) {
            if (!groups_[g]) continue;
            for (size_t k = 0; k < kSub; ++k) {
                seen += groups_[g][k];
                if (seen >= r) return std::clamp(bucketFloor(g * kSub + k), min_, max_);
            }
        }
        return max_;
    };
    d.p50 = rank(50);
    d.p90 = rank(90);
    d.p99 = rank(99);
    return d;
}

CpuFold::CpuFold(int cpu, int64_t from, int64_t to, int64_t lateWakeupNs, size_t exactValues)
    : cpu_(cpu), from_(from), to_(to), lateWakeupNs_(lateWakeupNs)
{
    for (DistributionFold &d : dist_)
        d = DistributionFold(exactValues);
    for (World &w : worlds_) {
        w.user.cpu = cpu;
        w.poll.cpu = cpu;
    }
    catchup_.cpu = late_.cpu = burst_.cpu = lost_.cpu = cpu;
}

CpuFold::CpuFold(int cpu, int64_t from, int64_t to, int64_t lateWakeupNs, const FoldDecisions &decided,
                 size_t instances)
    : CpuFold(cpu, from, to, lateWakeupNs, 0)
{
    decided_ = true;
    decisions_ = decided;
    keep_ = instances;
}

bool CpuFold::countExit(World &w, size_t exit)
{
    const auto at = std::lower_bound(w.counted.begin(), w.counted.end(), exit);
    if (at != w.counted.end() && *at == exit) return false;
    w.counted.insert(at, exit);
    ++w.exits;
    return true;
}

void CpuFold::pruneExits(size_t world)
{
    // An exit below the frontier is named again only by a pending stretch.
    World &w = worlds_[world];
    if (w.counted.size() < 2 * w.prunedAt + 16) return;
    size_t floor = w.frontier;
    for (const auto &[chain, p] : pending_)
        if (!p.w[world].exits.empty()) floor = std::min(floor, p.w[world].exits.front());
    w.counted.erase(w.counted.begin(), std::lower_bound(w.counted.begin(), w.counted.end(), floor));
    w.prunedAt = w.counted.size();
}

void CpuFold::tick(int64_t ts, const TickRecord &t, bool local, bool afterPoll, size_t pollExit,
                   uint32_t chain)
{
    if (!inWindow(ts)) return;
    if (decided_) { // the world that happened only; its ticks are final
        if (chain != kFinal) throw std::logic_error("a decided CpuFold takes final ticks only");
        if (local != decisions_.fallback) return; // not a tick in that world
        countTick(worldOf(local, decisions_.startsSeen), decisions_.startsSeen, ts, t, afterPoll, pollExit,
                  nullptr);
        return;
    }
    if (!local && t.latenessNs != kUnknownNs) dist_[kTickLatenessDistribution].add(t.latenessNs);
    Pending *pending = chain == kFinal ? nullptr : &pending_[chain];
    for (const bool startsSeen : {false, true})
        countTick(worldOf(local, startsSeen), startsSeen, ts, t, afterPoll, pollExit, pending);
}

void CpuFold::countTick(size_t world, bool startsSeen, int64_t ts, const TickRecord &t, bool afterPoll,
                        size_t pollExit, Pending *pending)
{
    World &w = worlds_[world];
    TickCounts &n = w.n;
    if (!tickPeriodicIn(t.flags, startsSeen)) {
        ++n.nohzWakeups;
        return;
    }
    n.addPeriodic(t.context);
    if (afterPoll) w.frontier = std::max(w.frontier, pollExit);
    if (pending) { // Unknown for now: what a User outcome would add (no dependency in force)
        PendingWorld &q = pending->w[world];
        ++q.periodic;
        if (t.flags & TickFlag::DependencyInForce) return;
        q.first = q.user ? std::min(q.first, ts) : ts;
        q.last = q.user ? std::max(q.last, ts) : ts;
        ++q.user;
        if (!afterPoll) return;
        ++q.afterPoll;
        if (q.exits.empty() || q.exits.back() != pollExit) q.exits.push_back(pollExit);
        return;
    }
    // A decided fold knows whether the CPU is nohz_full; a stream's counts as if it were (finish drops them).
    if (decided_ && !decisions_.nohzFull) return;
    if (!spuriousOnNohzFull(t)) return;
    ++n.spurious;
    if (t.context != TickContext::User) {
        ++n.spuriousPolling;
        ++w.poll.count;
        findingtext::note(w.poll, ts, keep_);
        return;
    }
    ++n.spuriousUser;
    ++w.user.count;
    findingtext::note(w.user, ts, keep_);
    if (afterPoll) {
        ++w.afterPoll;
        countExit(w, pollExit);
        pruneExits(world);
    }
}

void CpuFold::stretchResolved(uint32_t chain, TaskState mode)
{
    const auto it = pending_.find(chain);
    if (it == pending_.end()) return;
    const Pending p = std::move(it->second);
    pending_.erase(it);
    for (size_t world = 0; world < worlds_.size(); ++world) {
        const PendingWorld &q = p.w[world];
        World &w = worlds_[world];
        TickCounts &n = w.n;
        n.unknown -= q.periodic;
        (mode == TaskState::User ? n.user : n.kernel) += q.periodic;
        if (mode != TaskState::User || q.user == 0) continue;
        n.spurious += q.user;
        n.spuriousUser += q.user;
        w.user.first = w.user.count ? std::min(w.user.first, q.first) : q.first;
        w.user.last = w.user.count ? std::max(w.user.last, q.last) : q.last;
        w.user.count += q.user;
        w.afterPoll += q.afterPoll;
        for (const size_t e : q.exits)
            countExit(w, e);
        pruneExits(world);
    }
}

void CpuFold::tickLane(int64_t ts, TickState s)
{
    if (laneOpen_) {
        const int64_t d = std::max<int64_t>(0, std::min(ts, to_) - std::max(laneTs_, from_));
        if (laneState_ == TickState::Stopped) stoppedNs_ += d;
        if (laneState_ != TickState::Unknown) knownNs_ += d;
    }
    laneOpen_ = true;
    laneTs_ = ts;
    laneState_ = s;
}

bool CpuFold::needsPolling() const
{
    if (decided_) return worlds_[worldOf(decisions_.fallback, decisions_.startsSeen)].poll.count > 0;
    for (const World &w : worlds_)
        if (w.poll.count) return true;
    return false;
}

void CpuFold::polling(int64_t ts, bool poll)
{
    if (pollOpen_) pollingNs_ += std::max<int64_t>(0, std::min(ts, to_) - std::max(pollTs_, from_));
    pollOpen_ = poll;
    pollTs_ = ts;
}

void CpuFold::failedStop(int64_t ts, const FailedStop &f)
{
    if (!inWindow(ts)) return;
    const int bit = f.dependency ? std::countr_zero(f.dependency) : 32; // the kernel reports the first
    if (bit < static_cast<int>(kDependencyNames.size()))
        ++failures_[static_cast<size_t>(bit)];
    else
        ++failuresOther_;
    Finding &x = byDep_[std::min<size_t>(static_cast<size_t>(bit), 6)];
    ++x.count;
    findingtext::note(x, ts, keep_);
}

namespace {
void keepLongest(std::vector<LongSoftirqReport> &longest, const LongSoftirqReport &r)
{
    // longest first; of equal ones the earlier first (the order TickReport::make sorts them in)
    auto before = [](const LongSoftirqReport &a, const LongSoftirqReport &b) {
        return a.durationNs != b.durationNs ? a.durationNs > b.durationNs : a.ts < b.ts;
    };
    longest.insert(std::upper_bound(longest.begin(), longest.end(), r, before), r);
    if (longest.size() > kLongSoftirqsShown) longest.pop_back();
}
} // namespace

void CpuFold::timerSoftirq(int64_t ts, const TimerSoftirq &r)
{
    if (!inWindow(ts)) return;
    TimerSoftirqReport &t = timerSoftirq_;
    ++t.count;
    t.maxNs = std::max(t.maxNs, r.durationNs);
    t.catchup += r.catchup;
    t.timers += r.timers;
    t.maxIdleNs = std::max(t.maxIdleNs, r.idleNs);
    t.maxJiffiesBehind = std::max(t.maxJiffiesBehind, r.jiffiesBehind);
    if (r.durationNs >= kLongSoftirqNs)
        keepLongest(longest_, {ts, 1, r.durationNs, r.timers, r.callbackNs, r.idleNs, r.catchup});
    if (!r.catchup) return;
    ++catchup_.count;
    findingtext::note(catchup_, ts, keep_);
    catchup_.worstNs = std::max(catchup_.worstNs, r.durationNs);
    catchupIdle_ = std::max(catchupIdle_, r.idleNs);
    catchupBehind_ = std::max({catchupBehind_, r.jiffiesBehind, r.jiffiesSincePrev});
}

void CpuFold::longSoftirq(int64_t ts, const LongSoftirq &l)
{
    if (l.vec != 1 && inWindow(ts)) keepLongest(longest_, {ts, l.vec, l.durationNs, 0, 0, 0, false});
}

void CpuFold::wakeup(int64_t ts, const HrtimerWakeup &x, int32_t softLatenessNs)
{
    if (!inWindow(ts)) return;
    const bool hasLatency = countWakeup(w_, x);
    for (size_t d = 0; d < kWakeupDistributions && !decided_; ++d)
        if (const int32_t v = wakeupValue(d, x, softLatenessNs); v != kUnknownNs) dist_[d].add(v);
    const bool isRt = (x.flags & WakeupFlag::PrioKnown) && (x.flags & WakeupFlag::Rt);
    if ((x.flags & WakeupFlag::PrioKnown) && !isRt) {
        ++nonRt_;
        nonRtHard_ += (x.flags & (WakeupFlag::ContextKnown | WakeupFlag::Soft)) == WakeupFlag::ContextKnown;
    }
    if (hasLatency && x.latencyNs >= lateWakeupNs_) {
        ++late_.count;
        lateRt_ += isRt;
        findingtext::note(late_, ts, keep_);
        late_.worstNs = std::max<int64_t>(late_.worstNs, x.latencyNs);
    }
}

void CpuFold::otherLateness(int64_t ts, int32_t latenessNs)
{
    if (latenessNs != kUnknownNs && inWindow(ts) && !decided_)
        dist_[kOtherLatenessDistribution].add(latenessNs);
}

void CpuFold::batch(int64_t ts, const WakeupBatch &b)
{
    if (!inWindow(ts)) return;
    WakeupReport &w = w_;
    ++w.bursts;
    w.maxBurst = std::max<uint64_t>(w.maxBurst, b.count);
    ++burst_.count;
    findingtext::note(burst_, ts, keep_);
    maxBurst_ = std::max<uint64_t>(maxBurst_, b.count);
    if (b.soft) return;
    w.longestHardRun = std::max<uint64_t>(w.longestHardRun, b.count);
    w.rtDelayed += b.rtDelayed;
}

void CpuFold::rtDelay(int64_t ts, const RtDelay &d)
{
    if (!inWindow(ts)) return;
    w_.rtDelayNs += d.totalNs;
    w_.rtDelayMaxNs = std::max<int64_t>(w_.rtDelayMaxNs, d.maxNs);
}

void CpuFold::lost(const LostRange &l)
{
    if (l.to < from_ || l.from > to_) return;
    ++lost_.count;
    lostEvents_ += l.count;
    findingtext::note(lost_, l.from, keep_);
}

bool CpuFold::binned() const
{
    return std::any_of(dist_.begin(), dist_.end(), [](const DistributionFold &d) { return d.binned(); });
}

size_t CpuFold::bytes() const
{
    size_t n = 0;
    for (const DistributionFold &d : dist_)
        n += d.bytes();
    for (const auto &[chain, p] : pending_) {
        n += sizeof(p) + 48; // and the map's node
        for (const PendingWorld &w : p.w)
            n += w.exits.capacity() * sizeof(size_t);
    }
    return n;
}

CpuReport CpuFold::finish(const FoldDecisions &d, int64_t end, int64_t lastEvent, std::vector<Finding> &out)
{
    tickLane(end, TickState::Unknown); // closes the last span at the trace's end
    pending_.clear();                  // stretches whose mode never showed: their ticks stay Unknown
    if (pollOpen_) polling(lastEvent, false);
    CpuReport cr;
    cr.cpu = cpu_;
    cr.events = events_;
    cr.switchesIntoIdle = d.switchesIntoIdle;
    cr.switchesOutOfIdle = d.switchesOutOfIdle;
    cr.nohzFull = d.nohzFull;
    cr.nohzFullWhy = d.nohzFullWhy;
    World &world = worlds_[worldOf(d.fallback, d.startsSeen)];
    cr.ticks = world.n;
    if (!d.nohzFull) { // the tick is expected on housekeeping CPUs: nothing spurious
        cr.ticks.spurious = cr.ticks.spuriousUser = cr.ticks.spuriousPolling = 0;
        world.user.count = world.poll.count = 0;
    }
    cr.tickStoppedNs = stoppedNs_;
    cr.laneKnownNs = knownNs_;
    cr.failures = failures_;
    cr.failuresOther = failuresOther_;
    cr.timerSoftirq = timerSoftirq_;
    cr.longSoftirqs = longest_;
    cr.wakeup = w_;
    for (size_t k = 0; k < kCpuDistributions && !decided_; ++k)
        cpuDistribution(cr, k) = dist_[k].result();

    // The findings, in the report's order for one CPU: lost events, spurious, failed stops, timers.
    if (lost_.count) {
        Finding f = lost_;
        findingtext::lost(f, lostEvents_);
        out.push_back(std::move(f));
    }
    if (world.user.count) {
        Finding user = world.user;
        findingtext::spuriousUser(user, world.afterPoll, world.exits, static_cast<double>(to_ - from_) / 1e9,
                                  d.nohzFull, d.polling);
        out.push_back(std::move(user));
    }
    if (world.poll.count) {
        Finding poll = world.poll;
        findingtext::spuriousPolling(poll, static_cast<double>(pollingNs_) / 1e9, d.polling);
        out.push_back(std::move(poll));
    }
    for (size_t b = 0; b < byDep_.size(); ++b) {
        Finding x = byDep_[b];
        if (!x.count) continue;
        findingtext::failedStops(x, b, cpu_);
        out.push_back(std::move(x));
    }
    if (catchup_.count) {
        Finding cu = catchup_;
        findingtext::catchup(cu, catchupIdle_, catchupBehind_, d.release);
        out.push_back(std::move(cu));
    }
    const std::string hardCause = findingtext::hardCause(d.preemptRt, nonRtHard_, nonRt_);
    if (late_.count) {
        Finding late = late_;
        findingtext::lateWakeups(late, lateWakeupNs_, lateRt_, hardCause);
        out.push_back(std::move(late));
    }
    if (burst_.count) {
        Finding burst = burst_;
        findingtext::bursts(burst, maxBurst_, hardCause, late_.count > 0);
        out.push_back(std::move(burst));
    }
    return cr;
}

} // namespace tickscope
