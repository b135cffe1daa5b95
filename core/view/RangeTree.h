// SPDX-License-Identifier: GPL-3.0-or-later
// The combination (max, bitwise or, ...) of any index range of a fixed array, from a pyramid of levels:
// level 0 holds the values, each level above the combination of each aligned group of 8 of the one below
// (n/7 values more in all). A query combines the values at the range's ragged ends of each level and goes
// up with the aligned middle: at most 14 values per level, side by side in memory, so a range of a few
// hundred values reads three or four cache lines rather than hundreds of values or a line per level of a
// binary tree. The LOD summaries use it for "the worst tick / the latest wakeup / every dependency in
// this pixel column" without walking the column's records.
#pragma once

#include "util/Prefetch.h"

#include <cstddef>
#include <vector>

namespace tickscope {

template <class T, class Op> class RangeTree
{
public:
    RangeTree() = default;
    RangeTree(std::vector<T> values, T identity, Op op = Op()) : n_(values.size()), id_(identity), op_(op)
    {
        // Level k starts at begin_[k] in values_; the top level has at most kFan values.
        values_ = std::move(values);
        begin_.push_back(0);
        size_t count = n_;
        while (count > kFan) {
            const size_t below = begin_.back(), up = (count + kFan - 1) / kFan;
            begin_.push_back(values_.size());
            for (size_t g = 0; g < up; ++g) {
                T v = id_;
                for (size_t i = g * kFan; i < std::min(count, (g + 1) * kFan); ++i)
                    v = op_(v, values_[below + i]);
                values_.push_back(v);
            }
            count = up;
        }
        values_.shrink_to_fit();
    }

    size_t size() const { return n_; }

    // The combination of values [lo, hi); the identity when empty.
    T query(size_t lo, size_t hi) const
    {
        T v = id_;
        hi = hi < n_ ? hi : n_;
        for (size_t k = 0; lo < hi; ++k) {
            const T *level = values_.data() + begin_[k];
            const size_t lo8 = (lo + kFan - 1) / kFan * kFan, hi8 = hi / kFan * kFan;
            if (lo8 >= hi8 || hi - lo <= 2 * kFan || k + 1 == begin_.size()) {
                for (size_t i = lo; i < hi; ++i) // within a group or two, or the top level
                    v = op_(v, level[i]);
                break;
            }
            for (size_t i = lo; i < lo8; ++i)
                v = op_(v, level[i]);
            for (size_t i = hi8; i < hi; ++i)
                v = op_(v, level[i]);
            lo = lo8 / kFan;
            hi = hi8 / kFan;
        }
        return v;
    }

    // Start loading the value i, where a short query from i begins (util/Prefetch.h).
    void prefetchLeaf(size_t i) const
    {
        if (i < n_) prefetch(&values_[i]);
    }
    // Start loading the lines of the first `levels` levels around value i: a query that begins or ends near
    // i reads its ragged ends there.
    void prefetchAround(size_t i, size_t levels) const
    {
        for (size_t k = 0; k < levels && k < begin_.size() && i < n_; ++k, i /= kFan)
            prefetch(&values_[begin_[k] + i]);
    }

    size_t bytes() const { return values_.capacity() * sizeof(T) + begin_.capacity() * sizeof(size_t); }

private:
    static constexpr size_t kFan = 8;
    size_t n_ = 0;
    T id_{};
    Op op_{};
    std::vector<T> values_;     // every level, level 0 first
    std::vector<size_t> begin_; // where each level starts in values_
};

struct MaxOp
{
    template <class T> T operator()(T a, T b) const { return a < b ? b : a; }
};
struct OrOp
{
    template <class T> T operator()(T a, T b) const { return a | b; }
};

} // namespace tickscope
