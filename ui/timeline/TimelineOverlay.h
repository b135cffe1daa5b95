// SPDX-License-Identifier: GPL-3.0-or-later
// What the timeline draws over the lanes: the optional 1/HZ grid, markers A and B with Δt, the selected
// event, and in the compare view the two runs' names in the corner left of the time axis. A plottable too, so
// screen and images share it.
#pragma once

#include "LaneGeometry.h"

#include <qcustomplot.h>

#include <cstdint>

namespace tickscope {
class ViewState;
class TimelineIndex;

class TimelineOverlay : public QCPAbstractPlottable
{
public:
    TimelineOverlay(QCPAxis *keyAxis, QCPAxis *valueAxis, const ViewState *state, const TimelineIndex *index,
                    int64_t origin, const LaneGeometry *geometry, QString titleA = {});

    void setGridVisible(bool on) { grid_ = on; }
    bool gridVisible() const { return grid_; }
    bool deltaShown() const { return deltaShown_; } // the last paint drew the markers' Δt label

    double selectTest(const QPointF &, bool, QVariant * = nullptr) const override { return -1; }
    QCPRange getKeyRange(bool &foundRange, QCP::SignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool &foundRange, QCP::SignDomain = QCP::sdBoth,
                           const QCPRange & = QCPRange()) const override;

protected:
    void draw(QCPPainter *painter) override;
    void drawLegendIcon(QCPPainter *, const QRectF &) const override {}

private:
    void drawGroupHeaders(QCPPainter *p, const QRect &data);
    void drawGrid(QCPPainter *p, const QRect &data);
    void drawMarker(QCPPainter *p, const QRect &data, int64_t t, const QColor &c, const QString &name);

    const ViewState *state_;
    const TimelineIndex *index_;
    int64_t origin_;
    const LaneGeometry *geometry_;
    QString titleA_; // the document's name, shown with B's in the compare view
    bool grid_ = false;
    bool deltaShown_ = false;
};

} // namespace tickscope
