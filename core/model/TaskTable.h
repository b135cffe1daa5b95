// SPDX-License-Identifier: GPL-3.0-or-later
// pid -> comm over time. Filled by importers (sched_switch/wakeup comms, saved cmdlines, text comm
// column), then finalised into one sorted array.
#pragma once

#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tickscope {

class TaskTable
{
public:
    struct Entry
    {
        int64_t since; // first ts the name was seen (INT64_MIN: from file metadata)
        int32_t pid;
        uint32_t comm; // StringPool id
    };

    // A per-thread recorder that only emits an entry when a pid's comm changes.
    class Recorder
    {
    public:
        void note(int64_t ts, int32_t pid, uint32_t comm);
        // A name known before the trace (saved cmdlines): outside the per-stream change tracking.
        void noteInitial(int32_t pid, uint32_t comm) { entries.push_back({INT64_MIN, pid, comm}); }
        // Starts another CPU's stream: changes are tracked per time-ordered stream, so that the table
        // does not depend on which thread decoded which CPU.
        void newStream() { last_.clear(); }
        std::vector<Entry> entries;

    private:
        std::unordered_map<int32_t, uint32_t> last_;
    };

    void merge(std::vector<Entry> &&entries);
    void finalize(); // sort by (pid, ts) and drop repeats

    // Comm of pid at ts: the latest name seen at or before ts, else the first one seen after. 0 = unknown.
    uint32_t comm(int32_t pid, int64_t ts) const;
    size_t taskCount() const;
    const std::vector<Entry> &entries() const { return entries_; }
    size_t memoryBytes() const { return entries_.capacity() * sizeof(Entry); }

private:
    std::vector<Entry> entries_;
};

} // namespace tickscope
