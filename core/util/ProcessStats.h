// SPDX-License-Identifier: GPL-3.0-or-later
// Peak resident memory of this process (for bytes/event figures).
#pragma once

#include <cstdint>

namespace tickscope {
uint64_t peakRssBytes();     // VmHWM
uint64_t currentRssBytes();  // VmRSS
uint64_t peakVirtualBytes(); // VmPeak: address space reserved at most, touched or not
// The memory a new allocation may take (MemAvailable of /proc/meminfo; 0 when unknown), or the
// TICKSCOPE_MEMORY_AVAILABLE environment variable's bytes when set.
uint64_t memoryAvailableBytes();
} // namespace tickscope
