// SPDX-License-Identifier: GPL-3.0-or-later
#include "StateCode.h"

#include <array>

namespace tickscope {

std::string_view taskStateName(TaskState s)
{
    switch (s) {
    case TaskState::User:
        return "user";
    case TaskState::Kernel:
        return "kernel";
    case TaskState::IdleTask:
        return "idle task";
    case TaskState::Idle:
        return "idle";
    case TaskState::Poll:
        return "polling idle";
    case TaskState::Unknown:
        break;
    }
    return "unknown";
}

std::string_view irqStateName(IrqState s)
{
    switch (s) {
    case IrqState::None:
        return "none";
    case IrqState::HardIrq:
        return "hardirq";
    case IrqState::SoftIrq:
        return "softirq";
    case IrqState::Unknown:
        break;
    }
    return "unknown";
}

std::string_view tickContextName(TickContext c)
{
    switch (c) {
    case TickContext::User:
        return "user";
    case TickContext::Kernel:
        return "kernel";
    case TickContext::Irq:
        return "irq";
    case TickContext::Idle:
        return "idle";
    case TickContext::Polling:
        return "polling";
    case TickContext::Unknown:
        break;
    }
    return "unknown";
}

std::string_view pollingKindName(PollingKind k)
{
    switch (k) {
    case PollingKind::IdlePoll:
        return "idle=poll";
    case PollingKind::CpuidlePoll:
        return "cpuidle POLL state";
    case PollingKind::None:
        break;
    }
    return "none";
}

std::string_view softirqName(unsigned vec)
{
    static constexpr std::array<std::string_view, 10> kNames{
        "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU"};
    return vec < kNames.size() ? kNames[vec] : std::string_view("?");
}

} // namespace tickscope
