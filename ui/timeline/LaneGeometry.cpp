// SPDX-License-Identifier: GPL-3.0-or-later
#include "LaneGeometry.h"

#include <algorithm>

namespace tickscope {

void LaneGeometry::layout(const std::vector<int> &cpus, const std::vector<bool> &collapsed, int top,
                          int scroll, int available)
{
    std::vector<Lane> l;
    l.reserve(cpus.size());
    for (int cpu : cpus)
        l.push_back({cpu,
                     cpu >= 0 && cpu < static_cast<int>(collapsed.size()) && collapsed[cpu],
                     0,
                     true,
                     0,
                     0,
                     false,
                     {}});
    layout(std::move(l), top, scroll, available);
}

void LaneGeometry::layout(std::vector<Lane> in, int top, int scroll, int available)
{
    auto rows = [](const Lane &l) {
        return kStateRow + kTickRow + kEventRow + (l.functions ? kFunctionRow : 0);
    };
    int natural = 0, grown = 0;
    for (const Lane &l : in) {
        natural += (l.collapsed ? kCollapsed : rows(l)) + (l.groupEnd ? kGap : 2) +
                   (l.header.isEmpty() ? 0 : kHeader);
        if (!l.collapsed) grown += rows(l) + (l.groupEnd ? kGap : 0);
    }
    double scale = 1.0;
    if (grown && natural < available)
        scale = std::min(kMaxScale, 1.0 + static_cast<double>(available - natural) / grown);
    stateRow = static_cast<int>(kStateRow * scale);
    tickRow = static_cast<int>(kTickRow * scale);
    eventRow = static_cast<int>(kEventRow * scale);
    functionRow = static_cast<int>(kFunctionRow * scale);
    gap = static_cast<int>(kGap * scale);
    // Room left when every row has grown its most (few CPUs shown: a 1-CPU trace used an eighth of the
    // window) goes to the state rows, which show the most.
    int used = 0, open = 0;
    for (const Lane &l : in) {
        used += (l.collapsed ? kCollapsed : stateRow + tickRow + eventRow + (l.functions ? functionRow : 0)) +
                (l.groupEnd ? gap : 2) + (l.header.isEmpty() ? 0 : kHeader);
        open += !l.collapsed;
    }
    if (open && used < available)
        stateRow = std::min(kStateRow * kMaxStateScale, stateRow + (available - used) / open);
    lanes = std::move(in);
    int y = 0;
    for (Lane &l : lanes) {
        if (!l.header.isEmpty()) y += kHeader;
        l.top = top + y - scroll;
        l.height = l.collapsed ? kCollapsed : stateRow + tickRow + eventRow + (l.functions ? functionRow : 0);
        y += l.height + (l.groupEnd ? gap : 2);
    }
    contentHeight = y;
    laneAt_.clear();
    for (size_t k = 0; k < lanes.size(); ++k) {
        const Lane &l = lanes[k];
        if (l.cpu < 0 || l.run < 0 || l.run > 1) continue;
        const size_t at = static_cast<size_t>(l.cpu) * 2 + static_cast<size_t>(l.run);
        if (at >= laneAt_.size()) laneAt_.resize(at + 1, -1);
        if (laneAt_[at] < 0) laneAt_[at] = static_cast<int>(k);
    }
}

const LaneGeometry::Lane *LaneGeometry::laneOf(int cpu, int run) const
{
    if (cpu < 0 || run < 0 || run > 1) return nullptr;
    const size_t at = static_cast<size_t>(cpu) * 2 + static_cast<size_t>(run);
    return at < laneAt_.size() && laneAt_[at] >= 0 ? &lanes[static_cast<size_t>(laneAt_[at])] : nullptr;
}

QRect LaneGeometry::rowRect(int cpu, LaneRow row, int run) const
{
    const Lane *l = laneOf(cpu, run);
    if (!l) return {};
    const int w = right - left;
    if (l->collapsed) return row == LaneRow::State ? QRect(left, l->top, w, kCollapsed) : QRect();
    switch (row) {
    case LaneRow::State:
        return {left, l->top, w, stateRow};
    case LaneRow::Tick:
        return {left, l->top + stateRow, w, tickRow};
    case LaneRow::Event:
        return {left, l->top + stateRow + tickRow, w, eventRow};
    case LaneRow::Function:
        return l->functions ? QRect(left, l->top + stateRow + tickRow + eventRow, w, functionRow) : QRect();
    }
    return {};
}

bool LaneGeometry::hit(int y, int &cpu, LaneRow &row, int *run) const
{
    for (const Lane &l : lanes) {
        if (y < l.top || y >= l.top + l.height) continue;
        cpu = l.cpu;
        if (run) *run = l.run;
        const int dy = y - l.top;
        row = l.collapsed || dy < stateRow         ? LaneRow::State
              : dy < stateRow + tickRow            ? LaneRow::Tick
              : dy < stateRow + tickRow + eventRow ? LaneRow::Event
                                                   : LaneRow::Function;
        return true;
    }
    return false;
}

} // namespace tickscope
