// SPDX-License-Identifier: GPL-3.0-or-later
#include "WindowOption.h"

#include "sim/Scenario.h"

#include <climits>
#include <cmath>

namespace tickscope {

namespace {

// One side: seconds from `lo` to 9e9 (about 285 years of trace time, within int64 ns).
bool parseSeconds(const std::string &s, double lo, int64_t &v)
{
    if (s.empty()) return true;
    const auto d = sim::parseNumberText(s, lo, 9e9);
    if (d) v = std::llround(*d * 1e9);
    return d.has_value();
}

} // namespace

std::string parseWindow(const std::string &text, double lo, int64_t &from, int64_t &to,
                        const std::string &option)
{
    const size_t colon = text.find(':');
    if (colon == std::string::npos)
        return option + ": expected A:B in seconds (e.g. 1.5:2), got '" + text + "'";
    const std::string a = text.substr(0, colon), b = text.substr(colon + 1);
    for (const std::string *side : {&a, &b}) {
        if (!parseSeconds(*side, lo, side == &a ? from : to))
            return option + ": '" + *side + "' is not a number of seconds from " +
                   std::string(lo < 0 ? "-9e9" : "0") + " to 9e9 (in '" + text + "')";
    }
    if (!a.empty() && !b.empty() && from >= to) return option + ": A must be below B, got '" + text + "'";
    return {};
}

std::string parseLoadWindow(const std::string &text, LoadOptions &opt)
{
    int64_t from = INT64_MIN, to = INT64_MAX; // left so by an empty side
    if (std::string e = parseWindow(text, 0, from, to, "--load-window"); !e.empty()) return e;
    opt.window = std::make_pair(from == INT64_MIN ? 0.0 : static_cast<double>(from) / 1e9,
                                to == INT64_MAX ? 1e12 : static_cast<double>(to) / 1e9);
    return {};
}

} // namespace tickscope
