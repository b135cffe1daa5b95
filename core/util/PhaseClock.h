// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>

namespace tickscope {

// TICKSCOPE_TIMING=1 prints the phases of a load and of the tick analysis to stderr, each with its wall
// time, the CPU time of all the process's threads in it (their ratio: how many cores the phase used) and
// the resident memory after it (for profiling, not for users).
struct PhaseClock
{
    bool on = false;
    std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
    double lastCpu = 0; // seconds
    PhaseClock();
    void mark(const char *what);
};

} // namespace tickscope
