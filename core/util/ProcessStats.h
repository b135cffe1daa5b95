// Peak resident memory of this process (for bytes/event figures).
#pragma once

#include <cstdint>

namespace tickscope {
uint64_t peakRssBytes();    // VmHWM
uint64_t currentRssBytes(); // VmRSS
uint64_t peakVirtualBytes(); // VmPeak: address space reserved at most, touched or not
} // namespace tickscope
