// SPDX-License-Identifier: GPL-3.0-or-later
#include "DifferencePanel.h"

#include "TimelinePalette.h"
#include "Timing.h"
#include "ViewState.h"

#include "sim/SimReport.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace tickscope {

namespace {

enum Column
{
    ColCpu,
    ColMetric,
    ColA,
    ColB,
    ColChange,
    ColPercent,
    ColCount
};

// A cell that sorts by a number (its shown text may differ), so that sorting by change orders by size.
class NumberItem : public QTableWidgetItem
{
public:
    NumberItem(const QString &text, double key) : QTableWidgetItem(text), key_(key) {}
    bool operator<(const QTableWidgetItem &other) const override
    {
        const auto *o = dynamic_cast<const NumberItem *>(&other);
        return o ? key_ < o->key_ : QTableWidgetItem::operator<(other);
    }

private:
    double key_;
};

QString number(double v)
{
    if (std::isnan(v)) return QObject::tr("not recorded"); // that run's trace lacks the figure's events
    if (v == std::floor(v) && std::abs(v) < 1e15) return QString::number(static_cast<qlonglong>(v));
    return QString::number(v, 'f', 3);
}

QString signedNumber(double v)
{
    return (v > 0 ? QStringLiteral("+") : QString()) + number(v);
}

} // namespace

DifferencePanel::DifferencePanel(ViewState *state, QWidget *parent)
    : QWidget(parent), state_(state), recompute_(this, 150, [this] { compute(); })
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *options = new QHBoxLayout;
    window_ = new QComboBox(this);
    window_->addItem(tr("Each run's markers"), static_cast<int>(Window::Markers));
    window_->addItem(tr("Visible range"), static_cast<int>(Window::Visible));
    window_->addItem(tr("Whole runs"), static_cast<int>(Window::Whole));
    window_->setToolTip(tr("Markers: each run from its first to its last ftrace print marker, as "
                           "`tickscope-cli compare` by default (the whole run without two markers).\n"
                           "Visible range: the range the timeline shows, in each run's own time."));
    hideUnchanged_ = new QCheckBox(tr("Hide unchanged"), this);
    hideUnchanged_->setChecked(true);
    auto *copy = new QPushButton(tr("Copy as Text"), this);
    copy->setObjectName(QStringLiteral("copyDifference"));
    options->addWidget(window_);
    options->addWidget(hideUnchanged_);
    options->addStretch(1);
    options->addWidget(copy);
    layout->addLayout(options);
    note_ = new QLabel(this);
    note_->setWordWrap(true);
    layout->addWidget(note_);
    table_ = new QTableWidget(0, ColCount, this);
    table_->setHorizontalHeaderLabels({tr("CPU"), tr("Metric"), tr("A"), tr("B"), tr("Change"), tr("%")});
    table_->horizontalHeaderItem(ColChange)->setToolTip(
        tr("B − A; sorting orders by the size of the change"));
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setSortingEnabled(true);
    layout->addWidget(table_, 1);
    note_->setText(tr("No comparison: File → Compare With… puts a second run beside this one."));

    connect(window_, &QComboBox::currentIndexChanged, this, [this] { compute(); });
    connect(hideUnchanged_, &QCheckBox::toggled, this, [this] { fill(); });
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(text()); });
    // debounced: a drag of B's lanes realigns the runs at every pointer move
    connect(state_, &ViewState::comparisonChanged, this, [this] {
        if (state_->comparison())
            schedule();
        else
            compute();
    });
    connect(state_, &ViewState::rangeChanged, this, [this] {
        if (static_cast<Window>(window_->currentData().toInt()) == Window::Visible) schedule();
    });
}

void DifferencePanel::setDocument(const Document &doc)
{
    doc_ = doc;
    recompute_.reset();
    diffs_.clear();
    fill();
    compute();
}

void DifferencePanel::setWindow(Window w)
{
    window_->setCurrentIndex(window_->findData(static_cast<int>(w)));
}

DifferencePanel::Inputs DifferencePanel::inputs() const
{
    Inputs in;
    in.comparison = state_->comparison();
    in.window = static_cast<Window>(window_->currentData().toInt());
    if (in.window == Window::Visible) {
        in.from = state_->rangeStart();
        in.to = state_->rangeEnd();
    }
    return in;
}

void DifferencePanel::schedule()
{
    recompute_.schedule(inputs());
}

void DifferencePanel::compute()
{
    const Inputs in = inputs();
    if (!doc_.valid() || !in.comparison || !in.comparison->valid()) {
        recompute_.reset();
        diffs_.clear();
        fill();
        return;
    }
    const std::optional<uint64_t> gen = recompute_.start(in);
    if (!gen) return;
    note_->setText(tr("Computing…"));
    struct Result
    {
        std::vector<CpuDiff> diffs;
        std::string windowA, windowB;
    };
    runInBackground(
        this,
        [a = doc_, cmp = in.comparison, in] {
            auto side = [&](const Document &d, int64_t shift, std::string &how) {
                int64_t from = INT64_MIN, to = INT64_MAX;
                std::string source = "trace";
                if (in.window == Window::Markers) {
                    if (const auto span = markerWindow(*d.trace, *d.analysis)) {
                        from = span->first;
                        to = span->second;
                        source = "markers";
                    }
                } else if (in.window == Window::Visible) {
                    from = in.from + shift;
                    to = in.to + shift;
                    source = "window";
                }
                how = source;
                return sim::analyseSpan(*d.trace, *d.analysis, d.title, from, to, source);
            };
            Result r;
            const sim::Analysed x = side(a, 0, r.windowA);
            const sim::Analysed y = side(cmp->b, cmp->shift(), r.windowB);
            r.diffs = diffReports(x.report, x.timers, y.report, y.timers, cmp->cpuMap);
            return std::make_shared<const Result>(std::move(r));
        },
        [this, gen = *gen, in](const std::shared_ptr<const Result> &r) {
            if (!recompute_.current(gen)) return;
            diffs_ = r->diffs;
            labelA_ = QString::fromStdString(doc_.title);
            labelB_ = QString::fromStdString(in.comparison->b.title);
            const QString window = in.window == Window::Visible ? tr("the visible range")
                                   : in.window == Window::Whole ? tr("the whole runs")
                                                                : tr("each run's markers");
            QString note = tr("A = %1 → B = %2, over %3 (aligned by %4)")
                               .arg(labelA_, labelB_, window, QString::fromStdString(in.comparison->how));
            if (in.window == Window::Markers && r->windowA != r->windowB)
                note += tr("; A over its %1, B over its %2")
                            .arg(QString::fromStdString(r->windowA), QString::fromStdString(r->windowB));
            note_->setText(note);
            fill();
            markTime("difference shown");
            emit updated();
        });
}

const MetricDiff *DifferencePanel::metricOf(int cpuA, const char *name) const
{
    for (const CpuDiff &d : diffs_) {
        if (d.cpuA != cpuA) continue;
        for (const MetricDiff &m : d.metrics)
            if (std::string_view(m.name) == name) return &m;
    }
    return nullptr;
}

void DifferencePanel::fill()
{
    table_->setSortingEnabled(false);
    table_->setRowCount(0);
    if (diffs_.empty() && !state_->comparison())
        note_->setText(tr("No comparison: File → Compare With… puts a second run beside this one."));
    const bool hide = hideUnchanged_->isChecked();
    const QColor better = palette::better(), worse = palette::worse();
    for (const CpuDiff &d : diffs_) {
        for (const MetricDiff &m : d.metrics) {
            if (hide && !m.changed()) continue;
            const int row = table_->rowCount();
            table_->insertRow(row);
            const QString cpu =
                d.cpuA == d.cpuB ? QString::number(d.cpuA) : QStringLiteral("%1→%2").arg(d.cpuA).arg(d.cpuB);
            table_->setItem(row, ColCpu, new NumberItem(cpu, d.cpuA));
            table_->setItem(row, ColMetric, new QTableWidgetItem(QString::fromLatin1(m.name)));
            // (sorted with a not-recorded side below every number)
            table_->setItem(row, ColA,
                            new NumberItem(number(m.before), m.recordedBefore() ? m.before : -1e300));
            table_->setItem(row, ColB, new NumberItem(number(m.after), m.recordedAfter() ? m.after : -1e300));
            const bool both = m.recordedBefore() && m.recordedAfter();
            const double change = both ? m.after - m.before : 0;
            auto *c =
                new NumberItem(m.changed() && both ? signedNumber(change) : QString(), std::abs(change));
            QString pct;
            double pctKey = 0;
            if (!both) {
                // one side not recorded: no change to show, and none is judged
            } else if (m.changed() && m.before != 0) {
                pctKey = 100.0 * change / std::abs(m.before);
                pct = QString::number(pctKey, 'f', 1) + QLatin1Char('%');
            } else if (m.changed()) {
                pct = QStringLiteral("new");
                pctKey = 1e300;
            }
            auto *p = new NumberItem(pct, std::abs(pctKey));
            const int v = m.verdict();
            if (v) {
                const QColor bg = v > 0 ? better : worse;
                c->setBackground(bg);
                p->setBackground(bg);
                c->setToolTip(v > 0 ? tr("better") : tr("worse"));
            }
            table_->setItem(row, ColChange, c);
            table_->setItem(row, ColPercent, p);
        }
    }
    table_->setSortingEnabled(true);
}

QString DifferencePanel::text() const
{
    std::vector<int> width(ColCount, 0);
    std::vector<QStringList> rows;
    QStringList head;
    for (int c = 0; c < ColCount; ++c)
        head << table_->horizontalHeaderItem(c)->text();
    rows.push_back(head);
    for (int r = 0; r < table_->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < ColCount; ++c)
            cells << (table_->item(r, c) ? table_->item(r, c)->text() : QString());
        rows.push_back(cells);
    }
    for (const QStringList &r : rows)
        for (int c = 0; c < ColCount; ++c)
            width[c] = std::max(width[c], static_cast<int>(r[c].size()));
    QString out = note_->text() + QLatin1Char('\n');
    for (const QStringList &r : rows) {
        QString line;
        for (int c = 0; c < ColCount; ++c)
            line += (c == ColMetric ? r[c].leftJustified(width[c]) : r[c].rightJustified(width[c])) +
                    (c + 1 < ColCount ? QStringLiteral("  ") : QString());
        out += line.trimmed() + QLatin1Char('\n');
    }
    return out;
}

} // namespace tickscope
