// SPDX-License-Identifier: GPL-3.0-or-later
// What each event type of a trace means to the tick analysis, looked up once per type so that the
// per-event loop is a table read and a switch. Also the string ids of the tick hrtimer's callback names.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tickscope {

class Trace;

enum class Role : uint8_t
{
    Other = 0,
    SysEnter,
    SysExit,
    UserEnter,
    UserExit,
    PageFaultUser,
    SchedSwitch,
    CpuIdle,
    LocalTimerEntry,
    LocalTimerExit,
    IrqHandlerEntry,
    IrqHandlerExit,
    VectorEntry,
    VectorExit,
    SoftirqEntry,
    SoftirqExit,
    HrtimerStart,
    HrtimerCancel,
    HrtimerExpireEntry,
    HrtimerExpireExit,
    TickStop,
    Print,
    TimerExpireEntry,
    TimerExpireExit,
    SchedWaking,
    SchedWakeup,
};

class EventRoles
{
public:
    explicit EventRoles(const Trace &trace);
    // A trace whose events arrive in parts gains event types and strings as they come: takes in the new
    // ones (the roles of the types known already stay).
    void refresh(const Trace &trace);

    Role role(uint16_t type) const { return type < roles_.size() ? roles_[type] : Role::Other; }
    // The type ids of one role, ascending.
    std::vector<uint16_t> typesOf(Role r) const
    {
        std::vector<uint16_t> types;
        for (std::size_t t = 0; t < roles_.size(); ++t)
            if (roles_[t] == r) types.push_back(static_cast<uint16_t>(t));
        return types;
    }
    // Whether the trace holds an event type of this role (types are added as their first event is read).
    bool recorded(Role r) const
    {
        for (Role x : roles_)
            if (x == r) return true;
        return false;
    }
    // The callback is one of the tick hrtimer's names across kernel versions:
    // tick_sched_timer (<= 6.6), tick_nohz_highres_handler (6.7-6.8), tick_nohz_handler (6.9+).
    bool isTickFunction(uint32_t symbol) const
    {
        return symbol &&
               (symbol == tickFunctions_[0] || symbol == tickFunctions_[1] || symbol == tickFunctions_[2]);
    }

    uint32_t hrtimerWakeupFunction() const { return hrtimerWakeup_; } // 0 when the trace has none

    // The per-CPU timer interrupt where there is no irq_vectors:local_timer_entry (ARM, arm64, RISC-V):
    // an irq_handler_entry whose name is a clock event device's (kTimerIrqNames). Never when the trace
    // holds local_timer_entry events (x86: its IRQ 0 "timer" is the global PIT/HPET, not the tick).
    bool isTimerIrqName(uint32_t name) const
    {
        if (!name || useLocalTimer_) return false;
        for (uint32_t id : timerIrqNames_)
            if (id == name) return true;
        return false;
    }
    // The names of kTimerIrqNames the trace's strings hold, comma-separated ("" when none).
    std::string timerIrqNames(const Trace &trace) const;
    // When no interrupt has such a name: how the one taken for the timer's behaved ("" when none was taken,
    // or when it was taken by name).
    const std::string &timerIrqBehaviour() const { return timerIrqBehaviour_; }

private:
    std::vector<Role> roles_;
    uint32_t hrtimerWakeup_ = 0;
    std::array<uint32_t, 3> tickFunctions_{};
    std::vector<uint32_t> timerIrqNames_; // string ids of the clock event devices' interrupt names
    bool useLocalTimer_ = false;
    std::string timerIrqBehaviour_;
    void inferTimerIrq(const Trace &trace);
};

} // namespace tickscope
