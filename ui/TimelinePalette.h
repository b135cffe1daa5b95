// The timeline's colours: the Okabe-Ito colour-blind-safe palette, idle states in greys. The legend, the
// painter and the GUI tests all take their colours from here.
#pragma once

#include "view/ColumnSummary.h"

#include <QColor>
#include <QString>

#include <vector>

namespace tickscope::palette {

QColor task(TaskSlot s);  // state row, upper band
QColor irq(IrqSlot s);    // state row, lower band
QColor tick(TickClass c); // tick marks
QColor tickRunning();     // tick row bar
QColor tickStopped();
QColor lateness(int32_t ns); // event row: an hrtimer wakeup's lateness (INT32_MIN: unknown)
QColor catchup();            // catch-up TIMER softirq span
QColor timerSoftirq();       // event row: a TIMER softirq
QColor failedStop();
QColor lost();
QColor markerA();
QColor markerB();
QColor selection();
QColor run(int run);
QColor better(); // the difference panel: a change for the better (a light bluish green)
QColor worse();  // and for the worse (a light vermillion) // the compare view: A's and B's lane tags and
                 // histogram bars

struct LegendEntry
{
    QColor colour;
    QString label;
};
std::vector<LegendEntry> legend(); // every colour the timeline uses, with its meaning

} // namespace tickscope::palette
