// SPDX-License-Identifier: GPL-3.0-or-later
// The compare view's numbers: every figure of `report` for run A and run B, per CPU, as A -> B with the
// change and its percentage, coloured by the metric's own sense of better (fewer spurious ticks, more
// tick-stopped time, lower latency; neutral metrics uncoloured). Over each run's own print-marker window
// (as `tickscope-cli compare` by default), the visible range (on the shared relative axis), or the whole
// runs. Sortable; unchanged rows can be hidden; "Copy as text" gives the table as plain text. Computed in
// the background (core's TickReport and timer_list pairing for both runs), recomputed, debounced, when the
// range, the comparison or the options change.
#pragma once

#include "BackgroundJob.h"
#include "session/Document.h"

#include "report/ReportDiff.h"

#include <QWidget>

#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QTableWidget;

namespace tickscope {

class ViewState;

class DifferencePanel : public QWidget
{
    Q_OBJECT
public:
    enum class Window
    {
        Markers, // each run's first to last print marker (the whole run without two markers)
        Visible, // the visible range, in each run's own time
        Whole,
    };

    DifferencePanel(ViewState *state, QWidget *parent = nullptr);

    void setDocument(const Document &doc);
    void setWindow(Window w);
    QComboBox *windowBox() const { return window_; }
    QCheckBox *hideUnchanged() const { return hideUnchanged_; }
    QTableWidget *table() const { return table_; }

    // The last result (empty before the first one and without a comparison).
    const std::vector<CpuDiff> &diffs() const { return diffs_; }
    // A metric of A's CPU `cpuA`; nullptr when absent.
    const MetricDiff *metricOf(int cpuA, const char *name) const;
    // The table as plain text, one line per shown row, columns aligned.
    QString text() const;
    bool debouncing() const { return recompute_.debouncing(); }

signals:
    void updated();

private:
    struct Inputs
    {
        std::shared_ptr<const Comparison> comparison;
        Window window = Window::Markers;
        int64_t from = 0, to = 0; // A's visible range for Window::Visible
        bool operator==(const Inputs &) const = default;
    };
    Inputs inputs() const;
    void schedule();
    void compute();
    void fill();

    ViewState *state_;
    Document doc_;
    QComboBox *window_;
    QCheckBox *hideUnchanged_;
    QLabel *note_;
    QTableWidget *table_;
    std::vector<CpuDiff> diffs_;
    QString labelA_, labelB_;
    Recompute<Inputs> recompute_;
};

} // namespace tickscope
