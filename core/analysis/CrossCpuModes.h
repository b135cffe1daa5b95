// Resolves the task stretches whose user/kernel mode one CPU's pass could not know: a task switched in
// that last ran on another CPU (a migration) and revealed nothing (no syscall, no context tracking event)
// before it left again. The CPU it last left knows: the latest sched_switch with
// prev_pid == pid before the switch-in on another CPU. A sleeping task resumes in the kernel; a runnable
// one (preempted) in the mode that CPU's task lane shows right before the switch. A stretch that continues
// an earlier one on its own CPU (switched out runnable, unknown) gets that one's mode. Stretches are taken
// in time order so that chains across CPUs resolve; the backward scans are bounded.
#pragma once

#include "CpuAnalysis.h"
#include "EventRoles.h"

#include "model/Trace.h"

#include <vector>

namespace tickscope {

class CrossCpuModes
{
public:
    // Relabels the lanes and ticks of every CPU's pendingModes, then empties them. Returns how many
    // stretches were resolved.
    static size_t resolve(const Trace &trace, const EventRoles &roles, std::vector<CpuAnalysis> &cpus);

    static constexpr size_t kScanPerCpu = 20000;   // events scanned back per stretch and CPU
    static constexpr size_t kScanBudget = 2000000; // events scanned in all
};

} // namespace tickscope
