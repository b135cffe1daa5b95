// SPDX-License-Identifier: GPL-3.0-or-later
// Scanning and value helpers for ftrace's printed fields ("key=value ..."): shared by the event-kind
// table's text decoders and the text importer's line parser.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace tickscope::scan {

inline constexpr auto npos = std::string_view::npos;

// Closures rather than functions, so that the std algorithms below inline them.
inline constexpr auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
inline constexpr auto isSpace = [](char c) { return c == ' ' || c == '\t'; };

inline std::string_view ltrim(std::string_view s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    return s;
}

inline std::string_view rtrim(std::string_view s)
{
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

inline bool allDigits(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), isDigit);
}

inline bool hasSpace(std::string_view s)
{
    return std::any_of(s.begin(), s.end(), isSpace);
}

template <class T> bool parseDec(std::string_view s, T &v)
{
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// Decimal, or hex with 0x (trace-cmd prints enums it cannot resolve as 0x9).
bool parseU64Auto(std::string_view s, uint64_t &v);

template <class T> bool parseIntAuto(std::string_view s, T &v)
{
    if (!s.empty() && s[0] == '-') return parseDec(s, v);
    uint64_t u = 0;
    if (!parseU64Auto(s, u) || u > static_cast<uint64_t>(std::numeric_limits<T>::max())) return false;
    v = static_cast<T>(u);
    return true;
}

// Value of "key=" where the key starts the text or follows a space; the value runs to the next space.
// `key` is given without its '='.
bool field(std::string_view f, std::string_view key, std::string_view &value);
// Everything after "key=" to the end.
bool tailField(std::string_view f, std::string_view key, std::string_view &value);

bool parsePrevState(std::string_view s, bool pluginLetters, uint32_t &state);
bool parseHrtimerMode(std::string_view s, uint32_t &mode);
bool parsePointer(std::string_view s, uint64_t &v);       // "00000000a1b2c3d4", "0xffff...", "ffff8881..."
std::string_view stripSymbolOffset(std::string_view sym); // "f+0x20/0x60" -> "f", "f/0x0" -> "f"

std::string formatPrevState(uint32_t state); // the kernel's TASK_REPORT letters, "R+" when preempted

} // namespace tickscope::scan
