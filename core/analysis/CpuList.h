// SPDX-License-Identifier: GPL-3.0-or-later
// CPU lists as the kernel command line writes them: "1", "0,2-3", "1-7:2" is not supported.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tickscope {

// Sorted, without duplicates; nullopt when the text is not a list ("", "a", "3-1", "1,,2").
std::optional<std::vector<int>> parseCpuList(std::string_view text);
// "0,2-3"; "" for an empty list.
std::string formatCpuList(const std::vector<int> &cpus);

} // namespace tickscope
