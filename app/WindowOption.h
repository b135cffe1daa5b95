// SPDX-License-Identifier: GPL-3.0-or-later
// The window options of the command-line programs (tickscope-cli, tickscope-render): "A:B" in seconds,
// either side empty (the window stays open there).
#pragma once

#include "import/Loader.h"

#include <cstdint>
#include <string>

namespace tickscope {

// A and B as ns in `from` / `to` (a side left empty leaves its variable as it is); `lo`: the lowest second
// allowed (0 for trace time; relative windows may start before their time zero). Returns "" or what is
// wrong, beginning with `option`.
std::string parseWindow(const std::string &text, double lo, int64_t &from, int64_t &to,
                        const std::string &option = "--window");

// --load-window A:B: only seconds A to B after a trace.dat's first event are loaded (an empty side: its
// first or last event). Sets opt.window; returns "" or what is wrong.
std::string parseLoadWindow(const std::string &text, LoadOptions &opt);

} // namespace tickscope
