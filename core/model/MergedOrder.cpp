#include "MergedOrder.h"

#include "util/Heap.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <queue>
#include <stdexcept>

namespace tickscope {

std::optional<MergedOrder> MergedOrder::build(const Trace &trace, const std::atomic<bool> *cancel,
                                              const std::function<void(double)> &progress)
{
    MergedOrder m;
    m.cpus_ = trace.cpuCount();
    m.size_ = trace.eventCount();
    if (m.size_ > UINT32_MAX) throw std::length_error("more than 4G events: too many for the event table");
    const auto cpus = static_cast<size_t>(std::max(m.cpus_, 1));
    m.shift_ = std::max(8u, static_cast<unsigned>(std::bit_width(cpus * 16 - 1)));
    const bool wide = m.cpus_ > 256;
    // (huge pages: a column maps them once it is big enough to gain from them)
    (wide ? m.wide_.reserve(m.size_, true) : m.narrow_.reserve(m.size_, true));
    m.checkpoints_.reserve(((m.size_ >> m.shift_) + 1) * cpus, true);

    std::vector<CpuEvents::TimeCursor> cur;
    std::vector<uint32_t> next(cpus, 0); // next event index per CPU
    cur.reserve(cpus);
    using Head = std::pair<int64_t, int>; // (ts, cpu): ties go to the lower CPU
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heap;
    for (int c = 0; c < m.cpus_; ++c) {
        cur.emplace_back(trace.cpu(c));
        if (cur.back().valid()) heap.push({cur.back().ts(), c});
    }
    const size_t mask = (size_t{1} << m.shift_) - 1;
    const size_t step = size_t{1} << 20;
    size_t row = 0;
    // Appends one row of CPU c; false when cancelled.
    auto emit = [&](int c) {
        if ((row & mask) == 0) m.checkpoints_.appendAll(next.data(), next.size());
        if ((row & (step - 1)) == 0) {
            if (cancel && cancel->load(std::memory_order_relaxed)) return false;
            if (progress && row) progress(static_cast<double>(row) / static_cast<double>(m.size_));
        }
        if (wide)
            m.wide_.push_back(static_cast<uint16_t>(c));
        else
            m.narrow_.push_back(static_cast<uint8_t>(c));
        ++next[static_cast<size_t>(c)];
        ++row;
        return true;
    };
    // A CPU's events come in runs: the CPU at the top goes on without touching the heap while its next
    // event still comes before every other CPU's head (a tie goes to the lower CPU).
    while (!heap.empty()) {
        const int c = heap.top().second;
        heap.pop();
        CpuEvents::TimeCursor &k = cur[static_cast<size_t>(c)];
        for (;;) {
            if (!emit(c)) return std::nullopt;
            k.next();
            if (!k.valid()) break;
            const int64_t t = k.ts();
            if (!heap.empty() && (t > heap.top().first || (t == heap.top().first && c > heap.top().second))) {
                heap.push({t, c});
                break;
            }
        }
    }
    if (progress) progress(1.0);
    return m;
}

EventPos MergedOrder::at(size_t row) const
{
    const int c = cpuAt(row);
    const size_t base = (row >> shift_) << shift_;
    size_t index = checkpoints_[(row >> shift_) * static_cast<size_t>(cpus_) + static_cast<size_t>(c)];
    if (wide_.empty()) {
        const auto v = static_cast<uint8_t>(c);
        index += static_cast<size_t>(std::count(narrow_.begin() + static_cast<std::ptrdiff_t>(base),
                                                narrow_.begin() + static_cast<std::ptrdiff_t>(row), v));
    } else {
        const auto v = static_cast<uint16_t>(c);
        index += static_cast<size_t>(std::count(wide_.begin() + static_cast<std::ptrdiff_t>(base),
                                                wide_.begin() + static_cast<std::ptrdiff_t>(row), v));
    }
    return {c, index};
}

size_t MergedOrder::rowOf(const Trace &trace, EventPos e)
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

size_t MergedOrder::rowAtTime(const Trace &trace, int64_t t)
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

size_t MergedOrder::bytes() const
{
    return narrow_.capacity() + wide_.capacity() * sizeof(uint16_t) +
           checkpoints_.capacity() * sizeof(uint32_t);
}

} // namespace tickscope
