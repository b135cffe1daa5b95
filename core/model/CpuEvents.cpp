// SPDX-License-Identifier: GPL-3.0-or-later
#include "CpuEvents.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace tickscope {

void CpuEvents::reserve(size_t events, size_t payloadBytes, bool hugeColumns, bool streamed,
                        size_t streamedAhead)
{
    const size_t ahead = streamed ? streamedAhead : 0;
    for (auto *c : {&tsLow_, &blockOffset_, &blockEpoch_})
        c->setLazy(streamed, ahead);
    for (auto *c : {&type8_, &flags_, &preempt_, &arena_})
        c->setLazy(streamed, ahead);
    type16_.setLazy(streamed, ahead);
    runs_.setLazy(streamed, ahead);
    // An upper bound is cheap: Column reserves address space, not memory.
    tsLow_.reserve(events, hugeColumns);
    if (wide_)
        type16_.reserve(events, hugeColumns);
    else
        type8_.reserve(events, hugeColumns);
    flags_.reserve(events, hugeColumns);
    preempt_.reserve(events, hugeColumns);
    arena_.reserve(payloadBytes, !streamed);
    blockOffset_.reserve((events >> kBlockShift) + 1);
    blockEpoch_.reserve((events >> kBlockShift) + 1);
}

bool CpuEvents::append(int64_t ts, uint16_t type, uint8_t flags, uint8_t preempt, int32_t pid,
                       const void *payload, uint8_t payloadSize)
{
    if (ts < 0) ts = 0;
    const size_t i = tsLow_.size();
    if (i >= UINT32_MAX) throw std::length_error("more than 4G events on one CPU");
    if ((i & ((1u << kBlockShift) - 1)) == 0) {
        if (arena_.size() > UINT32_MAX) throw std::length_error("payload arena of one CPU exceeds 4 GiB");
        blockOffset_.push_back(static_cast<uint32_t>(arena_.size()));
    }
    const auto high = static_cast<uint32_t>(static_cast<uint64_t>(ts) >> 32);
    if (epochs_.empty() || epochs_.back().high != high) epochs_.push_back({i, high});
    if ((i & ((1u << kBlockShift) - 1)) == 0)
        blockEpoch_.push_back(static_cast<uint32_t>(epochs_.size() - 1));
    if (runs_.empty() || runs_.back().pid != pid) runs_.push_back({static_cast<uint32_t>(i), pid});
    tsLow_.push_back(static_cast<uint32_t>(ts));
    if (type > UINT8_MAX && !wide_) widen();
    if (wide_)
        type16_.push_back(type);
    else
        type8_.push_back(static_cast<uint8_t>(type));
    flags_.push_back(flags);
    preempt_.push_back(preempt);
    if (payloadSize) arena_.append(payload, payloadSize);
    const bool inOrder = ts >= lastTs_;
    if (!inOrder) sorted_ = false;
    lastTs_ = std::max(lastTs_, ts);
    return inOrder;
}

void CpuEvents::appendEvents(const CpuEvents &next)
{
    const size_t base = size(), n = next.size();
    size_t k = 0; // next.lost taken
    if (!lost.empty() && lost.back().to == LostRange::kOpenEnd) {
        // The parts before ended in a gap: the part's first event closes it, with the part's own opening
        // gap if it has one; a part without events adds its gap (an open one) to it.
        LostRange &open = lost.back();
        if (n) {
            // (at the end of the part's own opening gap: its first record may have had no format)
            const bool partOpens = !next.lost.empty() && next.lost[0].from == INT64_MIN;
            open.to = partOpens ? next.lost[0].to : next.ts(0);
            open.next = static_cast<uint32_t>(base);
            if (partOpens) open.count = addLostCounts(open.count, next.lost[k++].count);
            if (open.from == INT64_MIN) { // no event before it: it opens the data
                open.from = open.to;
                open.opens = true;
            }
        } else {
            for (; k < next.lost.size(); ++k)
                open.count = addLostCounts(open.count, next.lost[k].count);
        }
    }
    for (; k < next.lost.size(); ++k) {
        LostRange r = next.lost[k];
        if (r.next != LostRange::kNoNext) r.next = static_cast<uint32_t>(base + r.next);
        // a gap that opens the part, or one the part ended in before any event, begins at the last event
        // before the part; with none, it opens the CPU's data (an open one: when it is closed)
        if (r.from == INT64_MIN) {
            if (base) {
                r.from = lastTs_;
            } else if (r.to != LostRange::kOpenEnd) {
                r.from = r.to;
                r.opens = true;
            }
        }
        lost.push_back(r);
    }
    if (n == 0) return;
    if (base + n >= UINT32_MAX) throw std::length_error("more than 4G events on one CPU");
    const size_t arenaBase = arena_.size();
    if (arenaBase + next.arena_.size() > UINT32_MAX)
        throw std::length_error("payload arena of one CPU exceeds 4 GiB");
    tsLow_.appendAll(next.tsLow_.data(), n);
    if (next.wide_ && !wide_) widen();
    if (!wide_) {
        type8_.appendAll(next.type8_.data(), n);
    } else if (next.wide_) {
        type16_.appendAll(next.type16_.data(), n);
    } else {
        for (size_t k = 0; k < n; ++k)
            type16_.push_back(next.type8_[k]);
    }
    flags_.appendAll(next.flags_.data(), n);
    preempt_.appendAll(next.preempt_.data(), n);
    arena_.appendAll(next.arena_.data(), next.arena_.size());
    for (const Epoch &e : next.epochs_)
        if (epochs_.empty() || epochs_.back().high != e.high) epochs_.push_back({base + e.first, e.high});
    for (size_t k = 0; k < next.runs_.size(); ++k) {
        const PidRun &r = next.runs_[k];
        if (runs_.empty() || runs_.back().pid != r.pid)
            runs_.push_back({static_cast<uint32_t>(base + r.first), r.pid});
    }
    // The blocks that start inside `next`: their first event's payload offset and epoch, here.
    constexpr size_t block = size_t{1} << kBlockShift;
    size_t off = 0;
    size_t i = 0;
    size_t e = 0;
    for (size_t b = (base + block - 1) / block * block; b < base + n; b += block) {
        for (; i < b - base; ++i)
            off += (*typeSizes_)[next.type(i)];
        blockOffset_.push_back(static_cast<uint32_t>(arenaBase + off));
        while (e + 1 < epochs_.size() && epochs_[e + 1].first <= b)
            ++e;
        blockEpoch_.push_back(static_cast<uint32_t>(e));
    }
    if (next.ts(0) < lastTs_ || !next.sorted_) sorted_ = false;
    lastTs_ = std::max(lastTs_, next.lastTs_);
}

void CpuEvents::widen()
{
    Column<uint16_t> wide;
    wide.takeConverted(type8_, [](uint8_t t) { return uint16_t{t}; });
    type16_ = std::move(wide);
    type8_ = Column<uint8_t>();
    wide_ = true;
}

int32_t CpuEvents::pid(size_t i) const
{
    return runs_[runOf(i)].pid;
}

size_t CpuEvents::runOf(size_t i) const
{
    // (from the first run still held: a stream's released head reads as zeros, and reading it back costs
    // memory again on kernels that give such a read a page of its own)
    const PidRun *b = runs_.data() + runs_.firstLive();
    const PidRun *e = runs_.data() + runs_.size();
    const PidRun *it = std::upper_bound(b, e, i, [](size_t v, const PidRun &r) { return v < r.first; });
    return static_cast<size_t>(it - 1 - runs_.data());
}

bool CpuEvents::lostBetween(int64_t a, int64_t b) const
{
    auto it =
        std::upper_bound(lost.begin(), lost.end(), a, [](int64_t t, const LostRange &r) { return t < r.to; });
    for (; it != lost.end() && it->from < b; ++it)
        if (it->from <= it->to && !opensData(static_cast<size_t>(it - lost.begin()))) return true;
    return false;
}

size_t CpuEvents::lowerBound(int64_t t, size_t first) const
{
    size_t lo = std::max(first, released_); // (the released head is gone: not read back)
    size_t hi = size();
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (ts(mid) < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void CpuEvents::releaseBefore(size_t i)
{
    // whole 64-event blocks: a payload offset is found from its block's start
    i = std::min(i, size()) & ~((size_t{1} << kBlockShift) - 1);
    if (i <= released_) return;
    released_ = i;
    tsLow_.releaseBefore(i);
    type8_.releaseBefore(wide_ ? 0 : i);
    type16_.releaseBefore(wide_ ? i : 0);
    flags_.releaseBefore(i);
    preempt_.releaseBefore(i);
    arena_.releaseBefore(blockOffset_[i >> kBlockShift]);
    blockOffset_.releaseBefore(i >> kBlockShift);
    blockEpoch_.releaseBefore(i >> kBlockShift);
    // the pid runs that end before i (a run holds its first event's index)
    if (const size_t run = runOf(i); run > 0) runs_.releaseBefore(run);
}

void CpuEvents::sortByTime()
{
    if (sorted_) return;
    const size_t n = size();
    std::vector<int64_t> times(n);
    std::vector<size_t> offsets(n);
    std::vector<int32_t> pids(n);
    for (Cursor c(*this, 0); c.valid(); c.next()) {
        times[c.index()] = c.ts();
        offsets[c.index()] = c.payloadOffset();
        pids[c.index()] = c.pid();
    }
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return times[a] < times[b]; });
    // A lost range stays before the event that came first after it (the sort is stable: the events of its
    // time that came before the gap stay before it). A late-stamped event after the gap goes before it
    // with its time, as it would with the gap placed by time.
    if (!lost.empty()) {
        std::vector<size_t> place(n);
        for (size_t k = 0; k < n; ++k)
            place[order[k]] = k;
        for (LostRange &r : lost)
            if (r.next != LostRange::kNoNext && r.next < n) r.next = static_cast<uint32_t>(place[r.next]);
    }
    CpuEvents out(typeSizes_);
    out.reserve(n, arena_.size());
    out.lost = std::move(lost);
    for (size_t k : order) {
        const uint8_t sz = (*typeSizes_)[type(k)];
        out.append(times[k], type(k), flags_[k], preempt_[k], pids[k], arena_.data() + offsets[k], sz);
    }
    *this = std::move(out);
}

void CpuEvents::finishLoading()
{
    tsLow_.trim();
    type8_.trim();
    type16_.trim();
    flags_.trim();
    preempt_.trim();
    runs_.trim();
    arena_.trim();
    blockOffset_.trim();
    blockEpoch_.trim();
}

size_t CpuEvents::memoryBytes() const
{
    return tsLow_.bytes() + type8_.bytes() + type16_.bytes() + flags_.bytes() + preempt_.bytes() +
           runs_.bytes() + arena_.bytes() + blockOffset_.bytes() + blockEpoch_.bytes() +
           epochs_.size() * sizeof(Epoch) + lost.size() * sizeof(LostRange);
}

CpuEvents::Cursor::Cursor(const CpuEvents &ev, size_t start) : ev_(ev), time_(ev, start)
{
    if (start < ev_.size()) {
        off_ = ev_.payloadOffset(start);
        run_ = ev_.runOf(start);
    }
}

} // namespace tickscope
