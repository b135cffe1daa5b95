// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimelineOverlay.h"

#include "TimeAxisTicker.h"
#include "TimelinePalette.h"
#include "ViewState.h"

#include "view/TimelineIndex.h"

#include <cmath>

namespace tickscope {

TimelineOverlay::TimelineOverlay(QCPAxis *keyAxis, QCPAxis *valueAxis, const ViewState *state,
                                 const TimelineIndex *index, int64_t origin, const LaneGeometry *geometry,
                                 QString titleA)
    : QCPAbstractPlottable(keyAxis, valueAxis), state_(state), index_(index), origin_(origin),
      geometry_(geometry), titleA_(std::move(titleA))
{
    setAntialiased(false);
}

QCPRange TimelineOverlay::getKeyRange(bool &foundRange, QCP::SignDomain) const
{
    foundRange = false;
    return {};
}

QCPRange TimelineOverlay::getValueRange(bool &foundRange, QCP::SignDomain, const QCPRange &) const
{
    foundRange = false;
    return {};
}

void TimelineOverlay::drawGrid(QCPPainter *p, const QRect &data)
{
    const int64_t period = index_->tickPeriodNs();
    const QCPRange r = mKeyAxis->range();
    if (period <= 0 || r.size() <= 0) return;
    const double pxPerPeriod = data.width() * static_cast<double>(period) / r.size();
    if (pxPerPeriod < 6) return; // too dense to help
    // Grid lines on the tick period, phased on the first tick of the first CPU that has one.
    double phase = 0;
    for (int c = 0; c < index_->cpuCount(); ++c) {
        const auto &ticks = index_->analysis().cpus[c].ticks;
        if (ticks.empty()) continue;
        phase = static_cast<double>(index_->trace().cpu(c).ts(ticks.front().index) - origin_);
        break;
    }
    p->setPen(QPen(QColor(0, 0, 0, 45), 1, Qt::DotLine));
    const double k0 = std::ceil((r.lower - phase) / static_cast<double>(period));
    for (double k = k0;; ++k) {
        const double t = phase + k * static_cast<double>(period);
        if (t > r.upper) break;
        const int x = static_cast<int>(std::lround(mKeyAxis->coordToPixel(t)));
        p->QPainter::drawLine(x, data.top(), x, data.bottom());
    }
}

void TimelineOverlay::drawGroupHeaders(QCPPainter *p, const QRect &data)
{
    // Across the label margin and the data, below the time axis.
    const QRect area(0, data.top(), data.right() + 1, data.height());
    p->save();
    p->setClipRect(area);
    QFont f = p->font();
    f.setPixelSize(11);
    f.setBold(true);
    p->setFont(f);
    const QColor ink = mParentPlot->palette().color(QPalette::WindowText);
    for (const LaneGeometry::Lane &l : geometry_->lanes) {
        if (l.header.isEmpty()) continue;
        const int y = l.top - LaneGeometry::kHeader;
        if (y + LaneGeometry::kHeader < area.top() || y > area.bottom()) continue;
        QColor band = ink;
        band.setAlpha(18);
        p->fillRect(QRect(0, y, area.width(), LaneGeometry::kHeader - 2), band);
        p->setPen(ink);
        p->drawText(QRect(6, y, area.width() - 12, LaneGeometry::kHeader - 2),
                    Qt::AlignLeft | Qt::AlignVCenter, l.header);
    }
    p->restore();
}

void TimelineOverlay::drawMarker(QCPPainter *p, const QRect &data, int64_t t, const QColor &c,
                                 const QString &name)
{
    const double x = mKeyAxis->coordToPixel(static_cast<double>(t - origin_));
    if (x < data.left() || x > data.right()) return;
    p->setPen(QPen(c, 2));
    p->drawLine(QPointF(x, data.top()), QPointF(x, data.bottom()));
    p->fillRect(QRectF(x + 1, data.top(), 12, 13), c);
    p->setPen(Qt::white);
    p->drawText(QRectF(x + 1, data.top(), 12, 13), Qt::AlignCenter, name);
}

void TimelineOverlay::draw(QCPPainter *p)
{
    const QRect data = mKeyAxis->axisRect()->rect();
    p->save();
    p->setAntialiasing(false);
    drawGroupHeaders(p, data);
    p->setClipRect(data);
    if (grid_) drawGrid(p, data);
    QFont f = p->font();
    f.setPixelSize(10);
    f.setBold(true);
    p->setFont(f);
    if (state_->markerA()) drawMarker(p, data, *state_->markerA(), palette::markerA(), QStringLiteral("A"));
    if (state_->markerB()) drawMarker(p, data, *state_->markerB(), palette::markerB(), QStringLiteral("B"));
    deltaShown_ = false;
    const auto inView = [&](int64_t t) { return t >= state_->rangeStart() && t <= state_->rangeEnd(); };
    // Δt with its markers: when neither is in view the label would float over unrelated lanes.
    if (state_->markerA() && state_->markerB() &&
        (inView(*state_->markerA()) || inView(*state_->markerB()))) {
        deltaShown_ = true;
        const int64_t a = *state_->markerA(), b = *state_->markerB();
        const double d = static_cast<double>(std::abs(b - a));
        const QString text = QStringLiteral("Δt = %1").arg(TimeAxisTicker::format(d, 1, d));
        const double xa = mKeyAxis->coordToPixel(static_cast<double>(std::min(a, b) - origin_));
        const double xb = mKeyAxis->coordToPixel(static_cast<double>(std::max(a, b) - origin_));
        const int tw = p->fontMetrics().horizontalAdvance(text) + 8;
        const double mid = std::clamp((xa + xb) / 2, data.left() + tw / 2.0, data.right() - tw / 2.0);
        const QRectF box(mid - tw / 2.0, data.top() + 15, tw, 14);
        p->fillRect(box, QColor(255, 255, 255, 220));
        p->setPen(Qt::black);
        p->drawText(box, Qt::AlignCenter, text);
    }
    if (const auto &cmp = state_->comparison(); cmp && cmp->valid()) {
        // Which run is which, in the corner left of the time axis (screenshots carry it too).
        p->save();
        const QRect corner(mParentPlot->viewport().left() + 4, mParentPlot->viewport().top() + 1,
                           data.left() - mParentPlot->viewport().left() - 6, data.top() - 2);
        p->setClipRect(corner);
        QFont small = p->font();
        small.setPixelSize(9);
        small.setBold(false);
        p->setFont(small);
        const QFontMetrics fm(small);
        const int lineH = corner.height() / 2;
        p->setPen(Qt::black);
        const QString names[2] = {QStringLiteral("A: ") + titleA_,
                                  QStringLiteral("B: ") + QString::fromStdString(cmp->b.title)};
        for (int r = 0; r < 2; ++r) {
            p->setPen(palette::run(r));
            p->drawText(QRect(corner.left(), corner.top() + r * lineH, corner.width(), lineH),
                        Qt::AlignLeft | Qt::AlignVCenter,
                        fm.elidedText(names[r], Qt::ElideMiddle, corner.width()));
        }
        p->restore();
    }
    const EventRef sel = state_->selection();
    // The selected event's run: the document, or the compared run (its time shown on A's axis).
    const TimelineIndex *index = index_;
    int64_t origin = origin_;
    if (sel.run == 1) {
        const auto &cmp = state_->comparison();
        index = cmp && cmp->valid() ? cmp->b.timeline.get() : nullptr;
        if (index) origin = cmp->zeroB;
    }
    if (index && sel.valid() && sel.cpu < index->cpuCount() &&
        static_cast<size_t>(sel.index) < index->trace().cpu(sel.cpu).size()) {
        const LaneGeometry::Lane *lane = geometry_->laneOf(sel.cpu, sel.run);
        const int64_t ts = index->trace().cpu(sel.cpu).ts(static_cast<size_t>(sel.index));
        const int x = static_cast<int>(std::lround(mKeyAxis->coordToPixel(static_cast<double>(ts - origin))));
        if (lane) {
            p->setPen(QPen(palette::selection(), 2));
            p->setBrush(Qt::NoBrush);
            p->drawRect(QRect(x - 3, lane->top - 2, 6, lane->height + 4));
            p->setPen(QPen(palette::selection(), 1, Qt::DashLine));
            p->QPainter::drawLine(x, data.top(), x, data.bottom());
        }
    }
    p->restore();
}

} // namespace tickscope
