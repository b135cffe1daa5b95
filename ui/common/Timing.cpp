// SPDX-License-Identifier: GPL-3.0-or-later
#include "Timing.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

namespace tickscope {

double secondsSinceProcessStart()
{
    std::ifstream f("/proc/self/stat");
    const std::string s((std::istreambuf_iterator<char>(f)), {});
    const size_t p = s.rfind(')');
    if (p == std::string::npos) return -1;
    const char *c = s.c_str() + p + 2; // field 3
    for (int field = 3; field < 22 && c; ++field) {
        c = std::strchr(c, ' ');
        if (c) ++c;
    }
    if (!c) return -1;
    const unsigned long long start =
        std::strtoull(c, nullptr, 10); // field 22: starttime, in ticks since boot
    timespec now{};
    clock_gettime(CLOCK_BOOTTIME, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9 -
           static_cast<double>(start) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

void markTime(const char *what)
{
    static const bool on = std::getenv("TICKSCOPE_TIMING") != nullptr;
    if (!on) return;
    // With the CPU time of the process and of the calling thread: on 2 cores, what the GUI thread spends
    // while the decoders run is taken from them.
    const auto cpu = [](clockid_t c) {
        timespec t{};
        clock_gettime(c, &t);
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
    };
    std::fprintf(stderr, "%7.3f s  %-20s cpu %6.3f s, this thread %6.3f s\n", secondsSinceProcessStart(),
                 what, cpu(CLOCK_PROCESS_CPUTIME_ID),
                 cpu(CLOCK_THREAD_CPUTIME_ID)); // one call: lines stay whole
}

} // namespace tickscope
