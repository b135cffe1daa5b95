// SPDX-License-Identifier: GPL-3.0-or-later
#include "CpuStrip.h"

#include "TimelinePalette.h"
#include "TimelinePlot.h"

#include "report/TickReport.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace tickscope {

namespace {
// A count's strength against the largest: log scale, at least faint when nonzero.
int alphaOf(uint64_t n, uint64_t max)
{
    if (!n || !max) return 0;
    return 70 + static_cast<int>(185.0 * std::log1p(static_cast<double>(n)) /
                                 std::log1p(static_cast<double>(max)));
}
} // namespace

CpuStrip::CpuStrip(TimelinePlot *plot, QWidget *parent) : QWidget(parent), plot_(plot)
{
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
    setToolTip(tr("CPUs: spurious ticks (S), TIMER catch-ups (C), tick stopped (T), worst wakeup latency "
                  "(L) over the whole trace. Click to scroll to a CPU."));
    connect(plot_, &QCustomPlot::afterReplot, this, qOverload<>(&QWidget::update));
}

void CpuStrip::setReport(std::shared_ptr<const TickReport> report)
{
    report_ = std::move(report);
    index_.clear();
    maxSpurious_ = maxCatchups_ = 0;
    if (report_) {
        for (size_t i = 0; i < report_->cpus.size(); ++i) {
            const CpuReport &c = report_->cpus[i];
            if (c.cpu < 0) continue;
            if (index_.size() <= static_cast<size_t>(c.cpu))
                index_.resize(static_cast<size_t>(c.cpu) + 1, -1);
            index_[static_cast<size_t>(c.cpu)] = static_cast<int>(i);
            maxSpurious_ = std::max(maxSpurious_, c.ticks.spurious);
            maxCatchups_ = std::max(maxCatchups_, c.timerSoftirq.catchup);
        }
    }
    update();
}

const CpuReport *CpuStrip::figures(int cpu) const
{
    if (!report_ || cpu < 0 || static_cast<size_t>(cpu) >= index_.size() ||
        index_[static_cast<size_t>(cpu)] < 0)
        return nullptr;
    return &report_->cpus[static_cast<size_t>(index_[static_cast<size_t>(cpu)])];
}

std::vector<CpuStrip::Row> CpuStrip::rows() const
{
    std::vector<Row> out;
    const LaneGeometry &g = plot_->geometry();
    const int top = TimelinePlot::kTopMargin + 4; // where the first lane starts, unscrolled
    const int avail = height() - top;
    if (g.lanes.empty() || avail <= 0) return out;
    // Beside the lanes while they fit; else the whole content squeezed into the strip.
    const double scale = g.contentHeight > avail ? static_cast<double>(avail) / g.contentHeight : 1.0;
    for (const LaneGeometry::Lane &l : g.lanes) {
        if (l.run != 0) continue;
        const int y = l.top + plot_->scroll() - top; // in the content
        const int y0 = top + static_cast<int>(std::floor(y * scale));
        const int y1 = std::max(y0 + 1, top + static_cast<int>(std::floor((y + l.height) * scale)));
        out.push_back({l.cpu, y0, y1});
    }
    return out;
}

int CpuStrip::cpuAt(int y) const
{
    for (const Row &r : rows())
        if (y >= r.y0 && y < r.y1) return r.cpu;
    return -1;
}

bool CpuStrip::scrollTo(int cpu)
{
    const LaneGeometry::Lane *l = plot_->geometry().laneOf(cpu);
    if (!l) return false;
    plot_->setScroll(l->top + plot_->scroll() - (TimelinePlot::kTopMargin + 4));
    return true;
}

void CpuStrip::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    QFont f = font();
    f.setPixelSize(9);
    p.setFont(f);
    p.setPen(palette().color(QPalette::WindowText));
    const char *heads[kCells] = {"S", "C", "T", "L"};
    for (int k = 0; k < kCells; ++k)
        p.drawText(QRect(2 + k * kCell, 4, kCell, 14), Qt::AlignCenter, QString::fromLatin1(heads[k]));
    const std::vector<Row> rs = rows();
    for (const Row &r : rs) {
        const CpuReport *c = figures(r.cpu);
        if (!c) continue;
        const int h = std::max(1, r.y1 - r.y0 - (r.y1 - r.y0 > 4 ? 1 : 0));
        const Evidence &ev = report_->evidence;
        auto cell = [&](int k, QColor colour, Figure needs) {
            const QRect box(2 + k * kCell, r.y0, kCell - 1, h);
            if (!ev.recorded(needs)) // not recorded: hatched, never an empty (zero) cell
                p.fillRect(box, QBrush(palette().color(QPalette::Mid), Qt::BDiagPattern));
            else if (colour.alpha())
                p.fillRect(box, colour);
        };
        QColor s = palette::spurious();
        s.setAlpha(alphaOf(c->ticks.spurious, maxSpurious_));
        cell(0, s, Figure::TickMode);
        QColor q = palette::catchup();
        q.setAlpha(alphaOf(c->timerSoftirq.catchup, maxCatchups_));
        cell(1, q, Figure::Catchups);
        QColor t = palette::tickStopped();
        t.setAlpha(static_cast<int>(std::lround(255 * std::clamp(c->tickStoppedShare(), 0.0, 1.0))));
        cell(2, t, Figure::TickStopped);
        cell(3,
             c->wakeup.latency.count ? palette::lateness(static_cast<int32_t>(
                                           std::min<int64_t>(c->wakeup.latency.max, INT32_MAX)))
                                     : QColor(Qt::transparent),
             Figure::WakeupLatency);
    }
    // the lanes in view
    if (!rs.empty() && plot_->contentHeight() > plot_->dataHeight()) {
        const int top = TimelinePlot::kTopMargin + 4, avail = height() - top;
        const double scale = static_cast<double>(avail) / plot_->contentHeight();
        const int y0 = top + static_cast<int>(plot_->scroll() * scale);
        const int y1 = top + static_cast<int>((plot_->scroll() + plot_->dataHeight()) * scale);
        p.setPen(QPen(palette().color(QPalette::Highlight), 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRect(0, y0, width() - 1, std::max(2, y1 - y0)));
    }
}

void CpuStrip::mousePressEvent(QMouseEvent *e)
{
    const int cpu = cpuAt(e->pos().y());
    if (cpu < 0 || !scrollTo(cpu)) return;
    emit cpuClicked(cpu);
}

bool CpuStrip::event(QEvent *e)
{
    if (e->type() == QEvent::ToolTip) {
        auto *h = static_cast<QHelpEvent *>(e);
        const int cpu = cpuAt(h->pos().y());
        const CpuReport *c = figures(cpu);
        if (!c) return QWidget::event(e);
        const Evidence &ev = report_->evidence;
        const QString nr = tr("not recorded");
        const auto known = [&](Figure f, const QString &v) {
            return !ev.recorded(f) ? nr : ev.inferred(f) ? v + tr(" (inferred)") : v;
        };
        const double share = 100.0 * c->tickStoppedShare();
        QToolTip::showText(
            h->globalPos(),
            tr("CPU %1%2: spurious ticks %3, TIMER catch-ups %4, tick stopped %5, worst wakeup latency %6")
                .arg(cpu)
                .arg(c->nohzFull ? tr(" (nohz_full)") : QString())
                .arg(known(Figure::TickMode, QString::number(c->ticks.spurious)))
                .arg(known(Figure::Catchups, QString::number(c->timerSoftirq.catchup)))
                .arg(known(Figure::TickStopped, QStringLiteral("%1 %").arg(share, 0, 'f', 1)))
                .arg(known(Figure::WakeupLatency,
                           c->wakeup.latency.count
                               ? QStringLiteral("%1 µs").arg(static_cast<double>(c->wakeup.latency.max) / 1e3,
                                                             0, 'f', 1)
                               : tr("none"))),
            this);
        return true;
    }
    return QWidget::event(e);
}

} // namespace tickscope
