#include "MainWindow.h"

#include "PanelDocks.h"

#include "SummaryPanel.h"
#include "TimeAxisTicker.h"
#include "TimelinePlot.h"
#include "TimelineView.h"
#include "Timing.h"
#include "TraceLoader.h"
#include "ViewState.h"
#include "analysis/CpuList.h"
#include "analysis/ReportMail.h"
#include "model/Trace.h"
#include "stats/TraceStats.h"

#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFrame>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QVBoxLayout>

namespace tickscope {

namespace {
constexpr int kMaxRecent = 10;
}

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), loader_(new TraceLoader(this)), state_(new ViewState(this))
{
    setWindowTitle(QStringLiteral("tickscope"));
    setAcceptDrops(true);

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    timeline_ = new TimelineView(state_, central);
    layout->addWidget(timeline_, 1);
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
    // The progress bar and Cancel float over the bottom of the timeline while loading, outside the
    // layout: showing or hiding them resizes nothing (a resize re-allocates and repaints the timeline).
    busy_ = new QFrame(central);
    busy_->setFrameShape(QFrame::StyledPanel);
    busy_->setAutoFillBackground(true);
    auto *bar = new QHBoxLayout(busy_);
    bar->setContentsMargins(6, 4, 6, 4);
    progress_ = new QProgressBar(busy_);
    progress_->setRange(0, 1000);
    cancel_ = new QPushButton(tr("Cancel"), busy_);
    bar->addWidget(progress_, 1);
    bar->addWidget(cancel_);
    central->installEventFilter(this);
    setCentralWidget(central);
    status_ = new QLabel(this);
    statusBar()->addWidget(status_, 1);
    markers_ = new QLabel(this);
    statusBar()->addPermanentWidget(markers_);
    connect(state_, &ViewState::markersChanged, this, &MainWindow::showMarkers);
    setBusy(false);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openDialog);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addAction(tr("&Export Timeline…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export timeline"), QString(),
                                                          tr("PNG image (*.png);;SVG (*.svg);;PDF (*.pdf)"));
        if (!path.isEmpty() && !timeline_->plot()->exportTo(path))
            QMessageBox::critical(this, tr("Export failed"), tr("Cannot write %1").arg(path));
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    rebuildRecentMenu();
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *copySummary = edit->addAction(tr("Copy &Summary"), this, &MainWindow::copySummary);
    copySummary->setObjectName(QStringLiteral("copySummary"));
    copySummary->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    copySummary->setToolTip(tr("The summary of the visible range as mail-ready text (ASCII, 72 columns)"));
    QMenu *view = menuBar()->addMenu(tr("&View"));
    timeline_->fillViewMenu(view);
    view->addSeparator();
    view->addAction(panels_->eventDock()->toggleViewAction());
    view->addAction(panels_->summaryDock()->toggleViewAction());
    view->addAction(panels_->histogramDock()->toggleViewAction());
    view->addAction(factsDock_->toggleViewAction());
    timeline_->fillNavigateMenu(menuBar()->addMenu(tr("&Navigate")));

    connect(cancel_, &QPushButton::clicked, loader_, &TraceLoader::cancel);
    connect(loader_, &TraceLoader::progress, this, [this](double f) { progress_->setValue(static_cast<int>(f * 1000)); });
    connect(loader_, &TraceLoader::loaded, this, &MainWindow::onLoaded);
    connect(loader_, &TraceLoader::failed, this, &MainWindow::onFailed);
    connect(loader_, &TraceLoader::cancelled, this, [this] {
        setBusy(false);
        status_->setText(tr("Loading cancelled"));
    });

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
    const int64_t origin = doc_.valid() ? doc_.trace->firstTs() : 0;
    auto at = [origin](int64_t t) { return TimeAxisTicker::format(static_cast<double>(t - origin), 1000, 1e9); };
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
    QSettings().setValue(QStringLiteral("lastDir"), QFileInfo(path).absolutePath());
    setBusy(true);
    progress_->setValue(0);
    status_->setText(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    loader_->load(path);
}

void MainWindow::openScenario(const QString &scenario)
{
    setBusy(true);
    progress_->setValue(0);
    status_->setText(tr("Simulating %1…").arg(scenario));
    loader_->simulate(scenario);
}

void MainWindow::onLoaded(const QString &path, std::shared_ptr<std::vector<std::shared_ptr<const Trace>>> traces,
                          const Document &doc, double secs)
{
    setBusy(false);
    traces_ = std::move(traces);
    doc_ = doc;
    timeline_->setDocument(doc_);
    panels_->setDocument(doc_);
    state_->reset(doc_.trace->firstTs(), doc_.trace->lastTs(), doc_.trace->cpuCount());
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
        const double span = fig.events ? static_cast<double>(t.lastTs() - t.firstTs()) / 1e9 : 0.0;
        status_->setText(tr("%1 · kernel %2 · %3 CPUs · %4 s · %5 events · %6 lost ranges · loaded and analysed in %7 s")
                             .arg(doc_.title,
                                  QString::fromStdString(m.kernelRelease.empty() ? std::string("?") : m.kernelRelease))
                             .arg(t.cpuCount())
                             .arg(span, 0, 'f', 3)
                             .arg(static_cast<qulonglong>(fig.events))
                             .arg(static_cast<qulonglong>(t.lostRangeCount()))
                             .arg(secs, 0, 'f', 3));
        std::vector<int> full;
        for (int c = 0; c < t.cpuCount(); ++c)
            if (doc_.analysis->isNohzFull(c)) full.push_back(c);
        status_->setText(status_->text() +
                         tr(" · nohz_full: %1 (%2)")
                             .arg(full.empty() ? tr("none") : QString::fromStdString(formatCpuList(full)),
                                  QString::fromStdString(std::string(nohzFullSourceName(doc_.analysis->nohzFullSource)))));
        QStringList why;
        for (size_t c = 0; c < doc_.analysis->nohzFullWhy.size(); ++c)
            if (!doc_.analysis->nohzFullWhy[c].empty())
                why << tr("CPU %1: %2").arg(c).arg(QString::fromStdString(doc_.analysis->nohzFullWhy[c]));
        status_->setToolTip(why.join(QLatin1Char('\n')));
    }
    setWindowTitle(QStringLiteral("tickscope — %1").arg(doc_.title));
    if (QFileInfo(path).isFile()) addRecent(path); // not a simulated scenario
    for (const auto &t : *traces_) {
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
}

void MainWindow::onFailed(const QString &, const QString &message)
{
    setBusy(false);
    status_->setText(tr("Failed to load"));
    emit loadFailed(message);
    QMessageBox::critical(this, tr("Cannot open trace"), message);
}

void MainWindow::setBusy(bool busy)
{
    busy_->setVisible(busy);
    if (busy) {
        placeBusy();
        busy_->raise();
    }
}

void MainWindow::placeBusy()
{
    const QRect r = centralWidget()->rect().adjusted(12, 12, -12, -12);
    const int h = busy_->sizeHint().height();
    busy_->setGeometry(r.left(), r.bottom() - h, r.width(), h);
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
    while (recent.size() > kMaxRecent) recent.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), recent);
    rebuildRecentMenu();
}

QString MainWindow::summaryMail() const
{
    const TickReport *r = panels_->summary()->report();
    if (!r) return {};
    const std::string tool = "tickscope " + QCoreApplication::applicationVersion().toStdString();
    return QString::fromStdString(formatReportMail(*r, false, tool));
}

void MainWindow::copySummary()
{
    const QString text = summaryMail();
    if (text.isEmpty()) {
        statusBar()->showMessage(tr("The summary is not ready yet"), 3000);
        return;
    }
    QGuiApplication::clipboard()->setText(text);
    statusBar()->showMessage(
        tr("Copied the summary of the visible range (%1 lines)").arg(text.count(QLatin1Char('\n'))), 3000);
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
    if (!urls.isEmpty() && urls.front().isLocalFile()) openFile(urls.front().toLocalFile());
}

void MainWindow::closeEvent(QCloseEvent *e)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    loader_->cancel();
    QMainWindow::closeEvent(e);
}

} // namespace tickscope
