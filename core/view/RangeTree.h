// A bottom-up segment tree over a fixed array: the combination (max, bitwise or, ...) of any index range
// in O(log n), 2n values of memory, with the combination of each aligned group of 64 values beside it
// (n/64 more). The LOD summaries use it for "the worst tick / the latest wakeup / every dependency in
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
        tree_.assign(2 * n_, identity);
        for (size_t i = 0; i < n_; ++i)
            tree_[n_ + i] = values[i];
        for (size_t i = n_ - 1; i > 0 && n_ > 1; --i)
            tree_[i] = op_(tree_[2 * i], tree_[2 * i + 1]);
        groups_.assign((n_ + kGroup - 1) / kGroup, identity);
        for (size_t i = 0; i < n_; ++i)
            groups_[i / kGroup] = op_(groups_[i / kGroup], tree_[n_ + i]);
    }

    size_t size() const { return n_; }

    // The combination of values [lo, hi); the identity when empty.
    T query(size_t lo, size_t hi) const
    {
        if (lo >= hi) return id_;
        if (hi - lo <= kScan) return leaves(lo, hi); // a short range: its leaves, side by side in memory
        // A range of up to kGroupsScanned groups: the leaves up to the first group boundary and after the
        // last, the groups between. A zoomed-out lane's columns each cover a few hundred values, next to
        // each other: these reads go on where the last column's ended, where the climb below missed the
        // cache at most of its levels (an eighth of a whole-trace repaint of a 100 M-event trace).
        const size_t g0 = (lo + kGroup - 1) / kGroup, g1 = hi / kGroup;
        if (g1 - g0 <= kGroupsScanned) {
            T v = op_(leaves(lo, g0 * kGroup), leaves(g1 * kGroup, hi));
            for (size_t g = g0; g < g1; ++g)
                v = op_(v, groups_[g]);
            return v;
        }
        T left = id_, right = id_;
        for (lo += n_, hi += n_; lo < hi; lo >>= 1, hi >>= 1) {
            if (lo & 1) left = op_(left, tree_[lo++]);
            if (hi & 1) right = op_(tree_[--hi], right);
        }
        return op_(left, right);
    }

    // Start loading the leaf of value i, where a short query from i begins (util/Prefetch.h).
    void prefetchLeaf(size_t i) const
    {
        if (i < n_) prefetch(&tree_[n_ + i]);
    }

    size_t bytes() const { return (tree_.capacity() + groups_.capacity()) * sizeof(T); }

private:
    T leaves(size_t lo, size_t hi) const
    {
        T v = id_;
        for (size_t i = n_ + lo; i < n_ + hi; ++i)
            v = op_(v, tree_[i]);
        return v;
    }

    // Up to this many values are combined from the leaves: one or two cache lines, where the climb
    // touches a line per level (a column of a zoomed-out lane covers a few dozen ticks).
    static constexpr size_t kScan = 64;
    static constexpr size_t kGroup = 64, kGroupsScanned = 16;
    size_t n_ = 0;
    T id_{};
    Op op_{};
    std::vector<T> tree_;
    std::vector<T> groups_; // [g]: the combination of values [g * kGroup, (g + 1) * kGroup)
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
