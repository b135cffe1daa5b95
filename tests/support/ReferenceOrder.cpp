// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReferenceOrder.h"

#include <algorithm>
#include <bit>
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

size_t MergedOrder::bytes() const
{
    return narrow_.capacity() + wide_.capacity() * sizeof(uint16_t) +
           checkpoints_.capacity() * sizeof(uint32_t);
}

std::optional<std::vector<uint32_t>> filterRows(const Trace &trace, const MergedOrder &order,
                                                const EventFilter &filter, const std::atomic<bool> *cancel)
{
    std::vector<uint32_t> rows;
    std::vector<CpuEvents::Cursor> cur;
    cur.reserve(static_cast<size_t>(trace.cpuCount()));
    for (int c = 0; c < trace.cpuCount(); ++c)
        cur.emplace_back(trace.cpu(c), 0);
    for (size_t row = 0; row < order.size(); ++row) {
        if ((row & 0xfffff) == 0 && cancel && cancel->load(std::memory_order_relaxed)) return std::nullopt;
        const int c = order.cpuAt(row);
        CpuEvents::Cursor &k = cur[static_cast<size_t>(c)];
        if (filter.matches(c, trace.cpu(c).type(k.index()), k.pid()))
            rows.push_back(static_cast<uint32_t>(row));
        k.next();
    }
    rows.shrink_to_fit();
    return rows;
}

int64_t findRow(const Trace &trace, const MergedOrder &order, const std::vector<uint32_t> *rows, int64_t from,
                bool forward, std::string_view needle, const std::atomic<bool> *cancel)
{
    // The order's events as the keys of a list (read in one pass: each CPU's next index), searched as a
    // filter's kept events are.
    std::vector<size_t> next(static_cast<size_t>(trace.cpuCount()), 0);
    std::vector<EventKey> all(order.size());
    for (size_t row = 0; row < order.size(); ++row) {
        const int c = order.cpuAt(row);
        all[row] = keyOf({c, next[static_cast<size_t>(c)]++});
    }
    if (!rows) return findRow(trace, all, from, forward, needle, cancel);
    std::vector<EventKey> kept(rows->size());
    for (size_t k = 0; k < rows->size(); ++k)
        kept[k] = all[(*rows)[k]];
    return findRow(trace, kept, from, forward, needle, cancel);
}

} // namespace tickscope
