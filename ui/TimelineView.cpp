#include "TimelineView.h"

#include "LegendBar.h"
#include "TimelinePlot.h"
#include "ViewState.h"

#include "analysis/CpuList.h"
#include "analysis/TickReport.h"

#include <QAction>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QMenu>
#include <QScrollBar>
#include <QSettings>
#include <QVBoxLayout>

namespace tickscope {

TimelineView::TimelineView(ViewState *state, QWidget *parent) : QWidget(parent), state_(state)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto *row = new QHBoxLayout;
    plot_ = new TimelinePlot(state, this);
    scroll_ = new QScrollBar(Qt::Vertical, this);
    scroll_->setRange(0, 0);
    row->addWidget(plot_, 1);
    row->addWidget(scroll_);
    layout->addLayout(row, 1);
    legend_ = new LegendBar(this);
    layout->addWidget(legend_);
    connect(scroll_, &QScrollBar::valueChanged, plot_, &TimelinePlot::setScroll);
    connect(plot_, &TimelinePlot::scrollChanged, this, [this](int y, int max) {
        scroll_->setRange(0, max);
        scroll_->setPageStep(plot_->dataHeight());
        scroll_->setValue(y);
    });
    connect(plot_, &TimelinePlot::laneMenuRequested, this, &TimelineView::laneMenu);
    latencyThresholdNs_ =
        QSettings().value(QStringLiteral("timeline/latencyThresholdNs"), 100'000).toLongLong();

    auto add = [this](QList<QAction *> &list, const QString &text, const QKeySequence &key,
                      std::function<void()> f) { list << addAction(text, key, std::move(f)); };
    add(viewActions_, tr("Zoom &Undo"), QKeySequence(Qt::CTRL | Qt::Key_Z), [this] { state_->undoRange(); });
    add(viewActions_, tr("Zoom &Redo"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z),
        [this] { state_->redoRange(); });
    add(viewActions_, tr("Zoom to &Whole Trace"), QKeySequence(Qt::Key_0),
        [this] { state_->setRange(state_->boundsStart(), state_->boundsEnd()); });
    add(viewActions_, tr("Zoom to &Markers A–B"), QKeySequence(Qt::Key_M), [this] { zoomToMarkers(); });
    add(viewActions_, tr("Zoom to ftrace &Print Markers"), QKeySequence(Qt::Key_P),
        [this] { zoomToPrints(); });
    QAction *grid = addAction(tr("1/HZ &Grid"), QKeySequence(Qt::Key_G), [this] {});
    grid->setCheckable(true);
    connect(grid, &QAction::toggled, plot_, &TimelinePlot::setGridVisible);
    viewActions_ << grid;
    add(viewActions_, tr("Show CPUs…"), QKeySequence(), [this] { chooseCpus(); });
    add(viewActions_, tr("Show All CPUs"), QKeySequence(), [this] {
        std::vector<int> all;
        for (int c = 0; doc_.valid() && c < doc_.trace->cpuCount(); ++c)
            all.push_back(c);
        showCpus(all);
    });
    add(viewActions_, tr("Show nohz_full CPUs Only"), QKeySequence(), [this] {
        std::vector<int> full;
        for (int c = 0; doc_.valid() && c < doc_.trace->cpuCount(); ++c)
            if (doc_.analysis->isNohzFull(c)) full.push_back(c);
        if (!full.empty()) showCpus(full);
    });

    add(navigateActions_, tr("Next &Spurious Tick"), QKeySequence(Qt::Key_N),
        [this] { jump(JumpTarget::SpuriousTick, true); });
    add(navigateActions_, tr("Previous Spurious Tick"), QKeySequence(Qt::SHIFT | Qt::Key_N),
        [this] { jump(JumpTarget::SpuriousTick, false); });
    add(navigateActions_, tr("Next &Catch-up Softirq"), QKeySequence(Qt::Key_C),
        [this] { jump(JumpTarget::CatchupSoftirq, true); });
    add(navigateActions_, tr("Previous Catch-up Softirq"), QKeySequence(Qt::SHIFT | Qt::Key_C),
        [this] { jump(JumpTarget::CatchupSoftirq, false); });
    add(navigateActions_, tr("Next &Late Wakeup"), QKeySequence(Qt::Key_L),
        [this] { jump(JumpTarget::LateWakeup, true); });
    add(navigateActions_, tr("Previous Late Wakeup"), QKeySequence(Qt::SHIFT | Qt::Key_L),
        [this] { jump(JumpTarget::LateWakeup, false); });
    add(navigateActions_, tr("Wakeup Latency &Threshold…"), QKeySequence(), [this] {
        bool ok = false;
        const double us =
            QInputDialog::getDouble(this, tr("Late wakeups"), tr("Wakeup latency threshold (µs):"),
                                    static_cast<double>(latencyThresholdNs_) / 1000.0, 0, 1e6, 1, &ok);
        if (ok) setLatencyThresholdNs(static_cast<int64_t>(us * 1000));
    });
    add(navigateActions_, tr("Clear Markers"), QKeySequence(Qt::Key_Escape), [this] {
        state_->setMarkerA(std::nullopt);
        state_->setMarkerB(std::nullopt);
    });
}

QAction *TimelineView::addAction(const QString &text, const QKeySequence &key, std::function<void()> f)
{
    auto *a = new QAction(text, this);
    a->setShortcut(key);
    a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(a, &QAction::triggered, this, std::move(f));
    QWidget::addAction(a);
    return a;
}

void TimelineView::fillViewMenu(QMenu *menu)
{
    menu->addActions(viewActions_);
}

void TimelineView::fillNavigateMenu(QMenu *menu)
{
    menu->addActions(navigateActions_);
}

void TimelineView::setDocument(const Document &doc)
{
    doc_ = doc;
    plot_->setDocument(doc);
}

QWidget *TimelineView::legend() const
{
    return legend_;
}

QImage TimelineView::render(QSize size)
{
    return plot_->render(size);
}

void TimelineView::setLatencyThresholdNs(int64_t ns)
{
    latencyThresholdNs_ = ns;
    QSettings().setValue(QStringLiteral("timeline/latencyThresholdNs"), static_cast<qlonglong>(ns));
}

void TimelineView::jump(JumpTarget target, bool forward)
{
    if (!doc_.valid()) return;
    const EventRef sel = state_->selection();
    int64_t from = (state_->rangeStart() + state_->rangeEnd()) / 2;
    if (sel.valid() && sel.run == 0 && sel.cpu < doc_.trace->cpuCount() &&
        static_cast<size_t>(sel.index) < doc_.trace->cpu(sel.cpu).size())
        from = doc_.trace->cpu(sel.cpu).ts(static_cast<size_t>(sel.index));
    const auto hit = doc_.timeline->jump(target, state_->cpus(), from, forward, latencyThresholdNs_);
    if (!hit) return;
    const int64_t span = state_->rangeEnd() - state_->rangeStart();
    state_->setRange(hit->ts - span / 2, hit->ts + span - span / 2);
    state_->setSelection({hit->cpu, static_cast<int64_t>(hit->event)});
}

void TimelineView::zoomToMarkers()
{
    if (state_->markerA() && state_->markerB()) state_->setRange(*state_->markerA(), *state_->markerB());
}

void TimelineView::zoomToPrints()
{
    if (!doc_.valid()) return;
    if (const auto w = markerWindow(*doc_.trace, *doc_.analysis)) state_->setRange(w->first, w->second);
}

void TimelineView::showCpus(std::vector<int> cpus)
{
    state_->setCpus(std::move(cpus));
}

void TimelineView::moveCpu(int cpu, int delta)
{
    std::vector<int> cpus = state_->cpus();
    const auto it = std::find(cpus.begin(), cpus.end(), cpu);
    if (it == cpus.end()) return;
    const auto i = it - cpus.begin();
    const auto j = i + delta;
    if (j < 0 || j >= static_cast<long>(cpus.size())) return;
    std::swap(cpus[i], cpus[j]);
    state_->setCpus(cpus);
}

void TimelineView::chooseCpus()
{
    if (!doc_.valid()) return;
    bool ok = false;
    const QString text =
        QInputDialog::getText(this, tr("Show CPUs"), tr("CPUs (e.g. 0,2-3):"), QLineEdit::Normal,
                              QString::fromStdString(formatCpuList(state_->cpus())), &ok);
    if (!ok) return;
    const auto list = parseCpuList(text.toStdString());
    if (!list) return;
    std::vector<int> cpus;
    for (int c : *list)
        if (c < doc_.trace->cpuCount()) cpus.push_back(c);
    if (!cpus.empty()) showCpus(cpus);
}

void TimelineView::laneMenu(int cpu, QPoint globalPos)
{
    QMenu menu(this);
    if (cpu >= 0) {
        menu.addAction(tr("Hide CPU %1").arg(cpu), this, [this, cpu] {
            std::vector<int> cpus = state_->cpus();
            std::erase(cpus, cpu);
            if (!cpus.empty()) showCpus(cpus);
        });
        const bool c = plot_->collapsed(cpu);
        menu.addAction(c ? tr("Expand CPU %1").arg(cpu) : tr("Collapse CPU %1").arg(cpu), this,
                       [this, cpu, c] { plot_->setCollapsed(cpu, !c); });
        menu.addAction(tr("Move Up"), this, [this, cpu] { moveCpu(cpu, -1); });
        menu.addAction(tr("Move Down"), this, [this, cpu] { moveCpu(cpu, +1); });
        menu.addSeparator();
    }
    menu.addActions(viewActions_.mid(viewActions_.size() - 3));
    menu.exec(globalPos);
}

} // namespace tickscope
