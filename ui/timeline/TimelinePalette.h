// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline's colours and its legend. Rules: within one row of a lane (the state row with its task and
// IRQ bands, the tick row, the timers row) no two meanings share a colour; vermillion means a spurious tick
// and nothing else; an hrtimer wakeup's lateness is a sequential scale of its own (light to dark blue, the
// mark also taller when later); the hues come from Okabe & Ito's colour-blind-safe set, idle depths are
// greys. The legend, the painter and the GUI tests all take their colours from here.
#pragma once

#include "view/ColumnSummary.h"

#include <QColor>
#include <QString>

#include <vector>

namespace tickscope::palette {

QColor task(TaskSlot s); // state row, upper band
QColor irq(IrqSlot s);   // state row, lower band
QColor tickMark();       // tick row: ticks that are not spurious
QColor spurious();       // tick row: spurious ticks (the only vermillion)
QColor tickRunning();    // tick row bar
QColor tickStopped();
QColor failedStop();
QColor lateness(int32_t ns);  // timers row: an hrtimer wakeup's lateness (INT32_MIN: unknown)
int latenessStep(int32_t ns); // 0..3 for the four classes below 10, 50, 200 us and above; -1 unknown
QColor call(int64_t ns);      // function row: a function_graph call by its duration
int callStep(int64_t ns);     // 0..3 for the four classes below 10, 50, 200 us and above
QColor catchup();             // timers row: catch-up TIMER softirq span
QColor timerSoftirq();        // timers row: a TIMER softirq (the state row's TIMER softirq colour)
QColor softExpiry();          // timers row: columns with hrtimer wakeups run in softirq context
QColor wakeupArrow();         // timers row, zoomed in: a wakeup's latency, expiry -> switch-in
QColor lost();
QColor markerA();
QColor markerB();
QColor selection();
QColor run(int run); // the compare view: A's and B's lane tags and histogram bars
QColor better();     // the difference panel: a change for the better (a light bluish green)
QColor worse();      // and for the worse (a light vermillion)

// How a legend entry's swatch is drawn: the shape the timeline paints for it.
enum class Glyph
{
    Box,     // a filled band (the state row's task band)
    Band,    // a low band (the state row's IRQ band, the tick bar, the timers row's softirq spans)
    TopBand, // a thin band along the top (the timers row's soft expiries)
    Mark,    // a thin vertical mark (ticks, wakeups)
    Cross,   // ×
    Arrow,   // →
    Hatch,   // diagonal hatching
};
// The lane row an entry is drawn in: entries of one row never share a colour.
enum class LegendRow
{
    State,
    Interrupts, // the state row's lower band
    Tick,
    Timers,
    Functions,
    Lane, // over the whole lane
};
struct LegendEntry
{
    LegendRow row;
    Glyph glyph;
    QColor colour;
    QString label;
};
// Every mark the timeline draws, with its meaning, grouped by row; the function row's only with `functions`.
std::vector<LegendEntry> legend(bool functions = false);
QString legendRowName(LegendRow r);
// The row a legend row's colours are painted in (Interrupts share the state row).
LegendRow paintedRow(LegendRow r);

} // namespace tickscope::palette
