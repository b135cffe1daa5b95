// SPDX-License-Identifier: GPL-3.0-or-later
// A min-heap's top replaced in one pass: the heaps here are std::make_heap / std::push_heap with
// std::greater<> (the least element at the front), kept by k-way merges that take the least head and put
// back the same source's next one. A pop then a push would sink and climb; this sinks once, and not at all
// while the source's next element is still the least (as in a run of one CPU's events). popTop removes the
// top, for a source that has ended.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

namespace tickscope {

template <class T> void popTop(std::vector<T> &heap)
{
    std::pop_heap(heap.begin(), heap.end(), std::greater<>());
    heap.pop_back();
}

template <class T> void replaceTop(std::vector<T> &heap, const T &value)
{
    heap.front() = value;
    const size_t n = heap.size();
    for (size_t i = 0;;) {
        size_t m = 2 * i + 1;
        if (m >= n) break;
        if (m + 1 < n && heap[m] > heap[m + 1]) ++m;
        if (!(heap[i] > heap[m])) break;
        std::swap(heap[i], heap[m]);
        i = m;
    }
}

} // namespace tickscope
