// The events of every CPU of a trace in one time order (ties: lower CPU first, then event index), for
// views that list the whole trace (the event table). Built once, off the GUI thread, by a k-way merge.
//
// Per merged row only the CPU is stored (1 byte, 2 bytes beyond 256 CPUs); every K rows a checkpoint
// holds each CPU's next event index (4 bytes per CPU). A row's event index is its checkpoint's entry for
// its CPU plus the rows of that CPU since the checkpoint (a scan of < K bytes). K grows with the CPU
// count so that checkpoints stay <= 0.25 bytes per event: about 1.03 bytes per event on 2 CPUs.
// The row of an event, and the first row at a time, are O(CPUs * log n) searches in the CPU columns.
#pragma once

#include "Column.h"
#include "Trace.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace tickscope {

struct EventPos
{
    int cpu = -1;
    size_t index = 0;
    bool operator==(const EventPos &) const = default;
};

class MergedOrder
{
public:
    // nullopt when *cancel became true. progress(fraction) is called from the building thread.
    static std::optional<MergedOrder> build(const Trace &trace, const std::atomic<bool> *cancel = nullptr,
                                            const std::function<void(double)> &progress = {});

    size_t size() const { return size_; }
    int cpuAt(size_t row) const { return wide_.empty() ? narrow_[row] : wide_[row]; }
    EventPos at(size_t row) const;
    size_t checkpointInterval() const { return size_t{1} << shift_; }

    // The merged row of an event (of the trace this order was built from).
    static size_t rowOf(const Trace &trace, EventPos e);
    // The first row at or after time t (size() when none).
    static size_t rowAtTime(const Trace &trace, int64_t t);

    size_t bytes() const;

private:
    size_t size_ = 0;
    int cpus_ = 0;
    unsigned shift_ = 8;
    // In their own mappings (Column): populated in stretches, huge pages for big traces.
    Column<uint8_t> narrow_;       // CPU per row, <= 256 CPUs
    Column<uint16_t> wide_;        // CPU per row, more CPUs
    Column<uint32_t> checkpoints_; // [(row >> shift) * cpus + cpu]: next event index of cpu
};

// The rows of the merged order from any row on, without the order: a cursor is placed by a bisection of
// time over the CPUs' timestamps (how many of each CPU's events come before the row; each CPU's count is
// searched between its counts at the two ends of the time span, which narrows), then steps by a merge of
// the CPUs' next events. Placing it takes ~50 us at 128 CPUs and 6.8 M events; a step O(log CPUs). A
// view that lists a window of rows needs no order of every event (1 byte per event, and a merge of all of
// them before the first row shows).
class MergedCursor
{
public:
    // Whether the trace can be read this way: every CPU's events held (none released) and in time order
    // (as every loaded trace's are).
    static bool usable(const Trace &trace);
    // At merged row `row` (invalid when row >= the trace's events).
    MergedCursor(const Trace &trace, size_t row);

    bool valid() const { return !heap_.empty(); }
    size_t row() const { return row_; }
    EventPos pos() const { return {heap_.front().cpu, cur_[static_cast<size_t>(heap_.front().cpu)].index()}; }
    void next();

private:
    // How many of each CPU's events come before merged row `row`.
    static std::vector<size_t> startsAt(const Trace &trace, size_t row);

    struct Head
    {
        int64_t ts;
        int cpu;
        bool operator>(const Head &o) const { return ts != o.ts ? ts > o.ts : cpu > o.cpu; }
    };
    std::vector<CpuEvents::TimeCursor> cur_;
    std::vector<Head> heap_; // a min-heap by (ts, cpu): ties go to the lower CPU
    size_t row_ = 0;
};

} // namespace tickscope
