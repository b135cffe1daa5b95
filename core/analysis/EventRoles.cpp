// SPDX-License-Identifier: GPL-3.0-or-later
#include "EventRoles.h"

#include "model/MachineFacts.h"
#include "model/Trace.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace tickscope {

namespace {

Role roleOfKind(EventKind k)
{
    switch (k) {
    case EventKind::SysEnter:
        return Role::SysEnter;
    case EventKind::SysExit:
        return Role::SysExit;
    case EventKind::UserEnter:
        return Role::UserEnter;
    case EventKind::UserExit:
        return Role::UserExit;
    case EventKind::SchedSwitch:
        return Role::SchedSwitch;
    case EventKind::CpuIdle:
        return Role::CpuIdle;
    case EventKind::LocalTimerEntry:
        return Role::LocalTimerEntry;
    case EventKind::LocalTimerExit:
        return Role::LocalTimerExit;
    case EventKind::IrqHandlerEntry:
        return Role::IrqHandlerEntry;
    case EventKind::IrqHandlerExit:
        return Role::IrqHandlerExit;
    case EventKind::VectorEntry:
        return Role::VectorEntry;
    case EventKind::VectorExit:
        return Role::VectorExit;
    case EventKind::SoftirqEntry:
        return Role::SoftirqEntry;
    case EventKind::SoftirqExit:
        return Role::SoftirqExit;
    case EventKind::HrtimerStart:
        return Role::HrtimerStart;
    case EventKind::HrtimerCancel:
        return Role::HrtimerCancel;
    case EventKind::HrtimerExpireEntry:
        return Role::HrtimerExpireEntry;
    case EventKind::HrtimerExpireExit:
        return Role::HrtimerExpireExit;
    case EventKind::TickStop:
        return Role::TickStop;
    case EventKind::Print:
        return Role::Print;
    case EventKind::TimerExpireEntry:
        return Role::TimerExpireEntry;
    case EventKind::TimerExpireExit:
        return Role::TimerExpireExit;
    case EventKind::SchedWaking:
        return Role::SchedWaking;
    case EventKind::SchedWakeup:
        return Role::SchedWakeup;
    default:
        return Role::Other;
    }
}

// The interrupt names clock event drivers give their per-CPU timer interrupt (request_irq /
// request_percpu_irq): ARM's generic timer (ARMv7, arm64), the Cortex-A9 local timer, OMAP's dmtimer,
// Zynq's TTC, Exynos' MCT and RISC-V's timer. Not "timer": on x86 that is IRQ 0, the global PIT/HPET.
constexpr const char *kTimerIrqNames[] = {
    "arch_timer",    "arch_mem_timer", "twd",           "gp_timer",     "ttc_clockevent", "mct_tick0_irq",
    "mct_tick1_irq", "mct_tick2_irq",  "mct_tick3_irq", "mct_comp_irq", "riscv-timer"};

} // namespace

std::string EventRoles::timerIrqNames(const Trace &trace) const
{
    std::string s;
    for (uint32_t id : timerIrqNames_)
        s += (s.empty() ? "" : ",") + std::string(trace.strings.str(id));
    return s;
}

EventRoles::EventRoles(const Trace &trace)
{
    refresh(trace);
    if (!useLocalTimer_ && timerIrqNames_.empty() && recorded(Role::IrqHandlerEntry)) inferTimerIrq(trace);
}

// An interrupt of a name no clock event driver in kTimerIrqNames uses, taken for the per-CPU timer by how it
// behaves: of its gaps shorter than kShortGap on a CPU, at least half lie within 10 % of one tick period
// (HZ from the machine facts, else the best of 100/250/300/1000), at least kMinTicks of them; on more than
// one CPU when the trace has more than one. A device interrupt is not periodic at a tick period; the tick
// is, whenever it runs (idle and nohz_full CPUs stop it, which makes long gaps, not short ones).
void EventRoles::inferTimerIrq(const Trace &trace)
{
    constexpr int64_t kShortGap = 50'000'000;
    constexpr size_t kMinTicks = 20;
    struct Candidate
    {
        std::vector<int64_t> gaps;
        int cpus = 0;
    };
    std::unordered_map<uint32_t, Candidate> byName;
    int cpusWithData = 0;
    for (int c = 0; c < trace.cpuCount(); ++c) {
        const CpuEvents &ev = trace.cpu(c);
        cpusWithData += !ev.empty();
        std::unordered_map<uint32_t, int64_t> last;
        for (CpuEvents::Cursor cur(ev, 0); cur.valid(); cur.next()) {
            if (role(ev.type(cur.index())) != Role::IrqHandlerEntry) continue;
            const uint32_t name = cur.payload<IrqEntryP>().name;
            if (!name) continue;
            auto [it, first] = last.try_emplace(name, cur.ts());
            Candidate &cand = byName[name];
            if (first) {
                ++cand.cpus;
                continue;
            }
            const int64_t gap = cur.ts() - it->second;
            it->second = cur.ts();
            if (gap > 0 && gap < kShortGap && cand.gaps.size() < (size_t{1} << 20)) cand.gaps.push_back(gap);
        }
    }
    std::vector<int> hzs{100, 250, 300, 1000};
    if (const int hz = MachineFacts::parse(trace.meta.machine).hz; hz > 0) hzs = {hz};
    uint32_t best = 0;
    double bestShare = 0;
    for (const auto &[name, cand] : byName) {
        if (cand.gaps.size() < kMinTicks || (cpusWithData > 1 && cand.cpus < 2)) continue;
        for (const int hz : hzs) {
            const double period = 1e9 / hz;
            const auto near =
                static_cast<size_t>(std::count_if(cand.gaps.begin(), cand.gaps.end(), [&](int64_t g) {
                    return std::abs(static_cast<double>(g) - period) <= 0.1 * period;
                }));
            const double share = static_cast<double>(near) / static_cast<double>(cand.gaps.size());
            if (near >= kMinTicks && share >= 0.5 && share > bestShare) {
                best = name;
                bestShare = share;
                timerIrqBehaviour_ = "taken for the per-CPU timer by its behaviour: " +
                                     std::to_string(std::lround(share * 100)) + " % of its " +
                                     std::to_string(cand.gaps.size()) +
                                     " gaps under 50 ms are one tick period of HZ=" + std::to_string(hz) +
                                     ", on " + std::to_string(cand.cpus) + " CPUs";
            }
        }
    }
    if (best) timerIrqNames_.push_back(best);
}

void EventRoles::refresh(const Trace &trace)
{
    const auto &types = trace.types();
    const size_t known = roles_.size();
    roles_.resize(types.size(), Role::Other);
    for (size_t t = known; t < types.size(); ++t) {
        roles_[t] = roleOfKind(types[t].kind);
        // exceptions:page_fault_user (x86) is kept as a generic event.
        if (types[t].kind == EventKind::Generic && types[t].name == "page_fault_user")
            roles_[t] = Role::PageFaultUser;
        // The per-syscall events (syscalls:sys_enter_openat ...) tell the mode as raw_syscalls do.
        const std::string &n = types[t].name;
        if (types[t].kind == EventKind::Generic &&
            (types[t].system == "syscalls" || types[t].system.empty())) {
            if (n.starts_with("sys_enter_")) roles_[t] = Role::SysEnter;
            if (n.starts_with("sys_exit_")) roles_[t] = Role::SysExit;
        }
    }
    const char *tick[] = {"tick_sched_timer", "tick_nohz_highres_handler", "tick_nohz_handler"};
    for (size_t k = 0; k < tickFunctions_.size(); ++k)
        if (!tickFunctions_[k]) tickFunctions_[k] = trace.strings.find(tick[k]);
    if (!hrtimerWakeup_) hrtimerWakeup_ = trace.strings.find("hrtimer_wakeup");
    useLocalTimer_ = recorded(Role::LocalTimerEntry);
    for (const char *name : kTimerIrqNames) {
        const uint32_t id = trace.strings.find(name);
        if (id && std::find(timerIrqNames_.begin(), timerIrqNames_.end(), id) == timerIrqNames_.end())
            timerIrqNames_.push_back(id);
    }
}

} // namespace tickscope
