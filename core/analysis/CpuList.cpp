// SPDX-License-Identifier: GPL-3.0-or-later
#include "CpuList.h"

#include <algorithm>
#include <charconv>

namespace tickscope {

namespace {

constexpr int kMaxCpu = 1 << 16;

bool parseCpu(std::string_view s, int &v)
{
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size() && v >= 0 && v < kMaxCpu;
}

} // namespace

std::optional<std::vector<int>> parseCpuList(std::string_view text)
{
    std::vector<int> out;
    if (text.empty()) return std::nullopt;
    while (true) {
        const size_t comma = text.find(',');
        const std::string_view item = text.substr(0, comma);
        const size_t dash = item.find('-');
        int a = 0;
        int b = 0;
        if (dash == std::string_view::npos) {
            if (!parseCpu(item, a)) return std::nullopt;
            b = a;
        } else if (!parseCpu(item.substr(0, dash), a) || !parseCpu(item.substr(dash + 1), b) || b < a) {
            return std::nullopt;
        }
        for (int c = a; c <= b; ++c)
            out.push_back(c);
        if (comma == std::string_view::npos) break;
        text.remove_prefix(comma + 1);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::string formatCpuList(const std::vector<int> &cpus)
{
    std::string s;
    for (size_t i = 0; i < cpus.size();) {
        size_t j = i;
        while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1)
            ++j;
        if (!s.empty()) s += ',';
        s += std::to_string(cpus[i]);
        if (j > i) s += '-' + std::to_string(cpus[j]);
        i = j + 1;
    }
    return s;
}

} // namespace tickscope
