// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's compare view: loading run B (a trace or a simulation) against the document, showing
// the comparison, realigning it, mapping CPUs, and the dialogs that start one.
#include "MainWindow.h"

#include "DemoBanner.h"
#include "DifferencePanel.h"
#include "PanelDocks.h"
#include "SimulatorPanel.h"
#include "Timing.h"
#include "TraceLoader.h"
#include "ViewState.h"

#include "sim/Presets.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>

#include <numeric>

namespace tickscope {

bool MainWindow::loadingB() const
{
    return compare_.loader()->busy();
}

void MainWindow::dropB()
{
    compare_.drop();
}

void MainWindow::startB(const QString &name, const std::function<void()> &load)
{
    demoBanner_->hide(); // a B of one's own: no longer the demo
    compare_.start();
    progressB_->setValue(0);
    labelB_->setText(QStringLiteral("B"));
    labelB_->setToolTip(name);
    load();
    updateBusy();
}

void MainWindow::compareWith(const QString &run)
{
    startB(run, [&] {
        if (sim::namesTraceFile(run.toStdString()))
            compare_.loader()->load(run);
        else
            compare_.loader()->simulate(run);
    });
}

void MainWindow::openSimulation(const Simulation &s)
{
    demoBanner_->hide();
    dropB();
    setBusy(true);
    progress_->setValue(0);
    status_->setText(tr("Simulating %1…").arg(s.title));
    loader_->simulate(s);
}

void MainWindow::compareWithSimulation(const Simulation &b)
{
    startB(b.title, [&] { compare_.loader()->simulate(b); });
}

void MainWindow::openSimulationComparison(const Simulation &a, const Simulation &b)
{
    openSimulation(a);
    compareWithSimulation(b);
}

void MainWindow::openComparison(const QString &a, const QString &b)
{
    open(a); // cancels any earlier B
    compareWith(b);
}

void MainWindow::onLoadedB(const QString &run, const Document &doc)
{
    compare_.setRunB(run);
    updateBusy();
    if (!compare_.expecting()) return;
    if (loader_->busy() || !doc_.valid())
        compare_.hold(doc); // shown once A is
    else
        showComparison(doc);
}

void MainWindow::showComparison(const Document &b)
{
    compare_.ended();
    std::string why;
    std::shared_ptr<Comparison> c = compare_.compare(doc_, b, why);
    if (!why.empty()) // marker alignment asked for, and a run has none: by start, and say so
        statusBar()->showMessage(QString::fromStdString(why) + tr("; aligned by start"), 6000);
    if (!c) return;
    compare_.forgetSelections();
    state_->setComparison(std::move(c));
    setWindowTitle(QStringLiteral("tickscope — A: %1 · B: %2")
                       .arg(QString::fromStdString(doc_.title), QString::fromStdString(b.title)));
    markTime("comparison shown");
    emit comparisonShown();
}

bool MainWindow::setAlignment(std::optional<Alignment> align)
{
    compare_.setAlignment(align);
    const auto cur = state_->comparison();
    if (!cur) return false;
    std::string why;
    std::shared_ptr<Comparison> c = compare_.realigned(doc_, *cur, why);
    if (!c) {
        statusBar()->showMessage(QString::fromStdString(why), 6000);
        return false;
    }
    state_->setComparison(std::move(c));
    return true;
}

bool MainWindow::alignOnSelections()
{
    const auto cur = state_->comparison();
    std::shared_ptr<Comparison> c = cur ? compare_.alignedOnSelections(doc_, *cur) : nullptr;
    if (!c) {
        statusBar()->showMessage(tr("Select an event in an A lane and one in a B lane first"), 6000);
        return false;
    }
    state_->setComparison(std::move(c));
    return true;
}

void MainWindow::setCpuMap(std::vector<int> map)
{
    compare_.setCpuMap(std::move(map));
    if (const auto cur = state_->comparison()) state_->setComparison(compare_.withCpuMap(*cur));
}

void MainWindow::setOnlyDifferingCpus(bool on)
{
    if (!doc_.valid()) return;
    std::vector<int> cpus(static_cast<size_t>(doc_.trace->cpuCount()));
    std::iota(cpus.begin(), cpus.end(), 0);
    if (on && state_->comparison()) {
        const auto &diffs = panels_->difference()->diffs();
        if (diffs.empty()) {
            statusBar()->showMessage(tr("The difference is not computed yet"), 3000);
            return;
        }
        cpus.clear();
        for (const CpuDiff &d : diffs)
            if (d.changed()) cpus.push_back(d.cpuA);
    }
    state_->setCpus(std::move(cpus));
}

void MainWindow::closeComparison()
{
    dropB();
    state_->setComparison(nullptr);
    if (doc_.valid())
        setWindowTitle(QStringLiteral("tickscope — %1").arg(QString::fromStdString(doc_.title)));
}

void MainWindow::compareDialog()
{
    const QString dir = QSettings().value(QStringLiteral("lastDir")).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Compare with (B, after)"), dir,
                                                      tr("Traces (*.dat *.txt *.trace);;All files (*)"));
    if (!path.isEmpty()) compareWith(path);
}

void MainWindow::compareScenarioDialog()
{
    QStringList items;
    for (const sim::Preset &p : sim::presets()) {
        const QString name = QString::fromUtf8(p.name.data(), static_cast<qsizetype>(p.name.size()));
        items << name;
        try {
            for (const auto &v : sim::loadScenario(std::string(p.name)).variants)
                items << name + QLatin1Char(':') + QString::fromStdString(v.first);
        } catch (const std::exception &) {
        }
    }
    bool ok = false;
    const QString run = QInputDialog::getItem(
        this, tr("Compare with a simulation"),
        tr("Scenario as B (PRESET[:VARIANT][,KEY=VALUE...] or FILE.json):"), items, 0, true, &ok);
    if (ok && !run.trimmed().isEmpty()) compareWith(run.trimmed());
}

} // namespace tickscope
