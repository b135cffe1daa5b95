// SPDX-License-Identifier: GPL-3.0-or-later
// The compare view's run B beyond the lanes: the event table lists B's events when asked or when a B event
// is selected, and selecting a row there selects that B event; the jumps (N, F) search run B over a B lane
// or from a B selection.
#include "CompareSupport.h"
#include "EventTable.h"
#include "EventTableModel.h"
#include "FindingsPanel.h"
#include "GuiTestUtil.h"
#include "TimelinePlot.h"
#include "TimelineView.h"
#include "ViewState.h"

#include <QComboBox>
#include <QCursor>
#include <QTableView>
#include <QTest>

#include <algorithm>

using namespace tickscope;
using test::compare;
using test::data;

class CompareRunBTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { test::initTestApplication(); }

    void theEventTableListsRunBsEventsToo()
    {
        MainWindow w;
        w.resize(1500, 900);
        w.show();
        EventTable *table = w.panels()->eventTable();
        QVERIFY(!table->runBox()->isVisibleTo(&w)); // one run: nothing to choose
        QVERIFY(compare(w, data("nohzfull-nopoll.dat"), data("nohzfull-poll.dat")));
        const Comparison &c = *w.viewState()->comparison();
        const Trace &a = *w.document().trace, &b = *c.b.trace;
        QVERIFY(table->runBox()->isVisibleTo(&w));
        QCOMPARE(table->run(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(table->model()->ready(), 30000);
        QCOMPARE(static_cast<size_t>(table->model()->rowCount()), a.eventCount());

        // A B event selected in the timeline: the table lists B and shows it
        const int cpu = 1;
        const auto index = static_cast<int64_t>(b.cpu(cpu).size() / 2);
        w.viewState()->setSelection({cpu, index, 1});
        QCOMPARE(table->run(), 1);
        QCOMPARE(table->runBox()->currentIndex(), 1);
        QVERIFY(table->model()->document().trace == c.b.trace);
        QTRY_VERIFY_WITH_TIMEOUT(table->model()->ready() && table->currentRow() >= 0, 30000);
        QCOMPARE(static_cast<size_t>(table->model()->rowCount()), b.eventCount());
        const EventPos shown = table->model()->eventAt(table->currentRow());
        QCOMPARE(shown.cpu, cpu);
        QCOMPARE(static_cast<int64_t>(shown.index), index);
        const double rel = static_cast<double>(b.cpu(cpu).ts(static_cast<size_t>(index)) - b.startTs()) / 1e9;
        QVERIFY(qAbs(table->model()->index(table->currentRow(), EventTableModel::Time).data().toDouble() -
                     rel) < 1e-9);

        // a row picked in B's list selects that B event
        table->view()->setFocus();
        QTest::keyClick(table->view(), Qt::Key_Down);
        const EventRef next = w.viewState()->selection();
        QCOMPARE(next.run, 1);
        const EventPos below = table->model()->eventAt(table->currentRow());
        QCOMPARE(next.cpu, below.cpu);
        QCOMPARE(static_cast<size_t>(next.index), below.index);

        // the filters work on B's events
        table->cpuFilter()->setCurrentIndex(table->cpuFilter()->findData(cpu));
        QTRY_VERIFY_WITH_TIMEOUT(table->model()->ready() &&
                                     static_cast<size_t>(table->model()->rowCount()) == b.cpu(cpu).size(),
                                 30000);
        QVERIFY(table->statusText().contains(QStringLiteral("of")));

        // back to A (by the run box): A's rows with the same CPU filter, the B selection not among them
        table->showRun(0);
        QVERIFY(table->model()->document().trace == w.document().trace);
        QTRY_VERIFY_WITH_TIMEOUT(table->model()->ready() &&
                                     static_cast<size_t>(table->model()->rowCount()) == a.cpu(cpu).size(),
                                 30000);
        QCOMPARE(table->currentRow(), -1);
        // the comparison realigned (the same B selection said again): the run box's choice stays
        QCOMPARE(w.viewState()->selection().run, 1);
        w.viewState()->setComparison(w.viewState()->comparison(), true);
        QCOMPARE(table->run(), 0);
        // an A event selected: A's row
        w.viewState()->setSelection({cpu, 3, 0});
        QCOMPARE(table->run(), 0);
        QCOMPARE(table->model()->eventAt(table->currentRow()).index, size_t{3});

        // the comparison closed: no run box, A listed
        table->showRun(1);
        QCOMPARE(table->run(), 1);
        w.closeComparison();
        QCOMPARE(table->run(), 0);
        QVERIFY(!table->runBox()->isVisibleTo(&w));
        QVERIFY(table->model()->document().trace == w.document().trace);
    }

    void jumpsSearchRunBOverItsLanesOrFromItsSelection()
    {
        MainWindow w;
        w.resize(1500, 900);
        w.show();
        // A has no spurious ticks, B (polling idle) has them on CPU 1
        QVERIFY(compare(w, data("nohzfull-nopoll.dat"), data("nohzfull-poll.dat")));
        FindingsPanel *fp = w.panels()->findings();
        QTRY_VERIFY_WITH_TIMEOUT(fp->findingsB() != nullptr, 30000);
        const Comparison &c = *w.viewState()->comparison();
        const Trace &b = *c.b.trace;
        TimelineView *tv = w.timeline();
        TimelinePlot *plot = tv->plot();
        // the scope: a B lane under the pointer, or a B event selected
        const QRect laneB = plot->geometry().rowRect(1, LaneRow::Tick, 1);
        QVERIFY(!laneB.isEmpty());
        const TimelineView::JumpScope overB = tv->jumpScope(laneB.center());
        QCOMPARE(overB.run, 1);
        QCOMPARE(overB.cpus, std::vector<int>{1});
        QCOMPARE(tv->jumpScope(plot->geometry().rowRect(1, LaneRow::Tick, 0).center()).run, 0);
        QCOMPARE(tv->jumpScope(QPoint(-50, -50)).run, 0);
        w.viewState()->setSelection({1, 0, 1});
        const TimelineView::JumpScope fromB = tv->jumpScope(QPoint(-50, -50));
        QCOMPARE(fromB.run, 1);
        QCOMPARE(fromB.cpus, c.cpusB(w.viewState()->cpus()));

        // N from B's first event on CPU 1: B's first spurious tick after it, selected in B's lane
        QCursor::setPos(plot->mapToGlobal(QPoint(-50, -50)));
        tv->jump(JumpTarget::SpuriousTick, true);
        EventRef sel = w.viewState()->selection();
        QCOMPARE(sel.run, 1);
        const TickRecord *first = nullptr;
        for (const TickRecord &t : c.b.analysis->cpus[1].ticks)
            if ((t.flags & TickFlag::Spurious) && !first) first = &t;
        QVERIFY(first);
        QCOMPARE(sel.cpu, 1);
        QCOMPARE(static_cast<uint32_t>(sel.index), first->index);
        const int64_t onA = b.cpu(1).ts(first->index) - c.shift();
        QVERIFY(w.viewState()->rangeStart() <= onA && onA <= w.viewState()->rangeEnd());
        // from an A event the same key searches A, which has none: nothing moves
        w.viewState()->setSelection({1, 0, 0});
        tv->jump(JumpTarget::SpuriousTick, true);
        QCOMPARE(w.viewState()->selection(), (EventRef{1, 0, 0}));

        // F from a B event: B's first finding instance after it
        QTRY_VERIFY_WITH_TIMEOUT(!fp->findingsB()->empty(), 30000);
        w.viewState()->setSelection({1, 0, 1});
        const int64_t from = b.cpu(1).ts(0);
        int64_t next = INT64_MAX;
        for (const Finding &f : *fp->findingsB())
            for (int64_t t : f.at)
                if (t > from && std::count(fromB.cpus.begin(), fromB.cpus.end(), f.cpu))
                    next = std::min(next, t);
        QVERIFY(next != INT64_MAX);
        tv->jumpToFinding(true);
        sel = w.viewState()->selection();
        QCOMPARE(sel.run, 1);
        QCOMPARE(b.cpu(sel.cpu).ts(static_cast<size_t>(sel.index)), next);
    }
};

QTEST_MAIN(CompareRunBTest)
#include "CompareRunBTest.moc"
