// SPDX-License-Identifier: GPL-3.0-or-later
// The panels as a person uses them, headless, on real traces: the event table (every event, in time
// order, filters, search, both ways in sync with the ViewState through real clicks), the per-CPU summary
// (the report's numbers for the visible range or the whole trace) and the histograms. The figures the
// panels must show are counted without tickscope: from `trace-cmd report` of the fixture (the reference
// reader; without trace-cmd those checks skip, and fail in CI), the kernel lab's ticks.csv and the text
// of a paste, by the kernel's rules written out here.
#include "EventTable.h"
#include "EventTableModel.h"
#include "FindingsPanel.h"
#include "FunctionsPanel.h"
#include "GuiTestUtil.h"
#include "HistogramPanel.h"
#include "PanelDocks.h"
#include "ReferenceCounts.h"
#include "SummaryPanel.h"
#include "ViewState.h"

#include "analysis/EventRoles.h"
#include "analysis/TimerRecords.h"
#include "analysis/WakeupSamples.h"
#include "import/Loader.h"
#include "report/TickReport.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>
#include <QWheelEvent>
#include <qcustomplot.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

using namespace tickscope;
using namespace tickscope::test;

namespace {

Document load(const char *name)
{
    Document d;
    d.title = name;
    auto trace = std::shared_ptr<Trace>(loadTrace(std::string(TICKSCOPE_TEST_DATA "/") + name));
    d.analysis = std::make_shared<const TickAnalysis>(TickAnalysis::run(*trace));
    d.trace = std::move(trace);
    d.timeline = std::make_shared<const TimelineIndex>(TimelineIndex::build(*d.trace, *d.analysis));
    d.evidence = std::make_shared<const Evidence>(Evidence::of(*d.trace, EventRoles(*d.trace), *d.analysis));
    return d;
}

// A main window with the docks, the document shown and the ViewState reset, as MainWindow will do.
struct Window
{
    QMainWindow main;
    ViewState state;
    PanelDocks docks{&main, &state};
    Document doc;

    explicit Window(const char *file) : doc(load(file))
    {
        main.resize(1400, 900);
        main.show();
        docks.setDocument(doc);
        state.reset(doc.trace->firstTs(), doc.trace->lastTs(), doc.trace->cpuCount());
    }
    EventTable &table() { return *docks.eventTable(); }
    EventTableModel &model() { return *docks.eventTable()->model(); }
    bool waitTable()
    {
        QSignalSpy ready(&model(), &EventTableModel::rowsReady);
        return model().ready() || ready.wait(30000);
    }
};

int64_t ts(const Trace &t, EventPos e)
{
    return t.cpu(e.cpu).ts(e.index);
}

} // namespace

class PanelsTest : public QObject
{
    Q_OBJECT
private slots:
    void tableListsEveryEventInTimeOrder()
    {
        Window w("host-6.18-cyclictest.dat");
        QVERIFY(w.waitTable());
        const Trace &t = *w.doc.trace;
        QCOMPARE(static_cast<size_t>(w.model().rowCount()), t.eventCount());
        std::vector<size_t> seen(static_cast<size_t>(t.cpuCount()), 0);
        int64_t last = INT64_MIN;
        for (int r = 0; r < w.model().rowCount(); ++r) {
            const EventPos e = w.model().eventAt(r);
            QVERIFY(ts(t, e) >= last);
            last = ts(t, e);
            QCOMPARE(e.index, seen[static_cast<size_t>(e.cpu)]++); // each CPU's events once, in order
        }
        for (int c = 0; c < t.cpuCount(); ++c)
            QCOMPARE(seen[static_cast<size_t>(c)], t.cpu(c).size());
        // what a row shows
        const int row = w.model().rowCount() / 2;
        const EventPos e = w.model().eventAt(row);
        auto text = [&](int col) { return w.model().index(row, col).data().toString(); };
        QCOMPARE(text(EventTableModel::Cpu), QString::number(e.cpu));
        QCOMPARE(text(EventTableModel::Event),
                 QString::fromStdString(t.types()[t.cpu(e.cpu).type(e.index)].name));
        QVERIFY(text(EventTableModel::Task).endsWith(QStringLiteral(":%1").arg(t.cpu(e.cpu).pid(e.index))));
        const double rel = static_cast<double>(ts(t, e) - t.firstTs()) / 1e9;
        QVERIFY(qAbs(text(EventTableModel::Time).toDouble() - rel) < 1e-9);
    }

    // An event kind outside the table (sched_process_exec of a real capture) shows its fields from the
    // file's own format, and the event filter and the Fields column agree with trace-cmd's -R text.
    void genericEventsShowTheirFields()
    {
        if (!haveTraceCmd())
            TICKSCOPE_MISSING_TOOL("trace-cmd is not installed: nothing to compare the fields to");
        // trace-cmd's own fields of every sched_process_exec, in time order
        QStringList expect;
        for (const RefEvent &e : traceCmdReport("host-generic.dat", {QStringLiteral("-R")})) {
            if (e.name == "sched_process_exec") expect << QString::fromStdString(e.fields).trimmed();
        }
        QVERIFY2(expect.size() >= 5, qPrintable(expect.join('\n'))); // (five /bin/true, tests/data/README.md)
        Window w("host-generic.dat");
        QVERIFY(w.waitTable());
        const Trace &t = *w.doc.trace;
        QSignalSpy ready(&w.model(), &EventTableModel::rowsReady);
        w.table().eventFilter()->setFocus();
        QTest::keyClicks(w.table().eventFilter()->lineEdit(), QStringLiteral("sched_process_exec"));
        QVERIFY(ready.wait(30000));
        const int type = t.findType("sched_process_exec");
        QVERIFY(type >= 0);
        QCOMPARE(t.kind(static_cast<uint16_t>(type)), EventKind::Generic);
        QCOMPARE(w.model().rowCount(), expect.size());
        QStringList fields;
        for (int r = 0; r < w.model().rowCount(); ++r)
            fields << w.model().index(r, EventTableModel::Fields).data().toString();
        QCOMPARE(fields, expect);
        for (const QString &f : fields)
            QVERIFY2(f.startsWith(QStringLiteral("filename=/")), qPrintable(f));
    }

    void selectionFollowsTheViewStateAndClicksSetIt()
    {
        Window w("nohzfull-poll.dat");
        QVERIFY(w.waitTable());
        const Trace &t = *w.doc.trace;
        QTableView *view = w.table().view();
        // a selection made elsewhere (the timeline): the row is selected and scrolled into view
        const EventRef pick{1, static_cast<int64_t>(t.cpu(1).size() * 2 / 3)};
        w.state.setSelection(pick);
        const int row = w.table().currentRow();
        QVERIFY(row >= 0);
        QCOMPARE(w.model().eventAt(row), (EventPos{1, static_cast<size_t>(pick.index)}));
        QVERIFY(w.table().isRowSelected(row));
        QVERIFY(view->selectionModel()->isRowSelected(row - w.table().topRow(), {}));
        const QRect rect = w.table().cellRect(row, EventTableModel::Event);
        QVERIFY(view->viewport()->rect().contains(rect.center()));
        // what the view shows in that row is the model's row
        QCOMPARE(view->indexAt(rect.center()).data().toString(),
                 w.model().index(row, EventTableModel::Event).data().toString());
        // a real click on the row below sets the ViewState selection
        const QRect below = w.table().cellRect(row + 1, EventTableModel::Event);
        QVERIFY(view->viewport()->rect().contains(below.center()));
        QSignalSpy changed(&w.state, &ViewState::selectionChanged);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, below.center());
        QCOMPARE(changed.count(), 1);
        const EventPos e = w.model().eventAt(row + 1);
        QCOMPARE(w.state.selection(), (EventRef{e.cpu, static_cast<int64_t>(e.index)}));
        // keyboard: the next row
        QTest::keyClick(view, Qt::Key_Down);
        const EventPos e2 = w.model().eventAt(row + 2);
        QCOMPARE(w.state.selection(), (EventRef{e2.cpu, static_cast<int64_t>(e2.index)}));
    }

    void theViewHoldsOnlyTheRowsOnScreen()
    {
        Window w("nohzfull-poll.dat");
        QVERIFY(w.waitTable());
        QTableView *view = w.table().view();
        const int total = w.model().rowCount();
        const int shown = view->model()->rowCount();
        QVERIFY(shown > 0);
        QVERIFY(shown < 200);
        QCOMPARE(shown, w.table().visibleRows());
        QCOMPARE(w.table().scrollBar()->maximum(), total - shown);
        // the wheel moves the window, by rows of the model
        const QPoint at = view->viewport()->rect().center();
        QWheelEvent down(at, view->viewport()->mapToGlobal(at), {}, QPoint(0, -120), Qt::NoButton,
                         Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view->viewport(), &down);
        const int top = w.table().topRow();
        QVERIFY(top > 0);
        QCOMPARE(view->model()->index(0, EventTableModel::Time).data().toString(),
                 w.model().index(top, EventTableModel::Time).data().toString());
        // End and Home: the last and the first row, scrolled into view, selected in the timeline too
        view->setFocus();
        QTest::keyClick(view, Qt::Key_End);
        QCOMPARE(w.table().currentRow(), total - 1);
        QCOMPARE(w.table().topRow(), total - shown);
        const EventPos last = w.model().eventAt(total - 1);
        QCOMPARE(w.state.selection(), (EventRef{last.cpu, static_cast<int64_t>(last.index)}));
        QVERIFY(view->viewport()->rect().contains(w.table().cellRect(total - 1, 0).center()));
        QTest::keyClick(view, Qt::Key_PageUp);
        QCOMPARE(w.table().currentRow(), total - 1 - (shown - 1));
        QTest::keyClick(view, Qt::Key_Home);
        QCOMPARE(w.table().currentRow(), 0);
        QCOMPARE(w.table().topRow(), 0);
        // the scroll bar moves the window and leaves the selection where it was (off screen now)
        w.table().scrollBar()->setValue(total / 2);
        QCOMPARE(w.table().topRow(), total / 2);
        QCOMPARE(w.table().currentRow(), 0);
        QVERIFY(!view->selectionModel()->hasSelection());
        QVERIFY(w.table().cellRect(0, 0).isEmpty());
        // a taller view shows more rows
        const int before = w.table().visibleRows();
        w.docks.eventDock()->setFloating(true);
        w.docks.eventDock()->resize(w.docks.eventDock()->width(), w.docks.eventDock()->height() + 200);
        QTRY_VERIFY(view->model()->rowCount() > before);
        QCOMPARE(view->model()->rowCount(), w.table().visibleRows());
    }

    void filtersCountWhatCoreCounts()
    {
        Window w("nohzfull-poll.dat");
        QVERIFY(w.waitTable());
        const Trace &t = *w.doc.trace;
        auto apply = [&](auto change) {
            QSignalSpy ready(&w.model(), &EventTableModel::rowsReady);
            change();
            return ready.wait(30000);
        };
        // CPU 1
        QVERIFY(apply([&] { w.table().cpuFilter()->setCurrentIndex(w.table().cpuFilter()->findData(1)); }));
        QCOMPARE(static_cast<size_t>(w.model().rowCount()), t.cpu(1).size());
        for (int r = 0; r < w.model().rowCount(); r += 97)
            QCOMPARE(w.model().eventAt(r).cpu, 1);
        // and the event hrtimer_expire_entry, typed
        const int type = t.findType("hrtimer_expire_entry");
        QVERIFY(type >= 0);
        size_t expect = 0;
        for (size_t i = 0; i < t.cpu(1).size(); ++i)
            expect += t.cpu(1).type(i) == type;
        QVERIFY(expect > 0);
        QVERIFY(apply([&] {
            w.table().eventFilter()->setFocus();
            QTest::keyClicks(w.table().eventFilter()->lineEdit(), QStringLiteral("hrtimer_expire_entry"));
        }));
        QCOMPARE(static_cast<size_t>(w.model().rowCount()), expect);
        // every CPU, the task given by pid: the events of that task
        const int32_t pid = t.cpu(1).pid(t.cpu(1).size() / 2);
        QVERIFY(apply([&] {
            w.table().eventFilter()->setCurrentText(QString());
            w.table().cpuFilter()->setCurrentIndex(0);
            w.table().taskFilter()->setText(QString::number(pid));
        }));
        QTRY_VERIFY(w.model().ready());
        expect = 0;
        for (int c = 0; c < t.cpuCount(); ++c) {
            for (size_t i = 0; i < t.cpu(c).size(); ++i)
                expect += t.cpu(c).pid(i) == pid;
        }
        QCOMPARE(static_cast<size_t>(w.model().rowCount()), expect);
        QVERIFY(w.table().statusText().contains(QStringLiteral(" of ")));
        // a selection hidden by the filter selects nothing; one it keeps is selected
        size_t hidden = 0;
        while (t.cpu(0).pid(hidden) == pid)
            ++hidden;
        w.state.setSelection({0, static_cast<int64_t>(hidden)});
        QVERIFY(!w.table().view()->selectionModel()->hasSelection());
        QCOMPARE(w.table().currentRow(), -1);
        const EventPos kept = w.model().eventAt(w.model().rowCount() / 2);
        w.state.setSelection({kept.cpu, static_cast<int64_t>(kept.index)});
        QCOMPARE(w.table().currentRow(), w.model().rowCount() / 2);
        // no filter: every event again
        QVERIFY(apply([&] { w.table().taskFilter()->clear(); }));
        QCOMPARE(static_cast<size_t>(w.model().rowCount()), t.eventCount());
    }

    void searchFindsTheNextAndPreviousMatch()
    {
        Window w("nohzfull-poll.dat");
        QVERIFY(w.waitTable());
        const Trace &t = *w.doc.trace;
        // the rows whose fields name tick_sched_timer, by walking the model's own text
        std::vector<int> expect;
        for (int r = 0; r < w.model().rowCount() && expect.size() < 3; ++r) {
            if (w.model()
                    .index(r, EventTableModel::Fields)
                    .data()
                    .toString()
                    .contains(QStringLiteral("tick_sched_timer")))
                expect.push_back(r);
        }
        QCOMPARE(expect.size(), size_t{3});
        QSignalSpy done(&w.table(), &EventTable::searchFinished);
        QTest::keyClicks(w.table().searchEdit(), QStringLiteral("Tick_Sched_Timer"));
        QTest::keyClick(w.table().searchEdit(), Qt::Key_Return);
        QVERIFY(done.wait(10000));
        QCOMPARE(w.table().currentRow(), expect[0]);
        QTest::mouseClick(w.table().nextButton(), Qt::LeftButton);
        QVERIFY(done.wait(10000));
        QTest::mouseClick(w.table().nextButton(), Qt::LeftButton);
        QVERIFY(done.wait(10000));
        QCOMPARE(w.table().currentRow(), expect[2]);
        const EventPos e = w.model().eventAt(expect[2]);
        QCOMPARE(w.state.selection(), (EventRef{e.cpu, static_cast<int64_t>(e.index)}));
        QTest::mouseClick(w.table().previousButton(), Qt::LeftButton);
        QVERIFY(done.wait(10000));
        QCOMPARE(w.table().currentRow(), expect[1]);
        w.table().searchEdit()->setText(QStringLiteral("no event has this text"));
        QTest::mouseClick(w.table().nextButton(), Qt::LeftButton);
        QVERIFY(done.wait(10000));
        QCOMPARE(done.last().at(0).toBool(), false);
        QVERIFY(w.table().statusText().contains(QStringLiteral("not found")));
        QCOMPARE(w.table().currentRow(), expect[1]);
        // clearing (or changing) the text drops the note
        w.table().searchEdit()->setText(QString());
        QVERIFY2(!w.table().statusText().contains(QStringLiteral("not found")),
                 qPrintable(w.table().statusText()));
        (void)t;
    }

    void followRangeScrollsToItsStart()
    {
        Window w("nohzfull-poll.dat");
        QVERIFY(w.waitTable());
        const Trace &t = *w.doc.trace;
        w.table().followRange()->setChecked(true);
        const int64_t start = t.firstTs() + (t.lastTs() - t.firstTs()) / 2;
        w.state.setRange(start, start + 1000000);
        const int top = w.table().topRow();
        QVERIFY(top > 0);
        QVERIFY(ts(t, w.model().eventAt(top)) >= start);
        QVERIFY(ts(t, w.model().eventAt(top - 1)) < start);
    }

    void aNewDocumentIsSummarisedAtOnce()
    {
        if (!haveTraceCmd()) TICKSCOPE_MISSING_TOOL("trace-cmd is not installed: the ticks were not counted");
        // CPU 1's spurious ticks over the whole trace (see the summary's test below)
        const RefCpu ref = countRef(traceCmdReport("nohzfull-poll.dat"), 1);
        QCOMPARE(ref.failedStops, uint64_t{0});
        QVERIFY(ref.user + ref.polling > 200);
        Window w("nohzfull-poll.dat"); // shown and reset: the range is the whole trace
        SummaryPanel *s = w.docks.summary();
        HistogramPanel *h = w.docks.histograms();
        // computing already, with no debounce pending for the range and CPUs the reset announced
        QVERIFY(!s->debouncing());
        QVERIFY(!h->debouncing());
        QTRY_COMPARE(s->cell(QStringLiteral("spurious"), 1), QString::number(ref.user + ref.polling));
        QTRY_VERIFY(HistogramPanel::plottedSamples(h->latencyPlot()) > 0);
        // the nohz_full CPU 1 comes first: a narrow dock shows it without scrolling
        QCOMPARE(s->table()->horizontalHeaderItem(0)->text(), QStringLiteral("CPU 1"));
        // a range change is debounced; going back to the computed range cancels it
        const int64_t first = w.doc.trace->firstTs(), last = w.doc.trace->lastTs();
        w.state.setRange(first, first + (last - first) / 2);
        QVERIFY(s->debouncing());
        QVERIFY(h->debouncing());
        w.state.setRange(first, last);
        QVERIFY(!s->debouncing());
        QVERIFY(!h->debouncing());
    }

    void summaryShowsTheReportForTheRangeOrTheWholeTrace()
    {
        if (!haveTraceCmd())
            TICKSCOPE_MISSING_TOOL("trace-cmd is not installed: the figures were not counted");
        const std::vector<RefEvent> events = traceCmdReport("nohzfull-poll.dat");
        Window w("nohzfull-poll.dat");
        SummaryPanel *s = w.docks.summary();
        // the span between the workload's print markers, as `report --markers`: trace-cmd's first and last
        const auto markers = markerWindow(*w.doc.trace, *w.doc.analysis);
        QVERIFY(markers);
        QCOMPARE(refMarkers(events), *markers);
        // The expected figures. CPU 1 (nohz_full) between the markers: the kernel lab's list of its ticks.
        // With no failed tick stop on it (no dependency in force) every tick the lab lists is spurious: in
        // userspace, or idle - polling, under idle=poll. The rest from trace-cmd's text by the rules of
        // countRef; its count of the window's ticks is the lab's.
        const LabTicks lab = labTicks("nohzfull-poll.ticks.csv");
        QVERIFY(lab.user > 150); // (a second and more of HZ=250 ticks in userspace)
        const RefCpu whole1 = countRef(events, 1),
                     cpu0 = countRef(events, 0, markers->first, markers->second),
                     cpu1 = countRef(events, 1, markers->first, markers->second);
        QCOMPARE(whole1.failedStops, uint64_t{0});
        QCOMPARE(cpu1.ticks, lab.all);
        QCOMPARE(cpu1.user, lab.user);
        QCOMPARE(cpu1.user + cpu1.polling, lab.all);
        QVERIFY(cpu0.polling > 400); // CPU 0 mostly idles, polling, at HZ=250 for two seconds
        QVERIFY(cpu1.latencyNs.size() > 150);
        QVERIFY(cpu0.timerSoftirqMaxNs > 0);
        QSignalSpy updated(s, &SummaryPanel::updated);
        w.state.setRange(markers->first, markers->second);
        QVERIFY(updated.wait(10000));
        QTRY_COMPARE(s->cell(QStringLiteral("spurious"), 1), QString::number(lab.all));
        QCOMPARE(s->cell(QStringLiteral("ticks"), 1), QString::number(lab.all));
        QCOMPARE(s->cell(QStringLiteral("user"), 1), QString::number(lab.user));
        QCOMPARE(s->cell(QStringLiteral("polling"), 0), QString::number(cpu0.polling));
        // nohz_full: the tick stopped while the workload ran on CPU 1, which only nohz_full allows (the
        // lab booted with nohz_full=1)
        QVERIFY(cpu1.stopsInTask > 0);
        QCOMPARE(s->cell(QStringLiteral("nohz_full"), 1), QStringLiteral("yes"));
        QCOMPARE(s->cell(QStringLiteral("hrtimer wakeups"), 1), QString::number(cpu1.wakeups));
        QCOMPARE(s->cell(QStringLiteral("latency p50/p99/max µs"), 1),
                 nearestRankUs(cpu1.latencyNs, 50) + '/' + nearestRankUs(cpu1.latencyNs, 99) + '/' +
                     nearestRankUs(cpu1.latencyNs, 100));
        QCOMPARE(s->cell(QStringLiteral("timer softirq max µs"), 0),
                 QString::number(static_cast<double>(cpu0.timerSoftirqMaxNs) / 1e3, 'f', 1));
        // the whole trace: CPU 1's ticks before and after the markers too, some while idle before its
        // first cpu_idle (not known to poll, so not spurious)
        QVERIFY(whole1.ticks > whole1.user + whole1.polling);
        s->wholeTrace()->setChecked(true);
        QTRY_COMPARE(s->cell(QStringLiteral("spurious"), 1), QString::number(whole1.user + whole1.polling));
        QCOMPARE(s->cell(QStringLiteral("ticks"), 1), QString::number(whole1.ticks));
        // only the CPUs shown
        s->wholeTrace()->setChecked(false);
        w.state.setCpus({1});
        QTRY_COMPARE(s->table()->columnCount(), 1);
        QCOMPARE(s->cell(QStringLiteral("spurious"), 1), QString::number(lab.all));
        QCOMPARE(s->cell(QStringLiteral("spurious"), 0), QString());
    }

    void histogramsHoldTheReportsSamples()
    {
        if (!haveTraceCmd())
            TICKSCOPE_MISSING_TOOL("trace-cmd is not installed: the wakeups were not counted");
        const std::vector<RefEvent> events = traceCmdReport("nohzfull-poll.dat");
        Window w("nohzfull-poll.dat");
        HistogramPanel *h = w.docks.histograms();
        QVERIFY(h->logScale()->isChecked()); // the default
        h->logScale()->setChecked(false);
        const auto markers = markerWindow(*w.doc.trace, *w.doc.analysis);
        QVERIFY(markers);
        w.state.setCpus({1});
        QSignalSpy updated(h, &HistogramPanel::updated);
        w.state.setRange(markers->first, markers->second);
        QVERIFY(updated.wait(10000));
        ReportOptions o;
        o.cpus = {1};
        o.from = markers->first;
        o.to = markers->second;
        const TickReport r = TickReport::make(*w.doc.trace, *w.doc.analysis, o);
        QCOMPARE(r.cpus.size(), size_t{1});
        // CPU 1's hrtimer_wakeup expiries between the markers that trace-cmd shows switching in their task
        const RefCpu ref = countRef(events, 1, markers->first, markers->second);
        QVERIFY(ref.latencyNs.size() > 150);
        QCOMPARE(r.cpus[0].wakeup.latency.count, uint64_t{ref.latencyNs.size()});
        QTRY_COMPARE(HistogramPanel::plottedSamples(h->latencyPlot()), r.cpus[0].wakeup.latency.count);
        QCOMPARE(HistogramPanel::plottedSamples(h->latenessPlot()), r.cpus[0].wakeup.lateness.count);
        QCOMPARE(h->latencyPlot()->xAxis->scaleType(), QCPAxis::stLinear);
        // log scale: the same samples in log2 bins, the report's own histogram
        h->logScale()->setChecked(true);
        QVERIFY(updated.wait(10000));
        QCOMPARE(h->latencyPlot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(HistogramPanel::plottedSamples(h->latencyPlot()), r.cpus[0].wakeup.latency.count);
        std::vector<uint64_t> report;
        for (uint64_t c : r.cpus[0].wakeup.histogram) {
            if (c) report.push_back(c);
        }
        std::vector<uint64_t> plotted;
        for (const QCPGraphData &d : *h->latencyPlot()->graph(0)->data()) {
            if (d.value > 0) plotted.push_back(static_cast<uint64_t>(d.value));
        }
        QCOMPARE(plotted, report);
        // the first half of the window only: what the report counts there
        const int64_t mid = markers->first + (markers->second - markers->first) / 2;
        o.to = mid;
        const TickReport half = TickReport::make(*w.doc.trace, *w.doc.analysis, o);
        QVERIFY(half.cpus[0].wakeup.latency.count > 0);
        QVERIFY(half.cpus[0].wakeup.latency.count < r.cpus[0].wakeup.latency.count);
        w.state.setRange(markers->first, mid);
        QVERIFY(updated.wait(10000));
        QCOMPARE(HistogramPanel::plottedSamples(h->latencyPlot()), half.cpus[0].wakeup.latency.count);
        QCOMPARE(HistogramPanel::plottedSamples(h->latenessPlot()), half.cpus[0].wakeup.lateness.count);
        // both CPUs and the whole trace: more samples
        w.state.setCpus({0, 1});
        w.state.setRange(w.doc.trace->firstTs(), w.doc.trace->lastTs());
        QVERIFY(updated.wait(10000));
        QVERIFY(HistogramPanel::plottedSamples(h->latencyPlot()) > r.cpus[0].wakeup.latency.count);
    }

    // Expiries that fired within their slack (lateness <= 0) cannot sit on a log axis: the heading says how
    // many it leaves out, and those drawn and those left out are every sample.
    void logHistogramSaysWhatItLeavesOut()
    {
        Window w("rt-hrtimer-k4.dat");
        HistogramPanel *h = w.docks.histograms();
        QVERIFY(h->logScale()->isChecked());
        QSignalSpy updated(h, &HistogramPanel::updated);
        w.state.setRange(w.doc.trace->firstTs(), w.doc.trace->lastTs());
        QVERIFY(updated.wait(10000));
        std::vector<int> cpus(static_cast<size_t>(w.doc.trace->cpuCount()));
        std::iota(cpus.begin(), cpus.end(), 0);
        const WakeupSamples s = WakeupSamples::collect(*w.doc.trace, *w.doc.analysis, cpus,
                                                       w.doc.trace->firstTs(), w.doc.trace->lastTs(), {});
        const auto off = static_cast<uint64_t>(
            std::count_if(s.latenessNs.begin(), s.latenessNs.end(), [](int32_t x) { return x <= 0; }));
        QVERIFY(off > 100); // on this trace hundreds fire within their slack
        const auto *title = qobject_cast<QCPTextElement *>(h->latenessPlot()->plotLayout()->element(0, 0));
        QVERIFY2(title->text().contains(QStringLiteral("%1 at or before 0 µs, not drawn").arg(off)),
                 qPrintable(title->text()));
        QCOMPARE(HistogramPanel::plottedSamples(h->latenessPlot()) + off, s.latenessNs.size());
    }

    // On a PREEMPT_RT trace the histograms show one class of expiries at a time: each holds the report's
    // latency samples of that class.
    void histogramsByExpiryClass()
    {
        Window w("rt-hrtimer-k4.dat");
        HistogramPanel *h = w.docks.histograms();
        w.state.setCpus({1});
        w.state.setRange(w.doc.trace->firstTs(), w.doc.trace->lastTs());
        QSignalSpy updated(h, &HistogramPanel::updated);
        ReportOptions o;
        o.cpus = {1};
        o.from = w.doc.trace->firstTs();
        o.to = w.doc.trace->lastTs();
        const TickReport r = TickReport::make(*w.doc.trace, *w.doc.analysis, o);
        const WakeupReport &wr = r.cpus[0].wakeup;
        QTRY_COMPARE(HistogramPanel::plottedSamples(h->latencyPlot()), wr.latency.count);
        const std::pair<QString, uint64_t> classes[] = {
            {QStringLiteral("hard, RT"), wr.byContext[0][0].latency.count},
            {QStringLiteral("soft, non-RT"), wr.byContext[1][1].latency.count},
            {QStringLiteral("soft, RT"), 0},
        };
        QVERIFY(wr.byContext[0][0].latency.count > 900);
        QVERIFY(wr.byContext[1][1].latency.count > 4000);
        for (const auto &[name, count] : classes) {
            const int k = h->expiryClass()->findText(name);
            QVERIFY2(k > 0, qPrintable(name));
            h->expiryClass()->setCurrentIndex(k);
            QVERIFY(updated.wait(10000));
            QCOMPARE(HistogramPanel::plottedSamples(h->latencyPlot()), count);
        }
    }

    // The Findings panel lists the report's findings worst first; a row goes to its first instance (the
    // view centred on it, its event selected), Next to the following one.
    void findingsGoToTheirInstances()
    {
        if (!haveTraceCmd())
            TICKSCOPE_MISSING_TOOL("trace-cmd is not installed: the user ticks were not counted");
        // CPU 1's ticks in user mode over the whole trace, by trace-cmd's text (countRef), none of them under
        // a tick dependency
        const RefCpu ref = countRef(traceCmdReport("nohzfull-poll.dat"), 1);
        QCOMPARE(ref.failedStops, uint64_t{0});
        QVERIFY(ref.user > 150);
        Window w("nohzfull-poll.dat");
        FindingsPanel *f = w.docks.findings();
        QSignalSpy updated(f, &FindingsPanel::updated);
        QVERIFY(f->findings() || updated.wait(10000));
        const TickReport r = TickReport::make(*w.doc.trace, *w.doc.analysis, {});
        QCOMPARE(static_cast<size_t>(f->list()->topLevelItemCount()), r.findings.size());
        QCOMPARE(f->list()->topLevelItem(0)->text(2),
                 QStringLiteral("%1 spurious ticks in user mode").arg(ref.user));
        // The known cause's name stays as written: it is the product's wording for the pattern, not a
        // figure; nothing outside tickscope names it (the lab booted with idle=poll, tests/data/README.md).
        QVERIFY(f->detail()->text().contains(QStringLiteral("idle=poll tick restart")));
        QSignalSpy goTo(f, &FindingsPanel::goTo);
        f->showInstance(0);
        QCOMPARE(goTo.count(), 1);
        QCOMPARE(goTo.at(0).at(0).toInt(), r.findings[0].cpu);
        QCOMPARE(goTo.at(0).at(1).toLongLong(), static_cast<qlonglong>(r.findings[0].at[0]));
        f->showInstance(1);
        QCOMPARE(goTo.at(1).at(1).toLongLong(), static_cast<qlonglong>(r.findings[0].at[1]));
        // the timeline's latency threshold sets what a late wakeup is
        f->setLateWakeupNs(50'000);
        QVERIFY(updated.wait(10000));
        bool fifty = false;
        for (int i = 0; i < f->list()->topLevelItemCount(); ++i)
            fifty = fifty || f->list()->topLevelItem(i)->text(2).contains(QStringLiteral("≥ 50.0 µs"));
        QVERIFY(fifty);
        // the CPUs shown limit the list
        w.state.setCpus({0});
        QVERIFY(updated.wait(10000));
        for (int i = 0; i < f->list()->topLevelItemCount(); ++i)
            QCOMPARE(f->list()->topLevelItem(i)->text(1), QStringLiteral("0"));
    }

    // A paste of function_graph output (no events, no timestamps): the Functions panel is its view.
    void functionsPanelShowsTheCallsPerCpu()
    {
        // the paste's own lines: one function, its calls on three CPUs
        const auto pasted = pastedCalls("text/seed002-run-timer-softirq.txt", kCatchupMinNs);
        QCOMPARE(pasted.size(), size_t{1});
        const auto &[name, calls] = *pasted.begin();
        QCOMPARE(calls.cpus.size(), size_t{3});
        const auto cpu = [&](size_t k) { return std::next(calls.cpus.begin(), static_cast<ptrdiff_t>(k)); };
        QVERIFY(calls.atLeast > 0 && calls.atLeast < calls.all.calls);
        Window w("text/seed002-run-timer-softirq.txt");
        FunctionsPanel *f = w.docks.functions();
        // a paste without timestamps: the main window shows the calls in the timeline's place instead
        QVERIFY(!w.docks.functionsDock()->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(f->table()->topLevelItemCount(), 1, 10000);
        const QTreeWidgetItem *fn = f->table()->topLevelItem(0);
        QCOMPARE(fn->text(0), name);
        QCOMPARE(fn->text(1), QString::number(calls.all.calls));
        QCOMPARE(fn->text(4), calls.all.maxText);
        QCOMPARE(fn->childCount(), 3);
        for (int k = 0; k < 3; ++k) {
            QCOMPARE(fn->child(k)->text(0), QStringLiteral("CPU %1").arg(cpu(k)->first));
            QCOMPARE(fn->child(k)->text(1), QString::number(cpu(k)->second.calls));
            QCOMPARE(fn->child(k)->text(4), cpu(k)->second.maxText);
        }
        // the calls of at least kCatchupMinNs (50 µs, the analysis' "large" TIMER softirq) of them all
        QVERIFY2(f->verdict()->text().contains(
                     QStringLiteral("%1 of %2 calls").arg(calls.atLeast).arg(calls.all.calls)),
                 qPrintable(f->verdict()->text()));
        QTRY_COMPARE(HistogramPanel::plottedSamples(f->plot()), uint64_t(calls.all.calls));
        // the CPUs shown
        QVERIFY(calls.cpus.count(12));
        w.state.setCpus({12});
        QTRY_COMPARE(f->table()->topLevelItem(0)->text(1), QString::number(calls.cpus.at(12).calls));
        QTRY_COMPARE(HistogramPanel::plottedSamples(f->plot()), uint64_t(calls.cpus.at(12).calls));
        // a recording with timestamps brings it forward
        w.docks.setDocument(load("fgraph-timers.dat"));
        QVERIFY(w.docks.functionsDock()->isVisible());
        // a trace without calls puts the panel away
        w.docks.setDocument(load("nohzfull-poll.dat"));
        QVERIFY(!w.docks.functionsDock()->isVisible());
    }

    void wholeTraceReportIsMadeOnceAndEqualsItsOptions()
    {
        const Document d = load("nohzfull-poll.dat");
        ReportMemo &memo = *d.reports;
        const Trace &t = *d.trace;
        auto json = [](const TickReport &r) {
            TickReport c = r;
            c.analysisSeconds = 0;
            return formatReportJson(c);
        };
        auto direct = [&](const ReportOptions &o) { return json(TickReport::make(t, *d.analysis, o)); };
        // the defaults, every CPU listed, and a window over the whole trace share one report
        const auto whole = memo.get(d.trace, d.analysis, ReportOptions{});
        QCOMPARE(json(*whole), direct(ReportOptions{}));
        ReportOptions listed;
        for (int c = 0; c < t.cpuCount(); ++c)
            listed.cpus.push_back(c);
        QCOMPARE(memo.get(d.trace, d.analysis, listed).get(), whole.get());
        // some CPUs listed (the CPUs shown): the whole report filtered, with the numbers make() gives
        ReportOptions one;
        one.cpus = {1};
        QCOMPARE(json(*memo.get(d.trace, d.analysis, one)), direct(one));
        ReportOptions window;
        window.from = t.firstTs();
        window.to = t.lastTs();
        window.windowSource = "window";
        const auto named = memo.get(d.trace, d.analysis, window);
        QCOMPARE(named->windowSource, std::string("window"));
        QCOMPARE(json(*named), direct(window));
        // anything narrower, or another threshold, is its own report with its own numbers
        ReportOptions part = window;
        part.from = t.firstTs() + (t.lastTs() - t.firstTs()) / 2;
        const auto half = memo.get(d.trace, d.analysis, part);
        QVERIFY(half.get() != whole.get());
        QCOMPARE(json(*half), direct(part));
        QVERIFY(json(*half) != json(*named));
        ReportOptions some;
        some.cpus = {1};
        QCOMPARE(json(*memo.get(d.trace, d.analysis, some)), direct(some));
        ReportOptions late;
        late.lateWakeupNs = 1;
        QVERIFY(memo.get(d.trace, d.analysis, late).get() != whole.get());
        QCOMPARE(json(*memo.get(d.trace, d.analysis, late)), direct(late));
        // a new analysis of the same trace (another --nohz-full, say) gets a new report
        AnalysisOptions ao;
        ao.nohzFullGiven = true;
        const auto other = std::make_shared<const TickAnalysis>(TickAnalysis::run(t, ao));
        const auto again = memo.get(d.trace, other, ReportOptions{});
        QVERIFY(again.get() != whole.get());
        QCOMPARE(json(*again), json(TickReport::make(t, *other, ReportOptions{})));
        QVERIFY(json(*again) != json(*whole));
    }

    void docksAreOnTheWindow()
    {
        Window w("nohzfull-nopoll.dat");
        for (QDockWidget *d : {w.docks.eventDock(), w.docks.summaryDock(), w.docks.histogramDock()}) {
            QVERIFY(d->isVisible());
            QVERIFY(!d->objectName().isEmpty());
            QCOMPARE(d->parentWidget(), &w.main);
        }
        QVERIFY(w.waitTable());
        QCOMPARE(static_cast<size_t>(w.model().rowCount()), w.doc.trace->eventCount());
        // the View menu hides and shows a dock
        QMenu view;
        w.docks.addViewActions(&view);
        // events, summary, findings, histograms, functions, difference, what-if
        QCOMPARE(view.actions().size(), 7);
        view.actions().at(1)->trigger();
        QVERIFY(!w.docks.summaryDock()->isVisible());
        view.actions().at(1)->trigger();
        QVERIFY(w.docks.summaryDock()->isVisible());
        // a new document replaces the old one, also while the previous one is still being indexed
        Document other = load("nohzfull-poll.dat");
        w.docks.setDocument(load("host-6.18-cyclictest.dat"));
        w.docks.setDocument(other);
        w.state.reset(other.trace->firstTs(), other.trace->lastTs(), other.trace->cpuCount());
        QTRY_COMPARE(static_cast<size_t>(w.model().rowCount()), other.trace->eventCount());
        QTest::qWait(500); // the superseded index, if it finished late, was dropped
        QCOMPARE(static_cast<size_t>(w.model().rowCount()), other.trace->eventCount());
    }
};

TICKSCOPE_TEST_MAIN(PanelsTest)
#include "PanelsTest.moc"
