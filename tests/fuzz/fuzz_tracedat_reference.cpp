// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: a trace.dat through libtracecmd's record API (--record-api), behind the same
// checks of layout, formats and pages that the program applies before libtracecmd sees a file.
#include "FuzzSupport.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tickscope::fuzz::loadAndAnalyse(data, size, true);
    return 0;
}
