// SPDX-License-Identifier: GPL-3.0-or-later
// The search of a sweep of growing keys (column edges, wakeups in time order): each search starts where the
// last one ended, with doubling steps, then a binary search in the last step. It stays in the cache lines
// it last touched, where a binary search over the rest of the array misses the cache at most of its steps.
#pragma once

#include <algorithm>
#include <cstddef>

namespace tickscope {

// The first i in [lo, hi) for which before(i) is false (hi when none), where before holds on a prefix.
template <class Before> size_t bisect(size_t lo, size_t hi, Before before)
{
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (before(mid))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// The first i in [from, n) for which before(i) is false (n when none), where before holds on a prefix of
// [0, n) and at every index before `from`.
template <class Before> size_t gallop(size_t n, size_t from, Before before)
{
    size_t lo = std::min(from, n), hi = lo, step = 1;
    while (hi < n && before(hi)) {
        lo = hi + 1;
        hi = std::min(n, hi + step);
        step *= 2;
    }
    return bisect(lo, hi, before); // the answer is in [lo, hi]: before(hi) is false, or hi is n
}

// The same, starting at `guess` (at or after `from`), where the answer is expected: a sweep whose keys grow
// by even steps (column edges over a steady stream of events) guesses the last answer plus the last step, and
// reads a line or two around the guess instead of the doubling steps' lines from `from`. From a wrong guess
// it gallops up or down from there.
template <class Before> size_t gallop(size_t n, size_t from, size_t guess, Before before)
{
    from = std::min(from, n);
    guess = std::clamp(guess, from, n);
    if (guess == from) return gallop(n, from, before);
    if (guess < n && before(guess)) return gallop(n, guess + 1, before);
    // The answer is in [from, guess]: doubling steps down from guess while before() is false.
    size_t lo = from, hi = guess, step = 1;
    while (hi > from) {
        const size_t p = hi - std::min(step, hi - from);
        if (before(p)) {
            lo = p + 1;
            break;
        }
        hi = p;
        step *= 2;
    }
    return bisect(lo, hi, before);
}

} // namespace tickscope
