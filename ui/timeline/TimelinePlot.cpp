// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimelinePlot.h"

#include "OnePaintBuffer.h"
#include "analysis/CpuList.h"
#include "report/Evidence.h"

#include "CpuLanePlottable.h"
#include "TimeAxisTicker.h"
#include "TimelineOverlay.h"
#include "TimelinePalette.h"
#include "ViewState.h"

#include "view/TimelinePick.h"

#include <QFileInfo>
#include <QRubberBand>
#include <QSvgGenerator>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tickscope {

TimelinePlot::TimelinePlot(ViewState *state, QWidget *parent) : QCustomPlot(parent), state_(state)
{
    setAutoAddPlottableToLegend(false);
    onePaintBuffer(this);
    setNoAntialiasingOnDrag(true);
    setFocusPolicy(Qt::StrongFocus);
    axisRect()->setAutoMargins(QCP::msNone);
    axisRect()->setMargins(QMargins(kLeftMargin, kTopMargin, kRightMargin, kBottomMargin));
    xAxis->setVisible(false);
    yAxis->setVisible(false);
    xAxis->grid()->setVisible(false);
    yAxis->grid()->setVisible(false);
    xAxis2->setVisible(true);
    xAxis2->setTicker(QSharedPointer<TimeAxisTicker>::create());
    xAxis2->setTickLabelPadding(2);
    yAxis->setRange(0, 1);
    band_ = new QRubberBand(QRubberBand::Rectangle, this);
    connect(state_, &ViewState::rangeChanged, this, [this] {
        syncRange();
        replot(rpQueuedReplot);
    });
    connect(state_, &ViewState::markersChanged, this, [this] { replot(rpQueuedReplot); });
    connect(this, &QCustomPlot::beforeReplot, this, [this] { primeSummaries(); });
    connect(state_, &ViewState::selectionChanged, this, [this] { showSelection(); });
    connect(state_, &ViewState::cpusChanged, this, [this] { rebuild(); });
    connect(state_, &ViewState::comparisonChanged, this, [this] { rebuild(); });
}

void TimelinePlot::setDocument(const Document &doc)
{
    doc_ = doc;
    collapsed_.assign(doc_.valid() ? static_cast<size_t>(doc_.trace->cpuCount()) : 0, false);
    scroll_ = 0;
    rebuild();
}

void TimelinePlot::rebuild()
{
    clearPlottables();
    overlay_ = nullptr;
    summaries_.setLanes({});
    lanes_.clear();
    if (doc_.valid()) {
        const Comparison *cmp = comparison();
        origin_ = cmp ? cmp->zeroA : doc_.trace->startTs();
        std::vector<LaneSummaries::Source> sources;
        std::vector<CpuLanePlottable *> plottables;
        std::vector<size_t> weights; // a lane's events: what its column summaries cost, roughly
        // (what keeps each run's index alive for the lanes' summaries)
        const std::shared_ptr<const void> keep[2] = {
            std::make_shared<const Document>(doc_), cmp ? std::make_shared<const Document>(cmp->b) : nullptr};
        auto addLane = [&](const Document &d, int cpu, int run, int64_t origin, bool groupEnd, int groupCpu) {
            CpuLanePlottable::Spec spec{d.timeline.get(),       cpu, run, sources.size(), origin,
                                        d.analysis->group(cpu), {},  {}};
            spec.taskColours = taskColours_;
            // The tick row's evidence: what the row can show of this run's trace.
            const Evidence &ev = *d.evidence;
            const FigureEvidence &t = ev.of(Figure::Ticks);
            if (t.status == EvidenceStatus::NotRecorded)
                spec.tickNotRecorded = QString::fromStdString(t.basis);
            if (t.status == EvidenceStatus::Inferred) spec.tickInferred = QString::fromStdString(t.basis);
            spec.modeNotRecorded = !ev.modesRecorded;
            if (cmp) {
                spec.runTag = run == 0 ? QStringLiteral("A") : QStringLiteral("B");
                spec.runTint = palette::run(run);
            }
            plottables.push_back(
                new CpuLanePlottable(xAxis2, yAxis, std::move(spec), &geometry_, &summaries_));
            weights.push_back(d.trace->cpu(cpu).size());
            sources.push_back({d.timeline.get(), cpu, origin, keep[run]});
            lanes_.push_back({cpu, collapsed(groupCpu), run, groupEnd, 0, 0, d.trace->functions.timed(), {}});
        };
        std::vector<int> shown;
        for (int cpu : state_->cpus())
            if (cpu >= 0 && cpu < doc_.timeline->cpuCount()) shown.push_back(cpu);
        const std::vector<QString> headers = groupHeaders(shown);
        for (size_t k = 0; k < shown.size(); ++k) {
            const int cpu = shown[k];
            const int cpuB = cmp ? cmp->cpuB(cpu) : -1;
            addLane(doc_, cpu, 0, origin_, cpuB < 0, cpu);
            lanes_[lanes_.size() - 1].header = headers[k];
            if (cpuB >= 0) addLane(cmp->b, cpuB, 1, cmp->zeroB, true, cpu);
        }
        // The lanes are drawn lightest first (each paints inside its own rows, so the order shows nowhere):
        // a repaint draws the quiet CPUs while the helpers summarize the busy ones, and the GUI thread ends
        // on one busy lane to draw, not on a run of quiet ones it draws alone after the helpers are done.
        std::vector<size_t> order(plottables.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t x, size_t y) { return weights[x] < weights[y]; });
        for (size_t k : order)
            plottables[k]->drawAfterTheOthers();
        summaries_.setLanes(std::move(sources), std::move(order));
        overlay_ = new TimelineOverlay(xAxis2, yAxis, state_, doc_.timeline.get(), origin_, &geometry_,
                                       QString::fromStdString(doc_.title));
        overlay_->setGridVisible(grid_);
    }
    relayout(size());
    setScroll(scroll_); // the scroll range follows the new lanes
    syncRange();
    replot(rpQueuedReplot);
}

std::vector<QString> TimelinePlot::groupHeaders(const std::vector<int> &cpus) const
{
    // Headers only where they read as sections: two groups or more, each in one run of lanes (the CPU
    // number order of a machine booted with nohz_full=8-127, or the lanes sorted by group); lanes sorted
    // by a figure mix the groups, and a header per lane would say nothing.
    std::vector<QString> out(cpus.size());
    const TickAnalysis &a = *doc_.analysis;
    std::vector<std::pair<size_t, size_t>> runs; // [first, last] of each run of one group
    for (size_t k = 0; k < cpus.size(); ++k) {
        if (k == 0 || a.group(cpus[k]) != a.group(cpus[k - 1]))
            runs.push_back({k, k});
        else
            runs.back().second = k;
    }
    std::vector<CpuGroup> seen;
    for (const auto &r : runs) {
        const CpuGroup g = a.group(cpus[r.first]);
        if (std::find(seen.begin(), seen.end(), g) != seen.end()) return out; // a group in two places
        seen.push_back(g);
    }
    if (seen.size() < 2) return out;
    for (const auto &[first, last] : runs) {
        std::vector<int> members(cpus.begin() + static_cast<std::ptrdiff_t>(first),
                                 cpus.begin() + static_cast<std::ptrdiff_t>(last) + 1);
        std::sort(members.begin(), members.end());
        const std::string name(cpuGroupName(a.group(cpus[first])));
        out[first] = QStringLiteral("%1 · %2 %3: %4")
                         .arg(QString::fromStdString(name))
                         .arg(members.size())
                         .arg(members.size() == 1 ? tr("CPU") : tr("CPUs"))
                         .arg(QString::fromStdString(formatCpuList(members)));
    }
    return out;
}

void TimelinePlot::relayout(QSize size)
{
    geometry_.left = kLeftMargin;
    geometry_.right = size.width() - kRightMargin;
    geometry_.layout(lanes_, kTopMargin + 4, scroll_, size.height() - kTopMargin - kBottomMargin - 8);
    std::vector<bool> visible, collapsed; // the slots are the lanes' order
    for (const LaneGeometry::Lane &l : geometry_.lanes) {
        visible.push_back(l.top + l.height > kTopMargin && l.top < size.height() - kBottomMargin);
        collapsed.push_back(l.collapsed);
    }
    summaries_.setVisible(std::move(visible));
    summaries_.setCollapsed(std::move(collapsed));
}

const Comparison *TimelinePlot::comparison() const
{
    const auto &c = state_->comparison();
    return c && c->valid() && doc_.valid() ? c.get() : nullptr;
}

const Document *TimelinePlot::run(int r, int64_t &zero) const
{
    if (!doc_.valid()) return nullptr;
    if (r == 0) {
        zero = origin_;
        return &doc_;
    }
    const Comparison *cmp = comparison();
    if (r != 1 || !cmp) return nullptr;
    zero = cmp->zeroB;
    return &cmp->b;
}

double TimelinePlot::xOfRun(int r, int64_t t) const
{
    int64_t zero = 0;
    if (!run(r, zero)) return -1;
    return xOf(t - zero + origin_);
}

int TimelinePlot::dataHeight() const
{
    return height() - kTopMargin - kBottomMargin;
}

void TimelinePlot::setScroll(int y)
{
    const int max = std::max(0, geometry_.contentHeight + 8 - dataHeight());
    y = std::clamp(y, 0, max);
    if (y != scroll_) {
        scroll_ = y;
        relayout(size());
        replot(rpQueuedReplot);
    }
    emit scrollChanged(scroll_, max);
}

void TimelinePlot::syncRange()
{
    if (!doc_.valid()) return;
    xAxis2->setRange(static_cast<double>(state_->rangeStart() - origin_),
                     static_cast<double>(state_->rangeEnd() - origin_));
}

QImage TimelinePlot::render(QSize size)
{
    if (size.isEmpty()) size = this->size();
    // Reuse the last image when nobody else holds it: a fresh 8 MB image costs page faults on every paint.
    if (image_.size() != size || !image_.isDetached())
        image_ = QImage(size, QImage::Format_ARGB32_Premultiplied);
    QImage &img = image_;
    // toPainter fills the whole image with the plot's background first: an opaque one (the default white)
    // leaves nothing of the last paint, and a fill here too would write the image's 8 MB twice per paint.
    if (mBackgroundBrush.style() != Qt::SolidPattern || !mBackgroundBrush.isOpaque()) img.fill(Qt::white);
    QCPPainter painter(&img);
    paintTo(&painter, size);
    painter.end();
    return img;
}

LaneGeometry TimelinePlot::geometryFor(QSize size)
{
    relayout(size);
    LaneGeometry g = geometry_;
    relayout(this->size());
    return g;
}

void TimelinePlot::primeSummaries()
{
    if (!doc_.valid()) return;
    // What the lanes will ask for (CpuLanePlottable::draw): the axis's range, the data area's width as laid
    // out (the axis rect's).
    const QCPRange r = xAxis2->range();
    summaries_.prime(std::llround(r.lower), std::llround(r.upper), geometry_.right - geometry_.left);
}

void TimelinePlot::paintTo(QCPPainter *painter, QSize size)
{
    relayout(size);
    syncRange();
    primeSummaries();
    toPainter(painter, size.width(), size.height());
    relayout(this->size());
}

bool TimelinePlot::exportTo(const QString &path)
{
    relayout(size());
    syncRange();
    if (path.endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive))
        return savePdf(path, width(), height(), QCP::epNoCosmetic, QStringLiteral("tickscope"));
    if (path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive)) {
        // The same plottables painted into SVG: lanes as shapes, labels and axis text as text.
        if (!QFileInfo(QFileInfo(path).absolutePath()).isWritable()) return false;
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size());
        svg.setViewBox(QRect(QPoint(0, 0), size()));
        svg.setTitle(QStringLiteral("tickscope"));
        QCPPainter painter;
        if (!painter.begin(&svg)) return false;
        toPainter(&painter, width(), height());
        painter.end();
        return QFileInfo(path).size() > 0;
    }
    return render().save(path);
}

void TimelinePlot::invalidateSummaries()
{
    summaries_.invalidate();
}

void TimelinePlot::setCollapsed(int cpu, bool c)
{
    if (cpu < 0 || cpu >= static_cast<int>(collapsed_.size())) return;
    collapsed_[cpu] = c;
    // A CPU's group collapses together: its lanes follow A's lane of that CPU.
    int groupCpu = -1;
    for (LaneGeometry::Lane &l : lanes_) {
        if (l.run == 0) groupCpu = l.cpu;
        if (groupCpu == cpu) l.collapsed = c;
    }
    relayout(size());
    setScroll(scroll_);
    replot(rpQueuedReplot);
}

bool TimelinePlot::collapsed(int cpu) const
{
    return cpu >= 0 && cpu < static_cast<int>(collapsed_.size()) && collapsed_[cpu];
}

void TimelinePlot::setTaskColours(bool on)
{
    if (on == taskColours_) return;
    taskColours_ = on;
    rebuild();
}

void TimelinePlot::setGridVisible(bool on)
{
    grid_ = on;
    if (overlay_) overlay_->setGridVisible(on);
    replot(rpQueuedReplot);
}

bool TimelinePlot::gridVisible() const
{
    return grid_;
}

int64_t TimelinePlot::timeAt(double x) const
{
    const double w = std::max(1, geometry_.right - geometry_.left);
    const double span = static_cast<double>(state_->rangeEnd() - state_->rangeStart());
    return state_->rangeStart() + std::llround((x - geometry_.left) * span / w);
}

double TimelinePlot::xOf(int64_t t) const
{
    const double w = std::max(1, geometry_.right - geometry_.left);
    const double span = static_cast<double>(state_->rangeEnd() - state_->rangeStart());
    return geometry_.left + static_cast<double>(t - state_->rangeStart()) * w / span;
}

void TimelinePlot::resizeEvent(QResizeEvent *e)
{
    QCustomPlot::resizeEvent(e);
    relayout(e->size());
    setScroll(scroll_);
}

void TimelinePlot::zoomAround(int64_t t, double factor, bool recordUndo)
{
    const int64_t s = state_->rangeStart(), e = state_->rangeEnd();
    const int64_t start = t - std::llround(static_cast<double>(t - s) * factor);
    const int64_t span =
        std::max<int64_t>(ViewState::kMinSpan, std::llround(static_cast<double>(e - s) * factor));
    state_->setRange(start, start + span, recordUndo);
}

void TimelinePlot::pan(double fraction)
{
    const int64_t s = state_->rangeStart(), e = state_->rangeEnd();
    const auto d = static_cast<int64_t>(std::llround(static_cast<double>(e - s) * fraction));
    state_->setRange(s + d, e + d);
}

void TimelinePlot::wheelEvent(QWheelEvent *e)
{
    const double steps = e->angleDelta().y() / 120.0;
    if (e->modifiers() & Qt::ShiftModifier) {
        setScroll(scroll_ - static_cast<int>(steps * 40));
    } else if (doc_.valid() && steps != 0) {
        // One undo step per wheel gesture, not per notch.
        const bool undo = !lastWheel_.isValid() || lastWheel_.elapsed() > 500;
        lastWheel_.restart();
        zoomAround(timeAt(e->position().x()), std::pow(0.8, steps), undo);
    }
    e->accept();
}

void TimelinePlot::mousePressEvent(QMouseEvent *e)
{
    setFocus();
    if (e->button() != Qt::LeftButton || !doc_.valid()) return;
    pressPos_ = e->pos();
    pressStart_ = state_->rangeStart();
    pressEnd_ = state_->rangeEnd();
    drag_ = (e->modifiers() & Qt::ShiftModifier) && !(e->modifiers() & Qt::ControlModifier) ? Drag::Box
                                                                                            : Drag::Pending;
    if (drag_ == Drag::Box) band_->setGeometry(QRect(pressPos_, QSize(1, height())));
    int cpu = -1, run = 0;
    LaneRow row;
    if ((e->modifiers() & Qt::ControlModifier) && !(e->modifiers() & Qt::ShiftModifier) && comparison() &&
        geometry_.hit(e->pos().y(), cpu, row, &run) && run == 1) {
        drag_ = Drag::ShiftB;
        pressZeroB_ = comparison()->zeroB;
    }
}

void TimelinePlot::mouseMoveEvent(QMouseEvent *e)
{
    if (drag_ == Drag::Box) {
        band_->setGeometry(QRect(QPoint(std::min(pressPos_.x(), e->pos().x()), kTopMargin),
                                 QPoint(std::max(pressPos_.x(), e->pos().x()), height() - kBottomMargin)));
        band_->show();
        return;
    }
    if (drag_ == Drag::ShiftB) {
        // B's lanes follow the pointer: B's time under it stays under it.
        const Comparison *cmp = comparison();
        if (!cmp) return;
        const double w = std::max(1, geometry_.right - geometry_.left);
        const auto dt = static_cast<int64_t>(
            std::llround((e->pos().x() - pressPos_.x()) * static_cast<double>(pressEnd_ - pressStart_) / w));
        auto c = std::make_shared<Comparison>(*cmp);
        c->zeroB = pressZeroB_ - dt;
        c->how = "offset (dragged)";
        state_->setComparison(std::move(c), true);
        return;
    }
    if (drag_ == Drag::Pending && (e->pos() - pressPos_).manhattanLength() > 3) drag_ = Drag::Pan;
    if (drag_ != Drag::Pan) return;
    const double w = std::max(1, geometry_.right - geometry_.left);
    const auto dt = static_cast<int64_t>(
        std::llround(-(e->pos().x() - pressPos_.x()) * static_cast<double>(pressEnd_ - pressStart_) / w));
    // The drag is one undo step: the range before it is pushed once, at its first move.
    const bool first = state_->rangeStart() == pressStart_ && state_->rangeEnd() == pressEnd_;
    state_->setRange(pressStart_ + dt, pressEnd_ + dt, first);
}

void TimelinePlot::mouseReleaseEvent(QMouseEvent *e)
{
    const Drag d = drag_;
    drag_ = Drag::None;
    band_->hide();
    if (e->button() != Qt::LeftButton || !doc_.valid()) return;
    if (d == Drag::Box) {
        if (std::abs(e->pos().x() - pressPos_.x()) > 3)
            state_->setRange(timeAt(pressPos_.x()), timeAt(e->pos().x()));
        return;
    }
    if (d == Drag::ShiftB && (e->pos() - pressPos_).manhattanLength() > 3) return;
    if (d != Drag::Pending && d != Drag::ShiftB) return;
    const int64_t t = timeAt(e->pos().x());
    if ((e->modifiers() & Qt::ControlModifier) && (e->modifiers() & Qt::ShiftModifier))
        state_->setMarkerB(t);
    else if (e->modifiers() & Qt::ControlModifier)
        state_->setMarkerA(t);
    else
        selectAt(e->pos());
}

TimelinePickResult TimelinePlot::pickAt(QPoint pos, int &run) const
{
    int cpu = -1;
    LaneRow row = LaneRow::State;
    int64_t zero = 0;
    const Document *d = nullptr;
    if (pos.x() < geometry_.left || !geometry_.hit(pos.y(), cpu, row, &run) || !(d = this->run(run, zero)))
        return {};
    const int64_t tol = std::max<int64_t>(1, timeAt(pos.x() + 4) - timeAt(pos.x()));
    return pickEvent(*d->timeline, cpu, static_cast<TimelineRow>(row), timeAt(pos.x()) - origin_ + zero, tol,
                     d->evidence->modesRecorded);
}

void TimelinePlot::selectAt(QPoint pos)
{
    int run = 0;
    const TimelinePickResult r = pickAt(pos, run);
    state_->setSelection(r.found ? EventRef{r.cpu, static_cast<int64_t>(r.event), run} : EventRef{});
}

void TimelinePlot::showSelection()
{
    const EventRef sel = state_->selection();
    int64_t zero = 0;
    const Document *d = sel.valid() ? run(sel.run, zero) : nullptr;
    if (d && sel.cpu < d->trace->cpuCount() &&
        static_cast<size_t>(sel.index) < d->trace->cpu(sel.cpu).size()) {
        const int64_t ts = d->trace->cpu(sel.cpu).ts(static_cast<size_t>(sel.index)) - zero + origin_;
        const int64_t s = state_->rangeStart(), e = state_->rangeEnd();
        if (ts < s || ts > e) state_->setRange(ts - (e - s) / 2, ts + (e - s) - (e - s) / 2);
        if (const LaneGeometry::Lane *lane = geometry_.laneOf(sel.cpu, sel.run)) {
            if (lane->top < kTopMargin || lane->top + lane->height > height() - kBottomMargin)
                setScroll(lane->top + scroll_ - kTopMargin - 4);
        }
    }
    replot(rpQueuedReplot);
}

void TimelinePlot::zoomByKey(double factor)
{
    if (!doc_.valid()) return;
    const QPoint mouse = mapFromGlobal(QCursor::pos());
    const bool mouseIn = rect().contains(mouse) && mouse.x() >= geometry_.left && mouse.x() < geometry_.right;
    zoomAround(mouseIn ? timeAt(mouse.x()) : (state_->rangeStart() + state_->rangeEnd()) / 2, factor, true);
}

void TimelinePlot::keyPressEvent(QKeyEvent *e)
{
    if (!doc_.valid()) return QCustomPlot::keyPressEvent(e);
    const int64_t span = state_->rangeEnd() - state_->rangeStart();
    switch (e->key()) {
    case Qt::Key_W:
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomByKey(0.5);
        break;
    case Qt::Key_S:
    case Qt::Key_Minus:
        zoomByKey(2.0);
        break;
    case Qt::Key_A:
        pan(-0.25);
        break;
    case Qt::Key_D:
        pan(0.25);
        break;
    case Qt::Key_Home:
        state_->setRange(state_->boundsStart(), state_->boundsStart() + span);
        break;
    case Qt::Key_End:
        state_->setRange(state_->boundsEnd() - span, state_->boundsEnd());
        break;
    default:
        QCustomPlot::keyPressEvent(e);
        return;
    }
    e->accept();
}

void TimelinePlot::contextMenuEvent(QContextMenuEvent *e)
{
    int cpu = -1;
    LaneRow row;
    if (!geometry_.hit(e->pos().y(), cpu, row)) cpu = -1;
    emit laneMenuRequested(cpu, e->globalPos());
}

bool TimelinePlot::event(QEvent *e)
{
    if (e->type() == QEvent::ToolTip && doc_.valid()) {
        auto *h = static_cast<QHelpEvent *>(e);
        int run = 0;
        const TimelinePickResult r = pickAt(h->pos(), run);
        int cpu = -1;
        LaneRow row = LaneRow::State;
        int64_t zero = 0;
        const Document *d = nullptr;
        if (r.text.empty() && h->pos().x() >= geometry_.left && geometry_.hit(h->pos().y(), cpu, row, &run) &&
            row == LaneRow::Tick && (d = this->run(run, zero))) {
            // the tick row says what it is drawn from, or why it is empty
            const FigureEvidence &t = d->evidence->of(Figure::Ticks),
                                 &s = d->evidence->of(Figure::TickStopped);
            QString text;
            if (t.status == EvidenceStatus::NotRecorded)
                text = tr("Ticks not recorded: %1").arg(QString::fromStdString(t.basis));
            else if (t.status == EvidenceStatus::Inferred)
                text = tr("Ticks inferred from %1").arg(QString::fromStdString(t.basis));
            if (s.status == EvidenceStatus::Inferred)
                text += tr("\nTick running/stopped inferred from %1").arg(QString::fromStdString(s.basis));
            else if (s.status == EvidenceStatus::NotRecorded && t.status != EvidenceStatus::NotRecorded)
                text += tr("\nTick running/stopped not recorded: %1").arg(QString::fromStdString(s.basis));
            if (!text.isEmpty()) {
                QToolTip::showText(h->globalPos(), text.trimmed(), this);
                return true;
            }
        }
        if (!r.text.empty()) {
            const Comparison *cmp = comparison();
            const QString who = !cmp ? QString()
                                : run == 0
                                    ? QStringLiteral("A: %1\n").arg(QString::fromStdString(doc_.title))
                                    : QStringLiteral("B: %1\n").arg(QString::fromStdString(cmp->b.title));
            QToolTip::showText(h->globalPos(), who + QString::fromStdString(r.text), this);
            return true;
        }
        QToolTip::hideText();
        return true;
    }
    return QCustomPlot::event(e);
}

} // namespace tickscope
