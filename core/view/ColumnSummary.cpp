// SPDX-License-Identifier: GPL-3.0-or-later
#include "ColumnSummary.h"

#include "analysis/StateCode.h"

namespace tickscope {

uint8_t taskSlotOf(uint8_t code)
{
    switch (StateCode::taskState(code)) {
    case TaskState::User:
        return static_cast<uint8_t>(TaskSlot::User);
    case TaskState::Kernel:
        return static_cast<uint8_t>(TaskSlot::Kernel);
    case TaskState::IdleTask:
        return static_cast<uint8_t>(TaskSlot::IdleTask);
    case TaskState::Idle: {
        const unsigned d = StateCode::detail(code);
        const bool deep = d >= 2 && d != StateCode::kDetailUnknown;
        return static_cast<uint8_t>(deep ? TaskSlot::IdleDeep : TaskSlot::IdleShallow);
    }
    case TaskState::Poll:
        return static_cast<uint8_t>(TaskSlot::Poll);
    default:
        return static_cast<uint8_t>(TaskSlot::Unknown);
    }
}

uint8_t irqSlotOf(uint8_t code)
{
    switch (StateCode::irqState(code)) {
    case IrqState::HardIrq:
        return static_cast<uint8_t>(IrqSlot::HardIrq);
    case IrqState::SoftIrq:
        return static_cast<uint8_t>(StateCode::detail(code) == 1 ? IrqSlot::TimerSoftirq : IrqSlot::SoftIrq);
    case IrqState::Unknown:
        return static_cast<uint8_t>(IrqSlot::Unknown);
    default:
        return static_cast<uint8_t>(IrqSlot::None);
    }
}

std::string_view taskSlotName(TaskSlot s)
{
    switch (s) {
    case TaskSlot::User:
        return "user";
    case TaskSlot::Kernel:
        return "kernel";
    case TaskSlot::IdleTask:
        return "idle task";
    case TaskSlot::IdleShallow:
        return "idle (C1)";
    case TaskSlot::IdleDeep:
        return "idle (C2+)";
    case TaskSlot::Poll:
        return "polling idle";
    default:
        return "unknown";
    }
}

std::string_view irqSlotName(IrqSlot s)
{
    switch (s) {
    case IrqSlot::HardIrq:
        return "hardirq";
    case IrqSlot::SoftIrq:
        return "softirq";
    case IrqSlot::TimerSoftirq:
        return "TIMER softirq";
    case IrqSlot::Unknown:
        return "unknown";
    default:
        return "none";
    }
}

std::string_view tickClassName(TickClass c)
{
    switch (c) {
    case TickClass::Unknown:
        return "unknown context";
    case TickClass::Idle:
        return "idle";
    case TickClass::Polling:
        return "polling idle";
    case TickClass::Irq:
        return "irq";
    case TickClass::Kernel:
        return "kernel";
    case TickClass::User:
        return "user";
    case TickClass::Spurious:
        return "spurious";
    default:
        return "none";
    }
}

} // namespace tickscope
