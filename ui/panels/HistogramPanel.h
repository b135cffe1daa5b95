// SPDX-License-Identifier: GPL-3.0-or-later
// Histograms (QCustomPlot) of the hrtimer_wakeup lateness and the wakeup latency, for the CPUs shown and
// the visible range, the samples from core (WakeupSamples: the values behind the report's columns).
// Linear bins, or log2 bins on log axes; all expiries or one class of them (hard or soft context, RT or
// non-RT woken task). Recomputed in the background at once when a document arrives,
// and debounced when the range or the CPUs change. In the compare view run B's samples (its CPUs against
// the ones shown, the same relative range) are drawn over A's on the same bins, the legend naming the runs.
#pragma once

#include "BackgroundJob.h"
#include "session/Document.h"

#include "analysis/WakeupSamples.h"

#include <QWidget>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

class QCheckBox;
class QComboBox;
class QCPGraph;
class QCustomPlot;

namespace tickscope {

class ViewState;

class HistogramPanel : public QWidget
{
    Q_OBJECT
public:
    HistogramPanel(ViewState *state, QWidget *parent = nullptr);

    void setDocument(const Document &doc);

    QCheckBox *logScale() const { return log_; }
    // Which expiries the histograms hold: all, or one class (hard / soft context, RT / non-RT task).
    QComboBox *expiryClass() const { return class_; }
    QCustomPlot *latenessPlot() const { return lateness_; }
    QCustomPlot *latencyPlot() const { return latency_; }
    // The samples the plotted bins hold (the sum of the bars).
    static uint64_t plottedSamples(const QCustomPlot *plot);

    struct Bins
    {
        std::vector<double> edges;  // µs, size counts + 1
        std::vector<double> counts; // per bin
        uint64_t samples = 0;
        uint64_t offAxis = 0;             // log: values <= 0, which a log axis cannot show (not in counts)
        double p50 = 0, p99 = 0, max = 0; // µs
    };
    // Linear: bins of equal width from 0 (or the minimum when negative) to the maximum; log: log2 bins
    // in µs from the bin holding the minimum positive value, values <= 0 counted apart (offAxis).
    // rangeAlso: further values the bin edges must cover (the other run's, so that both share the bins).
    // The values may be reordered.
    static Bins bin(std::span<int32_t> valuesNs, bool log, int linearBins = 50,
                    std::span<const int32_t> rangeAlso = {});
    // The bins as a closed step line of `g` (lsStepLeft): one point per bin's left edge, then the last edge.
    static void setSteps(QCPGraph *g, const Bins &b);

    // A range or CPU change waits for more before it recomputes (for tests).
    bool debouncing() const { return recompute_.debouncing(); }

signals:
    void updated();

private:
    // What the bins are computed from; a change that leaves these equal recomputes nothing.
    struct Inputs
    {
        std::vector<int> cpus;
        int64_t from = 0, to = 0;
        bool log = true;
        std::shared_ptr<const Comparison> comparison;
        WakeupClass cls;
        bool operator==(const Inputs &) const = default;
    };
    Inputs inputs() const;
    void schedule();
    void compute();
    // notRecorded: why the trace cannot fill it (a single run): the plot collapses to one line saying so.
    void plot(QCustomPlot *p, const Bins &a, const Bins *b, const QString &what,
              const QString &notRecorded = {});

    ViewState *state_;
    Document doc_;
    QCheckBox *log_;
    QComboBox *class_;
    QCustomPlot *lateness_, *latency_;
    Recompute<Inputs> recompute_;
};

} // namespace tickscope
