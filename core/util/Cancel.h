// SPDX-License-Identifier: GPL-3.0-or-later
// Stopping long work early: the loader, the analysis, the timeline index and the simulator poll one
// flag, and throw Cancelled when it is set (the GUI sets it when a newer load supersedes theirs).
#pragma once

#include <atomic>
#include <stdexcept>

namespace tickscope {

class Cancelled : public std::runtime_error
{
public:
    Cancelled() : std::runtime_error("cancelled") {}
};

inline void throwIfCancelled(const std::atomic<bool> *flag)
{
    if (flag && flag->load(std::memory_order_relaxed)) throw Cancelled();
}

} // namespace tickscope
