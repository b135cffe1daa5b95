// SPDX-License-Identifier: GPL-3.0-or-later
// What was loaded: the numbers behind `tickscope-cli stats`.
#pragma once

#include "model/Trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tickscope {

class JsonWriter;

struct TraceStats
{
    struct Cpu
    {
        int cpu = 0;
        uint64_t events = 0;
        int64_t firstTs = 0;
        int64_t lastTs = 0;
        std::vector<LostRange> lost;
    };
    struct Named
    {
        std::string system;
        std::string name;
        uint64_t count = 0;
    };

    std::string path, format, instance, uname, kernelRelease, traceClock;
    int cpuCount = 0;
    uint64_t events = 0;
    int64_t firstTs = 0;
    int64_t lastTs = 0;
    uint64_t lostRanges = 0;
    uint64_t lostEvents = 0; // known counts only
    uint64_t modelBytes = 0;
    std::vector<Cpu> cpus;
    std::vector<Named> byName; // sorted by count, then name
    std::vector<std::string> warnings;

    static TraceStats compute(const Trace &trace);
};

// Process-wide figures of one `stats` run.
struct LoadFigures
{
    double loadSeconds = 0;
    uint64_t peakRssBytes = 0;
    uint64_t peakVirtualBytes = 0;
    uint64_t events = 0;
    double bytesPerEvent() const
    {
        return events ? static_cast<double>(peakRssBytes) / static_cast<double>(events) : 0;
    }
};

std::string formatStatsText(const std::vector<TraceStats> &sources, const LoadFigures &figures);
std::string formatStatsJson(const std::vector<TraceStats> &sources, const LoadFigures &figures);

// "12.345678" seconds from ns (trace-cmd report style, microseconds).
std::string formatSeconds(int64_t ns);

} // namespace tickscope
