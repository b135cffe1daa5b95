// SPDX-License-Identifier: GPL-3.0-or-later
// Every switch-in of one CPU (a sched_switch, or the first event of a task switched in without one), kept
// by the per-CPU pass for the steps across CPUs (the wakeup latency, the cross-CPU modes) and freed after
// them. They are alive at the analysis's peak, and a busy trace has one per ~8 events, so each takes 5
// bytes on most CPUs instead of 8: the event index, and the task switched in as its number in the CPU's
// own list of the tasks it switched to (one byte while that list has at most 256 tasks, two up to 65,536,
// then the pid itself).
#pragma once

#include "model/Column.h"

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tickscope {

struct SwitchRec
{
    uint32_t index; // sched_switch, or the first event of a task switched in without one
    int32_t nextPid;
};

class SwitchRecords
{
public:
    size_t size() const { return index_.size(); }
    bool empty() const { return index_.empty(); }
    // Record k, by value (the pid is looked up).
    SwitchRec operator[](size_t k) const { return {index_[k], nextPid(k)}; }
    int32_t nextPid(size_t k) const
    {
        switch (width_) {
        case 1:
            return pids_[slot8_[k]];
        case 2:
            return pids_[slot16_[k]];
        default:
            return pid32_[k];
        }
    }
    int width() const { return width_; } // bytes per record for the task: 1, 2 or 4 (the pid)

    // Address space for n records (their pages are touched as they come).
    void reserve(size_t n);
    void push_back(SwitchRec r);
    // A stream's hand-back of the records before n (Column::releaseBefore).
    void releaseBefore(size_t n);
    size_t liveBytes() const;
    size_t bytes() const;

private:
    uint32_t slotOf(int32_t pid); // adding it to the list
    void widen();                 // to the next width, keeping a stream's released head released

    Column<uint32_t> index_;
    Column<uint8_t> slot8_;
    Column<uint16_t> slot16_;
    Column<int32_t> pid32_;
    int width_ = 1;
    std::vector<int32_t> pids_;                   // slot -> pid
    std::unordered_map<int32_t, uint32_t> slots_; // pid -> slot; dropped at width 4
};

} // namespace tickscope
