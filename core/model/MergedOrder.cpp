#include "MergedOrder.h"

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

size_t MergedOrder::bytes() const
{
    return narrow_.capacity() + wide_.capacity() * sizeof(uint16_t) +
           checkpoints_.capacity() * sizeof(uint32_t);
}

} // namespace tickscope
