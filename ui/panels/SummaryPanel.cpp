// SPDX-License-Identifier: GPL-3.0-or-later
#include "SummaryPanel.h"

#include "BackgroundJob.h"
#include "Timing.h"
#include "ViewState.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>
#include <optional>

namespace tickscope {

namespace {

QString us(int64_t ns)
{
    return QString::number(static_cast<double>(ns) / 1e3, 'f', 1);
}

QString seconds(int64_t ns)
{
    return QString::number(static_cast<double>(ns) / 1e9, 'f', 6);
}

QString dist(const Distribution &d)
{
    return d.count ? us(d.p50) + QLatin1Char('/') + us(d.p99) + QLatin1Char('/') + us(d.max)
                   : QStringLiteral("-");
}

struct Metric
{
    QString name;
    std::function<QString(const CpuReport &, const TickReport &)> text;
    QString tip;
    std::optional<Figure> figure = std::nullopt; // the evidence it needs (none: always known)
};

std::vector<Metric> metrics()
{
    auto n = [](uint64_t v) { return QString::number(v); };
    std::vector<Metric> m{
        {QStringLiteral("nohz_full"),
         [](const CpuReport &c, auto &) { return c.nohzFull ? QStringLiteral("yes") : QStringLiteral("no"); },
         QStringLiteral("Whether the CPU runs nohz_full (given, from the file, or inferred)")},
        {QStringLiteral("ticks"), [n](const CpuReport &c, auto &) { return n(c.ticks.total); },
         QStringLiteral("Periodic ticks")},
        {QStringLiteral("user"), [n](const CpuReport &c, auto &) { return n(c.ticks.user); },
         QStringLiteral("Ticks that interrupted user mode")},
        {QStringLiteral("kernel"), [n](const CpuReport &c, auto &) { return n(c.ticks.kernel); }, {}},
        {QStringLiteral("irq"), [n](const CpuReport &c, auto &) { return n(c.ticks.irq); }, {}},
        {QStringLiteral("idle"), [n](const CpuReport &c, auto &) { return n(c.ticks.idle); }, {}},
        {QStringLiteral("polling"), [n](const CpuReport &c, auto &) { return n(c.ticks.polling); },
         QStringLiteral("Ticks while polling idle")},
        {QStringLiteral("spurious"), [n](const CpuReport &c, auto &) { return n(c.ticks.spurious); },
         QStringLiteral("nohz_full CPUs: ticks in user mode with no tick dependency in force, and ticks "
                        "while polling idle")},
        {QStringLiteral("nohz wakeups"), [n](const CpuReport &c, auto &) { return n(c.ticks.nohzWakeups); },
         QStringLiteral("Expiries of the stopped tick")},
        {QStringLiteral("tick stopped"),
         [](const CpuReport &c, const TickReport &r) {
             const double span = r.to > r.from ? static_cast<double>(r.to - r.from) : 1.0;
             return seconds(c.tickStoppedNs) + QStringLiteral(" s (") +
                    QString::number(100.0 * static_cast<double>(c.tickStoppedNs) / span, 'f', 1) +
                    QStringLiteral("%)");
         },
         {}},
    };
    for (size_t b = 0; b < kDependencyNames.size(); ++b) {
        m.push_back({QStringLiteral("failed stops: ") + QLatin1String(kDependencyNames[b]),
                     [n, b](const CpuReport &c, auto &) { return n(c.failures[b]); },
                     QStringLiteral("tick_stop success=0 by the first dependency set")});
    }
    m.push_back({QStringLiteral("failed stops: other"),
                 [n](const CpuReport &c, auto &) { return n(c.failuresOther); },
                 {}});
    m.push_back({QStringLiteral("timer softirqs"),
                 [n](const CpuReport &c, auto &) { return n(c.timerSoftirq.count); },
                 {}});
    m.push_back({QStringLiteral("timer softirq max µs"),
                 [](const CpuReport &c, auto &) { return us(c.timerSoftirq.maxNs); },
                 {}});
    m.push_back({QStringLiteral("catch-ups"),
                 [n](const CpuReport &c, auto &) { return n(c.timerSoftirq.catchup); },
                 QStringLiteral("TIMER softirqs >= 50 µs with >= 80% outside the timers' callbacks")});
    m.push_back({QStringLiteral("hrtimer wakeups"),
                 [n](const CpuReport &c, auto &) { return n(c.wakeup.count); },
                 {}});
    m.push_back({QStringLiteral("lateness p50/p99/max µs"),
                 [](const CpuReport &c, auto &) { return dist(c.wakeup.lateness); },
                 QStringLiteral("hrtimer_wakeup expiries: now - expires")});
    m.push_back({QStringLiteral("latency p50/p99/max µs"),
                 [](const CpuReport &c, auto &) { return dist(c.wakeup.latency); },
                 QStringLiteral("hrtimer_wakeup expiry -> switch into the woken task")});
    const std::pair<const char *, Figure> needs[] = {
        {"ticks", Figure::Ticks},
        {"user", Figure::TickMode},
        {"kernel", Figure::TickMode},
        {"irq", Figure::Ticks},
        {"idle", Figure::TickIdle},
        {"polling", Figure::TickPolling},
        {"spurious", Figure::TickMode},
        {"nohz wakeups", Figure::NohzWakeups},
        {"tick stopped", Figure::TickStopped},
        {"timer softirqs", Figure::TimerSoftirqs},
        {"timer softirq max µs", Figure::TimerSoftirqs},
        {"catch-ups", Figure::Catchups},
        {"hrtimer wakeups", Figure::Wakeups},
        {"lateness p50/p99/max µs", Figure::WakeupLateness},
        {"latency p50/p99/max µs", Figure::WakeupLatency},
    };
    for (Metric &x : m) {
        for (const auto &[name, f] : needs)
            if (x.name == QString::fromUtf8(name)) x.figure = f;
        if (x.name.startsWith(QStringLiteral("failed stops"))) x.figure = Figure::FailedStops;
    }
    return m;
}

} // namespace

SummaryPanel::SummaryPanel(ViewState *state, QWidget *parent)
    : QWidget(parent), state_(state), whole_(new QCheckBox(tr("Whole trace"), this)),
      window_(new QLabel(this)), table_(new QTableWidget(this)), recompute_(this, 100, [this] { compute(); })
{
    whole_->setToolTip(tr("Summarise the whole trace instead of the visible range"));
    window_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    window_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // its text never widens the dock
    auto *bar = new QHBoxLayout;
    bar->addWidget(whole_);
    bar->addWidget(window_, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    layout->addWidget(table_, 1);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    connect(whole_, &QCheckBox::toggled, this, &SummaryPanel::compute);
    connect(state_, &ViewState::rangeChanged, this, &SummaryPanel::schedule);
    connect(state_, &ViewState::cpusChanged, this, &SummaryPanel::schedule);
    // A new document is summarised at once (the debounce is for a range being dragged or zoomed).
    connect(state_, &ViewState::documentReset, this, &SummaryPanel::compute);
}

void SummaryPanel::setDocument(const Document &doc)
{
    doc_ = doc;
    report_.reset();
    table_->clear();
    table_->setRowCount(0);
    table_->setColumnCount(0);
    window_->clear();
    recompute_.reset();
}

SummaryPanel::Inputs SummaryPanel::inputs() const
{
    Inputs in;
    in.cpus = state_->cpus();
    std::sort(in.cpus.begin(), in.cpus.end());
    in.whole = whole_->isChecked();
    if (!in.whole) {
        in.from = state_->rangeStart();
        in.to = state_->rangeEnd();
    }
    return in;
}

void SummaryPanel::schedule()
{
    recompute_.schedule(inputs());
}

void SummaryPanel::compute()
{
    if (!doc_.valid()) return;
    const Inputs in = inputs();
    const std::optional<uint64_t> gen = recompute_.start(in);
    if (!gen) return; // computed or being computed
    ReportOptions o;
    o.cpus = in.cpus;
    if (!in.whole) {
        o.from = in.from;
        o.to = in.to;
        o.windowSource = "window";
    }
    runInBackground(
        this,
        [trace = doc_.trace, analysis = doc_.analysis, memo = doc_.reports, o] {
            return memo->get(trace, analysis, o);
        },
        [this, gen = *gen](std::shared_ptr<const TickReport> r) {
            if (!recompute_.current(gen)) return;
            report_ = std::move(r);
            show(*report_);
            markTime("summary shown");
            emit updated();
        });
}

void SummaryPanel::show(const TickReport &r)
{
    const int64_t first = doc_.trace->startTs();
    window_->setText(tr("%1 .. %2 s (%3 s)%4")
                         .arg(seconds(r.from - first), seconds(r.to - first), seconds(r.to - r.from))
                         .arg(whole_->isChecked() ? tr(", the whole trace") : tr(", the visible range")));
    // The shown CPUs in the timeline's order, the nohz_full ones first: they are what the panel is
    // read for, and a narrow dock must not hide them behind a horizontal scroll.
    std::vector<const CpuReport *> cols;
    for (bool full : {true, false}) {
        for (int cpu : state_->cpus()) {
            for (const CpuReport &c : r.cpus) {
                if (c.cpu == cpu && c.nohzFull == full) cols.push_back(&c);
            }
        }
    }
    const std::vector<Metric> ms = metrics();
    // Sized to the contents once, after the fill: a header in ResizeToContents mode measures every
    // section again at each header change (a tooltip per row: rows x rows text layouts).
    for (QHeaderView *h : {table_->horizontalHeader(), table_->verticalHeader()})
        h->setSectionResizeMode(QHeaderView::Fixed);
    table_->clear();
    table_->setRowCount(static_cast<int>(ms.size()));
    table_->setColumnCount(static_cast<int>(cols.size()));
    QStringList rows, headers;
    for (const Metric &m : ms)
        rows << m.name;
    for (const CpuReport *c : cols)
        headers << tr("CPU %1").arg(c->cpu);
    table_->setVerticalHeaderLabels(rows);
    table_->setHorizontalHeaderLabels(headers);
    for (int i = 0; i < static_cast<int>(ms.size()); ++i) {
        table_->verticalHeaderItem(i)->setToolTip(ms[static_cast<size_t>(i)].tip);
        for (int j = 0; j < static_cast<int>(cols.size()); ++j) {
            const Metric &m = ms[static_cast<size_t>(i)];
            // A figure the trace does not record says so (never 0); an inferred one says from what.
            const FigureEvidence *e = m.figure ? &r.evidence.of(*m.figure) : nullptr;
            const bool missing = e && e->status == EvidenceStatus::NotRecorded;
            auto *item =
                new QTableWidgetItem(missing ? tr("not recorded") : m.text(*cols[static_cast<size_t>(j)], r));
            if (e && e->status == EvidenceStatus::Inferred) {
                item->setText(item->text() + tr(" (inferred)"));
                item->setToolTip(tr("Inferred from %1").arg(QString::fromStdString(e->basis)));
            } else if (missing) {
                item->setToolTip(tr("Not recorded: %1").arg(QString::fromStdString(e->basis)));
                item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
            }
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(i, j, item);
        }
    }
    for (QHeaderView *h : {table_->horizontalHeader(), table_->verticalHeader()})
        h->setSectionResizeMode(QHeaderView::ResizeToContents);
}

QString SummaryPanel::cell(const QString &metric, int cpu) const
{
    const QString header = tr("CPU %1").arg(cpu);
    for (int i = 0; i < table_->rowCount(); ++i) {
        if (table_->verticalHeaderItem(i)->text() != metric) continue;
        for (int j = 0; j < table_->columnCount(); ++j) {
            if (table_->horizontalHeaderItem(j)->text() == header) return table_->item(i, j)->text();
        }
    }
    return {};
}

} // namespace tickscope
