// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's menus and their actions (File, Edit, View, Navigate, Compare, Help), and the what-if
// panel's requests to open or compare a simulation.
#include "MainWindow.h"

#include "EvidenceDialog.h"
#include "KeysDialog.h"
#include "PanelDocks.h"
#include "SimulatorPanel.h"
#include "TimelineView.h"
#include "ViewState.h"

#include <QActionGroup>
#include <QCoreApplication>
#include <QDockWidget>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>

#include <cmath>
#include <vector>

namespace tickscope {

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openDialog);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    QAction *compare = file->addAction(tr("&Compare With…"), this, &MainWindow::compareDialog);
    compare->setObjectName(QStringLiteral("compareWith"));
    compare->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    compare->setToolTip(tr("Open a second trace as B (after) against the open one as A (before)"));
    QAction *compareSim =
        file->addAction(tr("Compare With &Simulation…"), this, &MainWindow::compareScenarioDialog);
    file->addAction(tr("Ca&pture…"), this, &MainWindow::captureDialog)
        ->setToolTip(tr("Record this machine's kernel (root) into a private tracefs instance and open it"));
    saveAs_ = file->addAction(tr("Save As &Trace.dat…"), this, &MainWindow::saveAsDialog);
    saveAs_->setToolTip(tr("The open trace as a trace.dat that trace-cmd and KernelShark read (a capture or "
                           "a trace.dat is copied as it is; a simulation or a text trace is written)"));
    saveAs_->setEnabled(false);
    file->addAction(tr("&Export View…"), this, &MainWindow::exportDialog)
        ->setToolTip(tr("The timeline as PNG, SVG or PDF with its title, legend and the command that "
                        "renders it again"));
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    rebuildRecentMenu();
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *copyImage = edit->addAction(tr("Copy &Image"), this, &MainWindow::copyImage);
    copyImage->setObjectName(QStringLiteral("copyImage"));
    copyImage->setToolTip(
        tr("The view as Export View draws it (title, lanes, legend), at the timeline's size"));
    QAction *copySummary = edit->addAction(tr("Copy &Summary"), this, &MainWindow::copySummary);
    copySummary->setObjectName(QStringLiteral("copySummary"));
    copySummary->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    copySummary->setToolTip(tr("The summary of the visible range as mail-ready text (ASCII, 72 columns)"));
    QMenu *view = menuBar()->addMenu(tr("&View"));
    timeline_->fillViewMenu(view);
    view->addSeparator();
    view->addAction(panels_->eventDock()->toggleViewAction());
    view->addAction(panels_->summaryDock()->toggleViewAction());
    view->addAction(panels_->findingsDock()->toggleViewAction());
    view->addAction(panels_->histogramDock()->toggleViewAction());
    view->addAction(factsDock_->toggleViewAction());
    view->addSeparator();
    QAction *evidence = view->addAction(tr("What This Trace Can &Tell…"), this, [this] { evidenceDialog(); });
    evidence->setObjectName(QStringLiteral("evidence"));
    evidence->setToolTip(tr("Which figures the trace measures, infers or does not record, and how to record "
                            "the rest"));
    timeline_->fillNavigateMenu(menuBar()->addMenu(tr("&Navigate")));
    QMenu *cmp = menuBar()->addMenu(tr("&Compare"));
    // every way into a comparison is here too (and in File, where a new user looks first)
    cmp->addAction(compare);
    cmp->addAction(compareSim);
    cmp->addSeparator();
    // The alignments: the one in force is checked (the comparison says which it is)
    auto *aligns = new QActionGroup(this);
    const auto alignAction = [&](QAction *a, const char *how) {
        a->setCheckable(true);
        a->setData(QString::fromLatin1(how));
        aligns->addAction(a);
    };
    alignAction(cmp->addAction(tr("Align by First &Marker"), this,
                               [this] {
                                   setAlignment(Alignment{AlignBy::Marker, 0});
                               }),
                "marker");
    alignAction(cmp->addAction(tr("Align by Trace &Start"), this,
                               [this] {
                                   setAlignment(Alignment{AlignBy::Start, 0});
                               }),
                "start");
    QAction *bySelection =
        cmp->addAction(tr("Align on Selected &Events"), this, &MainWindow::alignOnSelections);
    bySelection->setToolTip(
        tr("Each run's time zero at the event last selected in it (click one in an A lane, "
           "then one in a B lane)"));
    alignAction(bySelection, "selected");
    QAction *byOffset = cmp->addAction(tr("Align by &Offset…"), this, [this] {
        bool ok = false;
        const double s = QInputDialog::getDouble(
            this, tr("Offset of B"), tr("B's time zero, in seconds after its start (A's zero: its start):"),
            compare_.alignment() && compare_.alignment()->by == AlignBy::Offset
                ? compare_.alignment()->offsetNs / 1e9
                : 0.0,
            -1e6, 1e6, 6, &ok);
        if (ok) setAlignment(Alignment{AlignBy::Offset, static_cast<int64_t>(std::llround(s * 1e9))});
    });
    alignAction(byOffset, "offset");
    const auto showAlignment = [this, aligns] {
        const auto c = state_->comparison();
        for (QAction *a : aligns->actions()) {
            a->setEnabled(c != nullptr);
            a->setChecked(c && QString::fromStdString(c->how).startsWith(a->data().toString()));
        }
    };
    connect(state_, &ViewState::comparisonChanged, this, showAlignment);
    // after an alignment that could not be made (no marker in a run) the check goes back to the one in force
    connect(aligns, &QActionGroup::triggered, this, showAlignment);
    for (QAction *a : aligns->actions())
        a->setEnabled(false);
    cmp->addSeparator();
    cmp->addAction(tr("Map &CPUs…"), this, [this] {
        bool ok = false;
        const QString text = QInputDialog::getText(
            this, tr("CPU map"), tr("A's CPU against B's CPU, e.g. 3:1, 2:0 (empty: same numbers):"),
            QLineEdit::Normal, QString(), &ok);
        if (!ok) return;
        std::vector<int> map;
        for (const QString &pair : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const QStringList ab = pair.trimmed().split(QLatin1Char(':'));
            bool okA = false, okB = false;
            const int a = ab.size() == 2 ? ab[0].toInt(&okA) : -1,
                      b = ab.size() == 2 ? ab[1].toInt(&okB) : -1;
            if (!okA || !okB || a < 0 || b < 0 || a >= 8192 || b >= 8192) {
                QMessageBox::warning(this, tr("CPU map"),
                                     tr("'%1' is not A:B with two CPU numbers").arg(pair.trimmed()));
                return;
            }
            if (static_cast<int>(map.size()) <= a) map.resize(static_cast<size_t>(a) + 1, -1);
            map[static_cast<size_t>(a)] = b;
        }
        setCpuMap(std::move(map));
    });
    QAction *differing = cmp->addAction(tr("Only CPUs That &Differ"));
    differing->setObjectName(QStringLiteral("onlyDiffering"));
    differing->setCheckable(true);
    connect(differing, &QAction::toggled, this, &MainWindow::setOnlyDifferingCpus);
    cmp->addSeparator();
    cmp->addAction(tr("C&lose Comparison"), this, &MainWindow::closeComparison);
    cmp->addAction(panels_->differenceDock()->toggleViewAction());
    QAction *whatIf = panels_->simulatorDock()->toggleViewAction();
    whatIf->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    cmp->addAction(whatIf);
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *keys = help->addAction(tr("&Keyboard and Mouse…"), this, [this] { keysDialog(); });
    keys->setObjectName(QStringLiteral("keysHelp"));
    keys->setShortcut(QKeySequence::HelpContents);
    help->addAction(evidence);
    help->addSeparator();
    help->addAction(tr("&About tickscope"), this, [this] {
        QMessageBox::about(
            this, tr("About tickscope"),
            tr("<h3>tickscope %1</h3><p>Linux timer ticks per CPU, explained: what each tick interrupted, "
               "when the tick was stopped, and why it was not.</p><p>Licensed under the GNU General Public "
               "License, version 3 or later. It uses Qt, QCustomPlot, libtraceevent, libtracefs and "
               "libtracecmd.</p>")
                .arg(QCoreApplication::applicationVersion()));
    });
    SimulatorPanel *sim = panels_->simulator();
    connect(sim, &SimulatorPanel::openRequested, this, &MainWindow::openSimulation);
    connect(sim, &SimulatorPanel::compareRequested, this, &MainWindow::openSimulationComparison);
    connect(sim, &SimulatorPanel::compareWithDocumentRequested, this, [this](const Simulation &b) {
        if (doc_.valid())
            compareWithSimulation(b);
        else
            openSimulation(b);
    });
    connect(state_, &ViewState::selectionChanged, this, [this](EventRef e) { compare_.select(e); });
    connect(state_, &ViewState::comparisonChanged, this, &MainWindow::showFacts);
}

KeysDialog *MainWindow::keysDialog()
{
    auto *d = new KeysDialog(menuBar(), this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->show();
    return d;
}

EvidenceDialog *MainWindow::evidenceDialog()
{
    if (!doc_.valid()) return nullptr;
    auto *d = new EvidenceDialog(doc_, this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->show();
    return d;
}

} // namespace tickscope
