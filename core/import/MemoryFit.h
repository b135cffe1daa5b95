// SPDX-License-Identifier: GPL-3.0-or-later
// Weighing a file before its model is allocated: both importers estimate what the model of the events to
// load would take and refuse (TooBigError, naming a window of time that fits) when the memory available
// is less. Internal to core/import.
#pragma once

#include "Loader.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace tickscope {

namespace text {
struct PrefixOracle;
}

// Bytes of memory the model takes per byte of ring-buffer page data, as an estimate made before loading:
// the largest ratio of `report`'s peak RSS to page bytes measured on large.dat (0.65, v7 zstd, real
// kernel), a live capture (0.64) and a 128-CPU simulation (1.04: its records are short), with room.
constexpr double kModelBytesPerDataByte = 1.1;
// The same per event line of a text trace: `report` of a 1.39 M-line simulated text took 25.7 bytes per
// line beside the mapped file (whose pages the kernel can drop and read again), with room.
constexpr double kModelBytesPerTextLine = 32;
// A fixed part: symbols, formats, threads.
constexpr uint64_t kModelFixedBytes = 64u << 20;

// The caller's extra weight beside the model (LoadOptions::bytesPerDataByte, relative to the loader's own).
double modelWeight(const LoadOptions &options);

// `first` plus `seconds`, saturating at INT64_MAX (an open end, or any end past the trace).
int64_t nsAfter(int64_t first, double seconds);

// Throws TooBigError when `need` bytes (fixed part included) exceed the memory available (the options',
// else /proc/meminfo's). spanSeconds: the file's span, to say how much of it would fit.
void refuseIfTooBig(const std::string &path, const LoadOptions &options, uint64_t need, double spanSeconds);

// A text trace, before anything is allocated for its events: the time of its first line that shows one
// (looked for in the first few MiB), the window the options ask for in ns, and TooBigError when the model
// of its `lines` (an estimate), or of the window's share of them, would not fit. The lines are taken as
// spread evenly between the first and the last time (found in the last few MiB).
struct TextWeight
{
    int64_t first = INT64_MIN; // INT64_MIN: no line shows a time
    std::optional<std::pair<int64_t, int64_t>> window;
};
TextWeight weighText(const std::string &path, std::string_view data, size_t lines, const LoadOptions &options,
                     const text::PrefixOracle *prefixes);

} // namespace tickscope
