// SPDX-License-Identifier: GPL-3.0-or-later
// The main window as a person uses it, headless: open a real trace and see what was loaded; open a
// bad file and get an error dialog; cancel a load.
#include "MainWindow.h"
#include "BackgroundJob.h"
#include "DemoBanner.h"
#include "EventTable.h"
#include "EventTableModel.h"
#include "EvidenceDialog.h"
#include "FindingsPanel.h"
#include "GuiTestUtil.h"
#include "KeysDialog.h"
#include "PanelDocks.h"
#include "SummaryPanel.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "ViewState.h"

#include "ReferenceOrder.h"
#include "report/ReportMail.h"
#include "util/Cancel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcessEnvironment>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>

#include <algorithm>
#include <functional>
#include <new>
#include <stdexcept>

using tickscope::MainWindow;

class MainWindowTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { tickscope::test::initTestApplication(); }

    void opensARealTraceAndShowsWhatWasLoaded()
    {
        MainWindow w;
        w.show();
        QSignalSpy shown(&w, &MainWindow::traceShown);
        w.openFile(QStringLiteral(TICKSCOPE_TEST_DATA "/nohzfull-poll.dat"));
        QVERIFY(shown.wait(30000));
        const QString text = w.summaryText();
        QVERIFY2(text.contains(QStringLiteral("events:   11741")), qPrintable(text.left(400)));
        QVERIFY(text.contains(QStringLiteral("6.1.0-57-amd64")));
        QVERIFY(text.contains(QStringLiteral("user_exit")));
        QVERIFY(w.windowTitle().contains(QStringLiteral("nohzfull-poll.dat")));
        QVERIFY(!w.loading());
    }

    // The timeline's keys work after a click in a panel (W zooms in, A pans), and View lists them; a text
    // field keeps its letters.
    void timelineKeysWorkWhereverTheFocusIs()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QSignalSpy shown(&w, &MainWindow::traceShown);
        w.openFile(QStringLiteral(TICKSCOPE_TEST_DATA "/nohzfull-poll.dat"));
        QVERIFY(shown.wait(30000));
        tickscope::ViewState *vs = w.viewState();
        QWidget *findings = w.panels()->findings()->list();
        findings->setFocus();
        QTRY_VERIFY(findings->hasFocus());
        const int64_t span = vs->rangeEnd() - vs->rangeStart();
        QTest::keyClick(findings, Qt::Key_W);
        QVERIFY(std::abs((vs->rangeEnd() - vs->rangeStart()) - span / 2) <= 1);
        const int64_t start = vs->rangeStart();
        QTest::keyClick(findings, Qt::Key_D);
        QVERIFY(vs->rangeStart() > start);
        // the event table's task filter takes "w" as text
        QLineEdit *task = w.panels()->eventTable()->taskFilter();
        task->setFocus();
        QTRY_VERIFY(task->hasFocus());
        const int64_t before = vs->rangeEnd() - vs->rangeStart();
        QTest::keyClick(task, Qt::Key_W);
        QCOMPARE(task->text(), QStringLiteral("w"));
        QCOMPARE(vs->rangeEnd() - vs->rangeStart(), before);
        QStringList view;
        for (QAction *a : w.menuBar()->actions())
            if (a->text() == QStringLiteral("&View"))
                for (QAction *item : a->menu()->actions())
                    view << item->text() + QLatin1Char('\t') + item->shortcut().toString();
        QVERIFY2(view.contains(QStringLiteral("Zoom &In\tW")), qPrintable(view.join('\n')));
        QVERIFY2(view.contains(QStringLiteral("Pan &Left\tA")), qPrintable(view.join('\n')));
    }

    // Opening a trace brings its findings to the front of the right-hand tabs; Ctrl+I the what-if panel.
    void openingATraceShowsItsFindingsAndCtrlIShowsWhatIf()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        const auto front = [&w](const QString &title) {
            for (QTabBar *bar : w.findChildren<QTabBar *>())
                for (int i = 0; i < bar->count(); ++i)
                    if (bar->tabText(i) == title) return bar->currentIndex() == i;
            return false;
        };
        w.panels()->summaryDock()->raise();
        QSignalSpy shown(&w, &MainWindow::traceShown);
        w.openFile(QStringLiteral(TICKSCOPE_TEST_DATA "/nohzfull-poll.dat"));
        QVERIFY(shown.wait(30000));
        QTRY_VERIFY(front(QStringLiteral("Findings")));
        QTest::keyClick(&w, Qt::Key_I, Qt::ControlModifier);
        QVERIFY(w.panels()->simulatorDock()->isVisible());
        QTRY_VERIFY(front(QStringLiteral("What If (Simulator)")));
    }

    // Help -> Keyboard and Mouse lists every menu shortcut from the menus themselves (F1 opens it).
    void theKeysHelpListsTheMenusShortcuts()
    {
        MainWindow w;
        w.show();
        auto *keys = w.findChild<QAction *>(QStringLiteral("keysHelp"));
        QVERIFY(keys);
        QCOMPARE(keys->shortcut(), QKeySequence(QKeySequence::HelpContents));
        keys->trigger();
        auto *d = w.findChild<tickscope::KeysDialog *>();
        QVERIFY(d);
        const QString text = d->text()->toPlainText();
        for (const char *line : {"W, +, =", "View › Zoom In", "Navigate › Next Spurious Tick",
                                 "Compare › What If (Simulator)", "Help › Keyboard and Mouse", "Ctrl+Click"})
            QVERIFY2(text.contains(QString::fromUtf8(line)), qPrintable(line + ("\n" + text)));
        // every menu action with a shortcut is there
        for (QAction *m : w.menuBar()->actions())
            for (QAction *a : m->menu() ? m->menu()->actions() : QList<QAction *>{})
                if (!a->shortcut().isEmpty())
                    QVERIFY2(text.contains(a->shortcut().toString(QKeySequence::NativeText)),
                             qPrintable(a->text()));
        d->close();
    }

    // Edit -> Copy Summary puts the visible range's report on the clipboard in the mail form.
    void copySummaryGivesTheMailTextOfTheVisibleRange()
    {
        MainWindow w;
        w.show();
        QSignalSpy shown(&w, &MainWindow::traceShown);
        w.openFile(QStringLiteral(TICKSCOPE_TEST_DATA "/nohzfull-poll.dat"));
        QVERIFY(shown.wait(30000));
        QTRY_VERIFY_WITH_TIMEOUT(w.panels()->summary()->report() != nullptr, 10000);
        auto *copy = w.findChild<QAction *>(QStringLiteral("copySummary"));
        QVERIFY(copy);
        QGuiApplication::clipboard()->setText(QStringLiteral("before"));
        copy->trigger();
        const QString text = QGuiApplication::clipboard()->text();
        const std::string tool = "tickscope " + QCoreApplication::applicationVersion().toStdString();
        QCOMPARE(text, QString::fromStdString(
                           tickscope::formatReportMail(*w.panels()->summary()->report(), false, tool)));
        QVERIFY2(text.contains(QStringLiteral("CPU 1 (nohz_full)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("spurious ticks:")), qPrintable(text));
        for (const QString &line : text.split(QLatin1Char('\n')))
            QVERIFY2(line.size() <= 72, qPrintable(line));
    }

    // View -> What This Trace Can Tell on the arm64 lab trace cut to what `-e irq -e sched_switch` records:
    // the tick inferred from arch_timer interrupts, the figures it cannot give and why, the recording that
    // would give them; on the full trace only what its events lack.
    void theEvidenceDialogSaysWhatTheTraceCanTell()
    {
        QTemporaryDir dir;
        const QString cut = dir.filePath(QStringLiteral("irq-only.txt"));
        {
            QFile in(QStringLiteral(TICKSCOPE_TEST_DATA "/arm64/arm64-6.1-nohzfull.txt")), out(cut);
            QVERIFY(in.open(QIODevice::ReadOnly | QIODevice::Text));
            QVERIFY(out.open(QIODevice::WriteOnly));
            const QRegularExpression keep(QStringLiteral(
                R"(^#|\s(irq_handler_entry|irq_handler_exit|softirq_entry|softirq_exit|sched_switch):\s)"));
            while (!in.atEnd()) {
                const QByteArray line = in.readLine();
                if (keep.match(QString::fromUtf8(line)).hasMatch()) out.write(line);
            }
        }
        MainWindow w;
        w.setNonInteractive(
            true); // the cut text's header counts more lines than follow: a warning, not a dialog
        w.show();
        QSignalSpy shown(&w, &MainWindow::traceShown);
        w.openFile(cut);
        QVERIFY(shown.wait(30000));
        auto *action = w.findChild<QAction *>(QStringLiteral("evidence"));
        QVERIFY(action);
        action->trigger();
        auto *d = w.findChild<tickscope::EvidenceDialog *>();
        QVERIFY(d);
        const QString text = d->text();
        QVERIFY2(text.contains(QStringLiteral("Inferred: ticks, from timer interrupts (irq:irq_handler_entry "
                                              "name=arch_timer)")),
                 qPrintable(text));
        QVERIFY2(
            text.contains(QStringLiteral("Not recorded: catch-ups (timer callback time). Why: the timers' "
                                         "callbacks are not in the trace")),
            qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("trace-cmd record -e")) &&
                     text.contains(QStringLiteral("-e timer:hrtimer_expire_entry")),
                 qPrintable(text));
        d->close();
        QSignalSpy again(&w, &MainWindow::traceShown);
        w.openFile(QStringLiteral(TICKSCOPE_TEST_DATA "/nohzfull-poll.dat"));
        QVERIFY(again.wait(30000));
        tickscope::EvidenceDialog *full = w.evidenceDialog();
        QVERIFY(full);
        QVERIFY2(full->text().startsWith(QStringLiteral("Measured: ticks, user/kernel split of the ticks")),
                 qPrintable(full->text()));
        QVERIFY2(!full->text().contains(QStringLiteral("Not recorded")), qPrintable(full->text()));
    }

    // Issue 4 item 8: the first start (no file) shows the simulated seed000-nohzfull-poll baseline.
    void opensTheSeed000ScenarioWithoutAFile()
    {
        MainWindow w;
        w.show();
        QSignalSpy shown(&w, &MainWindow::traceShown);
        w.openScenario(QStringLiteral("seed000-nohzfull-poll"));
        QVERIFY(shown.wait(30000));
        const QString text = w.summaryText();
        QVERIFY2(text.contains(QStringLiteral("tickscope simulation")), qPrintable(text.left(400)));
        QVERIFY(text.contains(QStringLiteral("6.18.0-sim")));
        QVERIFY(text.contains(QStringLiteral("user_exit")));
        QVERIFY(text.contains(QStringLiteral("tick_stop")));
        QVERIFY(w.windowTitle().contains(QStringLiteral("seed000-nohzfull-poll")));
    }

    // Issue 68 item 2: the first start says it is a demo, with the ways to one's own trace and the recent
    // files; the note stays over the demo comparison and goes once a file is opened (here a recent one).
    void theFirstStartSaysItIsADemoUntilAFileIsOpened()
    {
        const QString poll = QStringLiteral(TICKSCOPE_TEST_DATA "/nohzfull-poll.dat");
        QSettings().setValue(QStringLiteral("recentFiles"), QStringList{poll});
        MainWindow w;
        w.show();
        QSignalSpy compared(&w, &MainWindow::comparisonShown);
        w.showDemo();
        QVERIFY(compared.wait(60000));
        tickscope::DemoBanner *banner = w.demoBanner();
        QVERIFY(banner->isVisible());
        const QString text = banner->text();
        for (const char *says : {"Demo:", "seed000-nohzfull-poll", "p1p2", "Open a Trace", "Capture",
                                 "What If", "Recent:", "nohzfull-poll.dat"})
            QVERIFY2(text.contains(QLatin1String(says)),
                     qPrintable(says + (QStringLiteral(" not in: ") + text)));
        QVERIFY(w.viewState()->comparison()); // the demo is the comparison, under the note
        // The banner sits above the plot, not over it: the timeline starts below it.
        QVERIFY(w.timeline()->geometry().top() >= banner->geometry().bottom());
        QSignalSpy shown(&w, &MainWindow::traceShown);
        auto *recent = banner->findChild<QToolButton *>(QStringLiteral("recent0"));
        QVERIFY(recent);
        QCOMPARE(recent->toolTip(), poll);
        recent->click();
        QVERIFY(!banner->isVisible()); // gone as soon as the user's own file is asked for
        QVERIFY(shown.wait(30000));
        QCOMPARE(shown.last().first().toString(), poll);
        QVERIFY(!banner->isVisible());
        QVERIFY(!w.viewState()->comparison());
        QSettings().remove(QStringLiteral("recentFiles"));
    }

    // The GUI's main starts loading its file before Qt is up; the window's load of that file takes it over,
    // the load of another file cancels it.
    void aPrestartedLoadIsTakenOverOrCancelled()
    {
        using tickscope::TraceLoader;
        const QString poll = QStringLiteral(TICKSCOPE_TEST_DATA "/nohzfull-poll.dat");
        const QString nopoll = QStringLiteral(TICKSCOPE_TEST_DATA "/nohzfull-nopoll.dat");
        for (const QString &open : {poll, nopoll}) {
            TraceLoader::prestart(poll.toStdString());
            QVERIFY(TraceLoader::prestartPending());
            MainWindow w;
            w.show();
            QSignalSpy shown(&w, &MainWindow::traceShown);
            w.openFile(open);
            QVERIFY(!TraceLoader::prestartPending());
            QVERIFY(shown.wait(30000));
            QCOMPARE(shown.first().first().toString(), open);
            QVERIFY(w.windowTitle().contains(QFileInfo(open).fileName()));
            const QString text = w.summaryText();
            QVERIFY2(text.contains(open == poll ? QStringLiteral("events:   11741")
                                                : QStringLiteral("events:   10284")),
                     qPrintable(text.left(400)));
        }
    }

    // The event table lists a loaded trace's events as soon as it is given them, with no order of every
    // event made: each row, read in any order, is the merged order's. A filter's rows are the order's rows
    // it keeps; clearing the filter lists them all again, a filter changed or a document replaced while one
    // is at work drops its rows, and a search finds what one over the order finds. A trace whose CPUs'
    // events are not in time order is not listed (the table says so).
    void theEventTableListsRowsWithoutMakingTheOrder()
    {
        using tickscope::Document;
        using tickscope::EventTableModel;
        using tickscope::TraceLoader;
        TraceLoader loader;
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        loader.load(QStringLiteral(TICKSCOPE_TEST_DATA "/host-6.18-cyclictest.dat"));
        QVERIFY(loaded.wait(30000));
        const auto doc = loaded.first().at(2).value<Document>();
        const auto made = tickscope::MergedOrder::build(*doc.trace);
        QVERIFY(made);
        const size_t n = made->size();
        QVERIFY(n > 10000);

        EventTableModel model;
        QSignalSpy ready(&model, &EventTableModel::rowsReady);
        model.setDocument(doc);
        QVERIFY(model.ready()); // at once
        QCOMPARE(ready.count(), 1);
        QCOMPARE(static_cast<size_t>(model.rowCount()), n);
        QVERIFY(model.indexBytes() < n / 8); // a window of rows, no order
        std::vector<size_t> rows;            // forward, backward, and jumps across the whole list
        for (size_t r = 0; r < n; r += 97)
            rows.push_back(r);
        for (size_t r = n - 1; r > n - 2000; --r)
            rows.push_back(r);
        for (size_t k = 0; k < 500; ++k)
            rows.push_back(k * 7919 % n);
        for (const size_t r : rows)
            QVERIFY2(model.eventAt(static_cast<int>(r)) == made->at(r), qPrintable(QString::number(r)));

        const tickscope::EventFilter filter = tickscope::EventFilter::make(*doc.trace, 1, "", "");
        model.setFilter(filter);
        QVERIFY(!model.ready());
        QVERIFY(ready.wait(30000));
        const auto kept = tickscope::filterRows(*doc.trace, *made, filter, nullptr);
        QCOMPARE(static_cast<size_t>(model.rowCount()), kept->size());
        for (size_t k = 0; k < kept->size(); k += 31)
            QVERIFY(model.eventAt(static_cast<int>(k)) == made->at((*kept)[k]));
        QVERIFY(model.indexBytes() < kept->size() * 8 + n / 8); // its rows, no order
        // an event's row, the row at or after a hidden one, the first row at a time
        for (size_t k = 0; k < kept->size(); k += 101) {
            const tickscope::EventPos e = made->at((*kept)[k]);
            QCOMPARE(model.rowOf(e), static_cast<int>(k));
            QCOMPARE(model.rowAtOrAfter(e), static_cast<int>(k));
            const int64_t t = doc.trace->cpu(e.cpu).ts(e.index);
            const int r = model.rowAtTime(t); // the first kept row at t or later: at or before k
            QVERIFY(r <= static_cast<int>(k));
            const auto tsOf = [&](int row) {
                const tickscope::EventPos p = model.eventAt(row);
                return doc.trace->cpu(p.cpu).ts(p.index);
            };
            QCOMPARE(tsOf(r), t);
            QVERIFY(r == 0 || tsOf(r - 1) < t);
        }
        size_t after = kept->size() / 2; // a kept row whose merged row before is hidden
        while ((*kept)[after] == (*kept)[after - 1] + 1)
            ++after;
        const tickscope::EventPos hidden = made->at((*kept)[after] - 1);
        QVERIFY(hidden.cpu != 1);
        QCOMPARE(model.rowOf(hidden), -1);
        QCOMPARE(model.rowAtOrAfter(hidden), static_cast<int>(after));
        const auto needleKept = QStringLiteral("cyclictest");
        const int64_t inKept =
            tickscope::findRow(*doc.trace, *made, &*kept, 0, true, needleKept.toStdString(), nullptr);
        QSignalSpy foundKept(&model, &EventTableModel::searchDone);
        model.find(needleKept, 0, true);
        QVERIFY(foundKept.wait(30000));
        QCOMPARE(foundKept.first().at(0).toInt(), static_cast<int>(inKept));
        model.setFilter({});
        QVERIFY(model.ready());
        QCOMPARE(static_cast<size_t>(model.rowCount()), n);
        QVERIFY(model.eventAt(static_cast<int>(n / 2)) == made->at(n / 2));

        const auto needle = QStringLiteral("cyclictest");
        const int64_t expect = tickscope::findRow(*doc.trace, *made, nullptr, static_cast<int64_t>(n / 3),
                                                  true, needle.toStdString(), nullptr);
        QVERIFY(expect > 0);
        QSignalSpy found(&model, &EventTableModel::searchDone);
        model.find(needle, static_cast<int>(n / 3), true);
        QVERIFY(found.wait(30000));
        QCOMPARE(found.first().at(0).toInt(), static_cast<int>(expect));
        const int64_t before = tickscope::findRow(*doc.trace, *made, nullptr, static_cast<int64_t>(n / 3),
                                                  false, needle.toStdString(), nullptr);
        QVERIFY(before > 0);
        found.clear();
        model.find(needle, static_cast<int>(n / 3), false);
        QVERIFY(found.wait(30000));
        QCOMPARE(found.first().at(0).toInt(), static_cast<int>(before));

        // While a filter is at work: the filter cleared (listed at once, and the filter's rows dropped when
        // they come), another one set (its rows come), the document replaced (the old rows dropped).
        EventTableModel next;
        QSignalSpy nextReady(&next, &EventTableModel::rowsReady);
        next.setDocument(doc);
        next.setFilter(filter);
        QVERIFY(!next.ready());
        next.setFilter({});
        QVERIFY(next.ready());
        QCOMPARE(static_cast<size_t>(next.rowCount()), n);
        const tickscope::EventFilter cpu0 = tickscope::EventFilter::make(*doc.trace, 0, "", "");
        next.setFilter(cpu0);
        QVERIFY(!next.ready());
        nextReady.clear();
        QVERIFY(nextReady.wait(30000));
        QVERIFY(next.ready());
        const auto kept0 = tickscope::filterRows(*doc.trace, *made, cpu0, nullptr);
        QCOMPARE(static_cast<size_t>(next.rowCount()), kept0->size());
        QVERIFY(next.eventAt(next.rowCount() - 1) == made->at(kept0->back()));
        next.setDocument(doc);
        next.setFilter(filter); // a filter at work ...
        next.setDocument(doc);  // ... for a document replaced
        QVERIFY(next.ready());
        QTest::qWait(200);
        QCOMPARE(static_cast<size_t>(next.rowCount()), n);
        QVERIFY(next.indexBytes() < n / 8);

        // CPU 1's events out of time order (as only a trace never sorted has them)
        auto unsorted = std::make_shared<tickscope::Trace>();
        unsorted->setCpuCount(2);
        const uint16_t type = unsorted->addType("sched", "sched_switch");
        const std::vector<uint8_t> payload(unsorted->typeSizes()[type]);
        for (int64_t ts : {10, 30, 50})
            unsorted->cpu(0).append(ts, type, 0, 0, 1, payload.data(), static_cast<uint8_t>(payload.size()));
        for (int64_t ts : {40, 20, 60})
            unsorted->cpu(1).append(ts, type, 0, 0, 2, payload.data(), static_cast<uint8_t>(payload.size()));
        QVERIFY(!unsorted->cpu(1).sorted());
        Document bad;
        bad.trace = unsorted;
        QSignalSpy busy(&model, &EventTableModel::busy);
        model.setDocument(bad);
        QVERIFY(!model.ready());
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!busy.isEmpty());
        QVERIFY(busy.last().at(0).toString().contains(QStringLiteral("not in time order")));
        model.setFilter(filter);
        QCOMPARE(model.rowCount(), 0);
    }

    // A superseded or cancelled load gives control back at once whatever its worker is doing (here a
    // simulation of several seconds, which used to be joined on the GUI thread), and a bad file opened
    // meanwhile loses nothing that was open.
    void supersedeCancelAndABadFileNeverStallTheGui()
    {
        MainWindow w;
        w.show();
        QSignalSpy shown(&w, &MainWindow::traceShown);
        QSignalSpy failed(&w, &MainWindow::loadFailed);
        w.openFile(QStringLiteral(TICKSCOPE_TEST_DATA "/nohzfull-poll.dat"));
        QVERIFY(shown.wait(30000));
        const auto open = w.document().trace;

        // The longest gap between two ticks of a 2 ms timer: how long the event loop was blocked (in
        // the GUI thread's own time: EventLoopStalls).
        tickscope::test::EventLoopStalls stalls;
        auto measure = [&](const char *what, const std::function<void()> &step) {
            tickscope::test::OwnClock call;
            call.start();
            stalls.start();
            step();
            const qint64 callMs = call.elapsedMs(), callWallMs = call.wallMs();
            QTest::qWait(300);
            stalls.stop();
            QVERIFY2(callMs < tickscope::test::kStallLimitMs,
                     qPrintable(QStringLiteral("%1 took %2 ms (%3 ms on the wall clock)")
                                    .arg(what)
                                    .arg(callMs)
                                    .arg(callWallMs)));
            QVERIFY2(stalls.worstMs() < tickscope::test::kStallLimitMs,
                     qPrintable(QStringLiteral("%1: %2").arg(what, stalls.describe())));
        };
        const QString longRun = QStringLiteral("seed003-rt-hrtimer,duration_ms=20000");
        w.openScenario(longRun);
        // simulating now: its first progress report is in (not a guess at how soon that is)
        QTRY_VERIFY_WITH_TIMEOUT(w.progressValue() > 0, 30000);
        QVERIFY(w.loading());
        measure("superseding a running simulation", [&] { w.openScenario(longRun); });
        QVERIFY(w.loading());

        QPushButton *cancel = nullptr;
        for (QPushButton *b : w.findChildren<QPushButton *>())
            if (b->text() == QStringLiteral("Cancel")) cancel = b;
        QVERIFY(cancel);
        measure("cancelling a running simulation", [&] { QTest::mouseClick(cancel, Qt::LeftButton); });
        QVERIFY(!w.loading());
        QCOMPARE(w.document().trace, open);
        // the trace still shown keeps its facts in the status bar
        QVERIFY2(w.statusText().contains(QStringLiteral("nohzfull-poll.dat · kernel")),
                 qPrintable(w.statusText()));

        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.dat"));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray("\x17\x08\x44tracing7\0garbage", 20));
        }
        QTimer closer; // the error dialog is modal: close it once it is up
        connect(&closer, &QTimer::timeout, [&] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) box->accept();
        });
        closer.start(20);
        w.openScenario(longRun);
        QTRY_VERIFY_WITH_TIMEOUT(w.progressValue() > 0, 30000); // simulating
        QVERIFY(w.loading());
        measure("opening a bad file during a simulation", [&] { w.openFile(bad); });
        QVERIFY(failed.count() == 1 || failed.wait(10000));
        QVERIFY(!w.loading());
        QCOMPARE(w.document().trace, open);
        QCOMPARE(shown.count(), 1);
        QVERIFY2(w.statusText().contains(QStringLiteral("nohzfull-poll.dat · kernel")),
                 qPrintable(w.statusText()));
        QVERIFY(!w.statusText().contains(QStringLiteral("Failed")));
    }

    // The program itself: a scenario name on the command line is simulated; with --screenshot a file
    // that cannot be loaded gives one line naming it and exit status 1, and no picture; --dock events-b
    // wants a comparison.
    void theCommandLineSimulatesScenariosAndNamesBadFiles()
    {
        QTemporaryDir dir;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.path()); // the user's settings stay untouched
        auto run = [&](const QStringList &args, QString &err) {
            const tickscope::test::ProgramRun r =
                tickscope::test::runProgram(QStringLiteral(TICKSCOPE_GUI), args, env);
            err = QString::fromUtf8(r.err);
            return r.exit;
        };
        QString err;
        const QString png = dir.filePath(QStringLiteral("sim.png"));
        QCOMPARE(
            run({QStringLiteral("--screenshot"), png, QStringLiteral("seed000-nohzfull-poll:p1p2")}, err), 0);
        QVERIFY(QImage(png).width() > 100);
        const QString bad = dir.filePath(QStringLiteral("missing.dat"));
        const QString out = dir.filePath(QStringLiteral("bad.png"));
        QCOMPARE(run({QStringLiteral("--screenshot"), out, bad}, err), 1);
        const QStringList lines = err.split(QLatin1Char('\n'), Qt::SkipEmptyParts)
                                      .filter(QRegularExpression(QStringLiteral("^tickscope: ")));
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines.front().contains(bad), qPrintable(err));
        QVERIFY(!QFileInfo::exists(out));
        // run B's events without a run B: a usage error, not an empty panel
        QCOMPARE(run({QStringLiteral("--dock"), QStringLiteral("events-b"), QStringLiteral("--screenshot"),
                      out, QStringLiteral("seed000-nohzfull-poll")},
                     err),
                 2);
        QVERIFY2(err.contains(QStringLiteral("--dock events-b")), qPrintable(err));
        QVERIFY(!QFileInfo::exists(out));
    }

    void aBadFileShowsAnErrorDialog()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("garbage.dat"));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray("\x17\x08\x44tracing6\0garbage-garbage-garbage", 35));
        }
        MainWindow w;
        w.show();
        QSignalSpy failed(&w, &MainWindow::loadFailed);
        QString dialogText;
        // The dialog is modal: read and close it from a timer once it is up.
        QTimer closer;
        connect(&closer, &QTimer::timeout, [&] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                dialogText = box->text();
                box->accept();
            }
        });
        closer.start(20);
        w.openFile(bad);
        QVERIFY(failed.wait(30000));
        QTRY_VERIFY_WITH_TIMEOUT(!dialogText.isEmpty(), 10000);
        QVERIFY2(dialogText.contains(QStringLiteral("garbage.dat")), qPrintable(dialogText));
        QVERIFY(!w.loading());
    }

    // Live snapshots replace the document four times a second: the user's zoom, CPUs and markers stay
    // (a range at the end follows the end), and a file opened afterwards starts from the whole span.
    void liveSnapshotsKeepTheView()
    {
        MainWindow w;
        w.show();
        QSignalSpy shown(&w, &MainWindow::traceShown);
        const QString snap = QStringLiteral(TICKSCOPE_TEST_DATA "/nohzfull-poll.dat");
        auto live = [&] {
            const qsizetype n = shown.size();
            w.showLive(snap);
            return shown.size() > n || shown.wait(30000);
        };
        QVERIFY(live());
        tickscope::ViewState *v = w.viewState();
        const int64_t first = v->boundsStart(), last = v->boundsEnd(), span = last - first;
        // zoomed into the middle, two CPUs, a marker
        v->setRange(first + span / 4, first + span / 2);
        v->setCpus({1, 0});
        v->setMarkerA(first + span / 3);
        QVERIFY(live());
        QCOMPARE(v->rangeStart(), first + span / 4);
        QCOMPARE(v->rangeEnd(), first + span / 2);
        QCOMPARE(v->cpus(), (std::vector<int>{1, 0}));
        QCOMPARE(v->markerA(), std::optional<int64_t>(first + span / 3));
        QVERIFY(!v->selection().valid());
        // zoomed in at the end: the end, as wide
        v->setRange(last - span / 10, last);
        QVERIFY(live());
        QCOMPARE(v->rangeEnd(), v->boundsEnd());
        QCOMPARE(v->rangeEnd() - v->rangeStart(), span / 10);
        // all of it: all of it
        v->setRange(v->boundsStart(), v->boundsEnd());
        QVERIFY(live());
        QCOMPARE(v->rangeStart(), v->boundsStart());
        QCOMPARE(v->rangeEnd(), v->boundsEnd());
        // a file opened after the capture: a fresh view
        v->setRange(first + span / 4, first + span / 2);
        w.openFile(snap);
        QVERIFY(shown.wait(30000));
        QCOMPARE(v->rangeStart(), v->boundsStart());
        QCOMPARE(v->rangeEnd(), v->boundsEnd());
        QVERIFY(std::is_sorted(v->cpus().begin(), v->cpus().end()) && v->cpus().front() == 0);
        QVERIFY(!v->markerA());
    }

    // A background computation that throws is said in a (non-modal) dialog and the status bar, once at a
    // time; one stopped by its cancel flag is not a failure.
    void backgroundFailureIsSaid()
    {
        MainWindow w;
        w.show();
        QSignalSpy failed(&w, &MainWindow::backgroundFailed);
        using tickscope::runInBackground;
        runInBackground(
            &w, []() -> int { throw tickscope::Cancelled(); }, [](int) {});
        runInBackground(
            &w, []() -> int { throw std::runtime_error("the lane index broke"); }, [](int) {});
        QVERIFY(failed.wait(10000));
        QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("the lane index broke"));
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = w.findChild<QMessageBox *>()) && box->isVisible());
        QVERIFY2(box->text().contains(QStringLiteral("the lane index broke")), qPrintable(box->text()));
        QVERIFY(!box->isModal());
        QVERIFY(w.statusBar()->currentMessage().contains(QStringLiteral("the lane index broke")));
        runInBackground(
            &w, []() -> int { throw std::bad_alloc(); }, [](int) {});
        QVERIFY(failed.wait(10000));
        QCOMPARE(failed.at(1).at(0).toString(), QStringLiteral("out of memory"));
        QCOMPARE(w.findChildren<QMessageBox *>().size(), 1); // the first dialog is still open
        box->close();
        QTRY_COMPARE(w.findChildren<QMessageBox *>().size(), 0);
        QTRY_COMPARE(tickscope::backgroundJobsPending(), 0);
        QCOMPARE(failed.size(), 2); // the cancelled job said nothing
    }
};

QTEST_MAIN(MainWindowTest)
#include "MainWindowTest.moc"
