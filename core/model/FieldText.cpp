// SPDX-License-Identifier: GPL-3.0-or-later
#include "FieldText.h"

namespace tickscope::scan {

bool parseU64Auto(std::string_view s, uint64_t &v)
{
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        const auto r = std::from_chars(s.data() + 2, s.data() + s.size(), v, 16);
        return r.ec == std::errc() && r.ptr == s.data() + s.size();
    }
    return parseDec(s, v);
}

bool field(std::string_view f, std::string_view key, std::string_view &value)
{
    for (size_t p = f.find(key); p != npos; p = f.find(key, p + 1)) {
        const size_t eq = p + key.size();
        if ((p == 0 || f[p - 1] == ' ') && eq < f.size() && f[eq] == '=') {
            const size_t e = f.find(' ', eq + 1);
            value = f.substr(eq + 1, e == npos ? npos : e - eq - 1);
            return true;
        }
    }
    return false;
}

bool tailField(std::string_view f, std::string_view key, std::string_view &value)
{
    if (!field(f, key, value)) return false;
    value = f.substr(static_cast<size_t>(value.data() - f.data()));
    return true;
}

bool parsePrevState(std::string_view s, bool pluginLetters, uint32_t &state)
{
    // tracefs prints the kernel's TASK_REPORT letters; the trace-cmd sched_switch plugin prints the same raw
    // bits with its own older table. Letters of pre-4.14 kernels (K wakekill, W waking, N noload, x dead)
    // have no TASK_REPORT bit and add nothing.
    static constexpr std::string_view kKernel = "SDTtXZPI";
    static constexpr std::string_view kPlugin = "SDTtZXxW";
    static constexpr std::string_view kLegacy = "KWNx";
    uint32_t v = 0;
    if (!s.empty() && s.back() == '+') {
        v |= 0x100; // TASK_REPORT_MAX: preempted while runnable
        s.remove_suffix(1);
    }
    if (s.empty()) return false;
    for (size_t bar = 0; s != "R"; s = s.substr(bar + 1)) {
        bar = s.find('|');
        if ((bar == npos ? s.size() : bar) != 1) return false;
        const std::string_view table = pluginLetters ? kPlugin : kKernel;
        if (const size_t bit = table.find(s[0]); bit != npos)
            v |= 1u << bit;
        else if (pluginLetters || kLegacy.find(s[0]) == npos)
            return false;
        if (bar == npos) break;
    }
    state = v;
    return true;
}

std::string formatPrevState(uint32_t state)
{
    static constexpr char kLetters[] = "SDTtXZPI";
    char buf[20]; // 8 letters, 7 bars, '+'
    size_t n = 0;
    for (size_t b = 0; b + 1 < sizeof kLetters; ++b) {
        if (!(state & (1u << b))) continue;
        if (n) buf[n++] = '|';
        buf[n++] = kLetters[b];
    }
    if (n == 0) buf[n++] = 'R';
    if (state & 0x100) buf[n++] = '+';
    return std::string(buf, n);
}

bool parseHrtimerMode(std::string_view s, uint32_t &mode)
{
    if (s.empty()) return false;
    if (isDigit(s[0])) return parseIntAuto(s, mode);
    // "ABS|PINNED|HARD" (tracefs) or "HRTIMER_MODE_ABS_PINNED_HARD" (an unresolved enum name)
    const char sep = s.starts_with("HRTIMER_MODE_") ? '_' : '|';
    if (sep == '_') s.remove_prefix(13);
    static constexpr std::string_view kNames[] = {"REL", "PINNED", "SOFT", "HARD"};
    uint32_t v = 0;
    for (size_t p = 0; p != npos; s = s.substr(p + 1)) {
        p = s.find(sep);
        const std::string_view t = s.substr(0, p);
        const auto *it = std::find(std::begin(kNames), std::end(kNames), t);
        uint64_t extra = 0;
        if (it != std::end(kNames))
            v |= 1u << (it - std::begin(kNames));
        else if (t.starts_with("0x") && parseU64Auto(t, extra))
            v |= static_cast<uint32_t>(extra);
        else if (t != "ABS")
            return false;
        if (p == npos) break;
    }
    mode = v;
    return true;
}

bool parsePointer(std::string_view s, uint64_t &v)
{
    if (s == "(null)") {
        v = 0;
        return true;
    }
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
    if (s.empty() || s.size() > 16) return false;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v, 16);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

std::string_view stripSymbolOffset(std::string_view sym)
{
    const size_t p = sym.find_first_of("+/");
    return p == npos || p == 0 ? sym : sym.substr(0, p);
}

} // namespace tickscope::scan
