#include "HrtimerPairing.h"

#include "util/Parallel.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <vector>

namespace tickscope {

namespace {

constexpr size_t kMaxScanSwitches = 1u << 14; // how far after a wakeup its switch-in is looked for
// and at most this long after it: a later switch-in most likely belongs to a later wakeup (the task was
// already running when this one came), so the latency is reported unknown rather than wrong.
constexpr int64_t kMaxLatencyNs = 100000000;

// Open addressing, linear probing; key 0 is "empty" (no hrtimer lives at address 0).
class PtrTable
{
public:
    struct Value
    {
        int64_t expires;
        int64_t softexpires;
    };
    PtrTable() { resize(1024); }
    void put(uint64_t key, Value v)
    {
        if (key == 0) return;
        if ((used_ + 1) * 2 > keys_.size()) grow();
        size_t k = slot(key);
        if (keys_[k] == 0) {
            keys_[k] = key;
            ++used_;
        }
        values_[k] = v;
    }
    const Value *get(uint64_t key) const
    {
        if (key == 0) return nullptr;
        const size_t k = slot(key);
        return keys_[k] == key && values_[k].expires != kConsumed ? &values_[k] : nullptr;
    }
    // An expiry dequeues the timer: its start is used up. A later expiry without a traced start in
    // between was re-armed by a path the trace does not show (6.18 re-enqueues a restarting tick
    // without hrtimer_start), so its expiry time is unknown.
    void consume(uint64_t key)
    {
        if (key == 0) return;
        const size_t k = slot(key);
        if (keys_[k] == key) values_[k].expires = kConsumed;
    }
    static constexpr int64_t kConsumed = INT64_MIN;

private:
    size_t slot(uint64_t key) const
    {
        const size_t mask = keys_.size() - 1;
        size_t k = static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> 20) & mask;
        while (keys_[k] != 0 && keys_[k] != key)
            k = (k + 1) & mask;
        return k;
    }
    void resize(size_t n)
    {
        keys_.assign(n, 0);
        values_.assign(n, {});
        used_ = 0;
    }
    void grow()
    {
        std::vector<uint64_t> keys = std::move(keys_);
        std::vector<Value> values = std::move(values_);
        resize(keys.size() * 2);
        for (size_t k = 0; k < keys.size(); ++k) {
            if (keys[k]) put(keys[k], values[k]);
        }
    }
    std::vector<uint64_t> keys_;
    std::vector<Value> values_;
    size_t used_ = 0;
};

int32_t saturate(int64_t v)
{
    return static_cast<int32_t>(
        std::clamp<int64_t>(v, std::numeric_limits<int32_t>::min() + 1, std::numeric_limits<int32_t>::max()));
}

// The next hrtimer expiry of one CPU: the earliest head of its three expiry lists (each in event order).
struct ExpiryHeads
{
    size_t wakeup = 0, tick = 0, other = 0;
    enum Kind : uint8_t
    {
        Wakeup,
        Tick,
        Other,
        None
    };
    Kind next(const CpuTimers &t, uint32_t &index) const
    {
        Kind k = None;
        index = UINT32_MAX;
        if (wakeup < t.wakeups.size()) k = Wakeup, index = t.wakeups[wakeup].index;
        if (tick < t.tickLateness.size() && t.tickLateness[tick].index < index)
            k = Tick, index = t.tickLateness[tick].index;
        if (other < t.otherLateness.size() && t.otherLateness[other].index < index)
            k = Other, index = t.otherLateness[other].index;
        return k;
    }
};

} // namespace

void pairHrtimers(const Trace &trace, std::vector<CpuAnalysis> &cpus)
{
    // Per CPU, starts and expiries are each in event order; merge them across CPUs by time (a start before
    // an expiry of the same ts: the expiry cannot come before the arm it pairs with).
    const size_t n = cpus.size();
    // The next hrtimer_start of each CPU, read straight from the model (no list of them is kept).
    auto nextStart = [&](size_t c, size_t from) {
        const CpuEvents &ev = trace.cpu(cpus[c].cpu);
        const size_t size = ev.size();
        while (from < size && trace.kind(ev.type(from)) != EventKind::HrtimerStart)
            ++from;
        return from;
    };
    std::vector<size_t> si(n);
    for (size_t c = 0; c < n; ++c)
        si[c] = nextStart(c, 0);
    std::vector<ExpiryHeads> ei(n);
    // Starts and expiries are read in event order: their payload offsets follow from the previous one's.
    std::vector<CpuEvents::OffsetWalker> startAt, expiryAt;
    for (size_t c = 0; c < n; ++c) {
        startAt.emplace_back(trace.cpu(cpus[c].cpu));
        expiryAt.emplace_back(trace.cpu(cpus[c].cpu));
    }
    // The next item of CPU c: its next start or expiry, whichever is earlier (the same ts: the start).
    auto head = [&](size_t c, int64_t &ts, bool &isStart) {
        const CpuTimers &t = cpus[c].timers;
        const CpuEvents &ev = trace.cpu(cpus[c].cpu);
        const bool hasS = si[c] < ev.size();
        uint32_t expiry;
        const bool hasE = ei[c].next(t, expiry) != ExpiryHeads::None;
        if (!hasS && !hasE) return false;
        const int64_t sTs = hasS ? ev.ts(si[c]) : 0;
        const int64_t eTs = hasE ? ev.ts(expiry) : 0;
        isStart = hasS && (!hasE || sTs <= eTs);
        ts = isStart ? sTs : eTs;
        return true;
    };
    PtrTable last;
    auto take = [&](size_t c, bool isStart) {
        CpuTimers &t = cpus[c].timers;
        if (isStart) {
            const auto s = startAt[c].payload<HrtimerStartP>(si[c]);
            si[c] = nextStart(c, si[c] + 1);
            last.put(s.timer, {s.expires, s.softexpires});
            return;
        }
        uint32_t index;
        ExpiryHeads &h = ei[c];
        const ExpiryHeads::Kind kind = h.next(t, index);
        const auto x = expiryAt[c].payload<HrtimerExpireEntryP>(index);
        const PtrTable::Value *v = last.get(x.timer);
        const int32_t hard = v ? saturate(x.now - v->expires) : kUnknownNs;
        const int32_t soft = v ? saturate(x.now - v->softexpires) : kUnknownNs;
        last.consume(x.timer);
        if (kind == ExpiryHeads::Wakeup) {
            HrtimerWakeup &w = t.wakeups[h.wakeup++];
            w.latenessNs = hard;
            w.softLatenessNs = soft;
        } else {
            HrtimerLateness &l =
                kind == ExpiryHeads::Tick ? t.tickLateness[h.tick++] : t.otherLateness[h.other++];
            l.latenessNs = hard;
            l.softLatenessNs = soft;
        }
    };
    // Merged by (ts, a start before an expiry, lower CPU) through a min-heap of each CPU's next item:
    // O(log CPUs) per item, where a scan of every CPU's head per item cost O(CPUs) (57 % of `report` on a
    // 128-CPU trace).
    struct Head
    {
        int64_t ts;
        uint8_t expiry; // 0: a start (first at the same ts)
        uint32_t c;
        bool operator>(const Head &o) const
        {
            return ts != o.ts ? ts > o.ts : expiry != o.expiry ? expiry > o.expiry : c > o.c;
        }
    };
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heap;
    auto push = [&](size_t c) {
        int64_t ts;
        bool isStart;
        if (head(c, ts, isStart))
            heap.push({ts, static_cast<uint8_t>(isStart ? 0 : 1), static_cast<uint32_t>(c)});
    };
    for (size_t c = 0; c < n; ++c)
        push(c);
    while (!heap.empty()) {
        const Head h = heap.top();
        heap.pop();
        take(h.c, h.expiry == 0);
        push(h.c);
    }
}

namespace {

// The first switch at or after event `index` (binary search: the switches are in event order).
size_t firstSwitchFrom(const Column<SwitchRec> &sw, size_t index)
{
    size_t lo = 0, hi = sw.size();
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (sw[mid].index < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// The first switch with ts >= t at or after `hint` (hints only move forward: wakeups come in time order).
size_t seekSwitch(const CpuEvents &ev, const Column<SwitchRec> &sw, size_t hint, int64_t t)
{
    const size_t n = sw.size();
    if (hint >= n) return n;
    if (ev.ts(sw[hint].index) >= t) return hint;
    size_t step = 1, lo = hint, hi = hint + 1;
    while (hi < n && ev.ts(sw[hi].index) < t) { // galloping, then binary search in (lo, hi]
        lo = hi;
        step *= 2;
        hi = std::min(n, hi + step);
    }
    while (hi - lo > 1) {
        const size_t mid = lo + (hi - lo) / 2;
        (ev.ts(sw[mid].index) < t ? lo : hi) = mid;
    }
    return hi;
}

// The first switch-in of pid from switch `k` on: its ts, and whether the trace showed it (a pid change
// without sched_switch says the task ran by then, not when it was switched in). ts -1: none within the
// limits.
struct SwitchIn
{
    int64_t ts = -1;
    bool shown = false;
};
SwitchIn findSwitchIn(const Trace &trace, const CpuEvents &ev, const Column<SwitchRec> &sw, size_t k,
                      int32_t pid, int64_t from)
{
    const size_t end = std::min(sw.size(), k + kMaxScanSwitches);
    for (; k < end; ++k) {
        if (sw[k].nextPid != pid) continue;
        const int64_t ts = ev.ts(sw[k].index);
        if (ts - from > kMaxLatencyNs) return {};
        return {ts, trace.kind(ev.type(sw[k].index)) == EventKind::SchedSwitch};
    }
    return {};
}

} // namespace

WakeTarget wokenBy(const Trace &trace, const CpuEvents &ev, const HrtimerWakeup &w)
{
    CpuEvents::OffsetWalker walk(ev);
    return wokenBy(trace, ev, w, walk);
}

WakeTarget wokenBy(const Trace &trace, const CpuEvents &ev, const HrtimerWakeup &w,
                   CpuEvents::OffsetWalker &walk)
{
    constexpr size_t kMaxInside = 256; // events after the naming one inside one expiry callback
    WakeTarget t;
    if (!(w.flags & WakeupFlag::TaskKnown)) return t;
    const size_t named = size_t{w.index} + w.wakeOffset;
    const auto p = walk.payload<SchedWakeP>(named);
    t.onWake(p.pid, p.prio, p.targetCpu, trace.kind(ev.type(named)) == EventKind::SchedWakeup);
    // A soft expiry's task can be preempted (PREEMPT_RT) and other tasks' expiries run before its exit;
    // a hard one ends at the next expiry event.
    const bool soft = w.flags & WakeupFlag::Soft;
    const int32_t expiring = soft ? ev.pid(w.index) : -1;
    const size_t end = std::min(ev.size(), named + kMaxInside);
    for (size_t i = named + 1; i < end; ++i) {
        const EventKind k = trace.kind(ev.type(i));
        if (k == EventKind::HrtimerExpireExit || k == EventKind::HrtimerExpireEntry) {
            if (!soft || ev.pid(i) == expiring) return t;
        } else if (k == EventKind::SchedWakeup) {
            const auto q = walk.payload<SchedWakeP>(i);
            t.onWake(q.pid, q.prio, q.targetCpu, true);
        } else if (k == EventKind::SchedMigrateTask) {
            const auto q = walk.payload<SchedMigrateP>(i);
            t.onMigrate(q.pid, q.destCpu);
        }
    }
    return t;
}

void measureWakeupLatency(const Trace &trace, std::vector<CpuAnalysis> &cpus, int threads)
{
    const int n = trace.cpuCount();
    // The CPUs with any switch: the only ones a woken task can be switched in on or running on.
    std::vector<int> switching;
    for (int c = 0; c < n; ++c) {
        if (!cpus[static_cast<size_t>(c)].timers.switches.empty()) switching.push_back(c);
    }
    parallelFor(cpus.size(), threads, [&](size_t k) {
        CpuAnalysis &a = cpus[k];
        // Per-CPU search hints below are n long: a CPU without wakeups must not pay n (a text trace
        // naming CPU 7000 has 7001 CPUs, nearly all empty, and n x n hints were 0.8 GB of zeroing).
        if (a.timers.wakeups.empty()) return;
        const CpuEvents &own = trace.cpu(a.cpu);
        std::vector<size_t> hint(static_cast<size_t>(n), 0);
        auto find = [&](int c, const HrtimerWakeup &w, int32_t pid, int64_t t0) {
            const CpuEvents &ev = trace.cpu(c);
            const Column<SwitchRec> &sw = cpus[static_cast<size_t>(c)].timers.switches;
            size_t &h = hint[static_cast<size_t>(c)];
            h = c == a.cpu ? firstSwitchFrom(sw, w.index) : seekSwitch(ev, sw, h, t0);
            return findSwitchIn(trace, ev, sw, h, pid, t0);
        };
        std::vector<size_t> atT0(static_cast<size_t>(n), 0);
        // Whether pid is the current task of some CPU at t0 (per the last switch-in at or before it).
        auto runningAt = [&](int32_t pid, int64_t t0) {
            for (int c : switching) {
                const Column<SwitchRec> &sw = cpus[static_cast<size_t>(c)].timers.switches;
                size_t &h = atT0[static_cast<size_t>(c)];
                h = seekSwitch(trace.cpu(c), sw, h, t0 + 1);
                if (h > 0 && sw[h - 1].nextPid == pid) return true;
            }
            return false;
        };
        CpuEvents::OffsetWalker walk(own); // the wakeups are in event order
        for (size_t j = 0; j < a.timers.wakeups.size(); ++j) {
            HrtimerWakeup &w = a.timers.wakeups[j];
            const WakeTarget to = wokenBy(trace, own, w, walk);
            if (to.pid <= 0) continue;
            const int64_t t0 = own.ts(w.index);
            // Woken while still running (it had not scheduled out yet): no switch-in follows this
            // wakeup, and the next one belongs to a later sleep. Its latency is unknown, not huge.
            if (runningAt(to.pid, t0)) continue;
            const int target = to.cpu >= 0 && to.cpu < n ? to.cpu : a.cpu;
            SwitchIn first = find(target, w, to.pid, t0);
            if (first.ts < 0) { // migrated before it ran: the earliest switch-in elsewhere
                for (int c : switching) {
                    if (c == target) continue;
                    const SwitchIn s = find(c, w, to.pid, t0);
                    if (s.ts >= 0 && (first.ts < 0 || s.ts < first.ts)) first = s;
                }
            }
            if (first.ts < 0) continue;
            // A switch-in the trace shows gives the latency; the task's first event after a switch the
            // trace does not show only bounds it from above.
            w.latencyNs = saturate(first.ts - t0);
            if (!first.shown) w.flags |= WakeupFlag::LatencyBound;
        }
    });
    for (CpuAnalysis &c : cpus)
        c.timers.switches = Column<SwitchRec>();
}

} // namespace tickscope
