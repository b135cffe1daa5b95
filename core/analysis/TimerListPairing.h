// SPDX-License-Identifier: GPL-3.0-or-later
// timer_list timers followed from start to expiry: per CPU, how many were started, fired, never fired by
// the trace's end (and not cancelled), and fired late. A timer is paired by its pointer: timer_start, then
// the next timer_expire_entry or timer_cancel of the same pointer on any CPU, in time order (at one time,
// a CPU's own records in event order, and another CPU's expiries and cancels before its starts).
// Lateness is in jiffies: timer_expire_entry's now − the start's bucket_expiry (expires on kernels
// without bucket_expiry). Late: more than kTimerLateJiffies.
#pragma once

#include "model/Trace.h"

#include <cstdint>
#include <vector>

namespace tickscope {

constexpr int64_t kTimerLateJiffies = 2;

struct TimerListCpu
{
    uint64_t started = 0, fired = 0, neverFired = 0, cancelled = 0, late = 0;
    int64_t maxLateJiffies = 0;
};

// Per CPU of the start, for timers started in [from, to].
std::vector<TimerListCpu> pairTimerList(const Trace &trace, int64_t from = INT64_MIN, int64_t to = INT64_MAX);

} // namespace tickscope
