// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimeAxisTicker.h"

#include <cmath>

namespace tickscope {

QString TimeAxisTicker::format(double ns, double stepNs, double magnitudeNs)
{
    double unit = 1e9;
    const char *name = "s";
    if (magnitudeNs < 1e6) {
        unit = 1e3;
        name = "µs";
    } else if (magnitudeNs < 1e9) {
        unit = 1e6;
        name = "ms";
    }
    const double step = stepNs / unit;
    int decimals = 0; // enough for the step to be exact (2.5 µs at ms scale: 4)
    while (decimals < 9 &&
           std::abs(step * std::pow(10, decimals) - std::round(step * std::pow(10, decimals))) > 1e-6)
        ++decimals;
    return QStringLiteral("%1 %2").arg(ns / unit, 0, 'f', decimals).arg(QString::fromUtf8(name));
}

double TimeAxisTicker::getTickStep(const QCPRange &range)
{
    step_ = QCPAxisTicker::getTickStep(range);
    magnitude_ = std::max(std::abs(range.lower), std::abs(range.upper));
    return step_;
}

QString TimeAxisTicker::getTickLabel(double tick, const QLocale &, QChar, int)
{
    return format(tick, step_, magnitude_);
}

} // namespace tickscope
