// SPDX-License-Identifier: GPL-3.0-or-later
// The function_graph calls of one CPU for the timeline: the calls with timestamps ordered by entry time,
// the longest duration over any range of them (a range tree) and, before each call, the one of the calls
// so far that returns last. A pixel column's worst call is then the longest call entered in it or the
// call still running at its start (calls on one CPU nest, so the one returning last is the outermost,
// the longest of those running); found in O(log calls) per column.
#pragma once

#include "RangeTree.h"

#include "model/FunctionSpans.h"
#include "util/Gallop.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tickscope {

class FunctionLane
{
public:
    void build(const std::vector<FunctionSpan> &spans); // the timed ones; the vector must outlive this
    bool empty() const { return order_.empty(); }
    size_t size() const { return order_.size(); }
    const FunctionSpan &call(size_t k) const { return (*spans_)[order_[k]]; } // k-th by entry time

    // The longest duration of the calls overlapping [t0, t1); -1 when none does.
    int64_t worst(int64_t t0, int64_t t1) const;
    // worst() of each column j of [start, end) in `columns` columns (boundary j at start + (end - start) *
    // j / columns), each boundary searched once, forward from the previous one.
    template <class Out>
    void worstPerColumn(int64_t start, int64_t end, int columns, Out &&out, int firstColumn = 0,
                        int endColumn = -1) const;
    // The calls overlapping [from, to) in entry order, appended to `out` (indices for call()); false when
    // there are more than `limit` of them (then `out` holds the first `limit` found).
    bool overlapping(int64_t from, int64_t to, size_t limit, std::vector<uint32_t> &out) const;
    // The deepest call running at t, else the call nearest to t within `tolerance` ns; -1 when none.
    int64_t pick(int64_t t, int64_t tolerance) const;
    size_t bytes() const;

private:
    const std::vector<FunctionSpan> *spans_ = nullptr;
    std::vector<uint32_t> order_;   // indices into *spans_, by entry time
    std::vector<int64_t> starts_;   // their entry times
    std::vector<uint32_t> lastEnd_; // k -> the call among order_[0..k] that returns last (a k' <= k)
    RangeTree<int64_t, MaxOp> durations_;
};

template <class Out>
void FunctionLane::worstPerColumn(int64_t start, int64_t end, int columns, Out &&out, int firstColumn,
                                  int endColumn) const
{
    if (endColumn < 0 || endColumn > columns) endColumn = columns;
    size_t lo = 0;
    auto after = [&](size_t from, int64_t t) { // the first call entered at or after t, from `from` on
        return gallop(starts_.size(), from, [&](size_t k) { return starts_[k] < t; });
    };
    if (firstColumn >= endColumn) return;
    lo = after(0, start + (end - start) * firstColumn / columns);
    for (int j = firstColumn; j < endColumn; ++j) {
        const int64_t t0 = start + (end - start) * j / columns,
                      t1 = start + (end - start) * (j + 1) / columns;
        const size_t hi = after(lo, t1);
        int64_t m = durations_.query(lo, hi);
        if (lo > 0) {
            const FunctionSpan &c = call(lastEnd_[lo - 1]);
            if (c.end() > t0) m = std::max(m, c.durationNs);
        }
        out(j, m);
        lo = hi;
    }
}

} // namespace tickscope
