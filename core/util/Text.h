// SPDX-License-Identifier: GPL-3.0-or-later
// printf-style formatting into std::string through {fmt} (its printf engine): the texts keep their C
// format strings, and nothing is cut at a fixed buffer's end however long a path, command or name is.
#pragma once

#include <fmt/printf.h>

#include <cstdint>
#include <string>

namespace tickscope {

template <class... A> std::string textf(const char *format, const A &...args)
{
    return fmt::sprintf(format, args...);
}

template <class... A> void appendf(std::string &out, const char *format, const A &...args)
{
    out += fmt::sprintf(format, args...);
}

// Nanoseconds as microseconds with one decimal ("12.3"), the report's unit.
inline std::string usText(int64_t ns)
{
    return textf("%.1f", static_cast<double>(ns) / 1e3);
}

} // namespace tickscope
