// SPDX-License-Identifier: GPL-3.0-or-later
#include "CpuAnalysis.h"

#include "model/EventKind.h"

namespace tickscope {

size_t CpuAnalysis::bytes() const
{
    return task.bytes() + irq.bytes() + ticks.bytes() + localTimerTicks.bytes() + tickLane.bytes() +
           failedStops.capacity() * sizeof(FailedStop) + timers.bytes();
}

PollExit pollExitAt(const ChangeLane &lane, size_t change)
{
    if (change == ChangeLane::npos) return {};
    size_t k = change;
    int limit = 16;
    while (k > 0 && limit-- > 0) {
        const TaskState s = StateCode::taskState(lane.code(k));
        if (s == TaskState::Poll || s == TaskState::Idle) break;
        --k;
    }
    return {StateCode::taskState(lane.code(k)) == TaskState::Poll, k};
}

uint32_t dependencyFromReason(std::string_view r)
{
    // 3.10 - 4.5: trace_tick_stop(0, "posix timers running\n"), "perf events running\n",
    // "more than 1 task in runqueue\n", "unstable sched clock\n".
    const auto has = [r](std::string_view s) { return r.find(s) != std::string_view::npos; };
    if (has("posix")) return static_cast<uint32_t>(TickDependency::PosixTimer);
    if (has("perf")) return static_cast<uint32_t>(TickDependency::PerfEvents);
    if (has("clock")) return static_cast<uint32_t>(TickDependency::ClockUnstable);
    if (has("task") || has("runqueue") || has("sched")) return static_cast<uint32_t>(TickDependency::Sched);
    if (has("rcu") || has("RCU")) return static_cast<uint32_t>(TickDependency::Rcu);
    if (isTickDependencyName(r)) return tickDependencyFromName(r);
    return 0;
}

} // namespace tickscope
