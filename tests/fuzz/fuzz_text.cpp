// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: ftrace text (tracefs trace / trace_pipe, trace-cmd report output), then the analysis.
#include "FuzzSupport.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 3 && data[0] == 0x17 && data[1] == 0x08 && data[2] == 0x44)
        return 0; // trace.dat: other targets
    tickscope::fuzz::loadAndAnalyse(data, size, false);
    return 0;
}
