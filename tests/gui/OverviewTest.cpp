// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline's overview keeps the signal at whole-trace zoom, read from rendered pixels: the stopped-tick
// bar of nohzfull-poll.dat's CPU 1 stays visible beside its spurious ticks; the 100 µs sleeps of seed 000's
// CPU 3 show among its 10 ms of work; soft hrtimer expiries (PREEMPT_RT) are marked; no two legend entries of
// one row share a colour, also as a protanope or deuteranope sees them; lane labels are readable and the
// window works at 1024×700; with 40 CPUs the overview strip lights the CPUs with catch-ups, scrolls to a
// clicked CPU, and the lanes sort and collapse; function_graph calls get a row of their own, or for a paste
// without timestamps the calls' table in the timeline's place.
#include "CpuLanePlottable.h"
#include "CpuStrip.h"
#include "FindingsPanel.h"
#include "FunctionsPanel.h"
#include "GuiTestUtil.h"
#include "LaneSummaries.h"
#include "MainWindow.h"
#include "PanelDocks.h"
#include "TimelinePalette.h"
#include "TimelinePlot.h"
#include "TimelineView.h"
#include "ViewState.h"

#include "analysis/TickAnalysis.h"
#include "import/Loader.h"
#include "view/TimelineIndex.h"

#include <QDockWidget>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

using namespace tickscope;

namespace {

bool openFile(MainWindow &w, const QString &name)
{
    for (QDockWidget *d : w.findChildren<QDockWidget *>())
        d->hide();
    QSignalSpy shown(&w, &MainWindow::traceShown);
    w.openFile(QStringLiteral(TICKSCOPE_TEST_DATA "/") + name);
    return shown.wait(30000);
}

bool openScenario(MainWindow &w, const QString &name)
{
    for (QDockWidget *d : w.findChildren<QDockWidget *>())
        d->hide();
    QSignalSpy shown(&w, &MainWindow::traceShown);
    w.openScenario(name);
    return shown.wait(60000);
}

// The lane of `cpu` (the last one, in the compare view), or null.
const CpuLanePlottable *laneOf(TimelinePlot *plot, int cpu)
{
    const CpuLanePlottable *lane = nullptr;
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto *l = dynamic_cast<const CpuLanePlottable *>(plot->plottable(i)); l && l->cpu() == cpu)
            lane = l;
    return lane;
}

// Columns of `r` holding at least one pixel of `c`.
int columnsWith(const QImage &img, const QRect &r, const QColor &c)
{
    int n = 0;
    for (int x = r.left(); x <= r.right(); ++x)
        n += test::countColour(img, QRect(x, r.top(), 1, r.height()), c) > 0;
    return n;
}

// Machado, Oliveira & Fernandes (2009), "A Physiologically-based Model for Simulation of Color Vision
// Deficiency", severity 1.0, on linear RGB.
using Matrix = std::array<std::array<double, 3>, 3>;
constexpr Matrix kProtanopia{
    {{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}};
constexpr Matrix kDeuteranopia{
    {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}};

double toLinear(double v)
{
    v /= 255.0;
    return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}

// CIE L*a*b* (D65) of a linear RGB triple.
std::array<double, 3> lab(std::array<double, 3> rgb)
{
    const double x = (0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2]) / 0.95047;
    const double y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
    const double z = (0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]) / 1.08883;
    auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
    return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

std::array<double, 3> seenAs(const QColor &c, const Matrix *m)
{
    std::array<double, 3> rgb{toLinear(c.red()), toLinear(c.green()), toLinear(c.blue())};
    if (m) {
        std::array<double, 3> o{};
        for (int i = 0; i < 3; ++i)
            o[i] = std::clamp((*m)[i][0] * rgb[0] + (*m)[i][1] * rgb[1] + (*m)[i][2] * rgb[2], 0.0, 1.0);
        rgb = o;
    }
    return lab(rgb);
}

double deltaE(const std::array<double, 3> &a, const std::array<double, 3> &b)
{
    return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                     (a[2] - b[2]) * (a[2] - b[2]));
}

} // namespace

class OverviewTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { test::initTestApplication(); }

    // A repaint's lane columns come from the GUI thread and the pool's helpers at once, each lane computed
    // by whichever takes it first. In whatever order the lanes ask, and when the range changes while the
    // helpers are still at work, each lane gets the index's own columns for the range, and no lane is
    // computed twice.
    void laneSummariesAreTheIndexsWhateverTheOrderOfAsking()
    {
        const std::shared_ptr<const Trace> trace(loadTrace(TICKSCOPE_TEST_DATA "/nohzfull-poll.dat"));
        const TickAnalysis analysis = TickAnalysis::run(*trace);
        const TimelineIndex index = TimelineIndex::build(*trace, analysis);
        const int64_t t0 = trace->startTs(), span = trace->endTs() - trace->startTs();
        QVERIFY(span > 0);
        std::vector<LaneSummaries::Source> lanes;
        for (int k = 0; k < 12; ++k) // both CPUs, each with six time zeros (as the compare view's runs)
            lanes.push_back({&index, k % 2, t0 + (k / 2) * span / 16});
        LaneSummaries summaries;
        summaries.setLanes(lanes);
        std::mt19937 rng(17);
        std::vector<size_t> order(lanes.size());
        for (int round = 0; round < 40; ++round) {
            const int width = 100 + (round * 37) % 1800;
            const int64_t a = static_cast<int64_t>(rng() % static_cast<uint64_t>(span)) - span / 8;
            const int64_t b = a + 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(span));
            std::iota(order.begin(), order.end(), 0);
            if (round % 3 == 1) std::reverse(order.begin(), order.end());
            if (round % 3 == 2) std::shuffle(order.begin(), order.end(), rng);
            if (round % 5 == 3) { // the helpers take the lanes in another drawing order
                std::vector<size_t> drawn(lanes.size());
                std::iota(drawn.begin(), drawn.end(), 0);
                std::shuffle(drawn.begin(), drawn.end(), rng);
                summaries.setLanes(lanes, drawn);
            }
            // Some ranges are started before any lane asks (a repaint's priming), one in seven with a key no
            // lane then asks for (the width of a screenshot's other size).
            if (round % 7 == 3)
                summaries.prime(a, b, width + 1);
            else if (round % 2 == 1)
                summaries.prime(a, b, width);
            // Every fourth range is left after its first lane: the next one comes with the helpers at work.
            const size_t asked = round % 4 == 2 ? 1 : order.size();
            for (size_t i = 0; i < asked; ++i) {
                const size_t s = order[i];
                std::vector<ColumnSummary> want(static_cast<size_t>(width));
                index.summarize(lanes[s].cpu, lanes[s].zero + a, lanes[s].zero + b, width, want.data());
                QVERIFY2(summaries.columns(s, a, b, width) == want,
                         qPrintable(QStringLiteral("round %1, lane %2").arg(round).arg(s)));
            }
        }
        QCOMPARE(summaries.computedLanes(), lanes.size()); // the last range: each lane once
    }

    // nohzfull-poll.dat at whole-trace zoom: CPU 1's tick was stopped for most of the trace (between its
    // spurious ticks); the stopped colour spans at least half of its tick row and the spurious mark shows.
    void stoppedTickBarStaysVisibleBesideSpuriousTicks()
    {
        MainWindow w;
        w.resize(1600, 900);
        w.show();
        QVERIFY(openFile(w, QStringLiteral("nohzfull-poll.dat")));
        TimelinePlot *plot = w.timeline()->plot();
        const QImage img = w.timeline()->render();
        QRect tick = plot->geometry().rowRect(1, LaneRow::Tick);
        tick.setLeft(plot->geometry().left);
        tick.setRight(plot->geometry().right - 1);
        const int stopped = columnsWith(img, tick, palette::tickStopped());
        QVERIFY2(stopped * 2 >= tick.width(),
                 qPrintable(QStringLiteral("stopped in %1 of %2 columns").arg(stopped).arg(tick.width())));
        QVERIFY(columnsWith(img, tick, palette::spurious()) > 50);
        // and the spurious mark does not bury it: vermillion covers a minority of the row's pixels
        QVERIFY(test::countColour(img, tick, palette::spurious()) * 3 < tick.width() * tick.height());
    }

    // PREEMPT_RT: the timers row marks the columns with soft expiries (the SCHED_OTHER sleepers of
    // rt-hrtimer-k4.dat, run by ktimers/1 while the workload runs) along its top; with every sleeper
    // SCHED_FIFO (all expiries hard) there is no such mark.
    void softExpiriesAreMarked()
    {
        auto softColumns = [](const char *file) {
            MainWindow w;
            w.resize(1600, 900);
            w.show();
            if (!openFile(w, QString::fromLatin1(file))) return -1;
            TimelinePlot *plot = w.timeline()->plot();
            const QImage img = w.timeline()->render();
            QRect row = plot->geometry().rowRect(1, LaneRow::Event);
            row.setLeft(plot->geometry().left);
            row.setRight(plot->geometry().right - 1);
            return columnsWith(img, row, palette::softExpiry());
        };
        const int soft = softColumns("rt-hrtimer-k4.dat");
        QVERIFY2(soft > 400, qPrintable(QStringLiteral("soft expiries in %1 columns").arg(soft)));
        QCOMPARE(softColumns("rt-hrtimer-k32-fifo50.dat"), 0);
    }

    // Seed 000: CPU 3 alternates 100 µs sleeps (polling idle) with 10 ms of user work, 200 times. At
    // whole-trace zoom (about 1.5 ms a column) the sleeps are visible in at least 150 columns.
    void shortSleepsShowAmongLongWork()
    {
        MainWindow w;
        w.resize(1600, 900);
        w.show();
        QVERIFY(openScenario(w, QStringLiteral("seed000-nohzfull-poll")));
        TimelinePlot *plot = w.timeline()->plot();
        const QImage img = w.timeline()->render();
        QRect state = plot->geometry().rowRect(3, LaneRow::State);
        const int from = static_cast<int>(std::lround(plot->xOf(w.document().trace->firstTs() + 60'000'000)));
        const int to =
            static_cast<int>(std::lround(plot->xOf(w.document().trace->firstTs() + 2'000'000'000)));
        state.setLeft(from);
        state.setRight(to);
        const int sleeps = columnsWith(img, state, palette::task(TaskSlot::Poll));
        QVERIFY2(sleeps >= 150, qPrintable(QStringLiteral("sleeps visible in %1 columns").arg(sleeps)));
        // and the work still dominates the row
        QVERIFY(test::countColour(img, state, palette::task(TaskSlot::User)) * 2 >
                state.width() * state.height());
    }

    // No two legend entries drawn in one row share a colour; none come closer than ΔE 10 (CIE76) for
    // normal, protanope or deuteranope vision; vermillion is the spurious tick's alone.
    void legendColoursAreDistinctPerRow()
    {
        const auto entries = palette::legend();
        const Matrix *vision[] = {nullptr, &kProtanopia, &kDeuteranopia};
        for (size_t i = 0; i < entries.size(); ++i) {
            const auto &a = entries[i];
            if (a.colour == palette::spurious()) QCOMPARE(a.label, QStringLiteral("spurious tick"));
            for (size_t j = i + 1; j < entries.size(); ++j) {
                const auto &b = entries[j];
                if (palette::paintedRow(a.row) != palette::paintedRow(b.row)) continue;
                const QString what = a.label + QStringLiteral(" / ") + b.label;
                QVERIFY2(a.colour != b.colour, qPrintable(what));
                for (const Matrix *m : vision) {
                    const double d = deltaE(seenAs(a.colour, m), seenAs(b.colour, m));
                    QVERIFY2(d >= 10, qPrintable(what + QStringLiteral(": ΔE %1").arg(d)));
                }
            }
        }
    }

    // Zoomed in, the state row names the running task and the timers row draws each wakeup's latency as
    // an arrow.
    void zoomedInShowsTaskNamesAndWakeupArrows()
    {
        MainWindow w;
        w.resize(1600, 900);
        w.show();
        QVERIFY(openFile(w, QStringLiteral("nohzfull-poll.dat")));
        const Document &doc = w.document();
        const int64_t from = doc.trace->firstTs() + 1'000'000'000;
        w.viewState()->setRange(from, from + 12'000'000);
        TimelinePlot *plot = w.timeline()->plot();
        w.timeline()->render();
        auto lane = [&](int cpu) { return laneOf(plot, cpu); };
        QVERIFY(lane(1));
        QVERIFY2(lane(1)->taskNamesDrawn().contains(QStringLiteral("workload-116")),
                 qPrintable(lane(1)->taskNamesDrawn().join(QLatin1Char(','))));
        // a wakeup with a known latency of CPU 1, shown across a few hundred µs
        const CpuEvents &ev = doc.trace->cpu(1);
        const auto &wakeups = doc.analysis->cpus[1].timers.wakeups;
        for (size_t k = 0; k < wakeups.size(); ++k) {
            const HrtimerWakeup &x = wakeups[k];
            if (x.latencyNs == kUnknownNs || !(x.flags & WakeupFlag::TaskKnown) || x.latencyNs < 20'000)
                continue;
            const int64_t t = ev.ts(x.index);
            w.viewState()->setRange(t - 50'000, t + x.latencyNs + 50'000);
            break;
        }
        w.timeline()->render();
        QVERIFY(lane(1)->arrowsDrawn() >= 1);
        // at whole-trace zoom neither is drawn
        w.viewState()->setRange(doc.trace->firstTs(), doc.trace->lastTs());
        w.timeline()->render();
        QVERIFY(lane(1)->taskNamesDrawn().isEmpty());
        QCOMPARE(lane(1)->arrowsDrawn(), 0);
    }

    // A burst (one timer interrupt waking many sleepers, rt-hrtimer-k32.dat: 32 at a time) starts its
    // arrows together: each latency written where it leaves the ones before it readable, none over another.
    void aBurstsArrowLabelsDoNotOverlap()
    {
        MainWindow w;
        w.resize(1600, 900);
        w.show();
        QVERIFY(openFile(w, QStringLiteral("rt-hrtimer-k32.dat")));
        const Document &doc = w.document();
        TimelinePlot *plot = w.timeline()->plot();
        int tried = 0;
        for (const CpuAnalysis &c : doc.analysis->cpus) {
            const CpuTimers &t = c.timers;
            const CpuEvents &ev = doc.trace->cpu(c.cpu);
            for (const WakeupBatch &b : t.batches) {
                if (b.count < 4) continue;
                // the batch's wakeups with a latency: the view from its first expiry to the longest switch-in
                const size_t k0 = firstRecordFrom(t.wakeups, b.first);
                int64_t longest = 0;
                int known = 0;
                for (size_t k = k0; k < std::min(t.wakeups.size(), k0 + b.count); ++k)
                    if (t.wakeups[k].latencyNs != kUnknownNs) {
                        longest = std::max<int64_t>(longest, t.wakeups[k].latencyNs);
                        ++known;
                    }
                if (known < 4 || longest < 20'000) continue;
                const int64_t at = ev.ts(b.first);
                w.viewState()->setRange(at - longest / 10, at + longest + longest / 10);
                w.timeline()->render();
                const CpuLanePlottable *lane = laneOf(plot, c.cpu);
                QVERIFY(lane);
                if (lane->arrowsDrawn() < 4) continue;
                const QList<QRect> &labels = lane->arrowLabelsDrawn();
                QVERIFY(!labels.isEmpty());
                for (qsizetype i = 0; i < labels.size(); ++i)
                    for (qsizetype j = i + 1; j < labels.size(); ++j)
                        QVERIFY2(
                            !labels[i].intersects(labels[j]),
                            qPrintable(
                                QStringLiteral("CPU %1: labels %2 and %3 overlap").arg(c.cpu).arg(i).arg(j)));
                if (++tried == 3) return;
                break; // the next CPU
            }
        }
        QVERIFY2(tried > 0, "no burst with four arrows drawn");
    }

    // A function_graph recording (trace.dat from the kernel lab): each lane gets a function row. At
    // whole-trace zoom it marks the columns with calls in the duration colours (run_timer_softirq's 968 µs
    // call among them); zoomed in on that call it is a box with the calls nested in it stacked below, and the
    // pointer over it names it, with the tick state at its entry. A trace without calls has no such row.
    void functionRowShowsTheCalls()
    {
        MainWindow w;
        w.resize(1600, 900);
        w.show();
        QVERIFY(openFile(w, QStringLiteral("fgraph-timers.dat")));
        const Document &doc = w.document();
        TimelinePlot *plot = w.timeline()->plot();
        const QImage img = w.timeline()->render();
        const QRect row = plot->geometry().rowRect(1, LaneRow::Function);
        QVERIFY(!row.isEmpty());
        int marked = 0;
        for (int64_t ns : {0, 20'000, 100'000, 300'000})
            marked += columnsWith(img, row, palette::call(ns));
        QVERIFY2(marked >= 100, qPrintable(QStringLiteral("%1 columns with calls").arg(marked)));
        QVERIFY(columnsWith(img, row, palette::call(300'000)) >= 1); // the 968 µs call
        // the calls do not bleed into the timers row above
        const QRect timers = plot->geometry().rowRect(1, LaneRow::Event);
        QCOMPARE(test::countColour(img, timers, palette::call(300'000)), 0);

        const int64_t at = 12'512'839'000; // run_timer_softirq, 968.344 µs, on CPU 1 (trace-cmd report)
        w.viewState()->setRange(at - 100'000, at + 1'100'000);
        const QImage zoomed = w.timeline()->render();
        const CpuLanePlottable *lane = laneOf(plot, 1);
        QVERIFY(lane);
        QVERIFY2(lane->callsDrawn() >= 3, qPrintable(QString::number(lane->callsDrawn())));
        // the long call spans most of the view in the top level of the row
        const int x0 = static_cast<int>(std::lround(plot->xOf(at))),
                  x1 = static_cast<int>(std::lround(plot->xOf(at + 968'344)));
        const QRect top(x0 + 2, row.top() + 1, x1 - x0 - 4, 2);
        QVERIFY2(test::countColour(zoomed, top, palette::call(300'000)) >= top.width(),
                 qPrintable(QStringLiteral("%1 of %2")
                                .arg(test::countColour(zoomed, top, palette::call(300'000)))
                                .arg(top.width())));
        const TimelinePickResult pick =
            pickEvent(*doc.timeline, 1, TimelineRow::Function, at + 10'000, 1'000);
        QVERIFY2(pick.text.find("run_timer_softirq()  968.344 µs, depth 0") != std::string::npos,
                 pick.text.c_str());
        QVERIFY2(pick.text.find("at entry: tick stopped") != std::string::npos, pick.text.c_str());
        // deeper in it, the deepest call there
        const TimelinePickResult inner =
            pickEvent(*doc.timeline, 1, TimelineRow::Function, at + 500'000, 1'000);
        QVERIFY2(inner.text.find("depth 0") == std::string::npos, inner.text.c_str());

        QVERIFY(openFile(w, QStringLiteral("nohzfull-poll.dat")));
        QVERIFY(plot->geometry().rowRect(1, LaneRow::Function).isEmpty());
    }

    // A function_graph paste without timestamps: no time axis to draw, so the calls' table and histogram
    // take the timeline's place; the next trace with events brings the timeline back.
    void pasteWithoutTimestampsShowsTheCalls()
    {
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        QVERIFY(openFile(w, QStringLiteral("text/seed002-run-timer-softirq.txt")));
        QVERIFY(!w.timeline()->isVisible());
        QVERIFY(w.callsView()->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(w.callsView()->table()->topLevelItemCount(), 1, 10000);
        QCOMPARE(w.callsView()->table()->topLevelItem(0)->text(4), QStringLiteral("566.923"));
        QVERIFY(!w.panels()->functionsDock()->isVisible());
        QVERIFY(openFile(w, QStringLiteral("fgraph-timers.dat")));
        QVERIFY(w.timeline()->isVisible());
        QVERIFY(!w.callsView()->isVisible());
    }

    // Many CPUs (the 40-CPU seed 002 simulation, catch-ups on CPUs 10-13): the strip has a row per lane
    // in the lanes' order, squeezed into its height; its catch-up cells are lit on those CPUs only; a click
    // on a row scrolls that CPU's lane into view; sorting by catch-ups puts CPUs 10-13 first (by the
    // report's counts), by number restores the order; collapse all, then expand the CPUs with findings.
    void manyCpusStripSortAndCollapse()
    {
        MainWindow w;
        w.resize(1400, 800);
        w.show();
        QVERIFY(openScenario(w, QStringLiteral("seed002-legacy-wheel")));
        TimelineView *tv = w.timeline();
        QTRY_VERIFY_WITH_TIMEOUT(tv->strip()->hasReport(), 20000);
        TimelinePlot *plot = tv->plot();
        QVERIFY(plot->contentHeight() > plot->dataHeight()); // 40 lanes do not fit: the strip is a minimap
        const auto rows = tv->strip()->rows();
        QCOMPARE(rows.size(), size_t{40});
        for (size_t i = 1; i < rows.size(); ++i) {
            QCOMPARE(rows[i].cpu, static_cast<int>(i));
            QVERIFY(rows[i].y0 >= rows[i - 1].y1 - 1);
        }
        QVERIFY(rows.back().y1 <= tv->strip()->height());
        // the lanes are drawn lightest first (fewest events), each one once
        {
            const Trace &trace = *plot->document().trace;
            std::vector<int> drawn;
            for (QCPLayerable *l : laneOf(plot, 0)->layer()->children())
                if (auto *lane = dynamic_cast<const CpuLanePlottable *>(l)) drawn.push_back(lane->cpu());
            QCOMPARE(drawn.size(), size_t{40});
            for (size_t i = 1; i < drawn.size(); ++i)
                QVERIFY2(
                    trace.cpu(drawn[i - 1]).size() <= trace.cpu(drawn[i]).size(),
                    qPrintable(QStringLiteral("CPU %1 drawn before CPU %2").arg(drawn[i - 1]).arg(drawn[i])));
            std::sort(drawn.begin(), drawn.end());
            QVERIFY(std::adjacent_find(drawn.begin(), drawn.end()) == drawn.end());
        }
        // a repaint summarizes the lanes on screen, not all 40, for the one key its priming set
        w.viewState()->setRange(w.viewState()->rangeStart() + 1000, w.viewState()->rangeEnd() - 1000);
        const size_t keys = plot->summaries().keys();
        plot->primeSummaries(); // what a repaint at the plot's size starts before its lanes ask
        QCOMPARE(plot->summaries().keys(), keys + 1);
        tv->render();
        QCOMPARE(plot->summaries().keys(), keys + 1); // (the lanes asked for the primed key)
        int onScreen = 0;
        for (const LaneGeometry::Lane &l : plot->geometry().lanes)
            onScreen += l.top + l.height > TimelinePlot::kTopMargin && l.top < plot->height();
        QVERIFY2(onScreen < 20 && plot->summaries().computedLanes() <= static_cast<size_t>(onScreen),
                 qPrintable(QStringLiteral("%1 lanes summarized, %2 on screen")
                                .arg(plot->summaries().computedLanes())
                                .arg(onScreen)));
        // the catch-up cells (the second column) are lit on CPUs 10-13 only
        const QImage img = tv->strip()->grab().toImage();
        for (const auto &r : rows) {
            const QColor c = img.pixelColor(2 + CpuStrip::kCell + 3, (r.y0 + r.y1) / 2);
            const bool lit = c != tv->strip()->palette().color(QPalette::Base);
            QCOMPARE(lit, r.cpu >= 10 && r.cpu <= 13);
        }
        // a click on CPU 30's row brings its lane into view
        const auto &r30 = rows[30];
        QVERIFY(!plot->geometry().laneOf(30) || plot->geometry().laneOf(30)->top > plot->height());
        QTest::mouseClick(tv->strip(), Qt::LeftButton, {}, QPoint(10, (r30.y0 + r30.y1) / 2));
        const LaneGeometry::Lane *l30 = plot->geometry().laneOf(30);
        QVERIFY(l30);
        QVERIFY2(l30->top >= TimelinePlot::kTopMargin && l30->top < plot->height() / 2,
                 qPrintable(QString::number(l30->top)));
        // sorting
        QVERIFY(tv->sortCpus(TimelineView::CpuOrder::Catchups));
        std::vector<int> first(w.viewState()->cpus().begin(), w.viewState()->cpus().begin() + 4);
        std::sort(first.begin(), first.end());
        QCOMPARE(first, (std::vector<int>{10, 11, 12, 13}));
        QCOMPARE(tv->strip()->rows().front().cpu, w.viewState()->cpus().front());
        QVERIFY(tv->sortCpus(TimelineView::CpuOrder::Number));
        QCOMPARE(w.viewState()->cpus().front(), 0);
        QCOMPARE(w.viewState()->cpus().back(), 39);
        // collapsing (a collapsed lane's columns hold only its thin row's fields: painted the same as from
        // full columns, and once expanded again, computed in full)
        tv->collapseAll(true);
        for (int c = 0; c < 40; ++c)
            QVERIFY(plot->collapsed(c));
        QVERIFY(plot->contentHeight() <= plot->dataHeight()); // 40 thin lanes fit
        plot->invalidateSummaries();
        const QImage thin = tv->render(); // (from collapsed columns)
        tv->collapseAll(false);
        tv->render();
        tv->collapseAll(true);
        QVERIFY(tv->render() == thin); // (from the full columns just computed)
        tv->collapseAll(false);
        const QImage expanded = tv->render();
        plot->invalidateSummaries();
        QVERIFY(tv->render() == expanded);
        tv->collapseAll(true);
        QTRY_VERIFY_WITH_TIMEOUT(w.panels()->findings()->findings() != nullptr, 20000);
        tv->setFindings(w.panels()->findings()->findings());
        tv->expandCpusWithFindings();
        for (int c = 0; c < 40; ++c)
            QCOMPARE(plot->collapsed(c), !(c >= 10 && c <= 13));
    }

    // Groups from the boot parameters (isolcpus=3-5 nohz_full=6-11 on the simulated command line): in the
    // CPU number order each group's lanes are together, so each has a header with its CPUs and the lanes
    // leave room for it; an order that mixes them has none; the group order brings them back.
    void groupHeadersFollowTheBootParameters()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(openScenario(w, QStringLiteral("seed000-nohzfull-poll,cpus=12,nohz_full=6-11,isolcpus=3-5")));
        TimelineView *tv = w.timeline();
        TimelinePlot *plot = tv->plot();
        auto headers = [&] {
            std::vector<std::pair<int, QString>> out;
            for (const LaneGeometry::Lane &l : plot->geometry().lanes)
                if (!l.header.isEmpty()) out.push_back({l.cpu, l.header});
            return out;
        };
        const auto h = headers();
        QCOMPARE(h.size(), size_t{3});
        QCOMPARE(h[0].first, 0);
        QCOMPARE(h[0].second, QStringLiteral("housekeeping · 3 CPUs: 0-2"));
        QCOMPARE(h[1].first, 3);
        QCOMPARE(h[1].second, QStringLiteral("isolated · 3 CPUs: 3-5"));
        QCOMPARE(h[2].first, 6);
        QCOMPARE(h[2].second, QStringLiteral("nohz_full · 6 CPUs: 6-11"));
        const LaneGeometry &g = plot->geometry();
        QVERIFY(g.laneOf(3)->top - (g.laneOf(2)->top + g.laneOf(2)->height) >= LaneGeometry::kHeader);
        // the header is drawn above the lane: its band differs from the background between lanes
        const QImage img = tv->render();
        const int y = g.laneOf(6)->top - LaneGeometry::kHeader / 2;
        QVERIFY(img.pixelColor(60, y) != img.pixelColor(60, g.laneOf(6)->top - LaneGeometry::kHeader - 3));
        // mixed groups: no headers
        w.viewState()->setCpus({0, 6, 3, 7, 1, 8});
        QVERIFY(headers().empty());
        QTRY_VERIFY_WITH_TIMEOUT(tv->sortCpus(TimelineView::CpuOrder::Group), 20000);
        const std::vector<int> order = w.viewState()->cpus();
        QCOMPARE(order, (std::vector<int>{0, 1, 3, 6, 7, 8}));
        QCOMPARE(headers().size(), size_t{3});
        QCOMPARE(headers()[1].second, QStringLiteral("isolated · 1 CPU: 3"));
    }

    // At 1024×700 with the docks shown, every lane of a 2-CPU trace fits without scrolling, the timers
    // row of CPU 1 is not a solid band, and the lane labels are at least 10 px.
    void smallWindowLayout()
    {
        MainWindow w;
        w.resize(1024, 700);
        w.show();
        QSignalSpy shown(&w, &MainWindow::traceShown);
        w.openFile(QStringLiteral(TICKSCOPE_TEST_DATA "/nohzfull-poll.dat"));
        QVERIFY(shown.wait(30000));
        TimelinePlot *plot = w.timeline()->plot();
        QVERIFY(plot->height() > 0);
        const LaneGeometry &g = plot->geometry();
        QVERIFY2(g.contentHeight <= plot->height(),
                 qPrintable(QStringLiteral("lanes %1 px in %2 px").arg(g.contentHeight).arg(plot->height())));
        const QImage img = w.timeline()->render();
        QRect timers = g.rowRect(1, LaneRow::Event);
        timers.setLeft(g.left);
        timers.setRight(g.right - 1);
        timers.setBottom(timers.bottom() - 6); // above the softirq band
        int painted = 0;
        for (int x = timers.left(); x <= timers.right(); ++x)
            painted += test::countColour(img, QRect(x, timers.top(), 1, timers.height()), Qt::white) <
                       timers.height();
        QVERIFY2(
            painted * 2 < timers.width(),
            qPrintable(
                QStringLiteral("timers row painted in %1 of %2 columns").arg(painted).arg(timers.width())));
        // the labels as painted: "CPU 1" (bold, kLabelPixels + 2) is at least 9 px tall in the left margin
        QVERIFY(CpuLanePlottable::kLabelPixels >= 10);
        const LaneGeometry::Lane *l1 = g.laneOf(1);
        QVERIFY(l1);
        int inked = 0;
        for (int y = l1->top; y < l1->top + CpuLanePlottable::kLabelPixels + 4; ++y) {
            bool ink = false;
            for (int x = 0; x < g.left - 2 && !ink; ++x)
                ink = qGray(img.pixel(x, y)) < 100;
            inked += ink;
        }
        QVERIFY2(inked >= 9, qPrintable(QStringLiteral("CPU label %1 px tall").arg(inked)));
    }
};

QTEST_MAIN(OverviewTest)
#include "OverviewTest.moc"
