// SPDX-License-Identifier: GPL-3.0-or-later
// Where each CPU lane and its rows sit on the timeline, in the plot widget's pixels: a lane is a state
// row (task band over an IRQ band), a tick row, an event row and, when its trace has function_graph calls
// with timestamps, a function row; a collapsed lane is a thin state row. In
// the compare view each CPU has a lane per run (A's, then B's directly below it, as one group).
// A lane may carry a group header (housekeeping / isolated / nohz_full) in a strip of kHeader pixels
// above it.
#pragma once

#include <QRect>
#include <QString>

#include <vector>

namespace tickscope {

enum class LaneRow
{
    State,
    Tick,
    Event,
    Function,
};

struct LaneGeometry
{
    // Row heights at scale 1; lanes grow up to kMaxScale times when the view has room.
    static constexpr int kStateRow = 22, kTickRow = 18, kEventRow = 16, kFunctionRow = 20, kGap = 8,
                         kCollapsed = 8, kHeader = 16;
    static constexpr double kMaxScale = 2.0;
    static constexpr int kMaxStateScale = 12; // the state row takes what room is left, up to this many times

    struct Lane
    {
        int cpu;
        bool collapsed;
        int run = 0;            // 0: the document, 1: the compared run
        bool groupEnd = true;   // the last lane of its CPU's group (a gap follows)
        int top;                // widget y of the lane's first row (after scrolling)
        int height;             // all its rows
        bool functions = false; // it has a function row
        QString header;         // the group header above it ("" for none)
    };
    int stateRow = kStateRow, tickRow = kTickRow, eventRow = kEventRow, functionRow = kFunctionRow,
        gap = kGap;

    std::vector<Lane> lanes;
    int left = 0, right = 0; // the data area's x range [left, right)
    int contentHeight = 0;   // all lanes, unscrolled

    // Lays the lanes out from `top` (widget y) with a vertical scroll offset, scaled up to fill `available`
    // pixels of height when the lanes need less.
    void layout(const std::vector<int> &cpus, const std::vector<bool> &collapsed, int top, int scroll,
                int available);
    // The same for lanes given as (cpu, collapsed, run, groupEnd, functions); top and height are filled in.
    void layout(std::vector<Lane> lanes, int top, int scroll, int available);

    const Lane *laneOf(int cpu, int run = 0) const;
    // The pixel rectangle of a row of a CPU's lane (empty when the lane is hidden or collapsed and the
    // row is not the state row).
    QRect rowRect(int cpu, LaneRow row, int run = 0) const;
    // The lane and row at widget y; false when between lanes.
    bool hit(int y, int &cpu, LaneRow &row, int *run = nullptr) const;

private:
    std::vector<int> laneAt_; // (cpu * 2 + run) -> index in lanes, -1 for none (each lane draws, asks)
};

} // namespace tickscope
