// SPDX-License-Identifier: GPL-3.0-or-later
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

namespace {
constexpr int kMaxRecent = 10;
}

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), loader_(new TraceLoader(this)), loaderB_(new TraceLoader(this)),
      state_(new ViewState(this))
{
    setWindowTitle(QStringLiteral("tickscope"));
    setAcceptDrops(true);
    setBackgroundFailureHandler(this, [this](const QString &what) { onBackgroundFailure(what); });

    buildCentral();
    buildMenus();
    connectLoaders();
    restoreWindow();
}

// The timeline and the calls view, the statistics dock, the panels and the load progress rows.
void MainWindow::buildCentral()
{
    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    timeline_ = new TimelineView(state_, central);
    layout->addWidget(timeline_, 1);
    callsView_ = new FunctionsPanel(state_, central);
    callsView_->setObjectName(QStringLiteral("callsView"));
    layout->addWidget(callsView_, 1);
    callsView_->hide();
    summary_ = new QPlainTextEdit(this);
    summary_->setReadOnly(true);
    summary_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    summary_->setPlaceholderText(
        tr("Open a trace.dat or an ftrace text file (File → Open, or drop it here)."));
    factsDock_ = new QDockWidget(tr("Trace Statistics"), this);
    factsDock_->setObjectName(QStringLiteral("statisticsDock"));
    factsDock_->setWidget(summary_);
    addDockWidget(Qt::BottomDockWidgetArea, factsDock_);
    factsDock_->hide();
    connect(factsDock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible) fillStats();
    });
    panels_ = new PanelDocks(this, state_);
    connect(panels_->findings(), &FindingsPanel::goTo, timeline_, &TimelineView::goTo);
    connect(panels_->findings(), &FindingsPanel::goToB, timeline_, &TimelineView::goToB);
    panels_->findings()->setLateWakeupNs(timeline_->latencyThresholdNs());
    connect(timeline_, &TimelineView::latencyThresholdChanged, panels_->findings(),
            &FindingsPanel::setLateWakeupNs);
    connect(panels_->findings(), &FindingsPanel::updated, this, [this] {
        timeline_->setFindings(panels_->findings()->findings(), panels_->findings()->findingsB());
    });
    // The progress bar and Cancel float over the bottom of the timeline while loading, outside the
    // layout: showing or hiding them resizes nothing (a resize re-allocates and repaints the timeline).
    busy_ = new QFrame(central);
    busy_->setFrameShape(QFrame::StyledPanel);
    busy_->setAutoFillBackground(true);
    // One row per run being loaded (A: the document, B: a comparison's second run).
    auto *rows = new QVBoxLayout(busy_);
    rows->setContentsMargins(6, 4, 6, 4);
    auto makeRow = [&](QLabel *&label, QProgressBar *&bar, QPushButton *&cancel) {
        auto *w = new QWidget(busy_);
        auto *h = new QHBoxLayout(w);
        h->setContentsMargins(0, 0, 0, 0);
        label = new QLabel(w);
        bar = new QProgressBar(w);
        bar->setRange(0, 1000);
        cancel = new QPushButton(tr("Cancel"), w);
        h->addWidget(label);
        h->addWidget(bar, 1);
        h->addWidget(cancel);
        rows->addWidget(w);
        return w;
    };
    rowA_ = makeRow(labelA_, progress_, cancel_);
    rowB_ = makeRow(labelB_, progressB_, cancelB_);
    cancelB_->setText(tr("Cancel B"));
    cancelB_->setObjectName(QStringLiteral("cancelB"));
    central->installEventFilter(this);
    setCentralWidget(central);
    status_ = new QLabel(this);
    statusBar()->addWidget(status_, 1);
    markers_ = new QLabel(this);
    statusBar()->addPermanentWidget(markers_);
    connect(state_, &ViewState::markersChanged, this, &MainWindow::showMarkers);
    setBusy(false);
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
    connect(cancelB_, &QPushButton::clicked, loaderB_, &TraceLoader::cancel);
    connect(loaderB_, &TraceLoader::progress, this,
            [this](double f) { progressB_->setValue(static_cast<int>(f * 1000)); });
    connect(loaderB_, &TraceLoader::loaded, this,
            [this](const QString &run, auto, const Document &doc, double) { onLoadedB(run, doc); });
    auto failB = [this](const QString &message) {
        expectB_ = false;
        pendingB_.reset();
        updateBusy();
        status_->setText(tr("Failed to load B"));
        emit loadFailed(message);
        QMessageBox::critical(this, tr("Cannot open B"), message);
    };
    connect(loaderB_, &TraceLoader::failed, this, [failB](const QString &, const QString &message) { failB(message); });
    // B too big for the memory: said, not silently dropped (its window cannot be chosen here)
    connect(loaderB_, &TraceLoader::tooBig, this,
            [failB](const QString &, const QString &message, double) { failB(message); });
    connect(loaderB_, &TraceLoader::cancelled, this, [this] {
        expectB_ = false;
        pendingB_.reset();
        updateBusy();
        statusBar()->showMessage(tr("Loading B cancelled"), 3000);
    });
}

// The geometry and docks of the last session, or a first layout.
void MainWindow::restoreWindow()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    if (!settings.contains(QStringLiteral("window/geometry"))) resize(1500, 950);
    if (!settings.contains(QStringLiteral("window/state"))) {
        // wide enough for the summary's two CPU columns and its range line, from the start: a dock that
        // widens when its text arrives resizes the timeline after the load
        const int digit = fontMetrics().horizontalAdvance(QLatin1Char('0'));
        resizeDocks({panels_->summaryDock()}, {digit * 60}, Qt::Horizontal);
    }
}

MainWindow::~MainWindow() = default;

QString MainWindow::summaryText()
{
    fillStats();
    return summary_->toPlainText();
}

void MainWindow::fillStats()
{
    if (!statsStale_ || !traces_) return;
    statsStale_ = false;
    std::vector<TraceStats> stats;
    LoadFigures fig;
    fig.loadSeconds = loadSeconds_;
    for (const auto &t : *traces_) {
        stats.push_back(TraceStats::compute(*t));
        fig.events += stats.back().events;
    }
    summary_->setPlainText(QString::fromStdString(formatStatsText(stats, fig)));
}

QString MainWindow::statusText() const
{
    return status_->text();
}

double MainWindow::progressValue() const
{
    return progress_->value() / 1000.0;
}

void MainWindow::showMarkers()
{
    const auto a = state_->markerA(), b = state_->markerB();
    const int64_t origin = doc_.valid() ? doc_.trace->startTs() : 0;
    // seconds to the microsecond (the axis' own format rounds to its tick step)
    auto at = [origin](int64_t t) {
        return QStringLiteral("%1 s").arg(static_cast<double>(t - origin) / 1e9, 0, 'f', 6);
    };
    QString text;
    if (a) text += QStringLiteral("A %1").arg(at(*a));
    if (b) text += QStringLiteral("%1B %2").arg(text.isEmpty() ? QString() : QStringLiteral("  ·  "), at(*b));
    if (a && b) {
        const double d = static_cast<double>(std::abs(*b - *a));
        text += QStringLiteral("  ·  Δt %1").arg(TimeAxisTicker::format(d, 1, d));
    }
    markers_->setText(text);
}

bool MainWindow::loading() const
{
    return loader_->busy();
}

void MainWindow::openDialog()
{
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("lastDir")).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open trace"), dir,
                                                      tr("Traces (*.dat *.txt *.trace);;All files (*)"));
    if (!path.isEmpty()) openFile(path);
}

void MainWindow::openFile(const QString &path)
{
    live_ = false;
    // A new document ends any comparison, and a B still loading for the old one.
    dropB();
    QSettings().setValue(QStringLiteral("lastDir"), QFileInfo(path).absolutePath());
    setBusy(true);
    progress_->setValue(0);
    status_->setText(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    loader_->load(path);
}

void MainWindow::openScenario(const QString &scenario)
{
    live_ = false;
    dropB(); // a new document ends any comparison, and a B still loading for the old one
    setBusy(true);
    progress_->setValue(0);
    status_->setText(tr("Simulating %1…").arg(scenario));
    loader_->simulate(scenario);
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
    if (pendingB_) {
        const Document b = *pendingB_;
        pendingB_.reset();
        showComparison(b);
    }
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
    const bool b = loaderB_->busy();
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

void MainWindow::addRecent(const QString &path)
{
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recentFiles")).toStringList();
    const QString abs = QFileInfo(path).absoluteFilePath();
    recent.removeAll(abs);
    recent.prepend(abs);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    recentMenu_->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString &p : recent) {
        recentMenu_->addAction(p, this, [this, p] { openFile(p); });
    }
    recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent *e)
{
    if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *e)
{
    const auto urls = e->mimeData()->urls();
    if (urls.isEmpty() || !urls.front().isLocalFile()) return;
    // Ctrl (or Shift) while dropping: compare the dropped file (B) with the open document (A).
    if ((e->modifiers() & (Qt::ControlModifier | Qt::ShiftModifier)) && doc_.valid())
        compareWith(urls.front().toLocalFile());
    else
        openFile(urls.front().toLocalFile());
}

} // namespace tickscope
