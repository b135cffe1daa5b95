// SPDX-License-Identifier: GPL-3.0-or-later
#include "PhaseClock.h"

#include "ProcessStats.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace tickscope {

namespace {

double processCpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

} // namespace

PhaseClock::PhaseClock() : on(std::getenv("TICKSCOPE_TIMING") != nullptr)
{
    if (on) lastCpu = processCpuSeconds();
}

void PhaseClock::mark(const char *what)
{
    if (!on) return;
    const auto now = std::chrono::steady_clock::now();
    const double cpu = processCpuSeconds();
    std::fprintf(stderr, "  %-28s %7.3f s  cpu %7.3f s  rss %6.1f MB  peak %6.1f MB\n", what,
                 std::chrono::duration<double>(now - last).count(), cpu - lastCpu,
                 static_cast<double>(currentRssBytes()) / 1e6, static_cast<double>(peakRssBytes()) / 1e6);
    last = now;
    lastCpu = cpu;
}

} // namespace tickscope
