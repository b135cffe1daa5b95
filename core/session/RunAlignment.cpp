// SPDX-License-Identifier: GPL-3.0-or-later
#include "RunAlignment.h"

#include "report/TickReport.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace tickscope {

std::optional<Alignment> parseAlignment(std::string_view text)
{
    if (text == "start") return Alignment{AlignBy::Start, 0};
    if (text == "marker") return Alignment{AlignBy::Marker, 0};
    double seconds = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), seconds);
    if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size() ||
        !std::isfinite(seconds) || std::fabs(seconds) > 9e9)
        return std::nullopt;
    return Alignment{AlignBy::Offset, std::llround(seconds * 1e9)};
}

std::optional<AlignedZeros> alignRuns(const Trace &a, const TickAnalysis &aa, const Trace &b,
                                      const TickAnalysis &ba, std::optional<Alignment> align,
                                      std::string &why)
{
    const int64_t startA = a.startTs(), startB = b.startTs();
    const auto markerA = firstMarker(a, aa), markerB = firstMarker(b, ba);
    if (!align) align = Alignment{markerA && markerB ? AlignBy::Marker : AlignBy::Start, 0};
    switch (align->by) {
    case AlignBy::Start:
        return AlignedZeros{startA, startB, "start"};
    case AlignBy::Marker:
        if (!markerA || !markerB) {
            why = std::string("--align marker: ") + (!markerA ? "A" : "B") + " has no ftrace print marker";
            return std::nullopt;
        }
        return AlignedZeros{*markerA, *markerB, "marker"};
    case AlignBy::Offset: {
        char buf[64];
        std::snprintf(buf, sizeof buf, "offset %.6f s", static_cast<double>(align->offsetNs) / 1e9);
        return AlignedZeros{startA, startB + align->offsetNs, buf};
    }
    }
    return std::nullopt;
}

} // namespace tickscope
