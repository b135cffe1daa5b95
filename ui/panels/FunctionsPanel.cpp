// SPDX-License-Identifier: GPL-3.0-or-later
#include "FunctionsPanel.h"

#include "OnePaintBuffer.h"
#include "ViewState.h"

#include "report/FunctionReport.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <climits>

namespace tickscope {

namespace {

QString us(int64_t ns)
{
    return QString::fromStdString(usText(ns));
}

} // namespace

FunctionsPanel::FunctionsPanel(ViewState *state, QWidget *parent)
    : QWidget(parent), state_(state), table_(new QTreeWidget(this)), verdict_(new QLabel(this)),
      function_(new QComboBox(this)), plot_(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    table_->setHeaderLabels(
        {tr("Function / CPU"), tr("Calls"), tr("p50 µs"), tr("p99 µs"), tr("Max µs"), tr("Total µs")});
    table_->setUniformRowHeights(true);
    table_->header()->setStretchLastSection(false);
    table_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    table_->setToolTip(tr("function_graph calls over the whole trace on the CPUs shown: the timer functions "
                          "present (tickscope-cli report --functions NAME,... lists others)"));
    layout->addWidget(table_, 1);
    verdict_->setWordWrap(true);
    layout->addWidget(verdict_);
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Durations of"), this));
    row->addWidget(function_, 1);
    layout->addLayout(row);
    plot_->setMinimumSize(200, 140);
    onePaintBuffer(plot_);
    plot_->addGraph();
    plot_->graph(0)->setLineStyle(QCPGraph::lsStepLeft);
    plot_->graph(0)->setPen(QPen(QColor(0x00, 0x72, 0xb2)));
    plot_->graph(0)->setBrush(QColor(0x00, 0x72, 0xb2, 110));
    plot_->xAxis->setLabel(tr("duration (µs)"));
    plot_->yAxis->setLabel(tr("count"));
    for (QCPAxis *a : {plot_->xAxis, plot_->yAxis}) {
        a->setScaleType(QCPAxis::stLogarithmic);
        a->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
        a->ticker()->setTickCount(3);
    }
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, new QCPTextElement(plot_, QString(), QFont(font().family(), 9)));
    layout->addWidget(plot_, 1);
    connect(function_, &QComboBox::currentIndexChanged, this, [this] { computeHistogram(); });
    connect(state_, &ViewState::cpusChanged, this, [this] { compute(); });
}

void FunctionsPanel::setDocument(const Document &doc)
{
    doc_ = doc;
    report_.reset();
    fill();
    compute();
}

void FunctionsPanel::compute()
{
    if (!doc_.valid() || doc_.trace->functions.empty()) return;
    const uint64_t gen = ++generation_;
    std::vector<int> cpus = state_->cpus();
    std::sort(cpus.begin(), cpus.end());
    runInBackground(
        this,
        [trace = doc_.trace, analysis = doc_.analysis, cpus] {
            return std::make_shared<const FunctionReport>(
                makeFunctionReport(*trace, analysis.get(), {}, cpus, INT64_MIN, INT64_MAX));
        },
        [this, gen](std::shared_ptr<const FunctionReport> r) {
            if (gen != generation_) return;
            report_ = std::move(r);
            fill();
            emit updated();
        });
}

void FunctionsPanel::fill()
{
    const QString chosen = function_->currentText();
    {
        const QSignalBlocker block(function_); // the histogram follows once, at the end
        table_->clear();
        function_->clear();
        verdict_->clear();
        if (report_) fillTable(*report_);
        if (const int k = function_->findText(chosen); k >= 0) function_->setCurrentIndex(k);
    }
    computeHistogram();
}

void FunctionsPanel::fillTable(const FunctionReport &r)
{
    auto row = [&](QTreeWidgetItem *item, const QString &label, const Distribution &d, int64_t total) {
        item->setText(0, label);
        item->setText(1, QString::number(d.count));
        item->setText(2, us(d.p50));
        item->setText(3, us(d.p99));
        item->setText(4, us(d.max));
        item->setText(5, us(total));
        for (int c = 1; c < 6; ++c)
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    };
    for (const FunctionStats &f : r.functions) {
        auto *item = new QTreeWidgetItem(table_);
        row(item, QString::fromStdString(f.name), f.duration, f.totalNs);
        QStringList longest;
        for (const FunctionCall &c : f.longest)
            longest << QString::fromStdString(usText(c.durationNs) + " µs " + callPlaceText(c));
        QString tip = tr("Longest calls:\n%1").arg(longest.join(QLatin1Char('\n')));
        if (f.tickStopped + f.tickRunning)
            tip += tr("\nTick at entry: %1 stopped, %2 running")
                       .arg(static_cast<qulonglong>(f.tickStopped))
                       .arg(static_cast<qulonglong>(f.tickRunning));
        item->setToolTip(0, tip);
        for (const FunctionCpuStats &c : f.cpus)
            row(new QTreeWidgetItem(item), tr("CPU %1").arg(c.cpu), c.duration, c.totalNs);
        item->setExpanded(true);
        function_->addItem(QString::fromStdString(f.name));
    }
    verdict_->setToolTip(QString());
    if (r.timerCalls) {
        // Beside the softirq tracepoints: their verdict in the label, the softirqs they differ on in the
        // tooltip.
        const std::vector<std::string> join = timerJoinText(r);
        QString text = QString::fromStdString(timerVerdictText(r));
        if (!join.empty()) {
            QString first = QString::fromStdString(join.front());
            if (first.endsWith(QLatin1Char(':'))) {
                first.chop(1);
                first += tr(" (the tooltip lists them)");
            }
            text += QLatin1Char('\n') + first;
        }
        verdict_->setText(text);
        QStringList tip;
        for (const std::string &line : join)
            tip << QString::fromStdString(line).trimmed();
        verdict_->setToolTip(tip.join(QLatin1Char('\n')));
    } else if (!r.timed)
        verdict_->setText(
            tr("No timestamps (funcgraph-abstime off): the calls have no place on the timeline."));
}

void FunctionsPanel::computeHistogram()
{
    const uint64_t gen = ++histogramGeneration_;
    const QString name = function_->currentText();
    if (!doc_.valid() || name.isEmpty()) {
        plot_->graph(0)->data()->clear();
        qobject_cast<QCPTextElement *>(plot_->plotLayout()->element(0, 0))
            ->setText(tr("no function_graph calls"));
        plot_->replot();
        return;
    }
    std::vector<int> cpus = state_->cpus();
    std::sort(cpus.begin(), cpus.end());
    runInBackground(
        this,
        [trace = doc_.trace, cpus, fn = name.toStdString()] {
            std::vector<int32_t> v;
            const uint32_t id = trace->strings.find(fn);
            for (int c : cpus) {
                if (!id || static_cast<size_t>(c) >= trace->functions.cpus.size()) continue;
                for (const FunctionSpan &s : trace->functions.cpus[static_cast<size_t>(c)])
                    if (s.name == id)
                        v.push_back(static_cast<int32_t>(std::min<int64_t>(s.durationNs, INT32_MAX)));
            }
            return HistogramPanel::bin(v, true);
        },
        [this, gen, name](HistogramPanel::Bins b) {
            if (gen != histogramGeneration_) return;
            HistogramPanel::setSteps(plot_->graph(0), b);
            if (!b.counts.empty()) {
                plot_->xAxis->setRange(b.edges.front(), b.edges.back());
                plot_->yAxis->setRange(
                    0.8, std::max(1.0, *std::max_element(b.counts.begin(), b.counts.end())) * 2);
            }
            qobject_cast<QCPTextElement *>(plot_->plotLayout()->element(0, 0))
                ->setText(tr("%1\n%2 calls · p50 %3 · p99 %4 · max %5 µs")
                              .arg(name)
                              .arg(b.samples)
                              .arg(b.p50, 0, 'f', 1)
                              .arg(b.p99, 0, 'f', 1)
                              .arg(b.max, 0, 'f', 1));
            plot_->replot();
            emit updated();
        });
}

} // namespace tickscope
