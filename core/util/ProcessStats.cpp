// SPDX-License-Identifier: GPL-3.0-or-later
#include "ProcessStats.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tickscope {
namespace {
uint64_t fileKb(const char *path, const char *key)
{
    FILE *f = std::fopen(path, "r");
    if (!f) return 0;
    char line[256];
    uint64_t kb = 0;
    const size_t n = std::strlen(key);
    while (std::fgets(line, sizeof line, f)) {
        if (std::strncmp(line, key, n) == 0) {
            std::sscanf(line + n, "%lu", &kb);
            break;
        }
    }
    std::fclose(f);
    return kb * 1024;
}

uint64_t statusKb(const char *key)
{
    return fileKb("/proc/self/status", key);
}
} // namespace

uint64_t peakRssBytes()
{
    return statusKb("VmHWM:");
}
uint64_t currentRssBytes()
{
    return statusKb("VmRSS:");
}
uint64_t peakVirtualBytes()
{
    return statusKb("VmPeak:");
}

uint64_t memoryAvailableBytes()
{
    // TICKSCOPE_MEMORY_AVAILABLE (bytes) stands in for /proc/meminfo: to try the too-big paths on any file
    const char *env = std::getenv("TICKSCOPE_MEMORY_AVAILABLE");
    if (env && *env) return std::strtoull(env, nullptr, 10);
    return fileKb("/proc/meminfo", "MemAvailable:");
}

} // namespace tickscope
