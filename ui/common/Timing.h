// SPDX-License-Identifier: GPL-3.0-or-later
// TICKSCOPE_TIMING=1 (as for tickscope-cli) makes the GUI print when each step of opening a file ends, in
// seconds since the process started, to stderr: for profiling the open time, not for users.
#pragma once

namespace tickscope {

// Seconds since this process started (the kernel's start time in /proc/self/stat), so that the dynamic
// loading of the libraries counts too. -1 when unknown.
double secondsSinceProcessStart();

// Prints "<seconds> s  <what>" when TICKSCOPE_TIMING is set; thread-safe.
void markTime(const char *what);

} // namespace tickscope
