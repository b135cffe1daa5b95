// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's compare view: loading run B (a trace or a simulation) against the document, showing
// the comparison, realigning it, mapping CPUs, and the dialogs that start one.
#include "MainWindow.h"

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
    return loaderB_->busy();
}

void MainWindow::dropB()
{
    if (expectB_) loaderB_->cancel();
    expectB_ = false;
    pendingB_.reset();
}

void MainWindow::startB(const QString &name, const std::function<void()> &load)
{
    expectB_ = true;
    pendingB_.reset();
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
            loaderB_->load(run);
        else
            loaderB_->simulate(run);
    });
}

void MainWindow::openSimulation(const Simulation &s)
{
    dropB();
    setBusy(true);
    progress_->setValue(0);
    status_->setText(tr("Simulating %1…").arg(s.title));
    loader_->simulate(s);
}

void MainWindow::compareWithSimulation(const Simulation &b)
{
    startB(b.title, [&] { loaderB_->simulate(b); });
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
    runB_ = run;
    updateBusy();
    if (!expectB_) return;
    if (loader_->busy() || !doc_.valid())
        pendingB_ = doc; // shown once A is
    else
        showComparison(doc);
}

void MainWindow::showComparison(const Document &b)
{
    expectB_ = false;
    std::string why;
    std::optional<Comparison> compared = compareRuns(doc_, b, align_, why);
    if (!compared) { // marker alignment asked for, and a run has none: by start, and say so
        statusBar()->showMessage(QString::fromStdString(why) + tr("; aligned by start"), 6000);
        compared = compareRuns(doc_, b, Alignment{AlignBy::Start, 0}, why);
    }
    if (!compared) return;
    auto c = std::make_shared<Comparison>(std::move(*compared));
    c->cpuMap = cpuMap_;
    lastSelected_[0] = lastSelected_[1] = {};
    state_->setComparison(std::move(c));
    setWindowTitle(QStringLiteral("tickscope — A: %1 · B: %2")
                       .arg(QString::fromStdString(doc_.title), QString::fromStdString(b.title)));
    markTime("comparison shown");
    emit comparisonShown();
}

bool MainWindow::setAlignment(std::optional<Alignment> align)
{
    const auto cur = state_->comparison();
    align_ = align;
    if (!cur) return false;
    std::string why;
    std::optional<Comparison> realigned = compareRuns(doc_, cur->b, align_, why);
    if (!realigned) {
        statusBar()->showMessage(QString::fromStdString(why), 6000);
        return false;
    }
    auto c = std::make_shared<Comparison>(*cur);
    c->zeroA = realigned->zeroA;
    c->zeroB = realigned->zeroB;
    c->how = realigned->how;
    state_->setComparison(std::move(c));
    return true;
}

bool MainWindow::alignOnSelections()
{
    const auto cur = state_->comparison();
    const EventRef a = lastSelected_[0], b = lastSelected_[1];
    auto tsOf = [](const Document &d, EventRef e) -> std::optional<int64_t> {
        if (!e.valid() || e.cpu >= d.trace->cpuCount() ||
            static_cast<size_t>(e.index) >= d.trace->cpu(e.cpu).size())
            return std::nullopt;
        return d.trace->cpu(e.cpu).ts(static_cast<size_t>(e.index));
    };
    const auto ta = cur ? tsOf(doc_, a) : std::nullopt, tb = cur ? tsOf(cur->b, b) : std::nullopt;
    if (!ta || !tb) {
        statusBar()->showMessage(tr("Select an event in an A lane and one in a B lane first"), 6000);
        return false;
    }
    auto c = std::make_shared<Comparison>(*cur);
    c->zeroA = *ta;
    c->zeroB = *tb;
    c->how = tr("selected events").toStdString();
    state_->setComparison(std::move(c));
    return true;
}

void MainWindow::setCpuMap(std::vector<int> map)
{
    cpuMap_ = std::move(map);
    if (const auto cur = state_->comparison()) {
        auto c = std::make_shared<Comparison>(*cur);
        c->cpuMap = cpuMap_;
        state_->setComparison(std::move(c));
    }
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
