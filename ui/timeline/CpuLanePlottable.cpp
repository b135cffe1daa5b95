// SPDX-License-Identifier: GPL-3.0-or-later
#include "CpuLanePlottable.h"

#include "TextCache.h"
#include "TimelinePalette.h"

#include "report/TickReport.h"
#include "view/LaneDetail.h"

#include "util/Prefetch.h"

#include <climits>
#include <cmath>

namespace tickscope {

namespace {
constexpr QRgb kNone = 0;

QRgb rgb(const QColor &c)
{
    return c.rgba();
}
} // namespace

CpuLanePlottable::CpuLanePlottable(QCPAxis *keyAxis, QCPAxis *valueAxis, Spec spec,
                                   const LaneGeometry *geometry, LaneSummaries *summaries)
    : QCPAbstractPlottable(keyAxis, valueAxis), spec_(std::move(spec)), geometry_(geometry),
      summaries_(summaries)
{
    setAntialiased(false);
    setAntialiasedFill(false);
}

QCPRange CpuLanePlottable::getKeyRange(bool &foundRange, QCP::SignDomain) const
{
    foundRange = true;
    return {static_cast<double>(spec_.index->startTs() - spec_.origin),
            static_cast<double>(spec_.index->endTs() - spec_.origin)};
}

QCPRange CpuLanePlottable::getValueRange(bool &foundRange, QCP::SignDomain, const QCPRange &) const
{
    foundRange = true;
    return {0, 1};
}

QRect CpuLanePlottable::clipRect() const
{
    return mParentPlot->viewport(); // the lane label sits in the left margin
}

template <class F> void CpuLanePlottable::fillRuns(QCPPainter *p, int y, int h, F &&colourOf)
{
    const int n = static_cast<int>(columns_.size());
    int start = 0;
    QRgb cur = n ? colourOf(columns_[0]) : kNone;
    for (int j = 1; j <= n; ++j) {
        const QRgb c = j < n ? colourOf(columns_[j]) : kNone + 1;
        if (c == cur) continue;
        if (qAlpha(cur)) canvas_.fill(p, QRect(left_ + start, y, j - start, h), cur);
        start = j;
        cur = c;
    }
}

void CpuLanePlottable::draw(QCPPainter *p)
{
    const LaneGeometry::Lane *lane = geometry_->laneOf(spec_.cpu, spec_.run);
    if (!lane) return;
    const QRect data = mKeyAxis->axisRect()->rect();
    if (lane->top >= data.bottom() || lane->top + lane->height <= data.top()) return;
    left_ = data.left();
    const int width = data.width();
    const QCPRange r = mKeyAxis->range();
    columns_ = summaries_->columns(spec_.slot, std::llround(r.lower), std::llround(r.upper), width);
    colNs_ = width > 0 ? (r.upper - r.lower) / width : 0;
    rangeLower_ = r.lower;
    from_ = spec_.origin + std::llround(r.lower); // the run's absolute time of the visible range
    to_ = spec_.origin + std::llround(r.upper);

    p->save();
    p->setAntialiasing(false);
    p->setPen(Qt::NoPen);
    p->setClipRect(data);
    const int w = width;
    drawStateRow(p, {left_, lane->top, w, lane->collapsed ? LaneGeometry::kCollapsed : geometry_->stateRow},
                 lane->collapsed);
    namesDrawn_.clear();
    arrowsDrawn_ = 0;
    arrowLabels_.clear();
    if (!lane->collapsed) {
        drawTaskNames(p, {left_, lane->top, w, geometry_->stateRow});
        drawTickRow(p, geometry_->rowRect(spec_.cpu, LaneRow::Tick, spec_.run));
        drawEventRow(p, geometry_->rowRect(spec_.cpu, LaneRow::Event, spec_.run));
        drawWakeupArrows(p, geometry_->rowRect(spec_.cpu, LaneRow::Event, spec_.run));
        drawFunctionRow(p, geometry_->rowRect(spec_.cpu, LaneRow::Function, spec_.run));
    }
    drawLost(p, {left_, lane->top, w, lane->height});
    p->restore();
    p->save();
    p->setClipRect(QRect(mParentPlot->viewport().left(), data.top(), left_ - mParentPlot->viewport().left(),
                         data.height()));
    drawLabel(p, *lane);
    p->restore();
}

namespace {
// Splits a band of `height` pixels between the slots `order` (top to bottom) by their share of `t`'s
// time: a slot with any time gets at least `minH` pixels, so that a state rare in the column (a 100 us
// sleep among 10 ms of work) stays visible; the slot with the most time gives up the pixels. Slots not
// in `order` count towards the total without being drawn (the IRQ band's "no interrupt").
template <size_t N, size_t K>
void shares(const std::array<int64_t, N> &t, const std::array<int, K> &order, int64_t extra, int height,
            int minH, std::array<int16_t, K> &h)
{
    int64_t total = extra;
    for (int s : order)
        total += t[s];
    h.fill(0);
    if (total <= 0) return;
    int used = 0, dom = -1;
    int64_t domT = extra;
    for (size_t i = 0; i < K; ++i) {
        const int64_t v = t[order[i]];
        if (v <= 0) continue;
        h[i] = static_cast<int16_t>(
            std::max<int64_t>(minH, (v * height + total / 2) / total)); // rounded share, at least minH
        used += h[i];
        if (v > domT) {
            domT = v;
            dom = static_cast<int>(i);
        }
    }
    if (dom >= 0) h[dom] = static_cast<int16_t>(std::max(minH, h[dom] + height - used));
}
} // namespace

std::vector<CpuLanePlottable::Run> &CpuLanePlottable::scratchRuns()
{
    thread_local std::vector<Run> runs;
    return runs;
}

std::vector<CpuLanePlottable::Seg> &CpuLanePlottable::scratchSegs()
{
    thread_local std::vector<Seg> segs;
    return segs;
}

void CpuLanePlottable::collectSegs(int top, const Seg *segs, const QColor &colour, int minW)
{
    const int n = static_cast<int>(columns_.size());
    const QRgb argb = colour.rgba();
    for (int j = 0; j < n;) {
        const Seg s = segs[j];
        if (s.h <= 0) {
            ++j;
            continue;
        }
        int k = j + 1;
        while (k < n && segs[k] == s)
            ++k;
        const int w = std::max(k - j, minW);
        runs_.push_back({QRect(left_ + j - (w - (k - j)) / 2, top + s.y, w, s.h), argb});
        j = k;
    }
}

void CpuLanePlottable::fillCollected(QCPPainter *p, const QRect &band)
{
    canvas_.begin(p, band, runs_.size());
    for (const Run &r : runs_)
        canvas_.fill(p, r.rect, r.colour);
    canvas_.end(p);
    runs_.clear();
}

template <size_t K> void CpuLanePlottable::stackSegs(int j, const std::array<int16_t, K> &h, int height)
{
    int y = 0;
    for (size_t i = 0; i < K; ++i) {
        const int hh = std::min<int>(h[i], height - y);
        slotSegs(i)[j] = {static_cast<int16_t>(y), static_cast<int16_t>(hh)};
        y += hh;
    }
}

// State row: the task band (upper two thirds) stacks the column's states by their share of its time,
// busy states on top; the IRQ band below hangs the interrupt kinds from it by their share, so its height
// is how much of the column went into interrupts (at least a pixel when any ran).
void CpuLanePlottable::drawStateRow(QCPPainter *p, const QRect &row, bool collapsed)
{
    const int n = static_cast<int>(columns_.size());
    const int taskH = collapsed ? row.height() : row.height() * 2 / 3;
    constexpr std::array<int, 7> taskOrder{
        static_cast<int>(TaskSlot::User),        static_cast<int>(TaskSlot::Kernel),
        static_cast<int>(TaskSlot::Poll),        static_cast<int>(TaskSlot::IdleTask),
        static_cast<int>(TaskSlot::IdleShallow), static_cast<int>(TaskSlot::IdleDeep),
        static_cast<int>(TaskSlot::Unknown)};
    resetSegs(7);
    std::array<int16_t, 7> h{};
    // The first pass over the lane's columns: at a full repaint another core wrote half of them, and a
    // lane's 1920 columns (330 KB) are not in this core's cache. The passes after it read them back from
    // this core's L2 where it holds them (2 MB on the machine measured).
    constexpr int kAhead = 8;
    for (int j = 0; j < n; ++j) {
        if (j + kAhead < n) prefetchBytes(&columns_[j + kAhead], sizeof(ColumnSummary));
        shares(columns_[j].task, taskOrder, 0, taskH, collapsed ? 1 : 2, h);
        stackSegs(j, h, taskH);
    }
    for (size_t i = 0; i < 7; ++i) {
        auto slot = static_cast<TaskSlot>(taskOrder[i]);
        if (spec_.modeNotRecorded && (slot == TaskSlot::User || slot == TaskSlot::Kernel))
            slot = TaskSlot::Unknown;
        collectSegs(row.top(), slotSegs(i), palette::task(slot));
    }
    fillCollected(p, QRect(left_, row.top(), n, taskH));
    if (collapsed) return;
    const int irqH = row.height() - taskH;
    constexpr std::array<int, 4> irqOrder{
        static_cast<int>(IrqSlot::HardIrq), static_cast<int>(IrqSlot::SoftIrq),
        static_cast<int>(IrqSlot::TimerSoftirq), static_cast<int>(IrqSlot::Unknown)};
    resetSegs(4);
    std::array<int16_t, 4> hi{};
    for (int j = 0; j < n; ++j) {
        shares(columns_[j].irq, irqOrder, columns_[j].irq[static_cast<int>(IrqSlot::None)], irqH, 1, hi);
        stackSegs(j, hi, irqH);
    }
    for (size_t i = 0; i < 4; ++i)
        collectSegs(row.top() + taskH, slotSegs(i), palette::irq(static_cast<IrqSlot>(irqOrder[i])));
    fillCollected(p, QRect(left_, row.top() + taskH, n, irqH));
}

// Tick row: a bar along the bottom, split between running (top) and stopped (bottom) by their share of
// the column, and above it the ticks as a density: a column's mark is as tall as its ticks per tick
// period (full height where the tick runs at HZ or a column holds at most one period), the spurious ones
// on top in vermillion, each kind at least 3 px tall when present. Zoomed in, where a column is much
// shorter than a tick period, a lone tick is 2 px wide and a spurious one 3 px.
void CpuLanePlottable::drawTickRow(QCPPainter *p, const QRect &row)
{
    const int n = static_cast<int>(columns_.size());
    if (!spec_.tickNotRecorded.isEmpty()) { // nothing to draw from: hatched and named, never empty
        const QRect area(left_, row.top() + 1, n, std::max(1, row.height() - 2));
        p->fillRect(area, QBrush(palette::lost(), Qt::FDiagPattern));
        QFont f = p->font();
        f.setPixelSize(kLabelPixels);
        p->setFont(f);
        p->setPen(Qt::black);
        p->drawText(area.adjusted(6, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                    QObject::tr("ticks not recorded: %1").arg(spec_.tickNotRecorded));
        return;
    }
    const int barH = std::max(4, row.height() / 4), barY = row.bottom() + 1 - barH;
    const int areaTop = row.top() + 1, area = barY - 1 - areaTop;
    resetSegs(2);
    std::array<int16_t, 2> hb{};
    for (int j = 0; j < n; ++j) {
        shares(columns_[j].tickState, std::array<int, 2>{1, 2}, 0, barH, 1, hb);
        stackSegs(j, hb, barH);
    }
    collectSegs(barY, slotSegs(0), palette::tickRunning());
    collectSegs(barY, slotSegs(1), palette::tickStopped());
    fillCollected(p, QRect(left_, barY, n, barH));

    const int64_t period = spec_.index->tickPeriodNs();
    // Ticks a column holds at HZ: at least floor(expected), so that dividing by it a column of a CPU ticking
    // at HZ is full height whether it caught floor or floor + 1 ticks (no aliasing stripes).
    const double expected = period > 0 ? colNs_ / static_cast<double>(period) : 0;
    const double full = std::max(1.0, std::floor(expected));
    resetSegs(2);
    for (int j = 0; j < n; ++j) {
        const ColumnSummary &c = columns_[j];
        if (!c.ticks) continue;
        const int hAll =
            expected <= 1 ? area : std::clamp(static_cast<int>(std::lround(area * c.ticks / full)), 3, area);
        const int hSp = c.spuriousTicks ? std::clamp(static_cast<int>(std::lround(static_cast<double>(hAll) *
                                                                                  c.spuriousTicks / c.ticks)),
                                                     std::min(3, hAll), hAll)
                                        : 0;
        const int y = area - hAll;
        slotSegs(0)[j] = {static_cast<int16_t>(y + hSp), static_cast<int16_t>(hAll - hSp)};
        slotSegs(1)[j] = {static_cast<int16_t>(y), static_cast<int16_t>(hSp)};
    }
    const bool sparse = expected < 0.25;
    // The marks' band: sparse marks are wider than their column (up to a pixel each side).
    collectSegs(areaTop, slotSegs(0), palette::tickMark(), sparse ? 2 : 1);
    collectSegs(areaTop, slotSegs(1), palette::spurious(), sparse ? 3 : 1);
    fillCollected(p, QRect(left_ - 1, areaTop, n + 2, std::max(0, area)));

    // Failed tick stops: an x on the bar, with the dependency's name where there is room.
    p->setPen(QPen(palette::failedStop(), 1));
    int lastLabelEnd = -1;
    QFont f = p->font();
    f.setPixelSize(9);
    p->setFont(f);
    TextCache::Font &texts = TextCache::instance().of(f);
    for (int j = 0; j < n; ++j) {
        if (!columns_[j].failedStops) continue;
        const int x = left_ + j, y = row.bottom() - 4;
        p->QPainter::drawLine(x - 2, y - 2, x + 2, y + 2);
        p->QPainter::drawLine(x - 2, y + 2, x + 2, y - 2);
        if (x < lastLabelEnd) continue;
        QString deps;
        for (size_t b = 0; b < kDependencyNames.size(); ++b)
            if (columns_[j].dependencies & (1u << b))
                deps += (deps.isEmpty() ? "" : ",") + QString(kDependencyNames[b]);
        const TextCache::Entry &label = texts[deps];
        const int tw = label.width;
        bool room = true;
        for (int k = j + 1; k < n && k <= j + tw + 6; ++k)
            room = room && !columns_[k].failedStops;
        if (!room || deps.isEmpty()) continue;
        texts.drawAt(p, x + 4, row.bottom() - 1, label);
        lastLabelEnd = x + tw + 6;
    }
    p->setPen(Qt::NoPen);
}

// Timers row: the TIMER softirqs (catch-ups in their own colour) as a band along the bottom; above it a
// mark per column with hrtimer wakeups, coloured and sized by the latest one's lateness; along the top a
// strip over the columns with soft expiries (run by the HRTIMER softirq; on PREEMPT_RT the ktimers thread,
// not the hard interrupt).
void CpuLanePlottable::drawEventRow(QCPPainter *p, const QRect &row)
{
    const QRgb catchup = rgb(palette::catchup()), softirq = rgb(palette::timerSoftirq());
    size_t marks = 0; // about the fills below: one per column with wakeups, softirqs or soft expiries
    for (const ColumnSummary &c : columns_)
        marks += (c.wakeups != 0) + (c.timerSoftirqs != 0 || c.catchup) + (c.softWakeups != 0);
    canvas_.begin(p, QRect(left_ - 1, row.top(), static_cast<int>(columns_.size()) + 2, row.height()), marks);
    fillRuns(p, row.bottom() - 4, 5, [&](const ColumnSummary &c) {
        return c.catchup ? catchup : c.timerSoftirqs ? softirq : kNone;
    });
    const int n = static_cast<int>(columns_.size());
    const int area = row.height() - 10;
    const int w = colNs_ < 20'000 ? 2 : 1; // zoomed in, a lone wakeup is 2 px wide
    const bool zoomedIn = w > 1;
    if (zoomedIn) { // each soft expiry's own cap, wider than its mark
        for (int j = 0; j < n; ++j) {
            if (columns_[j].softWakeups)
                canvas_.fill(p, QRect(left_ + j - 1, row.top(), w + 2, 3), palette::softExpiry());
        }
    } else {
        const QRgb soft = rgb(palette::softExpiry());
        fillRuns(p, row.top(), 3, [&](const ColumnSummary &c) { return c.softWakeups ? soft : kNone; });
    }
    for (int j = 0; j < n; ++j) {
        if (!columns_[j].wakeups) continue;
        const int step = palette::latenessStep(columns_[j].maxLatenessNs);
        const int h = std::max(3, area * (step < 0 ? 2 : step + 2) / 5);
        canvas_.fill(p, QRect(left_ + j, row.top() + 4 + area - h, w, h),
                     palette::lateness(columns_[j].maxLatenessNs));
    }
    canvas_.end(p);
}

// Function row (function_graph calls with timestamps): zoomed in, where the calls in view are at most one
// per 3 px, each call is a box from its entry to its return, stacked by depth (the outermost on top; depths
// that do not fit share the last level), coloured by its duration, its name inside where it fits; zoomed
// out, each column shows its longest call as a mark coloured and sized by that duration (a short call is
// a low mark, a 200 us one full height).
void CpuLanePlottable::drawFunctionRow(QCPPainter *p, const QRect &row)
{
    callsDrawn_ = -1;
    if (row.isEmpty()) return;
    p->fillRect(QRect(row.left(), row.bottom(), row.width(), 1), QColor(0xE0, 0xE0, 0xE0)); // its baseline
    const FunctionLane &fl = spec_.index->cpu(spec_.cpu).functions();
    const int n = static_cast<int>(columns_.size());
    if (fl.empty() || n == 0 || colNs_ <= 0) return;
    calls_.clear();
    if (fl.overlapping(from_, to_, columns_.size() / 3, calls_)) {
        int maxDepth = 0;
        for (uint32_t k : calls_)
            maxDepth = std::max<int>(maxDepth, fl.call(k).depth);
        const int levelH = std::max(4, (row.height() - 1) / (maxDepth + 1));
        const int levels = std::max(1, (row.height() - 1) / levelH);
        QFont f = p->font();
        f.setPixelSize(std::min(kLabelPixels, levelH - 2));
        p->setFont(f);
        const QFontMetrics fm(f);
        const Trace &trace = spec_.index->trace();
        for (uint32_t k : calls_) {
            const FunctionSpan &c = fl.call(k);
            const int x0 = std::max(left_ - 1, static_cast<int>(std::lround(xOfAbs(c.start()))));
            const int x1 =
                std::max(x0 + 1, std::min(left_ + n + 1, static_cast<int>(std::lround(xOfAbs(c.end())))));
            const QRect box(x0, row.top() + std::min<int>(c.depth, levels - 1) * levelH, x1 - x0, levelH - 1);
            const QColor colour = palette::call(c.durationNs);
            p->fillRect(box, colour);
            if (levelH >= 9 && box.width() > 24) {
                const QString name = fm.elidedText(QString::fromUtf8(trace.strings.str(c.name)),
                                                   Qt::ElideRight, box.width() - 4);
                if (name.size() > 1) {
                    p->setPen(palette::callStep(c.durationNs) >= 2 ? Qt::white : Qt::black);
                    p->drawText(box.adjusted(2, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft, name);
                    p->setPen(Qt::NoPen);
                }
            }
        }
        callsDrawn_ = static_cast<int>(calls_.size());
        return;
    }
    const int area = row.height() - 2;
    resetSegs(4);
    for (int j = 0; j < n; ++j) {
        const int64_t worst = columns_[j].worstCallNs;
        if (worst < 0) continue;
        const int step = palette::callStep(worst);
        const int h = std::max(3, area * (step + 1) / 4);
        slotSegs(static_cast<size_t>(step))[j] = {static_cast<int16_t>(area - h), static_cast<int16_t>(h)};
    }
    constexpr int64_t kStepFloor[4] = {0, 10'000, 50'000, 200'000};
    for (size_t s = 0; s < 4; ++s)
        collectSegs(row.top() + 1, slotSegs(s), palette::call(kStepFloor[s]));
    fillCollected(p, QRect()); // few marks: on the painter
}

double CpuLanePlottable::xOfAbs(int64_t t) const
{
    return left_ + (static_cast<double>(t - spec_.origin) - rangeLower_) / colNs_;
}

QColor CpuLanePlottable::taskColour(const std::string &comm)
{
    uint32_t h = 2166136261u; // FNV-1a
    for (unsigned char ch : comm)
        h = (h ^ ch) * 16777619u;
    return QColor::fromHsv(static_cast<int>(h % 360), 110 + static_cast<int>((h >> 9) % 80),
                           170 + static_cast<int>((h >> 17) % 60));
}

// Zoomed in (at most one task stretch per 4 px), each task's name (with its pid where it fits) inside its
// stretch of the state row, white on the dark states and black on the light ones; idle is left bare.
// With task colours on, a 3 px strip of the task's identity colour runs along the top.
void CpuLanePlottable::drawTaskNames(QCPPainter *p, const QRect &row)
{
    if (colNs_ <= 0 || columns_.empty()) return;
    const Trace &trace = spec_.index->trace();
    const auto spans = taskSpans(trace, spec_.cpu, from_, to_, columns_.size() / 4);
    if (!spans) return;
    QFont f = p->font();
    f.setPixelSize(kLabelPixels);
    p->setFont(f);
    TextCache::Font &texts = TextCache::instance().of(f);
    const int taskH = row.height() * 2 / 3;
    for (const TaskSpan &s : *spans) {
        if (s.pid == 0) continue;
        const int x0 = std::max(left_, static_cast<int>(std::lround(xOfAbs(s.from))));
        const int x1 =
            std::min(left_ + static_cast<int>(columns_.size()), static_cast<int>(std::lround(xOfAbs(s.to))));
        if (x1 - x0 < 3) continue;
        const std::string comm(trace.strings.str(trace.tasks.comm(s.pid, s.from)));
        if (spec_.taskColours) p->fillRect(QRect(x0, row.top(), x1 - x0, 3), taskColour(comm));
        QString text = QString::fromStdString(comm) + QLatin1Char('-') + QString::number(s.pid);
        const TextCache::Entry *e = &texts[text];
        if (e->width + 6 > x1 - x0) {
            text = QString::fromStdString(comm);
            e = &texts[text];
        }
        if (text.isEmpty() || e->width + 6 > x1 - x0) continue;
        const ColumnSummary &mid = columns_[static_cast<size_t>((x0 + x1) / 2 - left_)];
        const int d = ColumnSummary::dominant(mid.task);
        const QColor bg = d < 0 ? QColor(Qt::white) : palette::task(static_cast<TaskSlot>(d));
        p->setPen(bg.lightness() < 140 ? Qt::white : Qt::black);
        texts.draw(p,
                   QRect(x0 + 3, row.top() + (spec_.taskColours ? 3 : 0), x1 - x0 - 6,
                         taskH - (spec_.taskColours ? 3 : 0)),
                   false, *e);
        namesDrawn_ << text;
    }
    p->setPen(Qt::NoPen);
}

// Zoomed in (at most 200 in view), each hrtimer wakeup's latency as an arrow from the expiry to the woken
// task's switch-in along the top of the timers row, its length in µs beside it where there is room
// (dashed when the switch-in was not traced and the latency is an upper bound).
void CpuLanePlottable::drawWakeupArrows(QCPPainter *p, const QRect &row)
{
    if (colNs_ <= 0 || columns_.empty()) return;
    const auto arrows =
        wakeupArrows(spec_.index->trace(), spec_.index->analysis(), spec_.cpu, from_, to_, 200);
    if (!arrows) return;
    QFont f = p->font();
    f.setPixelSize(kLabelPixels - 1);
    p->setFont(f);
    TextCache::Font &texts = TextCache::instance().of(f);
    const int lineH = QFontMetrics(f).height();
    const int y = row.top() + 3;
    p->setRenderHint(QPainter::Antialiasing, false);
    int labelsEnd = INT_MIN; // the arrows of a burst start together: a label over another is left out
    for (const WakeupArrow &a : *arrows) {
        const int x0 = static_cast<int>(std::lround(xOfAbs(a.expiry)));
        const int x1 = static_cast<int>(std::lround(xOfAbs(a.expiry + a.latencyNs)));
        if (x1 - x0 < 6) continue;
        p->setPen(QPen(palette::wakeupArrow(), 1, a.bound ? Qt::DashLine : Qt::SolidLine));
        p->QPainter::drawLine(x0, y, x1, y);
        p->setPen(Qt::NoPen);
        p->setBrush(palette::wakeupArrow());
        const QPoint head[3] = {{x1, y}, {x1 - 4, y - 3}, {x1 - 4, y + 3}};
        p->drawPolygon(head, 3);
        p->setBrush(Qt::NoBrush);
        const TextCache::Entry &text =
            texts[QString::number(a.latencyNs / 1000.0, 'f', 1) + QStringLiteral(" µs")];
        const QRect box(x0 + 2, y + 1, x1 - x0 - 4, lineH);
        const int left = box.x() + (box.width() - text.width) / 2;
        if (text.width <= box.width() && left >= labelsEnd) {
            p->setPen(palette::wakeupArrow());
            texts.draw(p, box, true, text);
            labelsEnd = left + text.width + 4;
            arrowLabels_.push_back(QRect(left, box.y(), text.width, lineH));
        }
        ++arrowsDrawn_;
    }
    p->setPen(Qt::NoPen);
}

void CpuLanePlottable::drawLost(QCPPainter *p, const QRect &lane)
{
    const int n = static_cast<int>(columns_.size());
    for (int j = 0; j < n;) {
        if (!columns_[j].lost) {
            ++j;
            continue;
        }
        int k = j;
        while (k < n && columns_[k].lost)
            ++k;
        const QRect r(left_ + j, lane.top(), std::max(k - j, 3), lane.height());
        p->fillRect(r, QColor(255, 255, 255, 160));
        p->fillRect(r, QBrush(palette::lost(), Qt::BDiagPattern));
        j = k;
    }
}

void CpuLanePlottable::drawLabel(QCPPainter *p, const LaneGeometry::Lane &lane)
{
    const int x = mParentPlot->viewport().left() + 6;
    if (!spec_.runTag.isEmpty()) // the compare view: the run's letter on its colour, beside the label
        p->fillRect(QRect(mParentPlot->viewport().left(), lane.top, 3, lane.height), spec_.runTint);
    p->setPen(Qt::black);
    QFont f = p->font();
    f.setPixelSize(kLabelPixels + 2);
    f.setBold(true);
    p->setFont(f);
    const QString tag = spec_.runTag.isEmpty() ? QString() : spec_.runTag + QLatin1Char(' ');
    TextCache::Font &bold = TextCache::instance().of(f);
    bold.drawAt(p, x, lane.top + kLabelPixels + 1,
                bold[QStringLiteral("%1CPU %2%3")
                         .arg(tag)
                         .arg(spec_.cpu)
                         .arg(lane.collapsed ? QStringLiteral(" ▸") : QString())]);
    if (lane.collapsed) return;
    f.setBold(false);
    f.setPixelSize(kLabelPixels);
    p->setFont(f);
    TextCache::Font &texts = TextCache::instance().of(f);
    texts.drawAt(p, x, lane.top + 2 * kLabelPixels + 2,
                 texts[QString::fromLatin1(cpuGroupName(spec_.group).data())]);
    texts.drawAt(
        p, x, lane.top + geometry_->stateRow + 12,
        texts[spec_.tickInferred.isEmpty() ? QStringLiteral("tick") : QStringLiteral("tick (inferred)")]);
    texts.drawAt(p, x, lane.top + geometry_->stateRow + geometry_->tickRow + 12,
                 texts[QStringLiteral("timers")]);
    if (lane.functions)
        texts.drawAt(p, x, lane.top + geometry_->stateRow + geometry_->tickRow + geometry_->eventRow + 12,
                     texts[QStringLiteral("functions")]);
}

} // namespace tickscope
