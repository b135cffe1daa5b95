// SPDX-License-Identifier: GPL-3.0-or-later
#include "PanelDocks.h"

#include "DifferencePanel.h"
#include "EventTable.h"
#include "FindingsPanel.h"
#include "FunctionsPanel.h"
#include "HistogramPanel.h"
#include "SimulatorPanel.h"
#include "SummaryPanel.h"
#include "ViewState.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>

namespace tickscope {

namespace {

QDockWidget *dock(QMainWindow *window, const QString &title, const QString &name, QWidget *content,
                  Qt::DockWidgetArea area)
{
    auto *d = new QDockWidget(title, window);
    d->setObjectName(name); // QMainWindow::saveState() keys
    d->setWidget(content);
    window->addDockWidget(area, d);
    return d;
}

} // namespace

PanelDocks::PanelDocks(QMainWindow *window, ViewState *state)
    : QObject(window), table_(new EventTable(state)), summary_(new SummaryPanel(state)),
      histograms_(new HistogramPanel(state)), difference_(new DifferencePanel(state)),
      simulator_(new SimulatorPanel), findings_(new FindingsPanel(state)),
      functions_(new FunctionsPanel(state)), state_(state)
{
    eventDock_ = dock(window, tr("Events"), QStringLiteral("eventsDock"), table_, Qt::BottomDockWidgetArea);
    summaryDock_ =
        dock(window, tr("Summary"), QStringLiteral("summaryDock"), summary_, Qt::RightDockWidgetArea);
    histogramDock_ = dock(window, tr("Histograms"), QStringLiteral("histogramsDock"), histograms_,
                          Qt::RightDockWidgetArea);
    differenceDock_ = dock(window, tr("Difference A → B"), QStringLiteral("differenceDock"), difference_,
                           Qt::RightDockWidgetArea);
    simulatorDock_ = dock(window, tr("What If (Simulator)"), QStringLiteral("simulatorDock"), simulator_,
                          Qt::RightDockWidgetArea);
    findingsDock_ =
        dock(window, tr("Findings"), QStringLiteral("findingsDock"), findings_, Qt::RightDockWidgetArea);
    functionsDock_ =
        dock(window, tr("Functions"), QStringLiteral("functionsDock"), functions_, Qt::RightDockWidgetArea);
    window->tabifyDockWidget(summaryDock_, findingsDock_);
    window->tabifyDockWidget(summaryDock_, functionsDock_);
    functionsDock_->hide();
    window->tabifyDockWidget(summaryDock_, differenceDock_);
    window->tabifyDockWidget(summaryDock_, simulatorDock_);
    differenceDock_->hide();
    simulatorDock_->hide();
    // A comparison brings its numbers to the front.
    connect(state, &ViewState::comparisonChanged, this, [this, state] {
        if (!state->comparison()) return;
        differenceDock_->show();
        differenceDock_->raise();
    });
    // A panel shown from the menus (Ctrl+I: the what-if panel) comes to the front of its tabs.
    for (QDockWidget *d : {eventDock_, summaryDock_, findingsDock_, histogramDock_, functionsDock_,
                           differenceDock_, simulatorDock_})
        connect(d->toggleViewAction(), &QAction::triggered, d, [d](bool shown) {
            if (shown) d->raise();
        });
}

void PanelDocks::setDocument(const Document &doc)
{
    table_->setDocument(doc);
    // The histograms' job first: it needs no report, and the summary's and the findings' jobs wait for the
    // whole-trace report the timeline's job is making, each holding one of the job threads meanwhile.
    histograms_->setDocument(doc);
    summary_->setDocument(doc);
    difference_->setDocument(doc);
    findings_->setDocument(doc);
    functions_->setDocument(doc);
    // The calls' view comes forward with a trace that has them (a paste without timestamps has its own
    // in the timeline's place).
    const bool calls = doc.valid() && !doc.trace->functions.empty() && !doc.callsOnly();
    functionsDock_->setVisible(calls);
    if (calls) functionsDock_->raise();
    // A new trace (not the next snapshot of a live capture) brings its findings forward, unless it is
    // compared (the difference is in front then).
    if (doc.valid() && doc.title != shownTitle_) {
        shownTitle_ = doc.title;
        if (!calls && !state_->comparison()) findingsDock_->raise();
    }
}

void PanelDocks::addViewActions(QMenu *menu) const
{
    for (QDockWidget *d : {eventDock_, summaryDock_, findingsDock_, histogramDock_, functionsDock_,
                           differenceDock_, simulatorDock_})
        menu->addAction(d->toggleViewAction());
}

} // namespace tickscope
