// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's loads: both loaders' progress rows and signals, a document or a run B arriving,
// failures and the status bar's facts of what is shown.
#include "MainWindow.h"

#include "BackgroundJob.h"

#include "CaptureDialog.h"

#include "PanelDocks.h"

#include "DifferencePanel.h"
#include "FindingsPanel.h"
#include "FunctionsPanel.h"
#include "SimulatorPanel.h"

#include "SummaryPanel.h"
#include "TimeAxisTicker.h"
#include "TimelinePlot.h"
#include "TimelineView.h"
#include "Timing.h"
#include "TraceLoader.h"
#include "ViewState.h"
#include "analysis/CpuList.h"
#include "model/Trace.h"
#include "report/ReportMail.h"
#include "sim/Presets.h"
#include "stats/TraceStats.h"

#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QFrame>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QStatusBar>
#include <QVBoxLayout>

#include <cstdio>

namespace tickscope {

// A trace file, or a scenario to simulate.
void MainWindow::open(const QString &run)
{
    if (sim::namesTraceFile(run.toStdString()))
        openFile(run);
    else
        openScenario(run);
}

// Each loader's progress, result, failure and cancel.
void MainWindow::connectLoaders()
{
    connect(cancel_, &QPushButton::clicked, loader_, &TraceLoader::cancel);
    connect(loader_, &TraceLoader::progress, this,
            [this](double f) { progress_->setValue(static_cast<int>(f * 1000)); });
    connect(loader_, &TraceLoader::loaded, this, &MainWindow::onLoaded);
    connect(loader_, &TraceLoader::failed, this, &MainWindow::onFailed);
    connect(loader_, &TraceLoader::tooBig, this, &MainWindow::onTooBig);
    connect(loader_, &TraceLoader::cancelled, this, [this] {
        setBusy(false);
        showFacts(); // of what is still shown
        statusBar()->showMessage(tr("Loading cancelled"), 10000);
    });
    TraceLoader *loaderB = compare_.loader();
    connect(cancelB_, &QPushButton::clicked, loaderB, &TraceLoader::cancel);
    connect(loaderB, &TraceLoader::progress, this,
            [this](double f) { progressB_->setValue(static_cast<int>(f * 1000)); });
    connect(loaderB, &TraceLoader::loaded, this,
            [this](const QString &run, auto, const Document &doc, double) { onLoadedB(run, doc); });
    auto failB = [this](const QString &message) {
        compare_.ended();
        updateBusy();
        status_->setText(tr("Failed to load B"));
        emit loadFailed(message);
        QMessageBox::critical(this, tr("Cannot open B"), message);
    };
    connect(loaderB, &TraceLoader::failed, this,
            [failB](const QString &, const QString &message) { failB(message); });
    // B too big for the memory: said, not silently dropped (its window cannot be chosen here)
    connect(loaderB, &TraceLoader::tooBig, this,
            [failB](const QString &, const QString &message, double) { failB(message); });
    connect(loaderB, &TraceLoader::cancelled, this, [this] {
        compare_.ended();
        updateBusy();
        statusBar()->showMessage(tr("Loading B cancelled"), 3000);
    });
}

double MainWindow::progressValue() const
{
    return progress_->value() / 1000.0;
}

bool MainWindow::loading() const
{
    return loader_->busy();
}

void MainWindow::onLoaded(const QString &path,
                          std::shared_ptr<std::vector<std::shared_ptr<const Trace>>> traces,
                          const Document &doc, double secs)
{
    setBusy(false);
    traces_ = std::move(traces);
    doc_ = doc;
    saveAs_->setEnabled(doc_.valid() && !saving_);
    runA_ = path;
    timeline_->setDocument(doc_);
    // A live snapshot updates the timeline four to five times a second, the panels (summary, findings,
    // histograms, events: their work is per document) every eighth time, about every two seconds.
    liveViews_ = live_ ? liveViews_ + 1 : 0;
    if (!live_ || liveViews_ % 8 == 1) panels_->setDocument(doc_);
    timeline_->setVisible(!doc_.callsOnly());
    callsView_->setVisible(doc_.callsOnly());
    callsView_->setDocument(doc_.callsOnly() ? doc_ : Document{});
    // A file's CPUs without a single event (outside the recording's CPU mask, numbers a text trace
    // skipped) start hidden; View -> Show All CPUs brings them back. Not in a live capture, where a quiet
    // CPU (nohz_full, tick stopped) may have its first event in the next snapshot.
    std::vector<int> withData, empty;
    for (int c = 0; c < doc_.trace->cpuCount(); ++c)
        (doc_.trace->cpuHasData(c) ? withData : empty).push_back(c);
    if (live_ || withData.empty()) empty.clear();
    if (live_ && liveViews_ > 1) // the next snapshot of the capture shown: the user's view stays
        state_->follow(doc_.trace->startTs(), doc_.trace->endTs(), doc_.trace->cpuCount());
    else
        state_->reset(doc_.trace->startTs(), doc_.trace->endTs(), doc_.trace->cpuCount(),
                      empty.empty() ? std::vector<int>{} : withData);
    timeline_->plot()->setFocus();
    loadSeconds_ = secs;
    statsStale_ = true; // written when the statistics dock is shown (it counts every event by type)
    if (factsDock_->isVisible()) fillStats();
    LoadFigures fig;
    for (const auto &t : *traces_)
        fig.events += t->eventCount();
    if (!traces_->empty()) {
        const TraceMeta &m = traces_->front()->meta;
        const Trace &t = *traces_->front();
        const double span = static_cast<double>(t.endTs() - t.startTs()) / 1e9;
        status_->setText(
            tr("%1 · kernel %2 · %3 CPUs · %4 s · %5 events · %6 lost ranges · loaded and analysed in %7 s")
                .arg(QString::fromStdString(doc_.title),
                     QString::fromStdString(m.kernelRelease.empty() ? std::string("?") : m.kernelRelease))
                .arg(t.cpuCount())
                .arg(span, 0, 'f', 3)
                .arg(static_cast<qulonglong>(fig.events))
                .arg(static_cast<qulonglong>(t.lostRangeCount()))
                .arg(secs, 0, 'f', 3));
        std::vector<int> full;
        for (int c = 0; c < t.cpuCount(); ++c)
            if (doc_.analysis->isNohzFull(c)) full.push_back(c);
        status_->setText(
            status_->text() +
            tr(" · nohz_full: %1 (%2)")
                .arg(full.empty() ? tr("none") : QString::fromStdString(formatCpuList(full)),
                     QString::fromStdString(std::string(nohzFullSourceName(doc_.analysis->nohzFullSource)))));
        if (!empty.empty())
            status_->setText(status_->text() + tr(" · no events on CPU%1 %2: hidden (View → Show All CPUs)")
                                                   .arg(empty.size() == 1 ? QString() : QStringLiteral("s"),
                                                        QString::fromStdString(formatCpuList(empty))));
        if (const size_t calls = t.functions.size())
            status_->setText(status_->text() + (t.functions.timed()
                                                    ? tr(" · %1 function_graph calls")
                                                    : tr(" · %1 function_graph calls without timestamps"))
                                                   .arg(static_cast<qulonglong>(calls)));
        QStringList why;
        for (size_t c = 0; c < doc_.analysis->nohzFullWhy.size(); ++c)
            if (!doc_.analysis->nohzFullWhy[c].empty())
                why << tr("CPU %1: %2").arg(c).arg(QString::fromStdString(doc_.analysis->nohzFullWhy[c]));
        status_->setToolTip(why.join(QLatin1Char('\n')));
    }
    if (live_) {
        doc_.title = tr("live capture").toStdString();
        status_->setText(
            tr("Live capture, newest %1 KiB per CPU · ").arg(CaptureDialog::kLiveBytesPerCpu >> 10) +
            status_->text().section(QStringLiteral(" · "), 1));
    }
    statusA_ = status_->text();
    setWindowTitle(QStringLiteral("tickscope — %1").arg(QString::fromStdString(doc_.title)));
    if (QFileInfo(path).isFile() && !live_) addRecent(path); // not a simulated scenario or a live snapshot
    for (const auto &t : *traces_) {
        if (nonInteractive_ || live_) {
            for (const std::string &w : t->warnings)
                std::fprintf(stderr, "tickscope: warning: %s: %s\n", qPrintable(path), w.c_str());
            continue;
        }
        if (!t->warnings.empty()) {
            QMessageBox::warning(
                this, tr("Trace loaded with warnings"),
                QString::fromStdString(t->warnings.front()) +
                    (t->warnings.size() > 1 ? tr("\n(and %1 more)").arg(t->warnings.size() - 1) : QString()));
            break;
        }
    }
    markTime("document shown");
    emit traceShown(path);
    if (const std::optional<Document> b = compare_.takeHeld()) showComparison(*b);
}

void MainWindow::showFacts()
{
    if (statusA_.isEmpty()) {
        status_->clear();
        return;
    }
    const auto &c = state_->comparison();
    status_->setText(!c ? statusA_
                        : tr("A: %1 · B: %2 · %3 CPUs · aligned by %4")
                              .arg(statusA_, QString::fromStdString(c->b.title))
                              .arg(c->b.trace->cpuCount())
                              .arg(QString::fromStdString(c->how)));
}

void MainWindow::onFailed(const QString &path, const QString &message)
{
    setBusy(false);
    // The trace still shown keeps its facts; the failure is said for a while.
    showFacts();
    if (statusA_.isEmpty()) status_->setText(tr("Failed to load %1").arg(QFileInfo(path).fileName()));
    statusBar()->showMessage(tr("Failed to load %1").arg(QFileInfo(path).fileName()), 10000);
    emit loadFailed(message);
    if (!live_)
        QMessageBox::critical(this, tr("Cannot open trace"), message); // a live snapshot: the next one
}

void MainWindow::onBackgroundFailure(const QString &what)
{
    emit backgroundFailed(what);
    const QString line = tr("A view could not be computed: %1").arg(what);
    statusBar()->showMessage(line, 15000);
    if (nonInteractive_ || failureBox_) return; // said on stderr already; one dialog at a time
    failureBox_ = new QMessageBox(
        QMessageBox::Warning, tr("View not computed"),
        line + QLatin1Char('.') + QLatin1Char('\n') +
            tr("The panels and rows that waited for it go on showing what they showed before.") +
            (what == QLatin1String("out of memory")
                 ? QLatin1Char(' ') + tr("Close other programs, or open a shorter window of the trace.")
                 : QString()),
        QMessageBox::Ok, this);
    failureBox_->setAttribute(Qt::WA_DeleteOnClose);
    failureBox_->setModal(false);
    failureBox_->show();
}

void MainWindow::setBusy(bool busy)
{
    busyA_ = busy;
    updateBusy();
}

void MainWindow::updateBusy()
{
    const bool b = compare_.loader()->busy();
    rowA_->setVisible(busyA_);
    rowB_->setVisible(b);
    labelA_->setVisible(b); // the run letters only when two loads run
    labelA_->setText(QStringLiteral("A"));
    busy_->setVisible(busyA_ || b);
    if (busyA_ || b) {
        placeBusy();
        busy_->raise();
    }
}

void MainWindow::placeBusy()
{
    // Over the bottom of the lanes, above the legend (which says what the old view's colours mean).
    const QRect r = centralWidget()->rect().adjusted(12, 12, -12, -12);
    const int h = busy_->sizeHint().height();
    const int bottom =
        std::min(r.bottom(), timeline_->legend()->mapTo(centralWidget(), QPoint(0, 0)).y() - 6);
    busy_->setGeometry(r.left(), bottom - h, r.width(), h);
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == centralWidget() && event->type() == QEvent::Resize) placeBusy();
    return QMainWindow::eventFilter(watched, event);
}

} // namespace tickscope
