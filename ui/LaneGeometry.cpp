#include "LaneGeometry.h"

#include <algorithm>

namespace tickscope {

void LaneGeometry::layout(const std::vector<int> &cpus, const std::vector<bool> &collapsed, int top,
                          int scroll, int available)
{
    auto isCollapsed = [&](int cpu) {
        return cpu >= 0 && cpu < static_cast<int>(collapsed.size()) && collapsed[cpu];
    };
    int natural = 0, full = 0;
    for (int cpu : cpus) {
        natural += (isCollapsed(cpu) ? kCollapsed : kStateRow + kTickRow + kEventRow) + kGap;
        full += isCollapsed(cpu) ? 0 : 1;
    }
    double scale = 1.0;
    if (full && natural < available)
        scale = std::min(kMaxScale, 1.0 + static_cast<double>(available - natural) /
                                              (full * (kStateRow + kTickRow + kEventRow + kGap)));
    stateRow = static_cast<int>(kStateRow * scale);
    tickRow = static_cast<int>(kTickRow * scale);
    eventRow = static_cast<int>(kEventRow * scale);
    gap = static_cast<int>(kGap * scale);
    lanes.clear();
    int y = 0;
    for (int cpu : cpus) {
        const bool c = isCollapsed(cpu);
        lanes.push_back({cpu, c, top + y - scroll, c ? kCollapsed : stateRow + tickRow + eventRow});
        y += lanes.back().height + gap;
    }
    contentHeight = y;
}

const LaneGeometry::Lane *LaneGeometry::laneOf(int cpu) const
{
    for (const Lane &l : lanes)
        if (l.cpu == cpu) return &l;
    return nullptr;
}

QRect LaneGeometry::rowRect(int cpu, LaneRow row) const
{
    const Lane *l = laneOf(cpu);
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
    }
    return {};
}

bool LaneGeometry::hit(int y, int &cpu, LaneRow &row) const
{
    for (const Lane &l : lanes) {
        if (y < l.top || y >= l.top + l.height) continue;
        cpu = l.cpu;
        const int dy = y - l.top;
        row = l.collapsed || dy < stateRow ? LaneRow::State
              : dy < stateRow + tickRow    ? LaneRow::Tick
                                           : LaneRow::Event;
        return true;
    }
    return false;
}

} // namespace tickscope
