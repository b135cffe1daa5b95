// SPDX-License-Identifier: GPL-3.0-or-later
// Time axis labels relative to the trace start: the key axis runs in ns since the first event; the labels
// use s, ms or µs by the magnitude of the visible times, with as many decimals as the tick step needs.
#pragma once

#include <qcustomplot.h>

namespace tickscope {

class TimeAxisTicker : public QCPAxisTicker
{
public:
    // The label of `ns` on an axis whose largest visible |time| is `magnitudeNs`, with ticks every `stepNs`.
    static QString format(double ns, double stepNs, double magnitudeNs);

protected:
    double getTickStep(const QCPRange &range) override;
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override;

private:
    double step_ = 1, magnitude_ = 1;
};

} // namespace tickscope
