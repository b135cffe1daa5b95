// SPDX-License-Identifier: GPL-3.0-or-later
#include "MergedOrder.h"

#include "util/Heap.h"

#include <algorithm>
#include <functional>

namespace tickscope {

size_t MergedCursor::rowOf(const Trace &trace, EventPos e)
{
    const int64_t t = trace.cpu(e.cpu).ts(e.index);
    size_t row = e.index;
    for (int c = 0; c < trace.cpuCount(); ++c) {
        if (c == e.cpu) continue;
        // events of lower CPUs at the same time come first, of higher CPUs after
        row += trace.cpu(c).lowerBound(c < e.cpu ? t + 1 : t);
    }
    return row;
}

size_t MergedCursor::rowAtTime(const Trace &trace, int64_t t)
{
    size_t row = 0;
    for (int c = 0; c < trace.cpuCount(); ++c)
        row += trace.cpu(c).lowerBound(t);
    return row;
}

bool MergedCursor::usable(const Trace &trace)
{
    for (int c = 0; c < trace.cpuCount(); ++c)
        if (!trace.cpu(c).sorted() || trace.cpu(c).releasedBefore() != 0) return false;
    return true;
}

std::vector<size_t> MergedCursor::startsAt(const Trace &trace, size_t row)
{
    const auto n = static_cast<size_t>(trace.cpuCount());
    std::vector<size_t> starts(n);
    size_t total = 0;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t c = 0; c < n; ++c) {
        const CpuEvents &ev = trace.cpu(static_cast<int>(c));
        starts[c] = ev.size();
        total += ev.size();
        if (ev.empty()) continue;
        lo = std::min(lo, ev.ts(0));
        hi = std::max(hi, ev.ts(ev.size() - 1));
    }
    if (row >= total) return starts;
    // The time of the row's event: the first t in [lo, hi] with more than `row` events at or before it (all
    // events are at or before hi). Each CPU's count at the bisection's times stays between its counts at lo
    // and hi: the searches narrow with the time span.
    std::vector<size_t> below(n, 0), above(starts); // per CPU: its events before lo / at or before hi
    std::vector<size_t> at(n);
    while (lo < hi) {
        const int64_t mid =
            lo + static_cast<int64_t>((static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo)) / 2);
        size_t k = 0;
        for (size_t c = 0; c < n; ++c) {
            const CpuEvents &ev = trace.cpu(static_cast<int>(c));
            size_t a = below[c], b = above[c]; // the first event after mid, in [a, b]
            while (a < b) {
                const size_t m = a + (b - a) / 2;
                if (ev.ts(m) <= mid)
                    a = m + 1;
                else
                    b = m;
            }
            at[c] = a;
            k += a;
        }
        if (k > row) {
            hi = mid;
            above.swap(at);
        } else {
            lo = mid + 1;
            below.swap(at);
        }
    }
    // Every event before that time comes first (below); of the events at it (above - below), lower CPUs
    // first, each in event order.
    size_t left = row;
    for (size_t c = 0; c < n; ++c)
        left -= below[c];
    for (size_t c = 0; c < n; ++c) {
        const size_t take = std::min(left, above[c] - below[c]);
        starts[c] = below[c] + take;
        left -= take;
    }
    return starts;
}

MergedCursor::MergedCursor(const Trace &trace, size_t row)
{
    const std::vector<size_t> starts = startsAt(trace, row);
    cur_.reserve(starts.size());
    for (size_t c = 0; c < starts.size(); ++c) {
        cur_.emplace_back(trace.cpu(static_cast<int>(c)), starts[c]);
        if (cur_.back().valid()) heap_.push_back({cur_.back().ts(), static_cast<int>(c)});
    }
    std::make_heap(heap_.begin(), heap_.end(), std::greater<>());
    row_ = row;
}

void MergedCursor::next()
{
    if (heap_.empty()) return;
    ++row_;
    CpuEvents::TimeCursor &k = cur_[static_cast<size_t>(heap_.front().cpu)];
    k.next();
    if (!k.valid()) {
        popTop(heap_);
        return;
    }
    replaceTop(heap_, Head{k.ts(), heap_.front().cpu}); // (the CPU's next event)
}

} // namespace tickscope
