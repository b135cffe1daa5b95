// SPDX-License-Identifier: GPL-3.0-or-later
// One trace source (one buffer instance of a trace.dat, or one text trace): metadata, event types,
// per-CPU event columns, interned strings, the task table and function_graph calls. Not copyable or movable:
// the CPUs point at the type table.
#pragma once

#include "CpuEvents.h"
#include "EventKind.h"
#include "FunctionSpans.h"
#include "RecordFormat.h"
#include "StringPool.h"
#include "TaskTable.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tickscope {

struct EventType
{
    std::string system; // empty when the source does not say (text traces)
    std::string name;
    EventKind kind = EventKind::Generic;
    // A Generic type read from a trace.dat: the format its kept record bytes print by (nullptr: the
    // event's text is a string, as a text trace gives it).
    std::shared_ptr<const RecordFormat> format;
};

struct TraceMeta
{
    std::string path;
    std::string format;                     // "trace.dat v7 (zstd)", "ftrace text", "trace-cmd report text"
    std::string instance;                   // "" for the top-level buffer
    std::vector<std::string> fileInstances; // every buffer instance in the file ("" = top level)
    int fileVersion = 0;                    // trace.dat version, 0 for text
    std::string compression;                // trace.dat compression, "" when none
    int cpuCount = 0;
    int pageSize = 0;
    int longSize = 0;
    std::string traceClock;
    std::string uname;         // as the file stores it (trace-cmd: "Linux host 6.1.0 #1 SMP ...")
    std::string kernelRelease; // e.g. "6.1.0-57-amd64", parsed from uname when present
    std::string kernelCmdline; // when the file carries it
    std::string machine;       // the machine facts a tickscope capture stored (MachineFacts text), or ""
    uint64_t fileBytes = 0;
};

class Trace
{
public:
    Trace() = default;
    Trace(const Trace &) = delete;
    Trace &operator=(const Trace &) = delete;

    TraceMeta meta;
    StringPool strings;
    TaskTable tasks;
    std::vector<std::string> warnings; // what was lost or skipped while loading
    FunctionSpans functions;           // function_graph calls, when the trace has them

    // Event types. Ids are u16; addType() returns the id of an existing (system, name) pair.
    uint16_t addType(std::string_view system, std::string_view name);
    void reserveTypes(size_t n)
    {
        types_.reserve(n);
        typeSizes_.reserve(n);
    }
    int findType(std::string_view name) const; // -1 when absent (first match on name)
    const std::vector<EventType> &types() const { return types_; }
    void setRecordFormat(uint16_t type, std::shared_ptr<const RecordFormat> f)
    {
        types_[type].format = std::move(f);
    }
    EventKind kind(uint16_t type) const { return types_[type].kind; }
    const std::vector<uint8_t> &typeSizes() const { return typeSizes_; }

    void setCpuCount(int n);
    int cpuCount() const { return static_cast<int>(cpus_.size()); }
    // Whether the CPU has any event or function_graph call (a CPU outside the recording's CPU mask, or a
    // number a sparse text trace skipped, has neither).
    bool cpuHasData(int cpu) const
    {
        const auto c = static_cast<size_t>(cpu);
        return !cpus_[c].empty() || (c < functions.cpus.size() && !functions.cpus[c].empty());
    }
    CpuEvents &cpu(int c) { return cpus_[c]; }
    const CpuEvents &cpu(int c) const { return cpus_[c]; }

    size_t eventCount() const;
    size_t lostEventCount() const; // sum of known counts
    size_t lostRangeCount() const;
    int64_t firstTs() const; // INT64_MAX when empty
    int64_t lastTs() const;  // INT64_MIN when empty
    // The time the views show: from the first event or function call to the last (an event, or a call's
    // return); 0 and 0 when the trace has neither (a function_graph paste without timestamps).
    int64_t startTs() const;
    int64_t endTs() const;
    size_t memoryBytes() const;

private:
    std::vector<EventType> types_;
    std::vector<uint8_t> typeSizes_;
    std::vector<CpuEvents> cpus_;
};

// The comm of the task running event `index` of `cpu`: the task table's name at that time; pid 0 is the
// CPU's own idle task, "swapper/CPU" as the kernel names it (the task table has one name for all of them).
std::string taskComm(const Trace &trace, int cpu, size_t index);

// "Linux host 6.1.0-57-amd64 #1 SMP ..." -> "6.1.0-57-amd64"
std::string kernelReleaseFromUname(std::string_view uname);

} // namespace tickscope
