// SPDX-License-Identifier: GPL-3.0-or-later
#include "EventRoles.h"

#include "model/Trace.h"

#include <algorithm>

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
