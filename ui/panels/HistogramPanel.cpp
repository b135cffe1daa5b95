// SPDX-License-Identifier: GPL-3.0-or-later
#include "HistogramPanel.h"

#include "report/Evidence.h"

#include "BackgroundJob.h"
#include "OnePaintBuffer.h"
#include "TimelinePalette.h"
#include "Timing.h"
#include "ViewState.h"

#include "analysis/WakeupSamples.h"
#include "report/TickReport.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>

namespace tickscope {

namespace {

struct ExpiryClass
{
    const char *name;
    WakeupClass cls;
};
namespace F = WakeupFlag;
constexpr uint8_t kCtx = F::ContextKnown | F::Soft, kPrio = F::PrioKnown | F::Rt;
// The histograms' class selector, in its order.
constexpr ExpiryClass kExpiryClasses[] = {
    {"all expiries", {}},
    {"hard", {kCtx, F::ContextKnown}},
    {"soft", {kCtx, kCtx}},
    {"RT task", {kPrio, kPrio}},
    {"non-RT task", {kPrio, F::PrioKnown}},
    {"hard, RT", {kCtx | kPrio, F::ContextKnown | kPrio}},
    {"hard, non-RT", {kCtx | kPrio, F::ContextKnown | F::PrioKnown}},
    {"soft, RT", {kCtx | kPrio, kCtx | kPrio}},
    {"soft, non-RT", {kCtx | kPrio, kCtx | F::PrioKnown}},
};

} // namespace

HistogramPanel::HistogramPanel(ViewState *state, QWidget *parent)
    : QWidget(parent), state_(state), log_(new QCheckBox(tr("Log scale"), this)), class_(new QComboBox(this)),
      lateness_(new QCustomPlot(this)), latency_(new QCustomPlot(this)),
      recompute_(this, 150, [this] { compute(); })
{
    log_->setToolTip(tr("log2 bins on logarithmic axes"));
    log_->setChecked(true); // latencies have long tails
    for (const ExpiryClass &c : kExpiryClasses)
        class_->addItem(tr(c.name));
    class_->setToolTip(
        tr("Only the hrtimer_wakeup expiries of one class: run in hard interrupt context or "
           "in the HRTIMER softirq (on PREEMPT_RT the ktimers thread), waking an RT task or not"));
    auto *top = new QHBoxLayout;
    top->addWidget(log_);
    top->addWidget(class_);
    top->addStretch(1);
    auto *plots = new QHBoxLayout;
    plots->addWidget(lateness_);
    plots->addWidget(latency_);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(top);
    layout->addLayout(plots, 1);
    for (QCustomPlot *p : {lateness_, latency_}) {
        p->setMinimumSize(200, 150);
        onePaintBuffer(p);
        p->addGraph();
        p->graph(0)->setLineStyle(QCPGraph::lsStepLeft);
        p->graph(0)->setPen(QPen(QColor(0x00, 0x72, 0xb2)));
        p->graph(0)->setBrush(QColor(0x00, 0x72, 0xb2, 110));
        p->addGraph(); // run B in the compare view
        p->graph(1)->setLineStyle(QCPGraph::lsStepLeft);
        p->graph(1)->setPen(QPen(palette::run(1), 2));
        p->legend->setFont(QFont(font().family(), 7));
        p->legend->setRowSpacing(0);
        p->legend->setIconSize(14, 8);
        p->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
        p->yAxis->setLabel(tr("count"));
        p->plotLayout()->insertRow(0);
        p->plotLayout()->addElement(0, 0, new QCPTextElement(p, QString(), QFont(font().family(), 9)));
    }
    lateness_->xAxis->setLabel(tr("hrtimer lateness (µs)"));
    latency_->xAxis->setLabel(tr("wakeup latency (µs)"));

    connect(log_, &QCheckBox::toggled, this, &HistogramPanel::compute);
    connect(class_, &QComboBox::currentIndexChanged, this, &HistogramPanel::compute);
    connect(state_, &ViewState::rangeChanged, this, &HistogramPanel::schedule);
    connect(state_, &ViewState::cpusChanged, this, &HistogramPanel::schedule);
    // A new document is binned at once (the debounce is for a range being dragged or zoomed).
    connect(state_, &ViewState::documentReset, this, &HistogramPanel::compute);
    connect(state_, &ViewState::comparisonChanged, this, &HistogramPanel::schedule);
}

void HistogramPanel::setDocument(const Document &doc)
{
    doc_ = doc;
    for (QCustomPlot *p : {lateness_, latency_}) {
        p->graph(0)->data()->clear();
        p->graph(1)->data()->clear();
        p->replot();
    }
    recompute_.reset();
}

HistogramPanel::Inputs HistogramPanel::inputs() const
{
    const auto &c = state_->comparison();
    const int cls = std::clamp(class_->currentIndex(), 0, static_cast<int>(std::size(kExpiryClasses)) - 1);
    return {state_->cpus(),    state_->rangeStart(),          state_->rangeEnd(),
            log_->isChecked(), c && c->valid() ? c : nullptr, kExpiryClasses[cls].cls};
}

void HistogramPanel::schedule()
{
    recompute_.schedule(inputs());
}

HistogramPanel::Bins HistogramPanel::bin(std::span<int32_t> v, bool log, int linearBins,
                                         std::span<const int32_t> rangeAlso)
{
    Bins b;
    b.samples = v.size();
    if (v.empty() && rangeAlso.empty()) return b;
    const Distribution d = Distribution::of(v);
    b.p50 = static_cast<double>(d.p50) / 1e3;
    b.p99 = static_cast<double>(d.p99) / 1e3;
    b.max = static_cast<double>(d.max) / 1e3;
    // The span the edges cover: these values and the other run's.
    int64_t minV = INT64_MAX, maxV = INT64_MIN, minPos = INT64_MAX;
    auto cover = [&](std::span<const int32_t> values) {
        for (int64_t x : values) {
            minV = std::min(minV, x);
            maxV = std::max(maxV, x);
            if (x > 0) minPos = std::min(minPos, x);
        }
    };
    cover(v);
    cover(rangeAlso);
    if (log) {
        // log2 bins in ns: (2^(k-1), 2^k], the report's buckets (log2Bucket); everything <= the first edge
        // goes into the first bin.
        if (minPos == INT64_MAX) minPos = 1;
        const int lo = std::max(0, log2Bucket(minPos) - 1);
        const int hi = std::max(lo + 1, log2Bucket(std::max<int64_t>(maxV, 2)));
        b.counts.assign(static_cast<size_t>(hi - lo), 0);
        for (int k = lo; k <= hi; ++k)
            b.edges.push_back(std::ldexp(1.0, k) / 1e3);
        for (int64_t x : v) {
            if (x <= 0) { // a timer that fired within its slack: before its hard expiry
                ++b.offAxis;
                continue;
            }
            b.counts[static_cast<size_t>(std::clamp(log2Bucket(x) - lo - 1, 0, hi - lo - 1))] += 1;
        }
        return b;
    }
    const double from = std::min<double>(0, static_cast<double>(minV));
    const double to = std::max(from + 1, static_cast<double>(maxV) + 1);
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
        [trace = doc_.trace, analysis = doc_.analysis, in] {
            WakeupSamples s = WakeupSamples::collect(*trace, *analysis, in.cpus, in.from, in.to, in.cls);
            std::array<Bins, 4> r; // lateness A, latency A, lateness B, latency B
            if (!in.comparison) {
                r[0] = bin(s.latenessNs, in.log);
                r[1] = bin(s.latencyNs, in.log);
                return r;
            }
            // B: its CPUs against the ones shown, the same relative range; both runs on the same bins.
            const Comparison &c = *in.comparison;
            const std::vector<int> cpusB = c.cpusB(in.cpus);
            WakeupSamples sb = WakeupSamples::collect(*c.b.trace, *c.b.analysis, cpusB, in.from + c.shift(),
                                                      in.to + c.shift(), in.cls);
            // (a bin may reorder its values: the other run's are only covered, in any order)
            r[0] = bin(s.latenessNs, in.log, 50, sb.latenessNs);
            r[1] = bin(s.latencyNs, in.log, 50, sb.latencyNs);
            r[2] = bin(sb.latenessNs, in.log, 50, s.latenessNs);
            r[3] = bin(sb.latencyNs, in.log, 50, s.latencyNs);
            return r;
        },
        [this, gen = *gen, compare = in.comparison != nullptr](std::array<Bins, 4> r) {
            if (!recompute_.current(gen)) return;
            const QString cls =
                class_->currentIndex() > 0 ? QStringLiteral(" (%1)").arg(class_->currentText()) : QString();
            // A histogram the trace cannot fill names the events that would (one line, no empty axes).
            const auto why = [ev = doc_.evidence](Figure f) {
                const FigureEvidence &e = ev->of(f);
                if (e.status != EvidenceStatus::NotRecorded) return QString();
                QStringList needs;
                for (const std::string &x : e.missing)
                    needs << QString::fromStdString(x);
                return needs.join(QLatin1Char('\n')); // one a line: the plots are narrow
            };
            plot(lateness_, r[0], compare ? &r[2] : nullptr, tr("hrtimer_wakeup lateness") + cls,
                 why(Figure::WakeupLateness));
            plot(latency_, r[1], compare ? &r[3] : nullptr, tr("wakeup latency") + cls,
                 why(Figure::WakeupLatency));
            markTime("histograms shown");
            emit updated();
        });
}

void HistogramPanel::plot(QCustomPlot *p, const Bins &a, const Bins *other, const QString &what,
                          const QString &notRecorded)
{
    const bool log = log_->isChecked();
    auto *heading = qobject_cast<QCPTextElement *>(p->plotLayout()->element(0, 0));
    const bool collapse = !notRecorded.isEmpty() && !other;
    for (QCPAxis *x : {p->xAxis, p->yAxis})
        x->setVisible(!collapse);
    p->axisRect()->setVisible(!collapse);
    p->setMaximumHeight(collapse ? (static_cast<int>(notRecorded.count(QLatin1Char('\n'))) + 4) *
                                       QFontMetrics(heading->font()).height()
                                 : QWIDGETSIZE_MAX);
    if (collapse) {
        setSteps(p->graph(0), Bins{});
        setSteps(p->graph(1), Bins{});
        p->legend->setVisible(false);
        heading->setText(tr("%1\nnot recorded: needs\n%2").arg(what, notRecorded));
        p->setToolTip(heading->text());
        p->replot();
        return;
    }
    if (!other) p->setToolTip(QString());
    setSteps(p->graph(0), a);
    setSteps(p->graph(1), other ? *other : Bins{});
    const auto &c = state_->comparison();
    p->legend->setVisible(other != nullptr);
    p->graph(0)->setPen(QPen(other ? palette::run(0) : QColor(0x00, 0x72, 0xb2)));
    p->graph(0)->setBrush(other ? QColor(0x33, 0x33, 0x33, 60) : QColor(0x00, 0x72, 0xb2, 110));
    if (other && c) {
        // Short names: the plots are narrow; the tooltip and the other views say which file is which.
        p->graph(0)->setName(QStringLiteral("A"));
        p->graph(1)->setName(QStringLiteral("B"));
        p->setToolTip(QStringLiteral("A: %1\nB: %2")
                          .arg(QString::fromStdString(doc_.title), QString::fromStdString(c->b.title)));
    }
    const Bins &b = a.counts.empty() && other ? *other : a; // the edges both share
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
        double top = *std::max_element(b.counts.begin(), b.counts.end());
        if (other && !other->counts.empty())
            top = std::max(top, *std::max_element(other->counts.begin(), other->counts.end()));
        p->yAxis->setRange(log ? 0.8 : 0, std::max(1.0, top) * (log ? 2 : 1.1));
    }
    auto *title = qobject_cast<QCPTextElement *>(p->plotLayout()->element(0, 0));
    // Short lines: the header stays inside a narrow plot whatever the numbers' widths (a large trace has
    // millions of samples and latencies of several ms).
    auto figures = [](const Bins &x) {
        return x.samples ? tr("p99 %1 · max %2 µs").arg(x.p99, 0, 'f', 1).arg(x.max, 0, 'f', 1)
                         : tr("no samples");
    };
    if (other) {
        title->setText(QStringLiteral("%1\nA: %2\nB: %3").arg(what, figures(a), figures(*other)));
        if (c)
            p->setToolTip(tr("A: %1, %2 samples\nB: %3, %4 samples")
                              .arg(QString::fromStdString(doc_.title))
                              .arg(a.samples)
                              .arg(QString::fromStdString(c->b.title))
                              .arg(other->samples));
    } else {
        title->setText(a.samples ? tr("%1\n%2 samples\np50 %3 · p99 %4\nmax %5 µs")
                                       .arg(what)
                                       .arg(a.samples)
                                       .arg(a.p50, 0, 'f', 1)
                                       .arg(a.p99, 0, 'f', 1)
                                       .arg(a.max, 0, 'f', 1)
                                 : tr("%1\nno samples").arg(what));
        // the log axis starts above 0: say how many it leaves out
        if (log && a.offAxis)
            title->setText(title->text() + tr("\n%1 at or before 0 µs, not drawn").arg(a.offAxis));
    }
    p->replot();
}

void HistogramPanel::setSteps(QCPGraph *g, const Bins &b)
{
    QVector<double> x, y;
    for (size_t k = 0; k < b.counts.size(); ++k) {
        x << b.edges[k];
        y << b.counts[k];
    }
    if (!b.counts.empty()) { // closes the last step
        x << b.edges.back();
        y << 0;
    }
    g->setData(x, y, true);
}

uint64_t HistogramPanel::plottedSamples(const QCustomPlot *plot)
{
    double sum = 0;
    for (const QCPGraphData &d : *plot->graph(0)->data())
        sum += d.value;
    return static_cast<uint64_t>(std::llround(sum));
}

} // namespace tickscope
