#include "HrtimerPairing.h"

#include "util/Parallel.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

namespace tickscope {

namespace {

constexpr size_t kMaxScanSwitches = 1u << 14; // how far after a wakeup its switch-in is looked for
// and at most this long after it: a later switch-in most likely belongs to a later wakeup (the task was
// already running when this one came), so the latency is reported unknown rather than wrong.
constexpr int64_t kMaxLatencyNs = kMaxWakeupLatencyNs;

// Open addressing, linear probing, keyed by an hrtimer's address; key 0 is "empty" (no hrtimer lives at
// address 0).
template <class V> class PtrMap
{
public:
    explicit PtrMap(size_t expected, V absent = {}) : absent_(absent)
    {
        size_t n = 64;
        while (n < expected * 2)
            n *= 2;
        keys_.assign(n, 0);
        values_.assign(n, absent_);
    }
    // The value of key, inserted as `absent` when new; null for key 0.
    V *at(uint64_t key)
    {
        if (key == 0) return nullptr;
        if ((used_ + 1) * 2 > keys_.size()) grow();
        const size_t k = slot(key);
        if (keys_[k] == 0) {
            keys_[k] = key;
            values_[k] = absent_;
            ++used_;
        }
        return &values_[k];
    }
    const V *find(uint64_t key) const
    {
        if (key == 0) return nullptr;
        const size_t k = slot(key);
        return keys_[k] == key ? &values_[k] : nullptr;
    }
    V *find(uint64_t key) { return const_cast<V *>(std::as_const(*this).find(key)); }
    template <class F> void forEach(F f) const
    {
        for (size_t k = 0; k < keys_.size(); ++k)
            if (keys_[k]) f(keys_[k], values_[k]);
    }
    size_t size() const { return used_; }

private:
    size_t slot(uint64_t key) const
    {
        const size_t mask = keys_.size() - 1;
        size_t k = static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> 20) & mask;
        while (keys_[k] != 0 && keys_[k] != key)
            k = (k + 1) & mask;
        return k;
    }
    void grow()
    {
        std::vector<uint64_t> keys = std::move(keys_);
        std::vector<V> values = std::move(values_);
        keys_.assign(keys.size() * 2, 0);
        values_.assign(keys.size() * 2, absent_);
        used_ = 0;
        for (size_t k = 0; k < keys.size(); ++k)
            if (keys[k]) *at(keys[k]) = values[k];
    }
    V absent_;
    std::vector<uint64_t> keys_;
    std::vector<V> values_;
    size_t used_ = 0;
};

// The last start of each timer pointer: its expiry times.
class PtrTable
{
public:
    struct Value
    {
        int64_t expires;
        int64_t softexpires;
    };
    void put(uint64_t key, Value v)
    {
        if (Value *p = map_.at(key)) *p = v;
    }
    const Value *get(uint64_t key) const
    {
        const Value *v = map_.find(key);
        return v && v->expires != kConsumed ? v : nullptr;
    }
    // An expiry dequeues the timer: its start is used up. A later expiry without a traced start in
    // between was re-armed by a path the trace does not show (6.18 re-enqueues a restarting tick
    // without hrtimer_start), so its expiry time is unknown.
    void consume(uint64_t key)
    {
        if (Value *v = map_.find(key)) v->expires = kConsumed;
    }
    static constexpr int64_t kConsumed = INT64_MIN;

private:
    PtrMap<Value> map_{512};
};

int32_t saturate(int64_t v)
{
    return static_cast<int32_t>(
        std::clamp<int64_t>(v, std::numeric_limits<int32_t>::min() + 1, std::numeric_limits<int32_t>::max()));
}

// The next hrtimer expiry of one CPU: the earliest head of its three expiry lists (each in event order; the
// ticks are the tick hrtimer's expiries until the low-res fallback is decided, after the pairing).
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
    Kind next(const CpuAnalysis &c, uint32_t &index) const
    {
        const CpuTimers &t = c.timers;
        Kind k = None;
        index = UINT32_MAX;
        if (wakeup < t.wakeups.size()) k = Wakeup, index = t.wakeups[wakeup].index;
        if (tick < c.ticks.size() && c.ticks[tick].index < index) k = Tick, index = c.ticks[tick].index;
        if (other < t.otherLateness.size() && t.otherLateness[other].index < index)
            k = Other, index = t.otherLateness[other].index;
        return k;
    }
};

} // namespace

namespace {

// The CPU whose events alone name a timer pointer, or kShared when two or more CPUs do (a timer started on
// one CPU and expired on another: migration, remote arming).
class PtrOwners
{
public:
    static constexpr int32_t kNone = -1, kShared = -2;
    explicit PtrOwners(size_t expected = 64) : map_(expected, kNone) {}
    void note(uint64_t key, int32_t cpu)
    {
        if (int32_t *o = map_.at(key)) *o = *o == kNone || *o == cpu ? cpu : kShared;
    }
    int32_t owner(uint64_t key) const
    {
        const int32_t *o = map_.find(key);
        return o ? *o : kNone;
    }
    template <class F> void forEach(F f) const { map_.forEach(f); }
    size_t size() const { return map_.size(); }

private:
    PtrMap<int32_t> map_;
};

// One CPU's hrtimer starts and expiries in the order the pairing takes them: by time, a start before an
// expiry of the same ts, else event order. `item(isStart, index, kind, slot)` gets each; kind and slot
// say which expiry record (ExpiryHeads) an expiry fills.
template <class F> void walkTimerItems(const Trace &trace, const CpuAnalysis &c, F item)
{
    const CpuEvents &ev = trace.cpu(c.cpu);
    const size_t size = ev.size();
    auto nextStart = [&](size_t from) {
        while (from < size && trace.kind(ev.type(from)) != EventKind::HrtimerStart)
            ++from;
        return from;
    };
    size_t s = nextStart(0);
    ExpiryHeads h;
    for (;;) {
        uint32_t expiry;
        const ExpiryHeads::Kind kind = h.next(c, expiry);
        const bool hasS = s < size, hasE = kind != ExpiryHeads::None;
        if (!hasS && !hasE) return;
        if (hasS && (!hasE || ev.ts(s) <= ev.ts(expiry))) {
            item(true, s, kind, size_t{0});
            s = nextStart(s + 1);
            continue;
        }
        size_t &slot = kind == ExpiryHeads::Wakeup ? h.wakeup : kind == ExpiryHeads::Tick ? h.tick : h.other;
        item(false, expiry, kind, slot++);
    }
}

// An expiry (at `now`) against the last start of its pointer (`v`, null: none): its lateness.
void settle(CpuAnalysis &c, ExpiryHeads::Kind kind, size_t slot, int64_t now, const PtrTable::Value *v)
{
    CpuTimers &t = c.timers;
    const int32_t hard = v ? saturate(now - v->expires) : kUnknownNs;
    const int32_t soft = v ? saturate(now - v->softexpires) : kUnknownNs;
    if (kind == ExpiryHeads::Wakeup) {
        t.wakeups[slot].latenessNs = hard;
        t.wakeups[slot].softLatenessNs = soft;
    } else if (kind == ExpiryHeads::Tick) {
        c.ticks[slot].latenessNs = hard;
    } else {
        t.otherLateness[slot].latenessNs = hard;
    }
}

// The same against the table of last starts, whose start the expiry then uses up.
void settle(CpuAnalysis &c, ExpiryHeads::Kind kind, size_t slot, const HrtimerExpireEntryP &x, PtrTable &last)
{
    settle(c, kind, slot, x.now, last.get(x.timer));
    last.consume(x.timer);
}

// An item of a pointer that more than one CPU names, kept for the merge across CPUs.
struct SharedItem
{
    int64_t ts;
    uint32_t index;
    uint32_t slot;
    uint16_t c;     // position in `cpus`
    uint8_t expiry; // 0: a start (first at the same ts)
    uint8_t kind;   // ExpiryHeads::Kind of an expiry
    uint32_t seq;   // its place in its CPU's order
};

} // namespace

struct IncrementalPairing::Cursor
{
    size_t start = 0; // the next event to look for a start at
    ExpiryHeads heads;
    uint32_t seq = 0;
};

// The last start of each pointer of one shard (ids s, s + kShards, ...), indexed by id / kShards: the ids
// are dense (a per-trace table), so a vector, grown as new ids come, stands for the hash map. Absent and
// used-up starts read the same (no start to pair with).
struct IncrementalPairing::Table
{
    std::vector<PtrTable::Value> last;
    PtrTable::Value &at(uint32_t id)
    {
        const size_t k = id / kShards;
        if (k >= last.size()) last.resize(std::max(k + 1, last.size() * 2), {PtrTable::kConsumed, 0});
        return last[k];
    }
};

// A start or an expiry with what the merge needs of its payload, read on its CPU's thread.
struct IncrementalPairing::Item
{
    SharedItem v;
    uint32_t timer;
    int64_t expiresOrNow;
    int64_t softexpires;
};

IncrementalPairing::IncrementalPairing() : last_(kShards) {}
IncrementalPairing::~IncrementalPairing() = default;

void IncrementalPairing::through(const Trace &trace, std::vector<CpuAnalysis> &cpus, int64_t t, int threads)
{
    cursors_.resize(cpus.size());
    items_.resize(cpus.size() * kShards);
    // Each CPU's items up to t in walkTimerItems' order (the events up to t are all in: a start not seen
    // yet comes after every expiry taken here), all CPUs at once, each into the shard of its pointer; then
    // each shard's items of every CPU merged in pairHrtimers' order (ts, start first, CPU, the CPU's
    // order), the shards at once: pointers are independent of one another, so the pairs are those of a
    // single merge of everything.
    parallelFor(cpus.size(), threads, [&](size_t c) {
        CpuAnalysis &ca = cpus[c];
        const CpuEvents &ev = trace.cpu(ca.cpu);
        Cursor &cur = cursors_[c];
        for (size_t s = 0; s < kShards; ++s)
            items_[c * kShards + s].clear();
        const size_t size = ev.size();
        auto nextStart = [&] {
            while (cur.start < size && trace.kind(ev.type(cur.start)) != EventKind::HrtimerStart)
                ++cur.start;
        };
        nextStart();
        for (;;) {
            uint32_t expiry;
            const ExpiryHeads::Kind kind = cur.heads.next(ca, expiry);
            const bool hasS = cur.start < size && ev.ts(cur.start) <= t;
            const bool hasE = kind != ExpiryHeads::None && ev.ts(expiry) <= t;
            if (!hasS && !hasE) break;
            if (hasS && (!hasE || ev.ts(cur.start) <= ev.ts(expiry))) {
                const auto st = ev.payload<HrtimerStartP>(cur.start);
                items_[c * kShards + st.timer % kShards].push_back(
                    {{ev.ts(cur.start), static_cast<uint32_t>(cur.start), 0, static_cast<uint16_t>(c), 0, 0,
                      cur.seq++},
                     st.timer,
                     st.expires,
                     st.softexpires});
                ++cur.start;
                nextStart();
                continue;
            }
            size_t &slot = kind == ExpiryHeads::Wakeup ? cur.heads.wakeup
                           : kind == ExpiryHeads::Tick ? cur.heads.tick
                                                       : cur.heads.other;
            const auto x = ev.payload<HrtimerExpireEntryP>(expiry);
            items_[c * kShards + x.timer % kShards].push_back(
                {{ev.ts(expiry), expiry, static_cast<uint32_t>(slot++), static_cast<uint16_t>(c), 1,
                  static_cast<uint8_t>(kind), cur.seq++},
                 x.timer,
                 x.now,
                 0});
        }
    });
    auto later = [](const SharedItem &a, const SharedItem &b) {
        if (a.ts != b.ts) return a.ts > b.ts;
        if (a.expiry != b.expiry) return a.expiry > b.expiry;
        if (a.c != b.c) return a.c > b.c;
        return a.seq > b.seq;
    };
    struct Head
    {
        SharedItem item;
        size_t at;
    };
    parallelFor(kShards, threads, [&](size_t s) {
        auto cmp = [&](const Head &a, const Head &b) { return later(a.item, b.item); };
        std::priority_queue<Head, std::vector<Head>, decltype(cmp)> heads(cmp);
        for (size_t c = 0; c < cpus.size(); ++c)
            if (!items_[c * kShards + s].empty()) heads.push({items_[c * kShards + s][0].v, 0});
        Table &table = last_[s];
        while (!heads.empty()) {
            const Head h = heads.top();
            heads.pop();
            const std::vector<Item> &mine = items_[size_t{h.item.c} * kShards + s];
            const Item &it = mine[h.at];
            if (it.timer != 0) { // no pointer: nothing to pair (as PtrTable)
                PtrTable::Value &v = table.at(it.timer);
                if (it.v.expiry == 0) {
                    v = {it.expiresOrNow, it.softexpires};
                } else {
                    settle(cpus[it.v.c], static_cast<ExpiryHeads::Kind>(it.v.kind), it.v.slot,
                           it.expiresOrNow, v.expires == PtrTable::kConsumed ? nullptr : &v);
                    v.expires = PtrTable::kConsumed;
                }
            } else if (it.v.expiry) {
                settle(cpus[it.v.c], static_cast<ExpiryHeads::Kind>(it.v.kind), it.v.slot, it.expiresOrNow,
                       nullptr);
            }
            if (h.at + 1 < mine.size()) heads.push({mine[h.at + 1].v, h.at + 1});
        }
    });
}

size_t IncrementalPairing::nextStart(size_t c) const
{
    return c < cursors_.size() ? cursors_[c].start : 0;
}

size_t IncrementalPairing::paired(size_t c, int kind) const
{
    if (c >= cursors_.size()) return 0;
    const ExpiryHeads &h = cursors_[c].heads;
    return kind == 0 ? h.wakeup : kind == 1 ? h.tick : h.other;
}

void pairHrtimers(const Trace &trace, std::vector<CpuAnalysis> &cpus, int threads)
{
    // The pairing follows each pointer through time: an expiry pairs with the last start of its pointer
    // before it on any CPU (a start before an expiry of the same ts), and uses it up. Pointers are
    // independent of one another, so a pointer that only one CPU names (the per-CPU tick, the sleepers
    // of the tasks that ran there) is paired within that CPU, all CPUs at once; only the items of
    // pointers several CPUs name go through one merge by (ts, start first, CPU), the order a single merge
    // of every CPU would take them in.
    const size_t n = cpus.size();
    // 1. Which CPUs name each pointer.
    std::vector<PtrOwners> seen(n);
    parallelFor(n, threads, [&](size_t c) {
        const CpuEvents &ev = trace.cpu(cpus[c].cpu);
        CpuEvents::OffsetWalker walk(ev);
        PtrOwners &own = seen[c];
        for (size_t i = 0; i < ev.size(); ++i) {
            const EventKind k = trace.kind(ev.type(i));
            if (k == EventKind::HrtimerStart)
                own.note(walk.payload<HrtimerStartP>(i).timer, static_cast<int32_t>(c));
            else if (k == EventKind::HrtimerExpireEntry)
                own.note(walk.payload<HrtimerExpireEntryP>(i).timer, static_cast<int32_t>(c));
        }
    });
    size_t pointers = 0;
    for (const PtrOwners &o : seen)
        pointers += o.size();
    PtrOwners owners(pointers);
    for (const PtrOwners &o : seen)
        o.forEach([&](uint64_t key, int32_t c) { owners.note(key, c); });
    seen.clear();

    // 2. Each CPU's own pointers, on the CPU; the shared ones set aside in order.
    std::vector<std::vector<SharedItem>> shared(n);
    parallelFor(n, threads, [&](size_t c) {
        CpuAnalysis &ca = cpus[c];
        const CpuEvents &ev = trace.cpu(ca.cpu);
        if (ev.empty()) return; // no table for a CPU without events (sparse text traces have thousands)
        CpuEvents::OffsetWalker startAt(ev), expiryAt(ev);
        PtrTable last;
        uint32_t seq = 0;
        walkTimerItems(trace, ca, [&](bool isStart, size_t i, ExpiryHeads::Kind kind, size_t slot) {
            const uint64_t ptr = isStart ? startAt.payload<HrtimerStartP>(i).timer
                                         : expiryAt.payload<HrtimerExpireEntryP>(i).timer;
            if (owners.owner(ptr) == PtrOwners::kShared) {
                shared[c].push_back({ev.ts(i), static_cast<uint32_t>(i), static_cast<uint32_t>(slot),
                                     static_cast<uint16_t>(c), static_cast<uint8_t>(isStart ? 0 : 1),
                                     static_cast<uint8_t>(kind), seq++});
                return;
            }
            ++seq;
            if (isStart) {
                const auto st = startAt.payload<HrtimerStartP>(i);
                last.put(st.timer, {st.expires, st.softexpires});
            } else {
                settle(ca, kind, slot, expiryAt.payload<HrtimerExpireEntryP>(i), last);
            }
        });
    });

    // 3. The shared pointers' items of every CPU, merged.
    std::vector<SharedItem> all;
    for (auto &v : shared) {
        all.insert(all.end(), v.begin(), v.end());
        std::vector<SharedItem>().swap(v);
    }
    std::sort(all.begin(), all.end(), [](const SharedItem &a, const SharedItem &b) {
        if (a.ts != b.ts) return a.ts < b.ts;
        if (a.expiry != b.expiry) return a.expiry < b.expiry;
        if (a.c != b.c) return a.c < b.c;
        return a.seq < b.seq;
    });
    PtrTable last;
    for (const SharedItem &it : all) {
        const CpuEvents &ev = trace.cpu(cpus[it.c].cpu);
        if (it.expiry == 0) {
            const auto st = ev.payload<HrtimerStartP>(it.index);
            last.put(st.timer, {st.expires, st.softexpires});
        } else {
            settle(cpus[it.c], static_cast<ExpiryHeads::Kind>(it.kind), it.slot,
                   ev.payload<HrtimerExpireEntryP>(it.index), last);
        }
    }
}

namespace {

// The first switch at or after event `index` (binary search from `lo`: the switches are in event order).
size_t firstSwitchFrom(const Column<SwitchRec> &sw, size_t index, size_t lo = 0)
{
    size_t hi = sw.size();
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (sw[mid].index < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// A CPU's switch records with their events' times and kinds; in a trace read in parts the first record
// still read may have lost its event (`live`: its time and kind kept aside).
struct SwitchTimes
{
    const Trace &trace;
    const CpuEvents &ev;
    const Column<SwitchRec> &sw;
    const LiveSwitch *live = nullptr;
    int64_t ts(size_t k) const { return live && k == live->record ? live->ts : ev.ts(sw[k].index); }
    bool shown(size_t k) const
    {
        return live && k == live->record ? live->shown
                                         : trace.kind(ev.type(sw[k].index)) == EventKind::SchedSwitch;
    }
};

// The first switch with ts >= t at or after `hint` (hints only move forward: wakeups come in time order).
size_t seekSwitch(const SwitchTimes &st, size_t hint, int64_t t)
{
    const size_t n = st.sw.size();
    if (hint >= n) return n;
    if (st.ts(hint) >= t) return hint;
    size_t step = 1, lo = hint, hi = hint + 1;
    while (hi < n && st.ts(hi) < t) { // galloping, then binary search in (lo, hi]
        lo = hi;
        step *= 2;
        hi = std::min(n, hi + step);
    }
    while (hi - lo > 1) {
        const size_t mid = lo + (hi - lo) / 2;
        (st.ts(mid) < t ? lo : hi) = mid;
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
SwitchIn findSwitchIn(const SwitchTimes &st, size_t k, int32_t pid, int64_t from)
{
    const size_t end = std::min(st.sw.size(), k + kMaxScanSwitches);
    for (; k < end; ++k) {
        if (st.sw[k].nextPid != pid) continue;
        const int64_t ts = st.ts(k);
        if (ts - from > kMaxLatencyNs) return {};
        return {ts, st.shown(k)};
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
    constexpr size_t kMaxInside = kWokenByEvents; // events after the naming one inside one expiry callback
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

namespace {

// The latency of CPU k's wakeups [from, to).
void measureCpu(const Trace &trace, std::vector<CpuAnalysis> &cpus, size_t k, size_t from, size_t to,
                const std::vector<int> &switching, const std::vector<LiveSwitch> *live)
{
    const int n = trace.cpuCount();
    CpuAnalysis &a = cpus[k];
    // Per-CPU search hints below are n long: a CPU without wakeups must not pay n (a text trace
    // naming CPU 7000 has 7001 CPUs, nearly all empty, and n x n hints were 0.8 GB of zeroing).
    if (from >= to) return;
    const CpuEvents &own = trace.cpu(a.cpu);
    auto first = [&](int c) { return live ? (*live)[static_cast<size_t>(c)].record : 0; };
    auto times = [&](int c) {
        return SwitchTimes{trace, trace.cpu(c), cpus[static_cast<size_t>(c)].timers.switches,
                           live ? &(*live)[static_cast<size_t>(c)] : nullptr};
    };
    std::vector<size_t> hint(static_cast<size_t>(n), 0);
    for (int c : switching)
        hint[static_cast<size_t>(c)] = first(c);
    auto find = [&](int c, const HrtimerWakeup &w, int32_t pid, int64_t t0) {
        const SwitchTimes st = times(c);
        size_t &h = hint[static_cast<size_t>(c)];
        h = c == a.cpu ? firstSwitchFrom(st.sw, w.index, first(c)) : seekSwitch(st, h, t0);
        return findSwitchIn(st, h, pid, t0);
    };
    std::vector<size_t> atT0 = hint;
    // Whether pid is the current task of some CPU at t0 (per the last switch-in at or before it).
    auto runningAt = [&](int32_t pid, int64_t t0) {
        for (int c : switching) {
            const SwitchTimes st = times(c);
            size_t &h = atT0[static_cast<size_t>(c)];
            h = seekSwitch(st, h, t0 + 1);
            if (h > 0 && st.sw[h - 1].nextPid == pid) return true;
        }
        return false;
    };
    CpuEvents::OffsetWalker walk(own); // the wakeups are in event order
    for (size_t j = from; j < to; ++j) {
        HrtimerWakeup &w = a.timers.wakeups[j];
        const WakeTarget target = wokenBy(trace, own, w, walk);
        if (target.pid <= 0) continue;
        const int64_t t0 = own.ts(w.index);
        // Woken while still running (it had not scheduled out yet): no switch-in follows this
        // wakeup, and the next one belongs to a later sleep. Its latency is unknown, not huge.
        if (runningAt(target.pid, t0)) continue;
        const int on = target.cpu >= 0 && target.cpu < n ? target.cpu : a.cpu;
        SwitchIn first = find(on, w, target.pid, t0);
        if (first.ts < 0) { // migrated before it ran: the earliest switch-in elsewhere
            for (int c : switching) {
                if (c == on) continue;
                const SwitchIn s = find(c, w, target.pid, t0);
                if (s.ts >= 0 && (first.ts < 0 || s.ts < first.ts)) first = s;
            }
        }
        if (first.ts < 0) continue;
        // A switch-in the trace shows gives the latency; the task's first event after a switch the
        // trace does not show only bounds it from above.
        w.latencyNs = saturate(first.ts - t0);
        if (!first.shown) w.flags |= WakeupFlag::LatencyBound;
    }
}

// The CPUs with any switch: the only ones a woken task can be switched in on or running on.
std::vector<int> switchingCpus(const std::vector<CpuAnalysis> &cpus)
{
    std::vector<int> switching;
    for (const CpuAnalysis &c : cpus)
        if (!c.timers.switches.empty()) switching.push_back(c.cpu);
    return switching;
}

} // namespace

void measureWakeupLatency(const Trace &trace, std::vector<CpuAnalysis> &cpus, int threads)
{
    const std::vector<int> switching = switchingCpus(cpus);
    parallelFor(cpus.size(), threads, [&](size_t k) {
        measureCpu(trace, cpus, k, 0, cpus[k].timers.wakeups.size(), switching, nullptr);
    });
    for (CpuAnalysis &c : cpus)
        c.timers.switches = Column<SwitchRec>();
}

void measureWakeupLatency(const Trace &trace, std::vector<CpuAnalysis> &cpus, int threads,
                          const std::vector<std::pair<size_t, size_t>> &ranges,
                          const std::vector<LiveSwitch> &live)
{
    const std::vector<int> switching = switchingCpus(cpus);
    parallelFor(cpus.size(), threads, [&](size_t k) {
        measureCpu(trace, cpus, k, ranges[k].first, ranges[k].second, switching, &live);
    });
}

} // namespace tickscope
