// SPDX-License-Identifier: GPL-3.0-or-later
#include "HrtimerPairing.h"

#include "SameTimeOrder.h"

#include "util/Parallel.h"
#include "util/PtrMap.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

namespace tickscope {

namespace {

// The last start of each timer pointer: its expiry times.
class PtrTable
{
public:
    explicit PtrTable(size_t expected = 512) : map_(expected) {}
    struct Value
    {
        int64_t expires;
        int64_t softexpires;
        int64_t at = 0; // the start's event time and CPU
        int32_t cpu = -1;
    };
    void put(uint64_t key, Value v)
    {
        if (Value *p = map_.at(key)) *p = v;
    }
    bool has(uint64_t key) const { return map_.find(key) != nullptr; } // a start or its use seen
    Value raw(uint64_t key) const { return *map_.find(key); }          // (has(key))
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
    PtrMap<Value> map_;
};

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

// An expiry (at `now`, its event at trace time `at`) against the last start of its pointer (`v`, null:
// none): its lateness. Unknown when the expiry's CPU or the start's lost events in between: the timer may
// have fired and been started again unseen (its expiry time then is not the one of the start seen).
// startDark: the start's CPU lost events after this time that a stream has not read yet (INT64_MAX: none).
void settle(const Trace &trace, CpuAnalysis &c, ExpiryHeads::Kind kind, size_t slot, int64_t now, int64_t at,
            const PtrTable::Value *v, int64_t startDark = INT64_MAX)
{
    if (v && (trace.cpu(c.cpu).lostBetween(v->at, at) ||
              (v->cpu != c.cpu && (trace.cpu(v->cpu).lostBetween(v->at, at) || startDark < at))))
        v = nullptr;
    CpuTimers &t = c.timers;
    const int32_t hard = v ? saturateNsBetween(v->expires, now) : kUnknownNs;
    const int32_t soft = v ? saturateNsBetween(v->softexpires, now) : kUnknownNs;
    if (kind == ExpiryHeads::Wakeup) {
        HrtimerWakeup &w = t.wakeups[slot];
        w.latenessNs = hard;
        if (v) w.softSlot = t.softLateness->slot(w.index, hard, soft);
    } else if (kind == ExpiryHeads::Tick) {
        c.ticks[slot].latenessNs = hard;
    } else {
        t.otherLateness[slot].latenessNs = hard;
    }
}

// Once every expiry so far is settled: the soft lateness kept by record, in order (SoftLateness::finish).
void finishSoftLateness(std::vector<CpuAnalysis> &cpus)
{
    for (CpuAnalysis &c : cpus)
        c.timers.softLateness->finish();
}

// The same against the table of last starts, whose start the expiry then uses up.
void settle(const Trace &trace, CpuAnalysis &c, ExpiryHeads::Kind kind, size_t slot,
            const HrtimerExpireEntryP &x, int64_t at, PtrTable &last)
{
    settle(trace, c, kind, slot, x.now, at, last.get(x.timer));
    last.consume(x.timer);
}

// An item of a pointer that more than one CPU names, kept for the merge across CPUs. The merge's order:
// time; at one time, every CPU's starts that no expiry of that CPU precedes (a timer armed on one CPU and
// expiring on another within the clock's resolution: the start was first), then the rest; then CPU and
// event index. A CPU's own items stay in event order: text traces print microseconds, and a timer
// re-armed after its expiry often shares the expiry's time (it must not pair with its own re-arm).
struct SharedItem
{
    int64_t ts;
    uint32_t index; // event index: a CPU's order
    uint32_t slot;
    uint16_t c;     // position in `cpus`
    uint8_t expiry; // 0: a start
    uint8_t kind;   // ExpiryHeads::Kind of an expiry
    uint8_t late;   // an expiry, or a start after an expiry of its CPU at its time
};

bool mergesBefore(const SharedItem &a, const SharedItem &b)
{
    if (a.ts != b.ts) return a.ts < b.ts;
    if (a.late != b.late) return a.late < b.late;
    if (a.c != b.c) return a.c < b.c;
    return a.index < b.index;
}

} // namespace

struct IncrementalPairing::Cursor
{
    size_t start = 0; // the next event to look for a start at
    ExpiryHeads heads;
    AfterAtTime late; // SharedItem::late: expiries go second
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

void IncrementalPairing::through(const Trace &trace, std::vector<CpuAnalysis> &cpus, int64_t t, int threads,
                                 const std::vector<int64_t> &darkFrom)
{
    cursors_.resize(cpus.size());
    items_.resize(cpus.size() * kShards);
    // Each CPU's items up to t in event order (the events up to t are all in: a start not seen yet comes
    // after every expiry taken here), all CPUs at once, each into the shard of its pointer; then each
    // shard's items of every CPU merged in pairHrtimers' order (mergesBefore), the shards at once:
    // pointers are independent of one another, so the pairs are those of a single merge of everything.
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
            if (hasS && (!hasE || cur.start < expiry)) {
                const auto st = ev.payload<HrtimerStartP>(cur.start);
                const int64_t ts = ev.ts(cur.start);
                items_[c * kShards + st.timer % kShards].push_back(
                    {{ts, static_cast<uint32_t>(cur.start), 0, static_cast<uint16_t>(c), 0, 0,
                      cur.late(ts, false)},
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
                  static_cast<uint8_t>(kind), cur.late(ev.ts(expiry), true)},
                 x.timer,
                 x.now,
                 0});
        }
    });
    struct Head
    {
        SharedItem item;
        size_t at;
    };
    parallelFor(kShards, threads, [&](size_t s) {
        auto cmp = [&](const Head &a, const Head &b) { return mergesBefore(b.item, a.item); };
        std::priority_queue<Head, std::vector<Head>, decltype(cmp)> heads(cmp);
        for (size_t c = 0; c < cpus.size(); ++c)
            if (!items_[c * kShards + s].empty()) heads.push({items_[c * kShards + s][0].v, 0});
        Table &table = last_[s];
        while (!heads.empty()) {
            const Head h = heads.top();
            heads.pop();
            const std::vector<Item> &mine = items_[size_t{h.item.c} * kShards + s];
            const Item &it = mine[h.at];
            PtrTable::Value *v = it.timer ? &table.at(it.timer) : nullptr; // no pointer: nothing to pair
            if (it.v.expiry == 0) {
                if (v) *v = {it.expiresOrNow, it.softexpires, it.v.ts, cpus[it.v.c].cpu};
            } else {
                const bool live = v && v->expires != PtrTable::kConsumed;
                const int64_t dark = live && static_cast<size_t>(v->cpu) < darkFrom.size()
                                         ? darkFrom[static_cast<size_t>(v->cpu)]
                                         : INT64_MAX;
                settle(trace, cpus[it.v.c], static_cast<ExpiryHeads::Kind>(it.v.kind), it.v.slot,
                       it.expiresOrNow, it.v.ts, live ? v : nullptr, dark);
                if (v) v->expires = PtrTable::kConsumed;
            }
            if (h.at + 1 < mine.size()) heads.push({mine[h.at + 1].v, h.at + 1});
        }
    });
    finishSoftLateness(cpus);
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

namespace {

constexpr size_t kPairingPartEvents = size_t{1} << 18;

// A piece of one CPU's events, [first, end), for one thread: a busy CPU is cut into many so that its
// pairing is spread over every core. Pieces end where the time changes (a piece holds all of its CPU's
// items of each of its times: the merge's order at one time depends on them, SharedItem).
struct Piece
{
    size_t c; // position in `cpus`
    size_t first, end;
};

std::vector<Piece> piecesOf(const Trace &trace, const std::vector<CpuAnalysis> &cpus, size_t part)
{
    std::vector<Piece> pieces;
    for (size_t c = 0; c < cpus.size(); ++c) {
        const CpuEvents &ev = trace.cpu(cpus[c].cpu);
        for (size_t a = 0; a < ev.size();) {
            size_t b = std::min(ev.size(), a + part);
            while (b < ev.size() && ev.ts(b) == ev.ts(b - 1))
                ++b;
            pieces.push_back({c, a, b});
            a = b;
        }
    }
    return pieces;
}

// What a piece could not settle alone: its expiries of a pointer that no earlier item of the piece named
// (they pair with the pointer's last start in an earlier piece), and what the piece left in its table.
struct PieceResult
{
    struct Deferred
    {
        uint64_t timer;
        int64_t now, at;
        uint32_t slot;
        ExpiryHeads::Kind kind;
    };
    std::vector<Deferred> deferred; // in the piece's order
    std::vector<std::pair<uint64_t, PtrTable::Value>> last;
    std::vector<SharedItem> shared;
};

} // namespace

void pairHrtimers(const Trace &trace, std::vector<CpuAnalysis> &cpus, int threads, size_t partEvents)
{
    // The pairing follows each pointer through time: an expiry pairs with the last start of its pointer
    // before it on any CPU (on its CPU in event order; across CPUs at one time, a start first), and uses
    // it up. Pointers are
    // independent of one another, so a pointer that only one CPU names (the per-CPU tick, the sleepers
    // of the tasks that ran there) is paired within that CPU, all CPUs at once; only the items of
    // pointers several CPUs name go through one merge (mergesBefore), the order a single merge
    // of every CPU would take them in. A CPU's events are taken in pieces, all at once: a piece pairs what
    // it holds the start of, and its first expiry of each other pointer waits for the pieces before it.
    const size_t n = cpus.size();
    const std::vector<Piece> pieces = piecesOf(trace, cpus, partEvents ? partEvents : kPairingPartEvents);
    // 1. Which CPUs name each pointer.
    std::vector<PtrOwners> seen(pieces.size());
    parallelFor(pieces.size(), threads, [&](size_t k) {
        const Piece &piece = pieces[k];
        const CpuEvents &ev = trace.cpu(cpus[piece.c].cpu);
        CpuEvents::OffsetWalker walk(ev);
        PtrOwners &own = seen[k];
        for (size_t i = piece.first; i < piece.end; ++i) {
            const EventKind kind = trace.kind(ev.type(i));
            if (kind == EventKind::HrtimerStart)
                own.note(walk.payload<HrtimerStartP>(i).timer, static_cast<int32_t>(piece.c));
            else if (kind == EventKind::HrtimerExpireEntry)
                own.note(walk.payload<HrtimerExpireEntryP>(i).timer, static_cast<int32_t>(piece.c));
        }
    });
    size_t pointers = 0;
    for (const PtrOwners &o : seen)
        pointers += o.size();
    PtrOwners owners(pointers);
    for (const PtrOwners &o : seen)
        o.forEach([&](uint64_t key, int32_t c) { owners.note(key, c); });
    seen.clear();

    // 2. Each piece's items of its CPU's own pointers; the shared ones set aside in order.
    std::vector<PieceResult> results(pieces.size());
    parallelFor(pieces.size(), threads, [&](size_t k) {
        const Piece &piece = pieces[k];
        CpuAnalysis &ca = cpus[piece.c];
        const CpuEvents &ev = trace.cpu(ca.cpu);
        PieceResult &r = results[k];
        CpuEvents::OffsetWalker startAt(ev), expiryAt(ev);
        PtrTable last(16);           // (grown as pointers come: a piece may be small)
        std::vector<uint64_t> named; // the pointers this piece has taken an item of
        ExpiryHeads h;
        h.wakeup = firstRecordFrom(ca.timers.wakeups, piece.first);
        h.tick = firstRecordFrom(ca.ticks, piece.first);
        h.other = firstRecordFrom(ca.timers.otherLateness, piece.first);
        auto nextStart = [&](size_t from) {
            while (from < piece.end && trace.kind(ev.type(from)) != EventKind::HrtimerStart)
                ++from;
            return from;
        };
        AfterAtTime lateAt; // (a piece holds all of its CPU's events of each of its times)
        for (size_t s = nextStart(piece.first);;) {
            uint32_t expiry;
            ExpiryHeads::Kind kind = h.next(ca, expiry);
            if (kind != ExpiryHeads::None && expiry >= piece.end) kind = ExpiryHeads::None;
            const bool hasS = s < piece.end, hasE = kind != ExpiryHeads::None;
            if (!hasS && !hasE) break;
            const bool isStart = hasS && (!hasE || s < expiry);
            const size_t i = isStart ? s : expiry;
            const uint8_t late = lateAt(ev.ts(i), !isStart);
            size_t slot = 0;
            if (!isStart)
                slot = kind == ExpiryHeads::Wakeup ? h.wakeup++
                       : kind == ExpiryHeads::Tick ? h.tick++
                                                   : h.other++;
            else
                s = nextStart(s + 1);
            const uint64_t ptr = isStart ? startAt.payload<HrtimerStartP>(i).timer
                                         : expiryAt.payload<HrtimerExpireEntryP>(i).timer;
            if (owners.owner(ptr) == PtrOwners::kShared) {
                r.shared.push_back({ev.ts(i), static_cast<uint32_t>(i), static_cast<uint32_t>(slot),
                                    static_cast<uint16_t>(piece.c), static_cast<uint8_t>(isStart ? 0 : 1),
                                    static_cast<uint8_t>(kind), late});
                continue;
            }
            if (isStart) {
                const auto st = startAt.payload<HrtimerStartP>(i);
                if (ptr && !last.has(ptr)) named.push_back(ptr);
                last.put(st.timer, {st.expires, st.softexpires, ev.ts(i), ca.cpu});
            } else if (last.has(ptr) || piece.first == 0 || !ptr) {
                settle(trace, ca, kind, slot, expiryAt.payload<HrtimerExpireEntryP>(i), ev.ts(i), last);
            } else {
                r.deferred.push_back({ptr, expiryAt.payload<HrtimerExpireEntryP>(i).now, ev.ts(i),
                                      static_cast<uint32_t>(slot), kind});
                named.push_back(ptr);
                last.put(ptr, {PtrTable::kConsumed, 0, 0, -1}); // used up, whatever its start was
            }
        }
        r.last.reserve(named.size());
        for (const uint64_t ptr : named)
            r.last.push_back({ptr, last.raw(ptr)});
    });

    // 3. Each CPU's pieces in order: their waiting expiries against what the pieces before left.
    std::vector<size_t> firstPiece(n + 1, pieces.size());
    for (size_t k = pieces.size(); k-- > 0;)
        firstPiece[pieces[k].c] = k;
    for (size_t c = n; c-- > 0;)
        firstPiece[c] = std::min(firstPiece[c], firstPiece[c + 1]);
    parallelFor(n, threads, [&](size_t c) {
        if (firstPiece[c + 1] - firstPiece[c] < 2) return;
        PtrTable last;
        for (size_t k = firstPiece[c]; k < firstPiece[c + 1]; ++k) {
            for (const PieceResult::Deferred &d : results[k].deferred) {
                settle(trace, cpus[c], d.kind, d.slot, d.now, d.at, last.get(d.timer));
                last.consume(d.timer);
            }
            for (const auto &[ptr, v] : results[k].last)
                last.put(ptr, v);
        }
    });

    // 4. The shared pointers' items of every CPU, merged.
    std::vector<SharedItem> all;
    for (PieceResult &r : results) {
        all.insert(all.end(), r.shared.begin(), r.shared.end());
        r = PieceResult();
    }
    std::sort(all.begin(), all.end(), mergesBefore);
    PtrTable last;
    for (const SharedItem &it : all) {
        const CpuEvents &ev = trace.cpu(cpus[it.c].cpu);
        if (it.expiry == 0) {
            const auto st = ev.payload<HrtimerStartP>(it.index);
            last.put(st.timer, {st.expires, st.softexpires, it.ts, cpus[it.c].cpu});
        } else {
            settle(trace, cpus[it.c], static_cast<ExpiryHeads::Kind>(it.kind), it.slot,
                   ev.payload<HrtimerExpireEntryP>(it.index), it.ts, last);
        }
    }
    finishSoftLateness(cpus);
}

} // namespace tickscope
