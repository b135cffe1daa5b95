#include "LaneGeometry.h"

namespace tickscope {

void LaneGeometry::layout(const std::vector<int> &cpus, const std::vector<bool> &collapsed, int top, int scroll)
{
    lanes.clear();
    int y = 0;
    for (int cpu : cpus) {
        const bool c = cpu >= 0 && cpu < static_cast<int>(collapsed.size()) && collapsed[cpu];
        lanes.push_back({cpu, c, top + y - scroll});
        y += lanes.back().height() + kGap;
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
    case LaneRow::State: return {left, l->top, w, kStateRow};
    case LaneRow::Tick: return {left, l->top + kStateRow, w, kTickRow};
    case LaneRow::Event: return {left, l->top + kStateRow + kTickRow, w, kEventRow};
    }
    return {};
}

bool LaneGeometry::hit(int y, int &cpu, LaneRow &row) const
{
    for (const Lane &l : lanes) {
        if (y < l.top || y >= l.top + l.height()) continue;
        cpu = l.cpu;
        const int dy = y - l.top;
        row = l.collapsed || dy < kStateRow ? LaneRow::State
              : dy < kStateRow + kTickRow   ? LaneRow::Tick
                                            : LaneRow::Event;
        return true;
    }
    return false;
}

} // namespace tickscope
