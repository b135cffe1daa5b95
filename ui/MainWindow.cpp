#include "MainWindow.h"

#include "TraceLoader.h"
#include "model/Trace.h"
#include "stats/TraceStats.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
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

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent), loader_(new TraceLoader(this))
{
    setWindowTitle(QStringLiteral("tickscope"));
    setAcceptDrops(true);

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    summary_ = new QPlainTextEdit(central);
    summary_->setReadOnly(true);
    summary_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    summary_->setPlainText(tr("Open a trace.dat or an ftrace text file (File → Open, or drop it here)."));
    layout->addWidget(summary_);
    auto *bar = new QHBoxLayout;
    progress_ = new QProgressBar(central);
    progress_->setRange(0, 1000);
    cancel_ = new QPushButton(tr("Cancel"), central);
    bar->addWidget(progress_, 1);
    bar->addWidget(cancel_);
    layout->addLayout(bar);
    setCentralWidget(central);
    status_ = new QLabel(this);
    statusBar()->addWidget(status_, 1);
    setBusy(false);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openDialog);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    rebuildRecentMenu();

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
    if (!settings.contains(QStringLiteral("window/geometry"))) resize(1100, 700);
}

MainWindow::~MainWindow() = default;

QString MainWindow::summaryText() const
{
    return summary_->toPlainText();
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

void MainWindow::onLoaded(const QString &path, std::shared_ptr<std::vector<std::unique_ptr<Trace>>> traces,
                          double secs)
{
    setBusy(false);
    traces_ = std::move(traces);
    std::vector<TraceStats> stats;
    LoadFigures fig;
    fig.loadSeconds = secs;
    for (const auto &t : *traces_) {
        stats.push_back(TraceStats::compute(*t));
        fig.events += stats.back().events;
    }
    summary_->setPlainText(QString::fromStdString(formatStatsText(stats, fig)));
    if (!traces_->empty()) {
        const TraceMeta &m = traces_->front()->meta;
        const Trace &t = *traces_->front();
        const double span = fig.events ? static_cast<double>(t.lastTs() - t.firstTs()) / 1e9 : 0.0;
        status_->setText(tr("%1 · kernel %2 · %3 CPUs · %4 s · %5 events · %6 lost ranges · loaded in %7 s")
                             .arg(QFileInfo(path).fileName(),
                                  QString::fromStdString(m.kernelRelease.empty() ? std::string("?") : m.kernelRelease))
                             .arg(t.cpuCount())
                             .arg(span, 0, 'f', 3)
                             .arg(static_cast<qulonglong>(fig.events))
                             .arg(static_cast<qulonglong>(t.lostRangeCount()))
                             .arg(secs, 0, 'f', 3));
    }
    setWindowTitle(QStringLiteral("tickscope — %1").arg(QFileInfo(path).fileName()));
    if (QFileInfo(path).isFile()) addRecent(path); // not a simulated scenario
    for (const auto &s : stats) {
        if (!s.warnings.empty()) {
            QMessageBox::warning(this, tr("Trace loaded with warnings"),
                                 QString::fromStdString(s.warnings.front()) +
                                     (s.warnings.size() > 1 ? tr("\n(and %1 more)").arg(s.warnings.size() - 1) : QString()));
            break;
        }
    }
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
    progress_->setVisible(busy);
    cancel_->setVisible(busy);
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
