#include "ProcessStats.h"

#include <cstdio>
#include <cstring>

namespace tickscope {
namespace {
uint64_t statusKb(const char *key)
{
    FILE *f = std::fopen("/proc/self/status", "r");
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
} // namespace

uint64_t peakRssBytes() { return statusKb("VmHWM:"); }
uint64_t currentRssBytes() { return statusKb("VmRSS:"); }
uint64_t peakVirtualBytes()
{
    return statusKb("VmPeak:");
}

} // namespace tickscope
