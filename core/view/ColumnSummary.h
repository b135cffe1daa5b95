// What one pixel column of one CPU lane holds: the level-of-detail unit the timeline paints. A view asks
// TimelineIndex for a time range in N columns and gets N of these, whatever the number of events.
#pragma once

#include "StatePrefix.h"

#include <array>
#include <cstdint>
#include <string_view>

namespace tickscope {

// Task-lane states as painted (TaskState, with idle split by depth).
enum class TaskSlot : uint8_t
{
    Unknown = 0,
    User,
    Kernel,
    IdleTask,    // the idle task outside cpuidle
    IdleShallow, // cpu_idle state 1 (or unknown depth)
    IdleDeep,    // cpu_idle state >= 2
    Poll,        // polling idle
    Count
};
// IRQ-lane states as painted.
enum class IrqSlot : uint8_t
{
    None = 0,
    HardIrq,
    SoftIrq,
    TimerSoftirq, // softirq vec 1 (TIMER)
    Unknown,
    Count
};
// Tick classes, ordered by how bad they are: a column shows the worst one it holds.
enum class TickClass : int8_t
{
    None = -1, // no tick in the column
    Unknown = 0,
    Idle,
    Polling,
    Irq,
    Kernel,
    User,
    Spurious,
};

uint8_t taskSlotOf(uint8_t taskCode);
uint8_t irqSlotOf(uint8_t irqCode);
std::string_view taskSlotName(TaskSlot s);
std::string_view irqSlotName(IrqSlot s);
std::string_view tickClassName(TickClass c);

struct ColumnSummary
{
    // state row: ns spent in each slot inside the column, and the number of changes in it
    StatePrefix::Times task{};
    StatePrefix::Times irq{};
    uint32_t taskChanges = 0;
    uint32_t irqChanges = 0;
    // tick row: ns per TickState (Unknown, Running, Stopped); the ticks in the column
    std::array<int64_t, 3> tickState{};
    uint32_t ticks = 0;
    uint32_t spuriousTicks = 0;
    TickClass worstTick = TickClass::None;
    // event row
    uint32_t wakeups = 0;              // hrtimer_wakeup expiries
    uint32_t softWakeups = 0;          // of those, run by the HRTIMER softirq (PREEMPT_RT: ktimers)
    int32_t maxLatenessNs = INT32_MIN; // of those with a known lateness (INT32_MIN: none)
    uint32_t timerSoftirqs = 0;        // TIMER softirqs that start in the column
    bool catchup = false;              // a catch-up TIMER softirq overlaps the column
    uint32_t failedStops = 0;
    uint32_t dependencies = 0; // OR of their tick dependency masks
    bool lost = false;         // a lost-event range overlaps the column
    // function row: the longest function_graph call overlapping the column (-1: none)
    int64_t worstCallNs = -1;

    // The slot with the most time (ties: the lower slot), or -1 when the column holds no time.
    static int dominant(const StatePrefix::Times &t, int slots);
    bool operator==(const ColumnSummary &) const = default;
};

// What a summary fills: every field, or only what a collapsed lane draws (its one thin row of task states,
// and the lost-event ranges across it): task, taskChanges and lost, the others left at their defaults. A
// collapsed lane's column edges then read the samples, the block's timestamps and the task lane's checkpoint
// and change codes, not the IRQ lane, the tick lane and the record arrays.
enum class SummaryDetail : uint8_t
{
    Full,
    Collapsed
};

} // namespace tickscope
