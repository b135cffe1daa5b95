// SPDX-License-Identifier: GPL-3.0-or-later
#include "FunctionLane.h"

#include <algorithm>

namespace tickscope {

void FunctionLane::build(const std::vector<FunctionSpan> &spans)
{
    spans_ = &spans;
    order_.clear();
    for (size_t k = 0; k < spans.size(); ++k)
        if (spans[k].timed()) order_.push_back(static_cast<uint32_t>(k));
    // Spans are stored in return order; entry order puts a caller before its callees.
    std::stable_sort(order_.begin(), order_.end(), [&](uint32_t a, uint32_t b) {
        return spans[a].start() != spans[b].start() ? spans[a].start() < spans[b].start()
                                                    : spans[a].depth < spans[b].depth;
    });
    starts_.resize(order_.size());
    lastEnd_.resize(order_.size());
    std::vector<int64_t> durations(order_.size());
    for (size_t k = 0; k < order_.size(); ++k) {
        const FunctionSpan &s = spans[order_[k]];
        starts_[k] = s.start();
        durations[k] = s.durationNs;
        lastEnd_[k] =
            k && call(lastEnd_[k - 1]).end() >= s.end() ? lastEnd_[k - 1] : static_cast<uint32_t>(k);
    }
    durations_ = RangeTree<int64_t, MaxOp>(std::move(durations), -1);
}

int64_t FunctionLane::worst(int64_t t0, int64_t t1) const
{
    int64_t m = -1;
    worstPerColumn(t0, t1, 1, [&](int, int64_t w) { m = w; });
    return m;
}

bool FunctionLane::overlapping(int64_t from, int64_t to, size_t limit, std::vector<uint32_t> &out) const
{
    const size_t lo =
        static_cast<size_t>(std::lower_bound(starts_.begin(), starts_.end(), from) - starts_.begin());
    size_t k = lo;
    // The calls entered before `from` and still running: the outermost one returns last; the others are
    // nested in it, entered after it. Walking from it visits its callees that already returned too, so
    // the walk is bounded as well.
    if (lo > 0 && call(lastEnd_[lo - 1]).end() > from) k = lastEnd_[lo - 1];
    size_t visited = 0, found = 0;
    for (; k < order_.size() && starts_[k] < to; ++k) {
        if (starts_[k] < from && call(k).end() <= from) {
            if (++visited > 4 * limit + 64) return false;
            continue;
        }
        if (found == limit) return false;
        out.push_back(static_cast<uint32_t>(k));
        ++found;
    }
    return true;
}

int64_t FunctionLane::pick(int64_t t, int64_t tolerance) const
{
    std::vector<uint32_t> near;
    overlapping(t - tolerance, t + tolerance + 1, 256, near);
    int64_t best = -1, bestDistance = INT64_MAX;
    int bestDepth = -1;
    for (uint32_t k : near) {
        const FunctionSpan &c = call(k);
        if (c.start() <= t && t < std::max(c.end(), c.start() + 1)) {
            if (c.depth > bestDepth || bestDistance > 0) {
                best = k;
                bestDepth = c.depth;
                bestDistance = 0;
            }
            continue;
        }
        const int64_t d = t < c.start() ? c.start() - t : t - c.end();
        if (bestDistance > 0 && d < bestDistance) {
            best = k;
            bestDistance = d;
        }
    }
    return best;
}

size_t FunctionLane::bytes() const
{
    return order_.capacity() * 4 + starts_.capacity() * 8 + lastEnd_.capacity() * 4 + durations_.bytes();
}

} // namespace tickscope
