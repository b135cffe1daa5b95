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

} // namespace tickscope
