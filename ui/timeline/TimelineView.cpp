// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimelineView.h"

#include "BackgroundJob.h"
#include "CpuStrip.h"
#include "LegendBar.h"
#include "TimelinePlot.h"
#include "ViewState.h"

#include "analysis/CpuList.h"
#include "report/TickReport.h"

#include <QAction>
#include <QActionGroup>
#include <QCursor>
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
    strip_ = new CpuStrip(plot_, this);
    strip_->hide(); // until the lanes do not fit
    row->addWidget(plot_, 1);
    row->addWidget(strip_);
    row->addWidget(scroll_);
    layout->addLayout(row, 1);
    legend_ = new LegendBar(this);
    layout->addWidget(legend_);
    connect(scroll_, &QScrollBar::valueChanged, plot_, &TimelinePlot::setScroll);
    connect(plot_, &TimelinePlot::scrollChanged, this, [this](int y, int max) {
        strip_->setVisible(max > 0); // only when the lanes do not fit: then it shows them all
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
    // W/S/A/D (and +/-) work wherever the focus is in the window, but in a text field
    QAction *zoomIn = addAction(tr("Zoom &In"), QKeySequence(Qt::Key_W), [this] { plot_->zoomByKey(0.5); });
    zoomIn->setShortcuts({QKeySequence(Qt::Key_W), QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal)});
    viewActions_ << zoomIn;
    QAction *zoomOut = addAction(tr("Zoom &Out"), QKeySequence(Qt::Key_S), [this] { plot_->zoomByKey(2.0); });
    zoomOut->setShortcuts({QKeySequence(Qt::Key_S), QKeySequence(Qt::Key_Minus)});
    viewActions_ << zoomOut;
    add(viewActions_, tr("Pan &Left"), QKeySequence(Qt::Key_A), [this] { plot_->panByKey(-0.25); });
    add(viewActions_, tr("Pan Ri&ght"), QKeySequence(Qt::Key_D), [this] { plot_->panByKey(0.25); });
    add(viewActions_, tr("Zoom to &Whole Trace"), QKeySequence(Qt::Key_0),
        [this] { state_->setRange(state_->boundsStart(), state_->boundsEnd()); });
    add(viewActions_, tr("Zoom to &Markers A–B"), QKeySequence(Qt::Key_M), [this] { zoomToMarkers(); });
    add(viewActions_, tr("Zoom to ftrace &Print Markers"), QKeySequence(Qt::Key_P),
        [this] { zoomToPrints(); });
    QAction *grid = addAction(tr("1/HZ &Grid"), QKeySequence(Qt::Key_G), [] {});
    grid->setCheckable(true);
    connect(grid, &QAction::toggled, plot_, &TimelinePlot::setGridVisible);
    viewActions_ << grid;
    QAction *taskColours = addAction(tr("&Task Colours"), QKeySequence(Qt::Key_T), [] {});
    taskColours->setCheckable(true);
    taskColours->setToolTip(tr("Zoomed in: a strip of a stable colour per task name along the state row"));
    taskColours->setChecked(QSettings().value(QStringLiteral("timeline/taskColours"), false).toBool());
    plot_->setTaskColours(taskColours->isChecked());
    connect(taskColours, &QAction::toggled, this, [this](bool on) {
        QSettings().setValue(QStringLiteral("timeline/taskColours"), on);
        plot_->setTaskColours(on);
    });
    viewActions_ << taskColours;
    laneMenuActions_ = static_cast<int>(viewActions_.size());
    add(viewActions_, tr("Collapse All CPUs"), QKeySequence(), [this] { collapseAll(true); });
    add(viewActions_, tr("Expand All CPUs"), QKeySequence(), [this] { collapseAll(false); });
    add(viewActions_, tr("Expand CPUs with Findings"), QKeySequence(), [this] { expandCpusWithFindings(); });
    auto *sort = new QMenu(tr("Sort CPUs By"), this);
    const std::pair<QString, CpuOrder> orders[] = {
        {tr("CPU Number"), CpuOrder::Number},
        {tr("Spurious Ticks"), CpuOrder::SpuriousTicks},
        {tr("TIMER Catch-ups"), CpuOrder::Catchups},
        {tr("Least Time with the Tick Stopped"), CpuOrder::TickStopped},
        {tr("Worst Wakeup Latency"), CpuOrder::WakeupLatency},
        {tr("Group: Housekeeping, Isolated, nohz_full"), CpuOrder::Group}};
    for (const auto &[name, order] : orders)
        sort->addAction(name, this, [this, order = order] { sortCpus(order); });
    viewActions_ << sort->menuAction();
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

    auto spurious = [this] {
        return spuriousClass_ == SpuriousClass::User      ? JumpTarget::SpuriousUser
               : spuriousClass_ == SpuriousClass::Polling ? JumpTarget::SpuriousPolling
                                                          : JumpTarget::SpuriousTick;
    };
    add(navigateActions_, tr("Next &Spurious Tick"), QKeySequence(Qt::Key_N),
        [this, spurious] { jump(spurious(), true); });
    add(navigateActions_, tr("Previous Spurious Tick"), QKeySequence(Qt::SHIFT | Qt::Key_N),
        [this, spurious] { jump(spurious(), false); });
    auto *classes = new QActionGroup(this);
    const std::pair<QString, SpuriousClass> classNames[] = {
        {tr("Spurious Ticks: All"), SpuriousClass::All},
        {tr("Spurious Ticks: In User Mode"), SpuriousClass::User},
        {tr("Spurious Ticks: While Polling"), SpuriousClass::Polling}};
    for (const auto &named : classNames) {
        const SpuriousClass cls = named.second; // (clang 14 cannot capture a structured binding)
        QAction *a = addAction(named.first, QKeySequence(), [this, cls] { setSpuriousClass(cls); });
        a->setCheckable(true);
        a->setChecked(cls == SpuriousClass::All);
        classes->addAction(a);
        spuriousClassActions_ << a;
        navigateActions_ << a;
    }
    add(navigateActions_, tr("Next &Finding"), QKeySequence(Qt::Key_F), [this] { jumpToFinding(true); });
    add(navigateActions_, tr("Previous Finding"), QKeySequence(Qt::SHIFT | Qt::Key_F),
        [this] { jumpToFinding(false); });
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
    // the whole window: a key works after a click in a panel (text fields take their own keys first)
    a->setShortcutContext(Qt::WindowShortcut);
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
    legend_->setFunctions(doc_.valid() && doc_.trace->functions.timed());
    plot_->setDocument(doc);
    cpuReport_.reset();
    strip_->setReport(nullptr);
    const uint64_t gen = ++reportGeneration_;
    if (!doc_.valid()) return;
    runInBackground(
        this,
        [trace = doc_.trace, analysis = doc_.analysis, memo = doc_.reports] {
            return memo->get(trace, analysis, ReportOptions{});
        },
        [this, gen](std::shared_ptr<const TickReport> r) {
            if (gen != reportGeneration_) return;
            cpuReport_ = std::move(r);
            strip_->setReport(cpuReport_);
            emit cpuReportReady();
        });
}

bool TimelineView::sortCpus(CpuOrder order)
{
    if (!cpuReport_) return false;
    std::vector<const CpuReport *> by;
    for (const CpuReport &c : cpuReport_->cpus)
        if (c.cpu >= 0 && c.cpu < static_cast<int>(doc_.trace->cpuCount())) by.push_back(&c);
    auto worstLatency = [](const CpuReport *c) {
        return c->wakeup.latency.count ? c->wakeup.latency.max : -1;
    };
    // Worst first; ties keep the CPU order.
    std::stable_sort(by.begin(), by.end(), [&](const CpuReport *a, const CpuReport *b) {
        switch (order) {
        case CpuOrder::SpuriousTicks:
            return a->ticks.spurious > b->ticks.spurious;
        case CpuOrder::Catchups:
            return a->timerSoftirq.catchup > b->timerSoftirq.catchup;
        case CpuOrder::TickStopped:
            return a->tickStoppedShare() < b->tickStoppedShare();
        case CpuOrder::WakeupLatency:
            return worstLatency(a) > worstLatency(b);
        case CpuOrder::Group: // housekeeping, isolated, nohz_full (the enum's order)
            return doc_.analysis->group(a->cpu) < doc_.analysis->group(b->cpu);
        case CpuOrder::Number:
            break;
        }
        return false;
    });
    // The CPUs shown stay the ones shown, in the new order.
    const std::vector<int> shown = state_->cpus();
    std::vector<int> cpus;
    for (const CpuReport *c : by)
        if (std::find(shown.begin(), shown.end(), c->cpu) != shown.end()) cpus.push_back(c->cpu);
    if (order == CpuOrder::Number) std::sort(cpus.begin(), cpus.end());
    showCpus(cpus);
    return true;
}

void TimelineView::collapseAll(bool collapsed)
{
    for (int cpu : state_->cpus())
        plot_->setCollapsed(cpu, collapsed);
}

void TimelineView::expandCpusWithFindings()
{
    if (!findings_) return;
    std::vector<bool> with(doc_.valid() ? static_cast<size_t>(doc_.trace->cpuCount()) : 0, false);
    for (const Finding &f : *findings_)
        if (f.cpu >= 0 && static_cast<size_t>(f.cpu) < with.size()) with[static_cast<size_t>(f.cpu)] = true;
    for (int cpu : state_->cpus())
        plot_->setCollapsed(cpu, cpu < 0 || static_cast<size_t>(cpu) >= with.size() ||
                                     !with[static_cast<size_t>(cpu)]);
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
    emit latencyThresholdChanged(ns);
}

const Document *TimelineView::runDocument(int run) const
{
    if (run == 0) return doc_.valid() ? &doc_ : nullptr;
    const std::shared_ptr<const Comparison> &c = state_->comparison();
    return run == 1 && c && c->valid() ? &c->b : nullptr;
}

int64_t TimelineView::jumpFrom(int run) const
{
    const EventRef sel = state_->selection();
    const std::shared_ptr<const Comparison> &c = state_->comparison();
    int64_t from = (state_->rangeStart() + state_->rangeEnd()) / 2 + (run == 1 && c ? c->shift() : 0);
    const Document *d = runDocument(run);
    if (d && sel.valid() && sel.run == run && sel.cpu < d->trace->cpuCount() &&
        static_cast<size_t>(sel.index) < d->trace->cpu(sel.cpu).size())
        from = d->trace->cpu(sel.cpu).ts(static_cast<size_t>(sel.index));
    return from;
}

TimelineView::JumpScope TimelineView::jumpScope(std::optional<QPoint> cursor) const
{
    const QPoint pos = cursor ? *cursor : plot_->mapFromGlobal(QCursor::pos());
    const std::shared_ptr<const Comparison> &c = state_->comparison();
    const bool hasB = c && c->valid();
    int cpu = -1, run = 0;
    LaneRow row;
    if (plot_->rect().contains(pos) && plot_->geometry().hit(pos.y(), cpu, row, &run)) {
        // a B lane is shown only for a B CPU shown against an A CPU shown
        if (run == 1 && hasB) return {1, {cpu}};
        if (run == 0 && std::find(state_->cpus().begin(), state_->cpus().end(), cpu) != state_->cpus().end())
            return {0, {cpu}};
    }
    if (hasB && state_->selection().valid() && state_->selection().run == 1)
        return {1, c->cpusB(state_->cpus())};
    return {0, state_->cpus()};
}

void TimelineView::jump(JumpTarget target, bool forward)
{
    const JumpScope scope = jumpScope();
    const Document *d = runDocument(scope.run);
    if (!d) return;
    const auto hit = d->timeline->jump(target, scope.cpus, jumpFrom(scope.run), forward, latencyThresholdNs_);
    if (!hit) return;
    if (scope.run == 1)
        goToB(hit->cpu, hit->ts, false);
    else
        goTo(hit->cpu, hit->ts, false);
}

void TimelineView::setSpuriousClass(SpuriousClass c)
{
    spuriousClass_ = c;
    for (QAction *a : spuriousClassActions_)
        a->setChecked(a == spuriousClassActions_[static_cast<int>(c)]);
}

void TimelineView::jumpToFinding(bool forward)
{
    const JumpScope scope = jumpScope();
    const std::shared_ptr<const std::vector<Finding>> &findings = scope.run == 1 ? findingsB_ : findings_;
    if (!runDocument(scope.run) || !findings) return;
    const std::vector<int> &cpus = scope.cpus;
    const int64_t from = jumpFrom(scope.run);
    std::optional<std::pair<int64_t, int>> best; // (ts, cpu)
    for (const Finding &f : *findings) {
        if (std::find(cpus.begin(), cpus.end(), f.cpu) == cpus.end()) continue;
        if ((f.kind == FindingKind::SpuriousUser && spuriousClass_ == SpuriousClass::Polling) ||
            (f.kind == FindingKind::SpuriousPolling && spuriousClass_ == SpuriousClass::User))
            continue;
        auto it = forward ? std::upper_bound(f.at.begin(), f.at.end(), from)
                          : std::lower_bound(f.at.begin(), f.at.end(), from);
        if (!forward) {
            if (it == f.at.begin()) continue;
            --it;
        } else if (it == f.at.end()) {
            continue;
        }
        if (!best || (forward ? *it < best->first : *it > best->first)) best = {{*it, f.cpu}};
    }
    if (!best) return;
    if (scope.run == 1)
        goToB(best->second, best->first, false);
    else
        goTo(best->second, best->first, false);
}

void TimelineView::goTo(int cpu, int64_t ts, bool zoomIn)
{
    if (doc_.valid()) goToEvent(*doc_.trace, 0, cpu, ts, 0, zoomIn);
}

void TimelineView::goToB(int cpuB, int64_t tsB, bool zoomIn)
{
    const std::shared_ptr<const Comparison> &c = state_->comparison();
    if (c && c->valid()) goToEvent(*c->b.trace, 1, cpuB, tsB, c->shift(), zoomIn);
}

void TimelineView::goToEvent(const Trace &trace, int run, int cpu, int64_t ts, int64_t shift, bool zoomIn)
{
    if (cpu < 0 || cpu >= trace.cpuCount()) return;
    const int64_t at = ts - shift; // on A's axis
    int64_t span = state_->rangeEnd() - state_->rangeStart();
    if (zoomIn && span > 100'000'000) span = 10'000'000;
    state_->setRange(at - span / 2, at + span - span / 2);
    const CpuEvents &ev = trace.cpu(cpu);
    const size_t i = ev.indexRange(ts, ts).first;
    if (i < ev.size()) state_->setSelection({cpu, static_cast<int64_t>(i), run});
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
    menu.addActions(viewActions_.mid(laneMenuActions_));
    menu.exec(globalPos);
}

} // namespace tickscope
