// libFuzzer target: a trace.dat through the page decoder (the default path), then the analysis.
#include "FuzzSupport.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tickscope::fuzz::loadAndAnalyse(data, size, false);
    return 0;
}
