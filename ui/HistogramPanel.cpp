#include "HistogramPanel.h"

#include "BackgroundJob.h"
#include "Timing.h"
#include "ViewState.h"

#include "analysis/TickReport.h"
#include "analysis/WakeupSamples.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace tickscope {

HistogramPanel::HistogramPanel(ViewState *state, QWidget *parent)
    : QWidget(parent), state_(state), log_(new QCheckBox(tr("Log scale"), this)),
      lateness_(new QCustomPlot(this)), latency_(new QCustomPlot(this)),
      recompute_(this, 150, [this] { compute(); })
{
    log_->setToolTip(tr("log2 bins on logarithmic axes"));
    log_->setChecked(true); // latencies have long tails
    auto *plots = new QHBoxLayout;
    plots->addWidget(lateness_);
    plots->addWidget(latency_);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(log_);
    layout->addLayout(plots, 1);
    for (QCustomPlot *p : {lateness_, latency_}) {
        p->setMinimumSize(200, 150);
        p->addGraph();
        p->graph(0)->setLineStyle(QCPGraph::lsStepLeft);
        p->graph(0)->setPen(QPen(QColor(0x00, 0x72, 0xb2)));
        p->graph(0)->setBrush(QColor(0x00, 0x72, 0xb2, 110));
        p->yAxis->setLabel(tr("count"));
        p->plotLayout()->insertRow(0);
        p->plotLayout()->addElement(0, 0, new QCPTextElement(p, QString(), QFont(font().family(), 9)));
    }
    lateness_->xAxis->setLabel(tr("hrtimer lateness (µs)"));
    latency_->xAxis->setLabel(tr("wakeup latency (µs)"));

    connect(log_, &QCheckBox::toggled, this, &HistogramPanel::compute);
    connect(state_, &ViewState::rangeChanged, this, &HistogramPanel::schedule);
    connect(state_, &ViewState::cpusChanged, this, &HistogramPanel::schedule);
    // A new document is binned at once (the debounce is for a range being dragged or zoomed).
    connect(state_, &ViewState::documentReset, this, &HistogramPanel::compute);
}

void HistogramPanel::setDocument(const Document &doc)
{
    doc_ = doc;
    for (QCustomPlot *p : {lateness_, latency_}) {
        p->graph(0)->data()->clear();
        p->replot();
    }
    recompute_.reset();
}

HistogramPanel::Inputs HistogramPanel::inputs() const
{
    return {state_->cpus(), state_->rangeStart(), state_->rangeEnd(), log_->isChecked()};
}

void HistogramPanel::schedule()
{
    recompute_.schedule(inputs());
}

HistogramPanel::Bins HistogramPanel::bin(std::vector<int32_t> v, bool log, int linearBins)
{
    Bins b;
    b.samples = v.size();
    if (v.empty()) return b;
    const Distribution d = Distribution::of(v);
    b.p50 = static_cast<double>(d.p50) / 1e3;
    b.p99 = static_cast<double>(d.p99) / 1e3;
    b.max = static_cast<double>(d.max) / 1e3;
    if (log) {
        // log2 bins in ns: (2^(k-1), 2^k], the report's buckets (log2Bucket); everything <= the first edge
        // goes into the first bin.
        int64_t minPos = INT64_MAX;
        for (int64_t x : v) {
            if (x > 0) minPos = std::min(minPos, x);
        }
        if (minPos == INT64_MAX) minPos = 1;
        const int lo = std::max(0, log2Bucket(minPos) - 1);
        const int hi = std::max(lo + 1, log2Bucket(std::max<int64_t>(d.max, 2)));
        b.counts.assign(static_cast<size_t>(hi - lo), 0);
        for (int k = lo; k <= hi; ++k)
            b.edges.push_back(std::ldexp(1.0, k) / 1e3);
        for (int64_t x : v)
            b.counts[static_cast<size_t>(std::clamp(log2Bucket(x) - lo - 1, 0, hi - lo - 1))] += 1;
        return b;
    }
    const double from = std::min<double>(0, static_cast<double>(d.min));
    const double to = std::max(from + 1, static_cast<double>(d.max) + 1);
    const double width = (to - from) / linearBins;
    b.counts.assign(static_cast<size_t>(linearBins), 0);
    for (int k = 0; k <= linearBins; ++k)
        b.edges.push_back((from + width * k) / 1e3);
    for (int64_t x : v) {
        const auto k = static_cast<int>((static_cast<double>(x) - from) / width);
        b.counts[static_cast<size_t>(std::clamp(k, 0, linearBins - 1))] += 1;
    }
    return b;
}

void HistogramPanel::compute()
{
    if (!doc_.valid()) return;
    const Inputs in = inputs();
    const std::optional<uint64_t> gen = recompute_.start(in);
    if (!gen) return; // computed or being computed
    runInBackground(
        this,
        [trace = doc_.trace, analysis = doc_.analysis, cpus = in.cpus, from = in.from, to = in.to,
         log = in.log] {
            WakeupSamples s = WakeupSamples::collect(*trace, *analysis, cpus, from, to);
            return std::make_pair(bin(std::move(s.latenessNs), log), bin(std::move(s.latencyNs), log));
        },
        [this, gen = *gen](std::pair<Bins, Bins> r) {
            if (!recompute_.current(gen)) return;
            plot(lateness_, r.first, tr("hrtimer_wakeup lateness"));
            plot(latency_, r.second, tr("wakeup latency"));
            markTime("histograms shown");
            emit updated();
        });
}

void HistogramPanel::plot(QCustomPlot *p, const Bins &b, const QString &what)
{
    const bool log = log_->isChecked();
    QVector<double> x, y;
    for (size_t k = 0; k < b.counts.size(); ++k) {
        x << b.edges[k];
        y << b.counts[k];
    }
    if (!b.counts.empty()) { // closes the last step
        x << b.edges.back();
        y << 0;
    }
    p->graph(0)->setData(x, y, true);
    for (QCPAxis *a : {p->xAxis, p->yAxis}) {
        a->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
        if (log)
            a->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
        else
            a->setTicker(QSharedPointer<QCPAxisTicker>::create());
        a->ticker()->setTickCount(3); // the plots are narrow: labels of more ticks run into each other
    }
    if (!b.counts.empty()) {
        p->xAxis->setRange(b.edges.front(), b.edges.back());
        const double top = *std::max_element(b.counts.begin(), b.counts.end());
        p->yAxis->setRange(log ? 0.8 : 0, std::max(1.0, top) * (log ? 2 : 1.1));
    }
    auto *title = qobject_cast<QCPTextElement *>(p->plotLayout()->element(0, 0));
    title->setText(b.samples ? tr("%1\n%2 samples\np50 %3 · p99 %4 · max %5 µs")
                                   .arg(what)
                                   .arg(b.samples)
                                   .arg(b.p50, 0, 'f', 1)
                                   .arg(b.p99, 0, 'f', 1)
                                   .arg(b.max, 0, 'f', 1)
                             : tr("%1\nno samples").arg(what));
    p->replot();
}

uint64_t HistogramPanel::plottedSamples(const QCustomPlot *plot)
{
    double sum = 0;
    for (const QCPGraphData &d : *plot->graph(0)->data())
        sum += d.value;
    return static_cast<uint64_t>(std::llround(sum));
}

} // namespace tickscope
