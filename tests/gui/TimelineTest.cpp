// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline as a person sees and uses it, headless (QT_QPA_PLATFORM=offscreen): spurious-tick pixels in
// CPU1's tick row of nohzfull-poll.dat and none for nohzfull-nopoll.dat; wheel zoom at the cursor, drag to
// pan, keys and zoom undo/redo move ViewState's range as expected; a click selects the tick under it; a
// selection made elsewhere is scrolled into view; markers give Δt; progress and cancel on a big generated
// file.
#include "GuiTestUtil.h"
#include "MainWindow.h"
#include "TimelineOverlay.h"
#include "TimelinePalette.h"
#include "TimelinePlot.h"
#include "TimelineView.h"
#include "ViewState.h"

#include "report/TickReport.h"

#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolTip>
#include <QXmlStreamReader>

using namespace tickscope;

namespace {

using test::countColour;

bool open(MainWindow &w, const QString &name)
{
    // The timeline alone: the panel docks would take part of the window's width.
    for (QDockWidget *d : w.findChildren<QDockWidget *>())
        d->hide();
    QSignalSpy shown(&w, &MainWindow::traceShown);
    w.openFile(QStringLiteral(TICKSCOPE_TEST_DATA "/") + name);
    return shown.wait(30000);
}

TickRecord firstSpurious(const MainWindow &w, int cpu)
{
    for (const TickRecord &t : w.document().analysis->cpus[cpu].ticks)
        if (t.flags & TickFlag::Spurious) return t;
    return {0, TickContext::Unknown, 0};
}

} // namespace

class TimelineTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { test::initTestApplication(); }

    void spuriousTicksArePaintedInCpu1TickRowOnlyWithPolling()
    {
        MainWindow w;
        w.resize(1400, 800);
        w.show();
        QVERIFY(open(w, QStringLiteral("nohzfull-poll.dat")));
        TimelinePlot *plot = w.timeline()->plot();
        const QColor spurious = palette::spurious();
        const QImage img = w.timeline()->render();
        QCOMPARE(img.size(), plot->size());
        const QRect cpu1 = plot->geometry().rowRect(1, LaneRow::Tick);
        QVERIFY(!cpu1.isEmpty());
        QVERIFY2(countColour(img, cpu1, spurious) > 100, "no spurious-tick pixels in CPU1's tick row");
        // Housekeeping CPU0 has none, and neither has any state row (the colour is reserved for them).
        QCOMPARE(countColour(img, plot->geometry().rowRect(0, LaneRow::Tick), spurious), 0);
        QCOMPARE(countColour(img, plot->geometry().rowRect(1, LaneRow::State), spurious), 0);
        // The screen shows the same pixels as the image: one paint path.
        plot->replot();
        const QImage screen = plot->grab().toImage();
        QCOMPARE(countColour(screen, cpu1, spurious), countColour(img, cpu1, spurious));
        // A paint into the image of the last one (reused when nobody holds it) leaves nothing of that one.
        {
            ViewState *v = w.viewState();
            const int64_t a = v->rangeStart(), b = v->rangeEnd();
            const QImage whole = w.timeline()->render().copy(); // (the plot's image is not held)
            v->setRange(a + (b - a) / 3, a + (b - a) / 3 + 50'000);
            const QImage zoomed = w.timeline()->render().copy();
            QVERIFY(zoomed != whole);
            v->setRange(a, b);
            QVERIFY(w.timeline()->render() == whole);
        }

        QVERIFY(open(w, QStringLiteral("nohzfull-nopoll.dat")));
        const QImage none = w.timeline()->render();
        for (int cpu = 0; cpu < w.document().trace->cpuCount(); ++cpu) {
            const QRect r = plot->geometry().rowRect(cpu, LaneRow::Tick);
            QVERIFY(!r.isEmpty());
            QCOMPARE(countColour(none, r, spurious), 0);
            // ...but it does paint ticks there.
            QVERIFY(countColour(none, r, palette::tickRunning()) +
                        countColour(none, r, palette::tickStopped()) >
                    0);
        }
    }

    void lostRangesAreHatched()
    {
        MainWindow w;
        w.resize(1400, 800);
        w.show();
        QVERIFY(open(w, QStringLiteral("host-lost.dat"))); // CPU0: events lost mid-trace; CPU1: at its start
        TimelinePlot *plot = w.timeline()->plot();
        const QImage img = w.timeline()->render();
        const LostRange lost = w.document().trace->cpu(0).lost.front();
        const int x = int(std::lround(plot->xOf(lost.from)));
        const QRect lane0 =
            plot->geometry().rowRect(0, LaneRow::State).united(plot->geometry().rowRect(0, LaneRow::Event));
        QVERIFY(countColour(img, QRect(x - 3, lane0.top(), 7, lane0.height()), palette::lost()) > 5);
        // Nowhere else in CPU0's lane.
        QCOMPARE(countColour(img, QRect(x + 10, lane0.top(), lane0.right() - x - 10, lane0.height()),
                             palette::lost()),
                 0);
        QCOMPARE(countColour(img, QRect(lane0.left() + 4, lane0.top(), x - lane0.left() - 14, lane0.height()),
                             palette::lost()),
                 0);
        QVERIFY(countColour(img,
                            plot->geometry()
                                .rowRect(1, LaneRow::Tick)
                                .adjusted(0, 0, 8 - plot->geometry().rowRect(1, LaneRow::Tick).width(), 0),
                            palette::lost()) > 0);
    }

    void wheelZoomsAtTheCursorDragPansKeysAndUndo()
    {
        MainWindow w;
        w.resize(1400, 800);
        w.show();
        QVERIFY(open(w, QStringLiteral("nohzfull-poll.dat")));
        ViewState *vs = w.viewState();
        TimelinePlot *plot = w.timeline()->plot();
        const int64_t s0 = vs->rangeStart(), e0 = vs->rangeEnd();
        QCOMPARE(s0, w.document().trace->firstTs());
        const QPointF at(plot->geometry().left + 300,
                         plot->geometry().rowRect(0, LaneRow::State).center().y());
        const int64_t tAt = plot->timeAt(at.x());
        QWheelEvent wheel(at, plot->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(plot, &wheel);
        const int64_t s1 = vs->rangeStart(), e1 = vs->rangeEnd();
        QVERIFY(e1 - s1 < e0 - s0);
        QVERIFY(std::abs(double(e1 - s1) - 0.8 * double(e0 - s0)) < 1000);
        QVERIFY2(std::abs(plot->timeAt(at.x()) - tAt) <= (e1 - s1) / 1000, "the time under the cursor moved");

        // Drag 200 px to the left: the view moves 200 px worth of time later.
        const QPoint p0(plot->geometry().left + 600, at.y()), p1 = p0 - QPoint(200, 0);
        const double pxNs = double(e1 - s1) / (plot->geometry().right - plot->geometry().left);
        QTest::mousePress(plot, Qt::LeftButton, {}, p0);
        QTest::mouseMove(plot, p0 - QPoint(100, 0));
        QTest::mouseMove(plot, p1);
        QTest::mouseRelease(plot, Qt::LeftButton, {}, p1);
        QVERIFY(std::abs(double(vs->rangeStart() - (s1 + int64_t(200 * pxNs)))) < 2 * pxNs);
        QCOMPARE(vs->rangeEnd() - vs->rangeStart(), e1 - s1);
        QVERIFY(vs->selection() == EventRef{}); // a drag is not a click

        // Keys: W halves the span, S doubles it, Home goes to the start, D pans a quarter.
        plot->setFocus();
        const int64_t span = vs->rangeEnd() - vs->rangeStart();
        QTest::keyClick(plot, Qt::Key_W);
        QVERIFY(std::abs((vs->rangeEnd() - vs->rangeStart()) - span / 2) <= 1);
        QTest::keyClick(plot, Qt::Key_S);
        QVERIFY(std::abs((vs->rangeEnd() - vs->rangeStart()) - span) <= 2);
        QTest::keyClick(plot, Qt::Key_Home);
        QCOMPARE(vs->rangeStart(), vs->boundsStart());
        QTest::keyClick(plot, Qt::Key_D);
        QVERIFY(std::abs(vs->rangeStart() - vs->boundsStart() - (vs->rangeEnd() - vs->rangeStart()) / 4) <=
                2);
        // Ctrl+Z walks back through D, Home, S, W, the drag and the wheel; Ctrl+Shift+Z redoes.
        for (int k = 0; k < 6; ++k)
            QTest::keyClick(plot, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(vs->rangeStart(), s0);
        QCOMPARE(vs->rangeEnd(), e0);
        QTest::keyClick(plot, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(vs->rangeStart(), s1);
        QCOMPARE(vs->rangeEnd(), e1);

        // Shift+drag: box zoom onto the dragged span.
        const QPoint b0(plot->geometry().left + 100, at.y()), b1(plot->geometry().left + 500, at.y());
        const int64_t tb0 = plot->timeAt(b0.x()), tb1 = plot->timeAt(b1.x());
        QTest::mousePress(plot, Qt::LeftButton, Qt::ShiftModifier, b0);
        QTest::mouseMove(plot, b1);
        QTest::mouseRelease(plot, Qt::LeftButton, Qt::ShiftModifier, b1);
        QCOMPARE(vs->rangeStart(), tb0);
        QCOMPARE(vs->rangeEnd(), tb1);
    }

    void clickSelectsTheTickAndSelectionsScrollIntoView()
    {
        MainWindow w;
        w.resize(1400, 800);
        w.show();
        QVERIFY(open(w, QStringLiteral("nohzfull-poll.dat")));
        ViewState *vs = w.viewState();
        TimelinePlot *plot = w.timeline()->plot();
        const TickRecord tick = firstSpurious(w, 1);
        QVERIFY(tick.flags & TickFlag::Spurious);
        const int64_t ts = w.document().trace->cpu(1).ts(tick.index);
        vs->setRange(ts - 1'000'000, ts + 1'000'000); // 2 ms: ticks are 4 ms apart
        const QPoint p(int(std::lround(plot->xOf(ts))) + 2,
                       plot->geometry().rowRect(1, LaneRow::Tick).center().y());
        QTest::mouseClick(plot, Qt::LeftButton, {}, p);
        QCOMPARE(vs->selection(), (EventRef{1, int64_t(tick.index)}));
        // The selection is drawn where the tick is.
        const QImage img = w.timeline()->render();
        QVERIFY(countColour(img,
                            QRect(p.x() - 8, plot->geometry().rowRect(1, LaneRow::State).top() - 3, 16, 80),
                            palette::selection()) > 10);
        // Clicking empty space clears it.
        QTest::mouseClick(plot, Qt::LeftButton, {}, QPoint(p.x() + 300, p.y()));
        QCOMPARE(vs->selection(), EventRef{});

        // A selection set elsewhere (the event table) outside the view brings the view to it.
        const size_t last = w.document().trace->cpu(0).size() - 1;
        vs->setSelection({0, int64_t(last)});
        const int64_t tl = w.document().trace->cpu(0).ts(last);
        QVERIFY(vs->rangeStart() <= tl && tl <= vs->rangeEnd());
        QCOMPARE(vs->rangeEnd() - vs->rangeStart(), 2'000'000);

        // Next spurious tick (N) from there goes back to... nothing after the last event; Shift+N finds the
        // last one.
        plot->setFocus();
        QTest::keyClick(plot, Qt::Key_N, Qt::ShiftModifier);
        QCOMPARE(vs->selection().cpu, 1);
        QVERIFY(w.document().analysis->cpus[1].ticks.size() > 0);
        const auto &ticks = w.document().analysis->cpus[1].ticks;
        size_t lastSpurious = 0;
        for (const TickRecord &t : ticks)
            if (t.flags & TickFlag::Spurious) lastSpurious = t.index;
        QCOMPARE(vs->selection().index, int64_t(lastSpurious));

        // Markers: Ctrl+click A, Ctrl+Shift+click B, Δt in the status bar.
        const QPoint a(plot->geometry().left + 200, p.y()), b(plot->geometry().left + 700, p.y());
        QTest::mouseClick(plot, Qt::LeftButton, Qt::ControlModifier, a);
        QTest::mouseClick(plot, Qt::LeftButton, Qt::ControlModifier | Qt::ShiftModifier, b);
        QVERIFY(vs->markerA() && vs->markerB());
        QCOMPARE(*vs->markerA(), plot->timeAt(a.x()));
        QCOMPARE(*vs->markerB(), plot->timeAt(b.x()));
        bool deltaShown = false;
        // the markers' times to the microsecond, not rounded to the axis' unit
        const QString aText = QString::number(
            static_cast<double>(*vs->markerA() - w.document().trace->firstTs()) / 1e9, 'f', 6);
        for (QLabel *l : w.statusBar()->findChildren<QLabel *>())
            if (l->text().contains(QStringLiteral("Δt"))) {
                deltaShown = true;
                QVERIFY2(l->text().contains(QStringLiteral("A %1 s").arg(aText)), qPrintable(l->text()));
            }
        QVERIFY(deltaShown);
        w.timeline()->render();
        QVERIFY(plot->overlay()->deltaShown());
        // with neither marker in view the Δt label is not drawn
        const int64_t lo = std::min(*vs->markerA(), *vs->markerB()),
                      hi = std::max(*vs->markerA(), *vs->markerB());
        if (lo - vs->boundsStart() > 10'000)
            vs->setRange(vs->boundsStart(), vs->boundsStart() + 5'000);
        else
            vs->setRange(vs->boundsEnd() - 5'000, vs->boundsEnd());
        QVERIFY(vs->rangeEnd() < lo || vs->rangeStart() > hi);
        w.timeline()->render();
        QVERIFY(!plot->overlay()->deltaShown());
        QTest::keyClick(plot, Qt::Key_M); // zoom to the markers
        QCOMPARE(vs->rangeStart(), *vs->markerA());
        QCOMPARE(vs->rangeEnd(), *vs->markerB());
        QVERIFY(w.statusText().contains(QStringLiteral("nohz_full: 1 (inferred)")));
        // P: the span between the workload's first and last ftrace print marker.
        const auto prints = markerWindow(*w.document().trace, *w.document().analysis);
        QVERIFY(prints);
        QTest::keyClick(plot, Qt::Key_P);
        QCOMPARE(vs->rangeStart(), prints->first);
        QCOMPARE(vs->rangeEnd(), prints->second);
        // 0: the whole trace again.
        QTest::keyClick(plot, Qt::Key_0);
        QCOMPARE(vs->rangeStart(), vs->boundsStart());
        QCOMPARE(vs->rangeEnd(), vs->boundsEnd());
    }

    void lanesHideReorderCollapseTooltipAndExport()
    {
        MainWindow w;
        w.resize(1400, 800);
        w.show();
        QVERIFY(open(w, QStringLiteral("nohzfull-poll.dat")));
        ViewState *vs = w.viewState();
        TimelinePlot *plot = w.timeline()->plot();
        // Reorder: CPU1 above CPU0.
        w.timeline()->moveCpu(1, -1);
        QCOMPARE(vs->cpus(), (std::vector<int>{1, 0}));
        QVERIFY(plot->geometry().rowRect(1, LaneRow::State).top() <
                plot->geometry().rowRect(0, LaneRow::State).top());
        const QRect cpu1Tick = plot->geometry().rowRect(1, LaneRow::Tick);
        QVERIFY(countColour(w.timeline()->render(), cpu1Tick, palette::spurious()) > 0);
        // Collapse CPU1: a thin state row only, no tick row, no spurious marks anywhere.
        plot->setCollapsed(1, true);
        QVERIFY(plot->geometry().rowRect(1, LaneRow::Tick).isEmpty());
        QCOMPARE(countColour(w.timeline()->render(), plot->rect(), palette::spurious()), 0);
        plot->setCollapsed(1, false);
        // Hide CPU0: one lane left.
        w.timeline()->showCpus({1});
        QCOMPARE(plot->geometry().lanes.size(), size_t(1));
        QVERIFY(plot->geometry().rowRect(0, LaneRow::State).isEmpty());

        // Tooltip over a spurious tick gives the event and the verdict.
        const TickRecord tick = firstSpurious(w, 1);
        const int64_t ts = w.document().trace->cpu(1).ts(tick.index);
        vs->setRange(ts - 1'000'000, ts + 1'000'000);
        const QPoint p(int(std::lround(plot->xOf(ts))),
                       plot->geometry().rowRect(1, LaneRow::Tick).center().y());
        QHelpEvent help(QEvent::ToolTip, p, plot->mapToGlobal(p));
        QApplication::sendEvent(plot, &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains(QStringLiteral("SPURIOUS")), qPrintable(QToolTip::text()));
        QVERIFY(QToolTip::text().contains(QStringLiteral("hrtimer_expire_entry")));

        // Export: PDF and PNG through the same plottables.
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("t.pdf")),
                      png = dir.filePath(QStringLiteral("t.png"));
        QVERIFY(plot->exportTo(pdf));
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.read(4) == "%PDF");
        QVERIFY(f.size() > 1000);
        QVERIFY(plot->exportTo(png));
        QImage img(png);
        QCOMPARE(img.size(), plot->size());
        QVERIFY(countColour(img, plot->geometry().rowRect(1, LaneRow::Tick), palette::spurious()) > 0);

        // SVG: lanes as shapes in the spurious tick's colour, the lane label and axis as text.
        const QString svg = dir.filePath(QStringLiteral("t.svg"));
        QVERIFY(plot->exportTo(svg));
        QFile sf(svg);
        QVERIFY(sf.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&sf);
        QStringList texts;
        int shapes = 0, spuriousShapes = 0;
        const QString spurious = palette::spurious().name(); // "#rrggbb"
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement) continue;
            const QStringView name = xml.name();
            if (name == QLatin1String("text")) {
                texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).simplified();
            } else if (name == QLatin1String("path") || name == QLatin1String("rect") ||
                       name == QLatin1String("polygon") || name == QLatin1String("polyline")) {
                ++shapes;
            } else if (name == QLatin1String("g") &&
                       xml.attributes().value(QLatin1String("fill")).compare(spurious, Qt::CaseInsensitive) ==
                           0) {
                ++spuriousShapes;
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY2(texts.contains(QStringLiteral("CPU 1")), qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY2(shapes > 10, qPrintable(QString::number(shapes)));
        QVERIFY2(spuriousShapes > 0, qPrintable(spurious));
        QVERIFY(!plot->exportTo(QStringLiteral("/nonexistent-dir/t.svg")));
    }

    // A file's CPUs without any event start hidden, the status bar says which; Show All CPUs brings them
    // back. A trace whose every CPU has events shows them all.
    void cpusWithoutEventsStartHidden()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sparse.txt"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            for (int k = 0; k < 50; ++k) {
                for (int cpu : {0, 5, 9}) {
                    const double t = 100.0 + k * 0.004 + cpu * 0.0001;
                    f.write(QStringLiteral(
                                "          <idle>-0     [%1] d.h1.  %2: local_timer_entry: vector=236\n"
                                "          <idle>-0     [%1] d.h1.  %3: local_timer_exit: vector=236\n")
                                .arg(cpu, 3, 10, QLatin1Char('0'))
                                .arg(t, 0, 'f', 6)
                                .arg(t + 0.00001, 0, 'f', 6)
                                .toUtf8());
                }
            }
        }
        MainWindow w;
        w.resize(1400, 800);
        w.show();
        QSignalSpy shown(&w, &MainWindow::traceShown);
        w.openFile(path);
        QVERIFY(shown.wait(30000));
        QCOMPARE(w.document().trace->cpuCount(), 10);
        QCOMPARE(w.viewState()->cpus(), (std::vector<int>{0, 5, 9}));
        QVERIFY2(w.statusText().contains(QStringLiteral("no events on CPUs 1-4,6-8: hidden")),
                 qPrintable(w.statusText()));
        QAction *all = nullptr;
        for (QAction *a : w.timeline()->actions())
            if (a->text() == QStringLiteral("Show All CPUs")) all = a;
        QVERIFY(all);
        all->trigger();
        QCOMPARE(w.viewState()->cpus().size(), size_t{10});
        QVERIFY(open(w, QStringLiteral("nohzfull-poll.dat")));
        QCOMPARE(w.viewState()->cpus(), (std::vector<int>{0, 1}));
        QVERIFY(!w.statusText().contains(QStringLiteral("hidden")));
    }

    // The jumps search the CPU under the pointer (else the CPUs shown) and honour the spurious class; F
    // steps through the findings' instances.
    void jumpsFollowTheCursorTheClassAndTheFindings()
    {
        MainWindow w;
        w.resize(1400, 800);
        w.show();
        QVERIFY(open(w, QStringLiteral("nohzfull-poll.dat")));
        TimelineView *tv = w.timeline();
        TimelinePlot *plot = tv->plot();
        const QRect cpu0 = plot->geometry().rowRect(0, LaneRow::Tick);
        QCOMPARE(tv->jumpCpus(cpu0.center()), std::vector<int>{0});
        QCOMPARE(tv->jumpCpus(QPoint(-50, -50)), w.viewState()->cpus());
        const Document &doc = w.document();
        const int64_t start = doc.trace->firstTs();
        for (auto [target, user] :
             {std::pair{JumpTarget::SpuriousUser, true}, {JumpTarget::SpuriousPolling, false}}) {
            const auto hit = doc.timeline->jump(target, {0, 1}, start, true);
            QVERIFY(hit);
            bool found = false;
            for (const TickRecord &t : doc.analysis->cpus[hit->cpu].ticks)
                if (t.index == hit->event) {
                    found = true;
                    QVERIFY(t.flags & TickFlag::Spurious);
                    QCOMPARE(t.context == TickContext::User, user);
                }
            QVERIFY(found);
        }
        // F: the first finding instance after the selection, on the CPUs shown
        const TickReport r = TickReport::make(*doc.trace, *doc.analysis, {});
        tv->setFindings(std::make_shared<const std::vector<Finding>>(r.findings));
        w.viewState()->setSelection({1, 0});
        int64_t first = INT64_MAX;
        for (const Finding &f : r.findings)
            if (!f.at.empty() && f.at.front() > doc.trace->cpu(1).ts(0))
                first = std::min(first, f.at.front());
        tv->jumpToFinding(true);
        const EventRef sel = w.viewState()->selection();
        QVERIFY(sel.valid());
        QCOMPARE(doc.trace->cpu(sel.cpu).ts(static_cast<size_t>(sel.index)), first);
        tv->setSpuriousClass(TimelineView::SpuriousClass::Polling);
        QCOMPARE(tv->spuriousClass(), TimelineView::SpuriousClass::Polling);
    }

    void progressAndCancelOnABigFile()
    {
        QTemporaryDir dir;
        const QString big = dir.filePath(QStringLiteral("big.txt"));
        {
            QFile f(big);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray chunk;
            const qint64 lines = 2'500'000;
            for (qint64 i = 0; i < lines; ++i) {
                const qint64 us = 1'000'000 + i;
                chunk += QByteArray("           bench-1000    [00") + char('0' + (i & 1)) + "] ..... " +
                         QByteArray::number(us / 1'000'000) + "." +
                         QByteArray::number(us % 1'000'000).rightJustified(6, '0') +
                         ": sys_enter: NR 0 (0, 0, 0, 0, 0, 0)\n";
                if (chunk.size() > (1 << 20)) {
                    f.write(chunk);
                    chunk.clear();
                }
            }
            f.write(chunk);
        }
        MainWindow w;
        w.show();
        // Progress: several distinct values between 0 and 1, never going back, then the trace.
        QList<double> seen;
        QTimer sampler;
        connect(&sampler, &QTimer::timeout, [&] {
            if (w.loading()) seen << w.progressValue();
        });
        sampler.start(5);
        QSignalSpy shown(&w, &MainWindow::traceShown);
        w.openFile(big);
        QVERIFY(shown.wait(120000));
        sampler.stop();
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        QList<double> inside;
        for (double v : seen)
            if (v > 0 && v < 1 && !inside.contains(v)) inside << v;
        QVERIFY2(inside.size() >= 3,
                 qPrintable(QStringLiteral("%1 distinct progress values").arg(inside.size())));
        QCOMPARE(w.document().trace->eventCount(), size_t(2'500'000));

        // Cancel: the Cancel button stops the load; nothing is shown afterwards.
        QSignalSpy shown2(&w, &MainWindow::traceShown);
        w.openFile(big);
        QTRY_VERIFY_WITH_TIMEOUT(w.progressValue() > 0, 60000);
        QPushButton *cancel = nullptr;
        for (QPushButton *b : w.findChildren<QPushButton *>())
            if (b->text() == QStringLiteral("Cancel")) cancel = b;
        QVERIFY(cancel && cancel->isVisible());
        // the progress bar leaves the legend visible
        QWidget *legend = w.timeline()->legend();
        const QRect legendRect(legend->mapTo(&w, QPoint(0, 0)), legend->size());
        const QRect barRect(cancel->parentWidget()->parentWidget()->mapTo(&w, QPoint(0, 0)),
                            cancel->parentWidget()->parentWidget()->size());
        QVERIFY2(!barRect.intersects(legendRect), qPrintable(QStringLiteral("bar %1,%2 %3x%4 legend %5,%6")
                                                                 .arg(barRect.x())
                                                                 .arg(barRect.y())
                                                                 .arg(barRect.width())
                                                                 .arg(barRect.height())
                                                                 .arg(legendRect.x())
                                                                 .arg(legendRect.y())));
        QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(!w.loading());
        QVERIFY(!cancel->isVisible());
        QVERIFY(w.statusBar()->currentMessage().contains(QStringLiteral("cancelled")));
        QVERIFY2(w.statusText().contains(QStringLiteral(" events · ")) &&
                     !w.statusText().contains(QStringLiteral("Loading")),
                 qPrintable(w.statusText())); // the facts of what is still shown
        QTest::qWait(1500);
        QCOMPARE(shown2.count(), 0);
    }
};

QTEST_MAIN(TimelineTest)
#include "TimelineTest.moc"
