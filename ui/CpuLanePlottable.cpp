#include "CpuLanePlottable.h"

#include "TimelinePalette.h"

#include "analysis/TickReport.h"

#include <cmath>

namespace tickscope {

namespace {
constexpr QRgb kNone = 0;

QRgb rgb(const QColor &c)
{
    return c.rgba();
}
} // namespace

CpuLanePlottable::CpuLanePlottable(QCPAxis *keyAxis, QCPAxis *valueAxis, Spec spec,
                                   const LaneGeometry *geometry, LaneSummaries *summaries)
    : QCPAbstractPlottable(keyAxis, valueAxis), spec_(std::move(spec)), geometry_(geometry),
      summaries_(summaries)
{
    setAntialiased(false);
    setAntialiasedFill(false);
}

QCPRange CpuLanePlottable::getKeyRange(bool &foundRange, QCP::SignDomain) const
{
    foundRange = true;
    return {static_cast<double>(spec_.index->trace().firstTs() - spec_.origin),
            static_cast<double>(spec_.index->trace().lastTs() - spec_.origin)};
}

QCPRange CpuLanePlottable::getValueRange(bool &foundRange, QCP::SignDomain, const QCPRange &) const
{
    foundRange = true;
    return {0, 1};
}

QRect CpuLanePlottable::clipRect() const
{
    return mParentPlot->viewport(); // the lane label sits in the left margin
}

template <class F> void CpuLanePlottable::fillRuns(QCPPainter *p, int y, int h, F &&colourOf)
{
    const int n = static_cast<int>(columns_.size());
    int start = 0;
    QRgb cur = n ? colourOf(columns_[0]) : kNone;
    for (int j = 1; j <= n; ++j) {
        const QRgb c = j < n ? colourOf(columns_[j]) : kNone + 1;
        if (c == cur) continue;
        if (qAlpha(cur)) p->fillRect(QRect(left_ + start, y, j - start, h), QColor::fromRgba(cur));
        start = j;
        cur = c;
    }
}

void CpuLanePlottable::draw(QCPPainter *p)
{
    const LaneGeometry::Lane *lane = geometry_->laneOf(spec_.cpu, spec_.run);
    if (!lane) return;
    const QRect data = mKeyAxis->axisRect()->rect();
    if (lane->top >= data.bottom() || lane->top + lane->height <= data.top()) return;
    left_ = data.left();
    const int width = data.width();
    const QCPRange r = mKeyAxis->range();
    columns_ = summaries_->columns(spec_.slot, std::llround(r.lower), std::llround(r.upper), width);

    p->save();
    p->setAntialiasing(false);
    p->setPen(Qt::NoPen);
    p->setClipRect(data);
    const int w = width;
    drawStateRow(p, {left_, lane->top, w, lane->collapsed ? LaneGeometry::kCollapsed : geometry_->stateRow},
                 lane->collapsed);
    if (!lane->collapsed) {
        drawTickRow(p, geometry_->rowRect(spec_.cpu, LaneRow::Tick, spec_.run));
        drawEventRow(p, geometry_->rowRect(spec_.cpu, LaneRow::Event, spec_.run));
    }
    drawLost(p, {left_, lane->top, w, lane->height});
    p->restore();
    p->save();
    p->setClipRect(QRect(mParentPlot->viewport().left(), data.top(), left_ - mParentPlot->viewport().left(),
                         data.height()));
    drawLabel(p, *lane);
    p->restore();
}

void CpuLanePlottable::drawStateRow(QCPPainter *p, const QRect &row, bool collapsed)
{
    QRgb task[StatePrefix::kSlots], irq[StatePrefix::kSlots];
    for (int s = 0; s < StatePrefix::kSlots; ++s) {
        task[s] =
            s < static_cast<int>(TaskSlot::Count) ? rgb(palette::task(static_cast<TaskSlot>(s))) : kNone;
        irq[s] = s < static_cast<int>(IrqSlot::Count) ? rgb(palette::irq(static_cast<IrqSlot>(s))) : kNone;
    }
    const int taskH = collapsed ? row.height() : row.height() * 2 / 3;
    fillRuns(p, row.top(), taskH, [&](const ColumnSummary &c) {
        const int d = ColumnSummary::dominant(c.task, static_cast<int>(TaskSlot::Count));
        return d < 0 ? kNone : task[d];
    });
    if (collapsed) return;
    // IRQ band: the interrupt kind with most time in the column, whenever any interrupt ran in it, in
    // four strengths by the share of the column's time spent in interrupts (<5 %, <20 %, <50 %, more):
    // zoomed out, where every column holds some interrupt, the busy stretches stand out.
    fillRuns(p, row.top() + taskH, row.height() - taskH, [&](const ColumnSummary &c) {
        StatePrefix::Times t = c.irq;
        const int64_t idle = t[static_cast<int>(IrqSlot::None)];
        t[static_cast<int>(IrqSlot::None)] = 0;
        const int d = ColumnSummary::dominant(t, static_cast<int>(IrqSlot::Count));
        if (d < 0) return kNone;
        int64_t busy = 0;
        for (int64_t v : t)
            busy += v;
        const double share = static_cast<double>(busy) / static_cast<double>(busy + idle);
        const int alpha = share < 0.05 ? 70 : share < 0.2 ? 130 : share < 0.5 ? 190 : 255;
        return qRgba(qRed(irq[d]), qGreen(irq[d]), qBlue(irq[d]), alpha);
    });
}

void CpuLanePlottable::drawTickRow(QCPPainter *p, const QRect &row)
{
    const QRgb running = rgb(palette::tickRunning()), stopped = rgb(palette::tickStopped());
    const int barH = 4, barY = row.top() + (row.height() - barH) / 2;
    fillRuns(p, barY, barH, [&](const ColumnSummary &c) {
        if (c.tickState[1] == 0 && c.tickState[2] == 0) return kNone;
        return c.tickState[1] >= c.tickState[2] ? running : stopped;
    });
    QRgb cls[8];
    for (int k = 0; k < 7; ++k)
        cls[k] = rgb(palette::tick(static_cast<TickClass>(k)));
    // Ordinary ticks: short marks 2 px wide; spurious ticks: 3 px, the full row height, drawn last so they
    // stand out. Marks are per column (at most one per pixel), so zoomed in a lone tick stays visible.
    const int n = static_cast<int>(columns_.size());
    for (int j = 0; j < n; ++j) {
        const ColumnSummary &c = columns_[j];
        if (c.ticks && c.worstTick != TickClass::Spurious)
            p->fillRect(QRect(left_ + j, row.top() + 3, 2, row.height() - 6),
                        QColor::fromRgb(cls[static_cast<int>(c.worstTick)]));
    }
    const QColor spurious = palette::tick(TickClass::Spurious);
    for (int j = 0; j < n; ++j)
        if (columns_[j].worstTick == TickClass::Spurious)
            p->fillRect(QRect(left_ + j - 1, row.top(), 3, row.height()), spurious);
    // Failed tick stops: an x at the bottom, with the dependency's name where there is room.
    p->setPen(QPen(palette::failedStop(), 1));
    int lastLabelEnd = -1;
    QFont f = p->font();
    f.setPixelSize(9);
    p->setFont(f);
    for (int j = 0; j < n; ++j) {
        if (!columns_[j].failedStops) continue;
        const int x = left_ + j, y = row.bottom() - 4;
        p->QPainter::drawLine(x - 2, y - 2, x + 2, y + 2);
        p->QPainter::drawLine(x - 2, y + 2, x + 2, y - 2);
        if (x < lastLabelEnd) continue;
        QString deps;
        for (size_t b = 0; b < kDependencyNames.size(); ++b)
            if (columns_[j].dependencies & (1u << b))
                deps += (deps.isEmpty() ? "" : ",") + QString(kDependencyNames[b]);
        const int tw = p->fontMetrics().horizontalAdvance(deps);
        bool room = true;
        for (int k = j + 1; k < n && k <= j + tw + 6; ++k)
            room = room && !columns_[k].failedStops;
        if (!room || deps.isEmpty()) continue;
        p->drawText(x + 4, row.bottom() - 1, deps);
        lastLabelEnd = x + tw + 6;
    }
    p->setPen(Qt::NoPen);
}

void CpuLanePlottable::drawEventRow(QCPPainter *p, const QRect &row)
{
    const QRgb catchup = rgb(palette::catchup()), softirq = rgb(palette::timerSoftirq());
    fillRuns(p, row.bottom() - 4, 5, [&](const ColumnSummary &c) {
        return c.catchup ? catchup : c.timerSoftirqs ? softirq : kNone;
    });
    const int n = static_cast<int>(columns_.size());
    for (int j = 0; j < n; ++j)
        if (columns_[j].wakeups)
            p->fillRect(QRect(left_ + j, row.top() + 1, 2, row.height() - 7),
                        palette::lateness(columns_[j].maxLatenessNs));
}

void CpuLanePlottable::drawLost(QCPPainter *p, const QRect &lane)
{
    const int n = static_cast<int>(columns_.size());
    for (int j = 0; j < n;) {
        if (!columns_[j].lost) {
            ++j;
            continue;
        }
        int k = j;
        while (k < n && columns_[k].lost)
            ++k;
        const QRect r(left_ + j, lane.top(), std::max(k - j, 3), lane.height());
        p->fillRect(r, QColor(255, 255, 255, 160));
        p->fillRect(r, QBrush(palette::lost(), Qt::BDiagPattern));
        j = k;
    }
}

void CpuLanePlottable::drawLabel(QCPPainter *p, const LaneGeometry::Lane &lane)
{
    const int x = mParentPlot->viewport().left() + 6;
    if (!spec_.runTag.isEmpty()) // the compare view: the run's letter on its colour, beside the label
        p->fillRect(QRect(mParentPlot->viewport().left(), lane.top, 3, lane.height), spec_.runTint);
    p->setPen(Qt::black);
    QFont f = p->font();
    f.setPixelSize(11);
    f.setBold(true);
    p->setFont(f);
    const QString tag = spec_.runTag.isEmpty() ? QString() : spec_.runTag + QLatin1Char(' ');
    p->drawText(x, lane.top + 10,
                QStringLiteral("%1CPU %2%3")
                    .arg(tag)
                    .arg(spec_.cpu)
                    .arg(lane.collapsed ? QStringLiteral(" ▸") : QString()));
    if (lane.collapsed) return;
    f.setBold(false);
    f.setPixelSize(9);
    p->setFont(f);
    p->drawText(x, lane.top + 20,
                spec_.nohzFull ? QStringLiteral("nohz_full") : QStringLiteral("housekeeping"));
    p->drawText(x, lane.top + geometry_->stateRow + 12, QStringLiteral("tick"));
    p->drawText(x, lane.top + geometry_->stateRow + geometry_->tickRow + 12, QStringLiteral("timers"));
}

} // namespace tickscope
