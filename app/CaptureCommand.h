// SPDX-License-Identifier: GPL-3.0-or-later
// `tickscope-cli capture ...` (see the usage text in tickscope-cli.cpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace tickscope {

struct CaptureHooks
{
    std::function<int(const std::string &)> usage;  // prints a usage error; returns the exit status
    std::function<int(const std::string &)> report; // `report FILE`; returns the exit status
};

int runCapture(const std::vector<std::string> &args, const CaptureHooks &hooks);

} // namespace tickscope
