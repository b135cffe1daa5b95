// SPDX-License-Identifier: GPL-3.0-or-later
#include "MainWindow.h"

#include "BackgroundJob.h"

#include "CaptureDialog.h"
#include "DemoBanner.h"

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
    : QMainWindow(parent), loader_(new TraceLoader(this)), compare_(new TraceLoader(this)),
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
    demoBanner_ = new DemoBanner(central);
    demoBanner_->hide();
    layout->addWidget(demoBanner_);
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
    connect(demoBanner_, &DemoBanner::openRequested, this, &MainWindow::openDialog);
    connect(demoBanner_, &DemoBanner::captureRequested, this, &MainWindow::captureDialog);
    connect(demoBanner_, &DemoBanner::whatIfRequested, this, [this] {
        panels_->simulatorDock()->show();
        panels_->simulatorDock()->raise();
    });
    connect(demoBanner_, &DemoBanner::recentRequested, this, &MainWindow::openFile);
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

// ... and kept for the next one.
void MainWindow::closeEvent(QCloseEvent *e)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    loader_->cancel();
    QMainWindow::closeEvent(e);
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

void MainWindow::openDialog()
{
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("lastDir")).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open trace"), dir,
                                                      tr("Traces (*.dat *.txt *.trace);;All files (*)"));
    if (!path.isEmpty()) openFile(path);
}

void MainWindow::showDemo()
{
    openComparison(QStringLiteral("seed000-nohzfull-poll"), QStringLiteral("seed000-nohzfull-poll:p1p2"));
    demoBanner_->setRecentFiles(QSettings().value(QStringLiteral("recentFiles")).toStringList());
    demoBanner_->show();
}

void MainWindow::openFile(const QString &path)
{
    demoBanner_->hide();
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
    demoBanner_->hide();
    live_ = false;
    dropB(); // a new document ends any comparison, and a B still loading for the old one
    setBusy(true);
    progress_->setValue(0);
    status_->setText(tr("Simulating %1…").arg(scenario));
    loader_->simulate(scenario);
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
