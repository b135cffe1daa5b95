// SPDX-License-Identifier: GPL-3.0-or-later
// Function calls from the function_graph tracer: one span per call that returned inside the trace, per
// CPU, beside the events. 24 bytes a span (a call is two ring-buffer records, entry and return: 12 bytes
// a record). Names are ids in the trace's StringPool.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tickscope {

struct FunctionSpan
{
    enum Flag : uint8_t
    {
        Timed = 0x01, // `at` is the entry time in ns; else the text has no timestamps and `at` is the
                      // file line that closed the call (a paste of `trace` without funcgraph-abstime)
        InIrq = 0x02, // called between the tracer's "==========>" and "<==========" (interrupt context)
        NameFromTail = 0x04, // the entry is not in the trace: the name comes from "} /* name */"
    };
    int64_t at = 0;
    int64_t durationNs = 0;
    uint32_t name = 0;
    uint16_t depth = 0; // 0 = the outermost call the tracer shows
    uint8_t flags = 0;
    // Of the CPU's events at the entry's very time, how many came before the entry (the rest came inside
    // the call): a text trace prints microseconds, and a call often begins in the microsecond of an event
    // it causes. kTiesUnknown when not known (or 255 or more): all of them are taken as before it.
    uint8_t tiedBefore = kTiesUnknown;
    static constexpr uint8_t kTiesUnknown = 255;

    bool timed() const { return flags & Timed; }
    int64_t start() const { return at; }            // only when timed()
    int64_t end() const { return at + durationNs; } // only when timed()
};
static_assert(sizeof(FunctionSpan) == 24);

class FunctionSpans
{
public:
    // Per CPU, in the order the calls returned.
    std::vector<std::vector<FunctionSpan>> cpus;
    // The first entry and the last return of the timed calls; set by finish() (after loading), INT64_MAX
    // and INT64_MIN when there are none.
    int64_t firstTs = INT64_MAX, lastTs = INT64_MIN;

    void finish()
    {
        firstTs = INT64_MAX;
        lastTs = INT64_MIN;
        for (const auto &c : cpus)
            for (const FunctionSpan &s : c)
                if (s.timed()) {
                    firstTs = std::min(firstTs, s.start());
                    lastTs = std::max(lastTs, s.end());
                }
    }

    size_t size() const
    {
        size_t n = 0;
        for (const auto &c : cpus)
            n += c.size();
        return n;
    }
    bool empty() const { return size() == 0; }
    bool timed() const { return firstTs <= lastTs; } // some calls have timestamps (after finish())
    size_t memoryBytes() const
    {
        size_t n = cpus.capacity() * sizeof(decltype(cpus)::value_type); // the per-CPU vectors themselves
        for (const auto &c : cpus)
            n += c.capacity() * sizeof(FunctionSpan);
        return n;
    }
};

} // namespace tickscope
