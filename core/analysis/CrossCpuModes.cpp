#include "CrossCpuModes.h"

#include "UnknownStretches.h"

#include <algorithm>

namespace tickscope {

namespace {

struct Pending
{
    int64_t ts;
    int cpu;
    size_t k; // index in that CPU's pendingModes
};

// The latest switch-out of pid before ts on CPU `cpu`: its event index, or npos.
size_t lastSwitchOut(const CpuEvents &ev, const EventRoles &roles, int32_t pid, int64_t ts, size_t &budget)
{
    size_t j = ev.lowerBound(ts);
    for (size_t scanned = 0; j > 0 && scanned < CrossCpuModes::kScanPerCpu && budget; ++scanned, --budget) {
        --j;
        if (roles.role(ev.type(j)) == Role::SchedSwitch && ev.payload<SchedSwitchP>(j).prevPid == pid)
            return j;
    }
    return CpuAnalysis::npos;
}

} // namespace

size_t CrossCpuModes::resolve(const Trace &trace, const EventRoles &roles, std::vector<CpuAnalysis> &cpus)
{
    std::vector<Pending> all;
    std::vector<std::vector<TaskState>> modes(cpus.size());
    for (const CpuAnalysis &c : cpus) {
        modes[static_cast<size_t>(c.cpu)].assign(c.pendingModes.size(), TaskState::Unknown);
        for (size_t k = 0; k < c.pendingModes.size(); ++k)
            all.push_back({trace.cpu(c.cpu).ts(c.pendingModes[k].switchIndex), c.cpu, k});
    }
    std::sort(all.begin(), all.end(), [](const Pending &a, const Pending &b) { return a.ts < b.ts; });
    size_t budget = kScanBudget;
    size_t resolved = 0;
    for (const Pending &p : all) {
        CpuAnalysis &a = cpus[static_cast<size_t>(p.cpu)];
        const PendingMode &m = a.pendingModes[p.k];
        TaskState mode = TaskState::Unknown;
        if (m.prev >= 0) {
            mode = modes[static_cast<size_t>(p.cpu)][static_cast<size_t>(m.prev)]; // resumed as it left
        } else if (m.prev == PendingMode::kHead) {
            // The latest switch-out on the other CPUs (this one has no history of it).
            int from = -1;
            size_t at = CpuAnalysis::npos;
            int64_t atTs = INT64_MIN;
            for (const CpuAnalysis &b : cpus) {
                if (b.cpu == a.cpu) continue;
                const CpuEvents &ev = trace.cpu(b.cpu);
                const size_t j = lastSwitchOut(ev, roles, m.pid, p.ts, budget);
                if (j != CpuAnalysis::npos && ev.ts(j) > atTs) {
                    from = b.cpu;
                    at = j;
                    atTs = ev.ts(j);
                }
            }
            if (from >= 0) {
                mode = TaskState::Kernel; // a task sleeps in the kernel
                if ((trace.cpu(from).payload<SchedSwitchP>(at).prevState & 0xff) == 0)
                    mode = at ? StateCode::taskState(cpus[static_cast<size_t>(from)].task.codeAt(at - 1))
                              : TaskState::Unknown;
            }
        }
        if (mode != TaskState::User && mode != TaskState::Kernel) continue;
        modes[static_cast<size_t>(p.cpu)][p.k] = mode;
        UnknownStretches::apply(a, m, mode);
        ++resolved;
    }
    for (CpuAnalysis &c : cpus)
        c.pendingModes = {};
    return resolved;
}

} // namespace tickscope
