// SPDX-License-Identifier: GPL-3.0-or-later
#include "CpuTimelineIndex.h"

#include "util/Gallop.h"

#include <algorithm>

namespace tickscope {

TickClass CpuTimelineIndex::tickClass(const TickRecord &t)
{
    if (t.flags & TickFlag::Spurious) return TickClass::Spurious;
    switch (t.context) {
    case TickContext::User:
        return TickClass::User;
    case TickContext::Kernel:
        return TickClass::Kernel;
    case TickContext::Irq:
        return TickClass::Irq;
    case TickContext::Polling:
        return TickClass::Polling;
    case TickContext::Idle:
        return TickClass::Idle;
    default:
        return TickClass::Unknown;
    }
}

void CpuTimelineIndex::build(const CpuEvents &events, const CpuAnalysis &a,
                             const std::vector<FunctionSpan> *spans, int64_t end)
{
    end_ = events.empty() ? end : std::max(end, events.ts(events.size() - 1));
    static const std::vector<FunctionSpan> kNone;
    functions_.build(spans ? *spans : kNone);
    events_ = &events;
    analysis_ = &a;
    sample_.clear();
    // (huge pages once a column is 8 MB, 64 M events on the CPU: a zoomed-out lane's column edges each read
    // a sample and a block's record starts on a page of their own; a CPU of server-100M.dat's 12.7 M events
    // has 1.6 and 3.2 MB, on ordinary pages)
    sample_.reserve((events.size() >> kSampleShift) + 1, true);
    for (size_t i = 0; i < events.size(); i += size_t{1} << kSampleShift)
        sample_.push_back(events.ts(i));
    starts_.clear();
    starts_.reserve((events.size() >> kSampleShift) + 2, true);
    starts_.resize((events.size() >> kSampleShift) + 2);
    buildStarts(kTicks, a.ticks.data(), a.ticks.size());
    buildStarts(kWakeups, a.timers.wakeups.data(), a.timers.wakeups.size());
    buildStarts(kFails, a.failedStops.data(), a.failedStops.size());
    buildStarts(kSoftirqs, a.timers.timerSoftirqs.data(), a.timers.timerSoftirqs.size());
    task_.build(a.task, events, taskSlotOf, end_);
    irq_.build(a.irq, events, irqSlotOf, end_);

    tickTs_.clear();
    tickCum_.clear();
    std::array<int64_t, 3> cum{};
    for (const TickLaneChange &c : a.tickLane.changes()) {
        if (c.index >= events.size()) break;
        const int64_t t = events.ts(c.index);
        if (!tickTs_.empty())
            cum[static_cast<int>(a.tickLane.changes()[tickTs_.size() - 1].state)] += t - tickTs_.back();
        tickTs_.push_back(t);
        tickCum_.push_back(cum);
    }

    std::vector<int8_t> classes;
    spuriousPrefix_.assign(1, 0);
    for (const TickRecord &t : a.ticks) {
        classes.push_back(static_cast<int8_t>(tickClass(t)));
        spuriousPrefix_.push_back(spuriousPrefix_.back() + ((t.flags & TickFlag::Spurious) ? 1 : 0));
    }
    tickClass_ = RangeTree<int8_t, MaxOp>(std::move(classes), static_cast<int8_t>(TickClass::None));

    // Only a CPU with soft expiries pays for their prefix count.
    const HrtimerWakeup *w0 = a.timers.wakeups.data(), *w1 = w0 + a.timers.wakeups.size();
    auto isSoft = [](const HrtimerWakeup &x) { return (x.flags & WakeupFlag::Soft) != 0; };
    softPrefix_.clear();
    if (std::any_of(w0, w1, isSoft)) {
        softPrefix_.reserve(a.timers.wakeups.size() + 1);
        softPrefix_.push_back(0);
        for (const HrtimerWakeup *x = w0; x != w1; ++x)
            softPrefix_.push_back(softPrefix_.back() + (isSoft(*x) ? 1 : 0));
    }
    std::vector<int32_t> late(starts_.size(), INT32_MIN);
    for (size_t k = 0; k < a.timers.wakeups.size(); ++k) {
        int32_t &m = late[a.timers.wakeups[k].index >> kSampleShift];
        m = std::max(m, a.timers.wakeups[k].latenessNs);
    }
    blockLateness_ = RangeTree<int32_t, MaxOp>(std::move(late), INT32_MIN);

    std::vector<uint32_t> deps;
    for (const FailedStop &f : a.failedStops)
        deps.push_back(f.dependency);
    dependencies_ = RangeTree<uint32_t, OrOp>(std::move(deps), 0u);

    catchups_.clear();
    for (size_t k = 0; k < a.timers.timerSoftirqs.size(); ++k) {
        const TimerSoftirq &s = a.timers.timerSoftirqs[k];
        if (s.catchup && s.exit < events.size())
            catchups_.push_back({events.ts(s.entry), events.ts(s.exit), static_cast<uint32_t>(k)});
    }
    lost_.clear();
    for (size_t k = 0; k < events.lost.size(); ++k)
        lost_.push_back({events.lost[k].from, events.lost[k].to, static_cast<uint32_t>(k)});
    std::sort(lost_.begin(), lost_.end(),
              [](const TimeSpan &x, const TimeSpan &y) { return x.from < y.from; });
}

namespace {
uint32_t eventIndexOf(const TimerSoftirq &s)
{
    return s.entry;
}
template <class Rec> uint32_t eventIndexOf(const Rec &r)
{
    return r.index;
}
} // namespace

template <class Rec> void CpuTimelineIndex::buildStarts(StartKind k, const Rec *recs, size_t n)
{
    size_t p = 0;
    for (size_t b = 0; b < starts_.size(); ++b) {
        while (p < n && eventIndexOf(recs[p]) < (b << kSampleShift))
            ++p;
        starts_[b][k] = static_cast<uint32_t>(p);
    }
}

template <class Rec>
size_t CpuTimelineIndex::lowerIndex(StartKind k, const Rec *recs, size_t n, size_t eventIndex) const
{
    const size_t b = std::min(eventIndex >> kSampleShift, starts_.size() - 1);
    size_t p = starts_[b][k];
    while (p < n && eventIndexOf(recs[p]) < eventIndex)
        ++p;
    return p;
}

size_t CpuTimelineIndex::searchBlock(size_t b, int64_t t) const
{
    // sample_[b] = ts(b * 64) >= t > ts((b - 1) * 64): the first event with ts >= t lies in ((b - 1) * 64, b
    // * 64].
    if (b == 0) return 0;
    const size_t lo = ((b - 1) << kSampleShift) + 1, hi = std::min(b << kSampleShift, events_->size());
    // (event b * 64, where hi may end, is the first of the next block; its ts is the sample's, >= t)
    const CpuEvents::BlockClock clock(*events_, b - 1);
    return bisect(lo, hi, [&](size_t i) { return clock.ts(i) < t; });
}

size_t CpuTimelineIndex::sampleFrom(int64_t t, size_t from, size_t guess) const
{
    return gallop(sample_.size(), from, guess, [&](size_t k) { return sample_[k] < t; });
}

int32_t CpuTimelineIndex::maxLateness(size_t lo, size_t hi) const
{
    const auto &w = analysis_->timers.wakeups;
    int32_t m = INT32_MIN;
    if (lo >= hi) return m;
    const size_t b0 = w[lo].index >> kSampleShift, b1 = w[hi - 1].index >> kSampleShift;
    if (b0 == b1) {
        for (size_t k = lo; k < hi; ++k)
            m = std::max(m, w[k].latenessNs);
        return m;
    }
    // Partial first and last blocks from the records, the whole blocks between from the tree.
    for (size_t k = lo; k < starts_[b0 + 1][kWakeups]; ++k)
        m = std::max(m, w[k].latenessNs);
    for (size_t k = starts_[b1][kWakeups]; k < hi; ++k)
        m = std::max(m, w[k].latenessNs);
    return std::max(m, blockLateness_.query(b0 + 1, b1));
}

void CpuTimelineIndex::tickStateAt(int64_t t, std::array<int64_t, 3> &out, size_t &change) const
{
    out.fill(0);
    if (tickTs_.empty()) return;
    t = std::clamp(t, tickTs_.front(), std::max(tickTs_.front(), end_));
    // The last change at or before t: at or after `change` (t only grows; the first change is at or before
    // every t, clamped above).
    const size_t k = gallop(tickTs_.size(), change + 1, [&](size_t c) { return tickTs_[c] <= t; }) - 1;
    change = k;
    out = tickCum_[k];
    out[static_cast<int>(analysis_->tickLane.changes()[k].state)] += t - tickTs_[k];
}

bool CpuTimelineIndex::overlaps(const std::vector<TimeSpan> &spans, int64_t t0, int64_t t1)
{
    // Spans on one CPU do not overlap each other: sorted by start, their ends are sorted too.
    const auto it = std::lower_bound(spans.begin(), spans.end(), t0,
                                     [](const TimeSpan &s, int64_t v) { return s.to < v; });
    return it != spans.end() && it->from < t1;
}

void CpuTimelineIndex::summarize(int64_t start, int64_t end, int columns, ColumnSummary *out,
                                 int64_t spanFrom, int64_t spanTo, int firstColumn, int endColumn,
                                 SummaryDetail detail) const
{
    const bool full = detail == SummaryDetail::Full;
    if (columns <= 0) return;
    const int first = std::clamp(firstColumn, 0, columns);
    const int last = endColumn < 0 ? columns : std::clamp(endColumn, first, columns); // (exclusive)
    // The sweep below writes each column whole; they are cleared first only where something else writes
    // them (the function row) or nothing will: a separate pass of stores over a lane's 330 KB of columns,
    // lines no core holds, stalled on every column (a quarter of this function's own time, zoomed out).
    const bool calls = full && !functions_.empty();
    const bool range = end > start && first < last;
    const bool sweep = range && events_ && !events_->empty();
    if (calls || !sweep) std::fill(out + first, out + last, ColumnSummary{});
    if (!range) return;
    const int64_t span = end - start;
    auto boundary = [&](int j) { return start + span * j / columns; };
    if (calls)
        functions_.worstPerColumn(
            start, end, columns, [&](int j, int64_t w) { out[j].worstCallNs = w; }, first, last);
    if (!sweep) return;
    const CpuAnalysis &a = *analysis_;

    struct Edge
    {
        StatePrefix::Times task, irq;
        size_t taskChanges, irqChanges;
        std::array<int64_t, 3> tick;
        size_t tick_, wake, soft, fail;
        size_t event;              // the first event at or after the edge
        uint8_t taskSlot, irqSlot; // the slots whose time grows there (StatePrefix::atIndex)
    };
    // The first 64-event sample at or after each column edge: the samples of a lane are a few cache lines
    // and the search gallops from the previous edge. The blocks they name are then known ahead of the
    // edges that read them: edge j + kFar's lines are requested (timestamps, state checkpoints, record
    // starts) and edge j + kNear's dependent lines (the records and change codes those name) while edge j
    // is read, so a zoomed-out lane waits for a dozen misses at once rather than one after another.
    std::vector<size_t> samples(static_cast<size_t>(last - first) + 1); // by edge, from edge `first`
    size_t block = 0, change = 0; // where the sweep's searches stand (the edges only move forward)
    // Each search starts at the last answer plus the last step (the events of a lane come at a steady
    // rate more often than not): a line or two of samples per edge, where galloping from the last answer
    // reads a line per doubling step, one after another. The guess a few edges ahead is loaded meanwhile.
    size_t step = 0;
    for (int j = first; j <= last; ++j) {
        const size_t b = sampleFrom(boundary(j), block, block + step);
        step = j == first ? 0 : b - block;
        samples[static_cast<size_t>(j - first)] = block = b;
        if (const size_t ahead = b + 8 * step; step && ahead < sample_.size())
            tickscope::prefetch(&sample_[ahead]);
    }
    auto sampleOf = [&](int j) { return samples[static_cast<size_t>(j - first)]; };
    // The 64-event block holding the events an edge reads: the one before its sample's.
    auto blockOf = [&](int j) { return sampleOf(j) ? sampleOf(j) - 1 : 0; };
    constexpr int kFar = 6, kNear = 3;
    auto requestLines = [&](int j) {
        if (j > last) return;
        const size_t b = blockOf(j);
        events_->prefetchTimes(b);
        task_.prefetch(b);
        if (!full) return;
        irq_.prefetch(b);
        prefetchStarts(b);
    };
    auto requestRecords = [&](int j) {
        if (j > last) return;
        const size_t b = blockOf(j);
        task_.prefetchCodes(b);
        if (!full) return;
        irq_.prefetchCodes(b);
        prefetchRecord(kTicks, a.ticks.data(), a.ticks.size(), b);
        prefetchRecord(kWakeups, a.timers.wakeups.data(), a.timers.wakeups.size(), b);
        // (the column's lateness reads the block's wakeups after the edge too: its last one's line)
        if (b + 1 < starts_.size() && starts_[b + 1][kWakeups] > starts_[b][kWakeups])
            tickscope::prefetch(&a.timers.wakeups[starts_[b + 1][kWakeups] - 1]);
        prefetchRecord(kFails, a.failedStops.data(), a.failedStops.size(), b);
        prefetchRecord(kSoftirqs, a.timers.timerSoftirqs.data(), a.timers.timerSoftirqs.size(), b);
        if (b < starts_.size()) {
            tickClass_.prefetchLeaf(starts_[b][kTicks]);
            if (starts_[b][kTicks] < spuriousPrefix_.size())
                tickscope::prefetch(&spuriousPrefix_[starts_[b][kTicks]]);
        }
        blockLateness_.prefetchAround(b, 2);
    };
    for (int j = first; j < first + kFar; ++j)
        requestLines(j);
    for (int j = first; j < first + kNear; ++j)
        requestRecords(j);
    auto edgeAt = [&](int j, Edge &e) {
        requestLines(j + kFar);
        requestRecords(j + kNear);
        const int64_t t = boundary(j);
        const size_t i = searchBlock(sampleOf(j), t);
        e.event = i;
        task_.atIndex(t, i, e.task, e.taskChanges, e.taskSlot);
        if (!full) return;
        irq_.atIndex(t, i, e.irq, e.irqChanges, e.irqSlot);
        tickStateAt(t, e.tick, change);
        e.tick_ = lowerIndex(kTicks, a.ticks.data(), a.ticks.size(), i);
        e.wake = lowerIndex(kWakeups, a.timers.wakeups.data(), a.timers.wakeups.size(), i);
        e.fail = lowerIndex(kFails, a.failedStops.data(), a.failedStops.size(), i);
        e.soft = lowerIndex(kSoftirqs, a.timers.timerSoftirqs.data(), a.timers.timerSoftirqs.size(), i);
    };
    // An edge with no event since the previous one (a lane with fewer events than columns, or a deep zoom)
    // is the previous edge with the time between them added to the slots in force: the same event, the
    // same records, no search in the events (the tick lane's state, by time, is looked up as before).
    auto nextEdge = [&](int j, const Edge &prev, Edge &e) {
        const int64_t t0 = boundary(j - 1), t1 = boundary(j);
        if (prev.event < events_->size() && events_->ts(prev.event) < t1) return edgeAt(j, e);
        requestLines(j + kFar); // (the edges ahead may have events)
        requestRecords(j + kNear);
        e = prev;
        task_.advance(e.task, e.taskSlot, t0, t1);
        if (!full) return;
        irq_.advance(e.irq, e.irqSlot, t0, t1);
        tickStateAt(t1, e.tick, change); // (the tick lane changes at times of its own)
    };
    Edge lo{}, hi{}; // (the collapsed detail sets only some fields; the others are copied, not read)
    edgeAt(first, lo);
    for (int j = first; j < last; ++j) {
        const int64_t t0 = boundary(j), t1 = boundary(j + 1);
        nextEdge(j + 1, lo, hi);
        ColumnSummary c{};
        if (calls) c.worstCallNs = out[j].worstCallNs;
        for (size_t s = 0; s < c.task.size(); ++s)
            c.task[s] = hi.task[s] - lo.task[s];
        c.taskChanges = static_cast<uint32_t>(hi.taskChanges - lo.taskChanges);
        c.lost = overlaps(lost_, t0, t1);
        if (full) {
            for (size_t s = 0; s < c.irq.size(); ++s)
                c.irq[s] = hi.irq[s] - lo.irq[s];
            c.irqChanges = static_cast<uint32_t>(hi.irqChanges - lo.irqChanges);
            for (int s = 0; s < 3; ++s)
                c.tickState[s] = hi.tick[s] - lo.tick[s];
            c.ticks = static_cast<uint32_t>(hi.tick_ - lo.tick_);
            c.spuriousTicks = spuriousPrefix_[hi.tick_] - spuriousPrefix_[lo.tick_];
            c.worstTick = static_cast<TickClass>(tickClass_.query(lo.tick_, hi.tick_));
            c.wakeups = static_cast<uint32_t>(hi.wake - lo.wake);
            if (!softPrefix_.empty()) c.softWakeups = softPrefix_[hi.wake] - softPrefix_[lo.wake];
            c.maxLatenessNs = maxLateness(lo.wake, hi.wake);
            c.timerSoftirqs = static_cast<uint32_t>(hi.soft - lo.soft);
            c.catchup = overlaps(catchups_, t0, t1);
            c.failedStops = static_cast<uint32_t>(hi.fail - lo.fail);
            c.dependencies = dependencies_.query(lo.fail, hi.fail);
        }
        if (t1 <= spanFrom || t0 > spanTo) { // (the function row's calls are by their own times)
            const int64_t worstCall = c.worstCallNs;
            c = ColumnSummary{};
            c.worstCallNs = worstCall;
        }
        out[j] = c;
        std::swap(lo, hi);
    }
}

size_t CpuTimelineIndex::bytes() const
{
    return task_.bytes() + irq_.bytes() + sample_.capacity() * sizeof(int64_t) +
           starts_.capacity() * sizeof(starts_[0]) + tickTs_.capacity() * 8 + tickCum_.capacity() * 24 +
           tickClass_.bytes() + blockLateness_.bytes() + dependencies_.bytes() +
           (spuriousPrefix_.capacity() + softPrefix_.capacity()) * 4 +
           (catchups_.capacity() + lost_.capacity()) * sizeof(TimeSpan) + functions_.bytes();
}

} // namespace tickscope
