// SPDX-License-Identifier: GPL-3.0-or-later
// The panels around the timeline as dock widgets of a main window: the event table (bottom), the
// per-CPU summary, the findings, the histograms, the function_graph calls (when the trace has them), in the
// compare view the difference panel, and the what-if simulator (right). The main window creates one, hands it
// each new Document, and resets its ViewState; the panels do the rest through the ViewState.
#pragma once

#include "session/Document.h"

#include <QObject>

#include <string>

class QDockWidget;
class QMainWindow;
class QMenu;

namespace tickscope {

class DifferencePanel;
class EventTable;
class FindingsPanel;
class FunctionsPanel;
class HistogramPanel;
class SimulatorPanel;
class SummaryPanel;
class ViewState;

class PanelDocks : public QObject
{
    Q_OBJECT
public:
    PanelDocks(QMainWindow *window, ViewState *state);

    void setDocument(const Document &doc);
    // Show/hide actions of the three docks, for a View menu.
    void addViewActions(QMenu *menu) const;

    EventTable *eventTable() const { return table_; }
    SummaryPanel *summary() const { return summary_; }
    HistogramPanel *histograms() const { return histograms_; }
    DifferencePanel *difference() const { return difference_; }
    SimulatorPanel *simulator() const { return simulator_; }
    FindingsPanel *findings() const { return findings_; }
    FunctionsPanel *functions() const { return functions_; }
    QDockWidget *eventDock() const { return eventDock_; }
    QDockWidget *summaryDock() const { return summaryDock_; }
    QDockWidget *histogramDock() const { return histogramDock_; }
    QDockWidget *differenceDock() const { return differenceDock_; }
    QDockWidget *simulatorDock() const { return simulatorDock_; }
    QDockWidget *findingsDock() const { return findingsDock_; }
    QDockWidget *functionsDock() const { return functionsDock_; }

private:
    EventTable *table_;
    SummaryPanel *summary_;
    HistogramPanel *histograms_;
    DifferencePanel *difference_;
    SimulatorPanel *simulator_;
    FindingsPanel *findings_;
    FunctionsPanel *functions_;
    QDockWidget *eventDock_, *summaryDock_, *histogramDock_, *differenceDock_, *simulatorDock_,
        *findingsDock_, *functionsDock_;
    ViewState *state_;
    std::string shownTitle_; // the document whose panels were last brought forward
};

} // namespace tickscope
