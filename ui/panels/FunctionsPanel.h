// SPDX-License-Identifier: GPL-3.0-or-later
// The function_graph calls of the document (core's FunctionReport over the whole trace, on the CPUs
// shown): per function its calls, p50/p99/max and total duration, with a row per CPU below it, the
// TIMER catch-up verdict from run_timer_softirq calls, and a histogram (log2 bins) of the chosen
// function's durations. For a paste without timestamps (nothing to draw on the timeline) this is the
// view. Computed in the background when the document or the shown CPUs change.
#pragma once

#include "BackgroundJob.h"
#include "HistogramPanel.h"
#include "session/Document.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QCustomPlot;
class QLabel;
class QTreeWidget;

namespace tickscope {

struct FunctionReport;
class ViewState;

class FunctionsPanel : public QWidget
{
    Q_OBJECT
public:
    FunctionsPanel(ViewState *state, QWidget *parent = nullptr);

    void setDocument(const Document &doc);
    QTreeWidget *table() const { return table_; }
    QComboBox *function() const { return function_; }
    QCustomPlot *plot() const { return plot_; }
    QLabel *verdict() const { return verdict_; }
    std::shared_ptr<const FunctionReport> report() const { return report_; }

signals:
    void updated(); // a new report or histogram is shown

private:
    void compute();
    void fill();
    void fillTable(const FunctionReport &r);
    void computeHistogram();

    ViewState *state_;
    Document doc_;
    QTreeWidget *table_;
    QLabel *verdict_;
    QComboBox *function_;
    QCustomPlot *plot_;
    std::shared_ptr<const FunctionReport> report_;
    uint64_t generation_ = 0, histogramGeneration_ = 0;
};

} // namespace tickscope
