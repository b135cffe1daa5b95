// SPDX-License-Identifier: GPL-3.0-or-later
// The codes of the per-CPU derived state: what the CPU's task was doing (task lane), which interrupt
// ran on top of it (IRQ lane), and what a tick interrupted (tick context). A lane stores one byte per
// change: the state in the low 3 bits, a detail in the high 5 (softirq vector, cpuidle state, hardirq kind).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string_view>

namespace tickscope {

// The task lane: what the CPU ran below any interrupt.
enum class TaskState : uint8_t
{
    Unknown =
        0, // trace start, a task whose user/kernel mode is not known yet; detail kDetailLost: lost events
    User,
    Kernel,   // a task in a syscall or an exception, or a kernel thread
    IdleTask, // the idle task outside cpuidle: idle entry and exit overhead
    Idle,     // cpu_idle state k, k >= 1 (detail = k; kDetailUnknown when the trace started inside it)
    Poll,     // polling idle: cpu_idle state 0, idle=poll or the cpuidle POLL state (see PollingKind)
};

// The IRQ lane: the innermost interrupt running on top of the task lane.
enum class IrqState : uint8_t
{
    None = 0,
    HardIrq, // detail: HardIrqKind
    SoftIrq, // detail: the softirq vector
    Unknown, // lost events (detail kDetailLost)
};

enum class HardIrqKind : uint8_t
{
    LocalTimer = 0,
    Device = 1,
    Vector = 2
};

// What a tick interrupted.
enum class TickContext : uint8_t
{
    Unknown = 0,
    User,
    Kernel,
    Irq,
    Idle,
    Polling
};
constexpr int kTickContextCount = 6;

// Which of the two polling idles a cpu_idle state 0 is (idle=poll's loop, or the cpuidle
// driver's poll state), decided for the whole trace.
enum class PollingKind : uint8_t
{
    None,        // no cpu_idle state 0 seen
    IdlePoll,    // idle=poll (cpu_idle_poll): only state 0, no tick stop in idle
    CpuidlePoll, // the cpuidle driver's POLL state (index 0 of e.g. haltpoll, intel_idle, acpi_idle)
};

struct StateCode
{
    static constexpr unsigned kDetailUnknown = 31;
    static constexpr unsigned kDetailLost = 1; // Unknown because of lost events (never relabelled)
    static constexpr uint8_t pack(uint8_t state, unsigned detail = 0)
    {
        return static_cast<uint8_t>(state | (std::min(detail, kDetailUnknown) << 3));
    }
    static constexpr uint8_t task(TaskState s, unsigned detail = 0)
    {
        return pack(static_cast<uint8_t>(s), detail);
    }
    static constexpr uint8_t irq(IrqState s, unsigned detail = 0)
    {
        return pack(static_cast<uint8_t>(s), detail);
    }
    static constexpr uint8_t state(uint8_t code) { return code & 7u; }
    static constexpr unsigned detail(uint8_t code) { return code >> 3; }
    static constexpr TaskState taskState(uint8_t code) { return static_cast<TaskState>(state(code)); }
    static constexpr IrqState irqState(uint8_t code) { return static_cast<IrqState>(state(code)); }
};

std::string_view taskStateName(TaskState s);
std::string_view irqStateName(IrqState s);
std::string_view tickContextName(TickContext c); // "user", "kernel", "irq", "idle", "polling", "unknown"
std::string_view pollingKindName(PollingKind k); // "idle=poll", "cpuidle POLL", "none"
std::string_view softirqName(unsigned vec);      // "TIMER", "RCU", ... ("?" beyond NR_SOFTIRQS)

} // namespace tickscope
