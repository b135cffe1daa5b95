// SPDX-License-Identifier: GPL-3.0-or-later
// Two runs of the same workload (before and after a change) on one relative time axis: each run's time
// zero. By the trace start, by the first ftrace print marker (the workload's own "start" mark, so that
// the two runs line up whatever came before it), or by a given offset of B against A.
#pragma once

#include "analysis/TickAnalysis.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tickscope {

enum class AlignBy : uint8_t
{
    Start,  // each run's first event
    Marker, // each run's first ftrace print marker
    Offset, // each run's first event, B's shifted by offsetNs (B's zero is offsetNs after its start)
};

struct Alignment
{
    AlignBy by = AlignBy::Marker;
    int64_t offsetNs = 0;
};

// "start", "marker", or a number of seconds (the offset, may be negative); nullopt for anything else.
std::optional<Alignment> parseAlignment(std::string_view text);

struct AlignedZeros
{
    int64_t a = 0, b = 0; // absolute ns of each run's time zero
    std::string how;      // "start", "marker", "offset 0.250000 s"
};

// The zeros of runs A and B. No alignment given: by marker when both runs have one, else by start.
// Marker alignment asked for runs without markers: std::nullopt, and `why` says which run lacks one.
std::optional<AlignedZeros> alignRuns(const Trace &a, const TickAnalysis &aa, const Trace &b,
                                      const TickAnalysis &ba, std::optional<Alignment> align,
                                      std::string &why);

} // namespace tickscope
