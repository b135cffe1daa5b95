// SPDX-License-Identifier: GPL-3.0-or-later
// QCustomPlot paints its "overlay" layer into a paint buffer of its own by default: a second image the
// size of the plot, cleared on every replot and drawn over the first on every paint. Nothing of tickscope
// draws on that layer (no selection rectangle, no items), so the plots keep one buffer: one plot-sized
// image less to allocate (fault in), clear and composite.
#pragma once

#include <qcustomplot.h>

namespace tickscope {

inline void onePaintBuffer(QCustomPlot *plot)
{
    if (QCPLayer *overlay = plot->layer(QStringLiteral("overlay"))) overlay->setMode(QCPLayer::lmLogical);
}

} // namespace tickscope
