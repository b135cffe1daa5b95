// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: a trace.dat through the page decoder (the default path), then the analysis; then the
// same file streamed (report --stream), whose report must be the loaded one.
#include "FuzzSupport.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tickscope::fuzz::loadAndAnalyse(data, size, false);
    tickscope::fuzz::streamAndCompare(data, size);
    return 0;
}
