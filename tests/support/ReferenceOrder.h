// SPDX-License-Identifier: GPL-3.0-or-later
// The event table's rows as the table made them before it read them with MergedCursor, kept as the
// reference the cursors are checked against (unit and GUI tests) and measured against (table_bench):
// MergedOrder, every event of every CPU merged into one order by a k-way merge; the rows a filter keeps
// over it (filterRows); a search over them (findRow).
//
// Per merged row only the CPU is stored (1 byte, 2 bytes beyond 256 CPUs); every K rows a checkpoint
// holds each CPU's next event index (4 bytes per CPU). A row's event index is its checkpoint's entry for
// its CPU plus the rows of that CPU since the checkpoint (a scan of < K bytes). K grows with the CPU
// count so that checkpoints stay <= 0.25 bytes per event: about 1.03 bytes per event on 2 CPUs.
#pragma once

#include "model/Column.h"
#include "model/EventFilter.h"
#include "model/MergedOrder.h"
#include "model/Trace.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace tickscope {

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

// The merged rows the filter keeps, ascending; nullopt when cancelled.
std::optional<std::vector<uint32_t>> filterRows(const Trace &trace, const MergedOrder &order,
                                                const EventFilter &filter, const std::atomic<bool> *cancel);

// findRow over the order's rows: rows[from], rows[from+1] ... (forward) or back; rows == nullptr: every
// merged row.
int64_t findRow(const Trace &trace, const MergedOrder &order, const std::vector<uint32_t> *rows, int64_t from,
                bool forward, std::string_view needle, const std::atomic<bool> *cancel);

} // namespace tickscope
