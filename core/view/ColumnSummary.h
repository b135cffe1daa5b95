// SPDX-License-Identifier: GPL-3.0-or-later
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

// 176 bytes: a repaint writes and reads one per column of each lane on screen (1792 columns of a dozen
// busy lanes at the whole trace), so the state times keep only the slots that exist and the small fields
// sit together without padding.
struct ColumnSummary
{
    using TaskTimes = std::array<int64_t, static_cast<size_t>(TaskSlot::Count)>;
    using IrqTimes = std::array<int64_t, static_cast<size_t>(IrqSlot::Count)>;
    // state row: ns spent in each slot inside the column, and the number of changes in it
    TaskTimes task{};
    IrqTimes irq{};
    // tick row: ns per TickState (Unknown, Running, Stopped)
    std::array<int64_t, 3> tickState{};
    // function row: the longest function_graph call overlapping the column (-1: none)
    int64_t worstCallNs = -1;
    uint32_t taskChanges = 0;
    uint32_t irqChanges = 0;
    // tick row: the ticks in the column
    uint32_t ticks = 0;
    uint32_t spuriousTicks = 0;
    // event row
    uint32_t wakeups = 0;              // hrtimer_wakeup expiries
    uint32_t softWakeups = 0;          // of those, run by the HRTIMER softirq (PREEMPT_RT: ktimers)
    int32_t maxLatenessNs = INT32_MIN; // of those with a known lateness (INT32_MIN: none)
    uint32_t timerSoftirqs = 0;        // TIMER softirqs that start in the column
    uint32_t failedStops = 0;
    uint32_t dependencies = 0; // OR of their tick dependency masks
    TickClass worstTick = TickClass::None;
    bool catchup = false; // a catch-up TIMER softirq overlaps the column
    bool lost = false;    // a lost-event range overlaps the column

    // The slot with the most time (ties: the lower slot), or -1 when the column holds no time.
    template <size_t N> static int dominant(const std::array<int64_t, N> &t)
    {
        int best = -1;
        int64_t most = 0;
        for (size_t s = 0; s < N; ++s) {
            if (t[s] > most) {
                most = t[s];
                best = static_cast<int>(s);
            }
        }
        return best;
    }
    bool operator==(const ColumnSummary &) const = default;
};
static_assert(sizeof(ColumnSummary) == 176);
// A lane's StatePrefix times hold every slot of the lane (the task lane's last slot is the checkpoints'
// rest; the IRQ lane's slots are all stored ones), and a slot or more past them that stay empty.
static_assert(std::tuple_size_v<ColumnSummary::TaskTimes> <= StatePrefix::kStored + 1 &&
              std::tuple_size_v<ColumnSummary::IrqTimes> <= StatePrefix::kStored);

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
