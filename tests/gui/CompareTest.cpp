// SPDX-License-Identifier: GPL-3.0-or-later
// The compare view on real traces and on the simulator, headless: nohzfull-poll.dat (A) against
// nohzfull-nopoll.dat (B) paints spurious ticks in A's CPU 1 tick row and none in B's, and the
// difference panel says CPU 1's user ticks went 200 -> 0 over the markers; alignment by print marker puts
// both first markers on one pixel column (by start, both starts); a CPU map puts the mapped lanes next to
// each other; the seed 000 baseline against its p1p2 variant gives CPU 3's user ticks ~200 -> 0 without
// stalling the event loop, also when asked from the what-if panel, which refuses bad values at the control
// and reads back what it saves; a broken B gets the error dialog and leaves A open. Run B in the event
// table and the jumps: CompareRunBTest.cpp.
#include "CompareSupport.h"
#include "DifferencePanel.h"
#include "FindingsPanel.h"
#include "GuiTestUtil.h"
#include "HistogramPanel.h"
#include "MainWindow.h"
#include "PanelDocks.h"
#include "SimulatorPanel.h"
#include "TimelinePalette.h"
#include "TimelinePlot.h"
#include "TimelineView.h"
#include "ViewState.h"

#include "report/TickReport.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <qcustomplot.h>

using namespace tickscope;
using test::compare;
using test::countColour;
using test::data;

class CompareTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { test::initTestApplication(); }

    void pollAgainstNoPollShowsTheSpuriousTicksGoAway()
    {
        MainWindow w;
        w.resize(1500, 900);
        w.show();
        QVERIFY(compare(w, data("nohzfull-poll.dat"), data("nohzfull-nopoll.dat")));
        TimelinePlot *plot = w.timeline()->plot();
        const LaneGeometry &g = plot->geometry();
        // Each CPU: A's lane, then B's directly below it.
        QCOMPARE(static_cast<int>(g.lanes.size()), 4);
        QCOMPARE(g.lanes[2].cpu, 1);
        QCOMPARE(g.lanes[2].run, 0);
        QCOMPARE(g.lanes[3].cpu, 1);
        QCOMPARE(g.lanes[3].run, 1);
        const QImage img = w.timeline()->render();
        const QColor spurious = palette::spurious();
        const int inA = countColour(img, g.rowRect(1, LaneRow::Tick, 0), spurious);
        const int inB = countColour(img, g.rowRect(1, LaneRow::Tick, 1), spurious);
        QVERIFY2(inA > 1000, qPrintable(QString::number(inA)));
        QCOMPARE(inB, 0);

        // The difference panel, over each run's markers by default: CPU 1's user ticks 200 -> 0.
        DifferencePanel *d = w.panels()->difference();
        QVERIFY(w.panels()->differenceDock()->isVisible());
        const MetricDiff *user = d->metricOf(1, "ticks_user");
        QVERIFY(user);
        QCOMPARE(user->before, 200.0);
        QCOMPARE(user->after, 0.0);
        QCOMPARE(user->verdict(), 1); // on a nohz_full CPU fewer ticks are better
        const MetricDiff *stopped = d->metricOf(1, "tick_stopped_s");
        QVERIFY(stopped && stopped->after > stopped->before && stopped->verdict() == 1);
        // The same numbers `tickscope-cli compare` prints, and the panel's rows say them as text.
        const QString text = d->text();
        QVERIFY2(text.contains(QRegularExpression(
                     QStringLiteral("\\n\\s*1\\s+ticks_user\\s+200\\s+0\\s+-200\\s+-100.0%"))),
                 qPrintable(text));
        // Unchanged rows are hidden, and come back when asked for.
        const int shownRows = d->table()->rowCount();
        d->hideUnchanged()->setChecked(false);
        QVERIFY(d->table()->rowCount() > shownRows);
        // Sorting by the change puts the largest change first.
        d->table()->sortItems(4, Qt::DescendingOrder);
        double prev = 1e300;
        for (int r = 0; r < d->table()->rowCount(); ++r) {
            const double v = std::abs(d->table()->item(r, 4)->text().toDouble());
            QVERIFY2(v <= prev, qPrintable(QStringLiteral("row %1").arg(r)));
            prev = v;
        }
        // The histograms draw B's samples over A's on the same bins, the legend naming both runs.
        HistogramPanel *h = w.panels()->histograms();
        auto samplesOf = [](const QCPGraph *g) {
            double sum = 0;
            for (const QCPGraphData &x : *g->data())
                sum += x.value;
            return sum;
        };
        QTRY_VERIFY_WITH_TIMEOUT(samplesOf(h->latencyPlot()->graph(1)) > 0, 10000);
        QVERIFY(h->latencyPlot()->legend->visible());
        QCOMPARE(h->latencyPlot()->graph(1)->name(), QStringLiteral("B"));
        QVERIFY(h->latencyPlot()->toolTip().contains(QStringLiteral("B: nohzfull-nopoll.dat")));
        QCOMPARE(h->latencyPlot()->graph(0)->data()->size(), h->latencyPlot()->graph(1)->data()->size());
        QCOMPARE(h->latencyPlot()->graph(0)->data()->at(0)->key,
                 h->latencyPlot()->graph(1)->data()->at(0)->key);
        // "Only CPUs that differ" shows the CPUs with any changed figure.
        w.setOnlyDifferingCpus(true);
        std::vector<int> differing;
        for (const CpuDiff &c : d->diffs())
            if (c.changed()) differing.push_back(c.cpuA);
        QVERIFY(!differing.empty());
        QCOMPARE(w.viewState()->cpus(), differing);
        w.setOnlyDifferingCpus(false);
        QCOMPARE(w.viewState()->cpus(), (std::vector<int>{0, 1}));
        // Closing the comparison frees B and leaves A's two lanes.
        const std::weak_ptr<const Trace> b = w.viewState()->comparison()->b.trace;
        w.closeComparison();
        QVERIFY(!w.viewState()->comparison());
        QTRY_VERIFY(b.expired()); // once the panels' background jobs let go of it
        QCOMPARE(static_cast<int>(g.lanes.size()), 2);
        QVERIFY(countColour(w.timeline()->render(), g.rowRect(1, LaneRow::Tick), spurious) > 1000);
    }

    // The Findings panel lists run B's findings after A's, the CPU column naming the run, and a B row goes
    // to B's instance in B's lane.
    void theFindingsPanelListsRunBsFindingsToo()
    {
        MainWindow w;
        w.resize(1500, 900);
        w.show();
        FindingsPanel *fp = w.panels()->findings();
        QVERIFY(compare(w, data("nohzfull-nopoll.dat"), data("nohzfull-poll.dat")));
        QTRY_VERIFY_WITH_TIMEOUT(fp->findingsB() != nullptr, 30000);
        const Comparison &c = *w.viewState()->comparison();
        const TickReport ra = TickReport::make(*w.document().trace, *w.document().analysis, {});
        const TickReport rb = TickReport::make(*c.b.trace, *c.b.analysis, {});
        QVERIFY(!rb.findings.empty()); // B polls: its spurious ticks are findings
        QCOMPARE(fp->findings()->size(), ra.findings.size());
        QCOMPARE(fp->findingsB()->size(), rb.findings.size());
        QTreeWidget *list = fp->list();
        QCOMPARE(list->topLevelItemCount(), static_cast<int>(ra.findings.size() + rb.findings.size()));
        QTreeWidgetItem *firstB = nullptr;
        for (int i = 0; i < list->topLevelItemCount(); ++i) {
            QTreeWidgetItem *item = list->topLevelItem(i);
            const bool b = i >= static_cast<int>(ra.findings.size());
            const Finding &f = b ? rb.findings[static_cast<size_t>(i) - ra.findings.size()]
                                 : ra.findings[static_cast<size_t>(i)];
            QCOMPARE(item->text(1), QStringLiteral("%1 %2").arg(b ? 'B' : 'A').arg(f.cpu));
            QCOMPARE(item->text(2), QString::fromStdString(f.what));
            // "First at" from the run's own time zero
            const double first = static_cast<double>(f.first - (b ? c.zeroB : c.zeroA)) / 1e9;
            QCOMPARE(item->text(3), QString::number(first, 'f', 6));
            if (b && !firstB) firstB = item;
        }
        list->setCurrentItem(firstB);
        fp->showInstance(0);
        const EventRef sel = w.viewState()->selection();
        const Finding &f = rb.findings.front();
        QCOMPARE(sel.run, 1);
        QCOMPARE(sel.cpu, f.cpu);
        QCOMPARE(c.b.trace->cpu(sel.cpu).ts(static_cast<size_t>(sel.index)), f.first);
        const int64_t onA = f.first - c.shift(); // B's time on A's axis
        QVERIFY(w.viewState()->rangeStart() <= onA && onA <= w.viewState()->rangeEnd());
        QVERIFY(fp->detail()->text().contains(QStringLiteral("Run B")));
        // without the comparison, A's findings alone, as before
        w.openFile(data("nohzfull-nopoll.dat"));
        QTRY_VERIFY_WITH_TIMEOUT(!fp->findingsB() && fp->findings(), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(list->topLevelItemCount(),
                                  std::max(1, static_cast<int>(ra.findings.size())), 30000);
        if (!ra.findings.empty())
            QCOMPARE(list->topLevelItem(0)->text(1), QString::number(ra.findings[0].cpu));
    }

    void alignmentPutsTheChosenZerosOnOnePixelColumn()
    {
        MainWindow w;
        w.resize(1500, 900);
        w.show();
        QVERIFY(compare(w, data("nohzfull-poll.dat"), data("nohzfull-nopoll.dat")));
        TimelinePlot *plot = w.timeline()->plot();
        const auto cmp = w.viewState()->comparison();
        QVERIFY(cmp);
        QCOMPARE(cmp->how, std::string("marker")); // the default when both runs have markers
        // the Compare menu checks the alignment in force, and holds the ways into a comparison
        const auto checked = [&w] {
            for (QAction *m : w.menuBar()->actions())
                if (m->text() == QStringLiteral("&Compare"))
                    for (QAction *a : m->menu()->actions())
                        if (a->isChecked()) return a->text();
            return QString();
        };
        QCOMPARE(checked(), QStringLiteral("Align by First &Marker"));
        const Document &a = w.document();
        const int64_t ma = *firstMarker(*a.trace, *a.analysis),
                      mb = *firstMarker(*cmp->b.trace, *cmp->b.analysis);
        // Zoom in around the marker so that a pixel is small (10 ms over ~1400 px).
        w.viewState()->setRange(ma - 5'000'000, ma + 5'000'000);
        QVERIFY(std::abs(plot->xOfRun(0, ma) - plot->xOfRun(1, mb)) < 0.5);
        QCOMPARE(plot->origin(), ma); // the axis' 0 is A's marker

        // An offset: B's zero 0.3 s after its start, A's at its start; the markers then part.
        QVERIFY(w.setAlignment(Alignment{AlignBy::Offset, 300'000'000}));
        QCOMPARE(w.viewState()->comparison()->zeroB, cmp->b.trace->firstTs() + 300'000'000);
        QCOMPARE(plot->origin(), a.trace->firstTs());
        w.viewState()->setRange(ma - 5'000'000, ma + 5'000'000);
        QVERIFY(std::abs(plot->xOfRun(0, a.trace->firstTs()) -
                         plot->xOfRun(1, cmp->b.trace->firstTs() + 300'000'000)) < 0.5);
        QVERIFY(std::abs(plot->xOfRun(0, ma) - plot->xOfRun(1, mb)) > 50);
        QCOMPARE(checked(), QStringLiteral("Align by &Offset…"));
        // By start: both starts on one column.
        QVERIFY(w.setAlignment(Alignment{AlignBy::Start, 0}));
        QCOMPARE(checked(), QStringLiteral("Align by Trace &Start"));
        w.viewState()->setRange(a.trace->firstTs(), a.trace->firstTs() + 10'000'000);
        QVERIFY(std::abs(plot->xOfRun(0, a.trace->firstTs()) - plot->xOfRun(1, cmp->b.trace->firstTs())) <
                0.5);
        // And back to the markers.
        QVERIFY(w.setAlignment(Alignment{AlignBy::Marker, 0}));
        w.viewState()->setRange(ma - 5'000'000, ma + 5'000'000);
        QVERIFY(std::abs(plot->xOfRun(0, ma) - plot->xOfRun(1, mb)) < 0.5);

        // Ctrl+drag in a B lane moves B against A: B's time under the pointer stays under it.
        {
            const int64_t zeroB = w.viewState()->comparison()->zeroB;
            const QRect bRow = plot->geometry().rowRect(1, LaneRow::State, 1);
            const QPoint from(bRow.left() + 300, bRow.center().y()), to = from + QPoint(200, 0);
            const int64_t dt = plot->timeAt(to.x()) - plot->timeAt(from.x());
            QTest::mousePress(plot, Qt::LeftButton, Qt::ControlModifier, from);
            QTest::mouseMove(plot, from + QPoint(100, 0));
            QTest::mouseMove(plot, to);
            QTest::mouseRelease(plot, Qt::LeftButton, Qt::ControlModifier, to);
            const auto moved = w.viewState()->comparison();
            QVERIFY(std::abs((zeroB - moved->zeroB) - dt) <= dt / 100);
            QCOMPARE(moved->how, std::string("offset (dragged)"));
            QCOMPARE(w.viewState()->rangeStart(), ma - 5'000'000); // the view stays where it was
            QVERIFY(w.setAlignment(Alignment{AlignBy::Marker, 0}));
        }

        // On an event selected in each run: click one in A's CPU 1 lane, then one in B's.
        w.viewState()->setSelection({1, 10, 0});
        w.viewState()->setSelection({1, 20, 1});
        QVERIFY(w.alignOnSelections());
        const auto sel = w.viewState()->comparison();
        QCOMPARE(sel->zeroA, a.trace->cpu(1).ts(10));
        QCOMPARE(sel->zeroB, sel->b.trace->cpu(1).ts(20));
        QCOMPARE(checked(), QStringLiteral("Align on Selected &Events"));
        QVERIFY(w.findChild<QAction *>(QStringLiteral("compareWith"))->associatedObjects().size() >= 2);
    }

    void aCpuMapPutsTheMappedLanesTogether()
    {
        MainWindow w;
        w.resize(1500, 900);
        w.show();
        QVERIFY(compare(w, data("nohzfull-poll.dat"), data("nohzfull-nopoll.dat")));
        QSignalSpy diff(w.panels()->difference(), &DifferencePanel::updated);
        w.setCpuMap({1, 0}); // A's CPU 0 against B's CPU 1, A's CPU 1 against B's CPU 0
        const LaneGeometry &g = w.timeline()->plot()->geometry();
        const LaneGeometry::Lane *a1 = g.laneOf(1, 0), *b0 = g.laneOf(0, 1);
        QVERIFY(a1 && b0);
        QVERIFY(a1->top < b0->top);
        QVERIFY2(b0->top - (a1->top + a1->height) <= 2, "B's mapped lane directly under A's");
        // The difference panel pairs the mapped CPUs too.
        QVERIFY(diff.wait(30000));
        bool paired = false;
        for (const CpuDiff &c : w.panels()->difference()->diffs())
            paired |= c.cpuA == 1 && c.cpuB == 0;
        QVERIFY(paired);
    }

    void theFirstStartComparisonRunsOffTheGuiThread()
    {
        MainWindow w;
        w.resize(1500, 900);
        w.show();
        // Event-loop gaps while both simulations, analyses and the difference run.
        test::EventLoopStalls stalls;
        stalls.start();
        QVERIFY(compare(w, QStringLiteral("seed000-nohzfull-poll"),
                        QStringLiteral("seed000-nohzfull-poll:p1p2")));
        stalls.stop();
        qInfo("%s", qPrintable(stalls.describe()));
        QVERIFY2(stalls.worstMs() < test::kStallLimitMs, qPrintable(stalls.describe()));
        const MetricDiff *user = w.panels()->difference()->metricOf(3, "ticks_user");
        QVERIFY(user);
        QVERIFY2(user->before >= 190 && user->before <= 210, qPrintable(QString::number(user->before)));
        QCOMPARE(user->after, 0.0);
    }

    void theWhatIfPanelComparesP1P2WithTheBaseline()
    {
        MainWindow w;
        w.resize(1500, 900);
        w.show();
        SimulatorPanel *p = w.panels()->simulator();
        p->choose(QStringLiteral("seed000-nohzfull-poll"));
        auto *p1 = p->findChild<QCheckBox *>(QStringLiteral("setting:p1_reevaluate"));
        QVERIFY(p1 && !p1->isChecked());
        p1->click();
        auto *p2 = p->findChild<QCheckBox *>(QStringLiteral("setting:p2_stop_tick_on_poll"));
        QVERIFY(p2 && !p2->isChecked());
        p2->click();
        QVERIFY(p->scenario().kernel.p1Reevaluate && p->scenario().kernel.p2StopTickOnPoll);
        QCOMPARE(p->simulation().title,
                 QStringLiteral("seed000-nohzfull-poll,p1_reevaluate=true,p2_stop_tick_on_poll=true"));
        auto *button = p->findChild<QPushButton *>(QStringLiteral("simCompare"));
        QVERIFY(button);
        test::EventLoopStalls stalls;
        QSignalSpy shown(&w, &MainWindow::comparisonShown);
        QSignalSpy diff(w.panels()->difference(), &DifferencePanel::updated);
        stalls.start();
        button->click();
        QVERIFY(shown.wait(60000));
        QVERIFY(diff.count() > 0 || diff.wait(30000));
        stalls.stop();
        qInfo("%s", qPrintable(stalls.describe()));
        QVERIFY2(stalls.worstMs() < test::kStallLimitMs, qPrintable(stalls.describe()));
        const MetricDiff *user = w.panels()->difference()->metricOf(3, "ticks_user");
        QVERIFY(user);
        QVERIFY2(user->before >= 190 && user->before <= 210, qPrintable(QString::number(user->before)));
        QCOMPARE(user->after, 0.0);

        // "Compare with this toggled" on a boolean: the scenario (A) against it with the key flipped (B).
        QSignalSpy asked(p, &SimulatorPanel::compareRequested);
        auto *flip = p->findChild<QToolButton *>(QStringLiteral("toggle:poll_restarts_tick"));
        QVERIFY(flip);
        flip->click();
        QCOMPARE(asked.count(), 1);
        const auto a = asked.at(0).at(0).value<Simulation>(), b = asked.at(0).at(1).value<Simulation>();
        QVERIFY(a.scenario.kernel.pollRestartsTick && !b.scenario.kernel.pollRestartsTick);
        QVERIFY(b.scenario.kernel.p1Reevaluate); // the other changes stay
    }

    void theWhatIfPanelRefusesBadValuesAtTheControl()
    {
        SimulatorPanel p;
        p.show();
        p.choose(QStringLiteral("seed000-nohzfull-poll"));
        auto *cpus = p.findChild<QLineEdit *>(QStringLiteral("setting:cpus"));
        QVERIFY(cpus);
        QCOMPARE(cpus->text(), QStringLiteral("4"));
        cpus->setFocus();
        cpus->selectAll();
        QTest::keyClicks(cpus, QStringLiteral("0"));
        QTest::keyClick(cpus, Qt::Key_Return);
        QTRY_VERIFY(!p.error().isEmpty());
        QVERIFY2(p.error().contains(QStringLiteral("cpus: expected a whole number from 1 to 1024, got '0'")),
                 qPrintable(p.error()));
        QCOMPARE(p.scenario().kernel.cpus, 4);
        QCOMPARE(p.findChild<QLineEdit *>(QStringLiteral("setting:cpus"))->text(), QStringLiteral("4"));
        // A CPU list naming a CPU the scenario lacks: refused by the whole scenario's check.
        QVERIFY(!p.set("nohz_full", "2-9"));
        QVERIFY2(p.error().contains(QStringLiteral("nohz_full")), qPrintable(p.error()));
        QCOMPARE(p.scenario().kernel.nohzFull, (std::vector<int>{2, 3}));
        // A good value clears the message.
        QVERIFY(p.set("hz", "250"));
        QVERIFY(p.error().isEmpty());

        // The tasks table: a cell is a JSON field of the task, checked as the JSON is.
        QVERIFY(p.setListField("tasks", 0, QStringLiteral("work_us"), QStringLiteral("5000")));
        QCOMPARE(p.scenario().tasks[0].workNs, 5'000'000);
        QVERIFY(!p.setListField("tasks", 0, QStringLiteral("cpu"), QStringLiteral("9")));
        QVERIFY2(p.error().contains(QStringLiteral("tasks[0].cpu")), qPrintable(p.error()));
        QCOMPARE(p.scenario().tasks[0].cpu, 3);
        auto *tasks = p.findChild<QTableWidget *>(QStringLiteral("tasks"));
        QVERIFY(tasks);
        int sleepCol = -1;
        for (int c = 0; c < tasks->columnCount(); ++c)
            if (tasks->horizontalHeaderItem(c)->text() == QStringLiteral("sleep_us")) sleepCol = c;
        QVERIFY(sleepCol >= 0);
        tasks->item(0, sleepCol)->setText(QStringLiteral("250")); // as a typed cell does
        QTRY_COMPARE(p.scenario().tasks[0].sleepNs, int64_t{250'000});
        QVERIFY(p.error().isEmpty());

        // Saved and loaded as JSON: the same scenario.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("what-if.json"));
        QVERIFY(p.saveJson(file));
        p.choose(QStringLiteral("seed003-rt-hrtimer"));
        QVERIFY(p.loadJson(file));
        QCOMPARE(p.scenario().kernel.hz, 250);
        QCOMPARE(p.scenario().kernel.nohzFull, (std::vector<int>{2, 3}));
        QCOMPARE(p.scenario().tasks[0].sleepNs, int64_t{250'000});
        // A scenario JSON with an unknown key: refused, naming it; the scenario in the panel stays.
        const QString bad = dir.filePath(QStringLiteral("unknown-key.json"));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(R"({"name": "x", "kernel": {"hz": 100, "no_such_key": 1}})");
        }
        QVERIFY(!p.loadJson(bad));
        QVERIFY2(p.error().contains(QStringLiteral("no_such_key")), qPrintable(p.error()));
        QCOMPARE(p.scenario().kernel.hz, 250);
    }

    void aBrokenBGetsTheErrorDialogAndLeavesAOpen()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("broken-b.dat"));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray("\x17\x08\x44tracing6\0garbage-garbage-garbage", 35));
        }
        MainWindow w;
        w.show();
        QSignalSpy shown(&w, &MainWindow::traceShown);
        w.openFile(data("nohzfull-poll.dat"));
        QVERIFY(shown.wait(30000));
        const Document a = w.document();
        QString dialogText;
        QTimer closer;
        connect(&closer, &QTimer::timeout, [&] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                dialogText = box->text();
                box->accept();
            }
        });
        closer.start(20);
        QSignalSpy failed(&w, &MainWindow::loadFailed);
        w.compareWith(bad);
        QVERIFY(failed.wait(30000));
        QTRY_VERIFY_WITH_TIMEOUT(!dialogText.isEmpty(), 10000);
        QVERIFY2(dialogText.contains(QStringLiteral("broken-b.dat")), qPrintable(dialogText));
        QCOMPARE(w.document().trace, a.trace); // A stays open
        QVERIFY(!w.viewState()->comparison());
        QVERIFY(!w.loadingB());
        // A bad scenario as B: the same.
        dialogText.clear();
        w.compareWith(QStringLiteral("seed000-nohzfull-poll,no_such_key=1"));
        QVERIFY(failed.wait(30000));
        QTRY_VERIFY_WITH_TIMEOUT(!dialogText.isEmpty(), 10000);
        QVERIFY2(dialogText.contains(QStringLiteral("no_such_key")), qPrintable(dialogText));
        QCOMPARE(w.document().trace, a.trace);
        // B's own Cancel stops B's load, and only it.
        w.compareWith(QStringLiteral("seed003-rt-hrtimer,duration_ms=20000"));
        QVERIFY(w.loadingB());
        auto *cancelB = w.findChild<QPushButton *>(QStringLiteral("cancelB"));
        QVERIFY(cancelB && cancelB->isVisible());
        QTest::mouseClick(cancelB, Qt::LeftButton);
        QVERIFY(!w.loadingB());
        QVERIFY(!w.loading());
        QCOMPARE(w.document().trace, a.trace);
        QVERIFY(!w.viewState()->comparison());
    }
};

QTEST_MAIN(CompareTest)
#include "CompareTest.moc"
