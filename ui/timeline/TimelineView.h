// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline: the plot of the CPU swimlanes (TimelinePlot), the CPU overview strip (CpuStrip, from a
// whole-trace report computed in the background), a vertical scroll bar, the legend, and the navigation
// actions (zoom undo/redo, jumps to the next spurious tick / catch-up softirq / late wakeup, markers, CPU
// lanes: which, in what order, collapsed). Everything goes through the shared ViewState.
#pragma once

#include "session/Document.h"

#include "report/Findings.h"
#include "view/TimelineIndex.h"

#include <QWidget>

#include <memory>
#include <optional>

class QAction;
class QMenu;
class QScrollBar;

namespace tickscope {
class CpuStrip;
class LegendBar;
struct TickReport;
class TimelinePlot;
class ViewState;

class TimelineView : public QWidget
{
    Q_OBJECT
public:
    TimelineView(ViewState *state, QWidget *parent = nullptr);

    void setDocument(const Document &doc);
    TimelinePlot *plot() const { return plot_; }
    QWidget *legend() const;
    QImage render(QSize size = {}); // the one paint path, into an image

    // Menus for the main window: View (zoom, grid, CPUs) and Navigate (jumps, markers).
    void fillViewMenu(QMenu *menu);
    void fillNavigateMenu(QMenu *menu);

    // The jumps (N, C, L, F) search the CPU under the mouse pointer when it is over a lane, else the CPUs
    // shown; N follows the spurious-tick class chosen in the Navigate menu. In the compare view they search
    // run B over a B lane, or when the selected event is B's (its CPUs shown against A's), else run A.
    void jump(JumpTarget target, bool forward);
    enum class SpuriousClass
    {
        All,
        User,
        Polling,
    };
    void setSpuriousClass(SpuriousClass c);
    SpuriousClass spuriousClass() const { return spuriousClass_; }
    // The findings F / Shift+F step through (FindingsPanel computes them), of the document and of run B.
    void setFindings(std::shared_ptr<const std::vector<Finding>> findings,
                     std::shared_ptr<const std::vector<Finding>> findingsB = nullptr)
    {
        findings_ = std::move(findings);
        findingsB_ = std::move(findingsB);
    }
    void jumpToFinding(bool forward);
    // Centres the view on an event time of a CPU and selects the event there; zoomIn: narrow a view wider
    // than 100 ms to 10 ms first.
    void goTo(int cpu, int64_t ts, bool zoomIn);
    // The same for an event of the compared run B: B's CPU and absolute time, selected in B's lane.
    void goToB(int cpuB, int64_t tsB, bool zoomIn);
    // What the jumps search (see jump()): the run (0: A, 1: B) and its own CPU numbers; `cursor` in plot
    // coordinates (none: the mouse pointer's).
    struct JumpScope
    {
        int run = 0;
        std::vector<int> cpus;
    };
    JumpScope jumpScope(std::optional<QPoint> cursor = std::nullopt) const;
    std::vector<int> jumpCpus(std::optional<QPoint> cursor = std::nullopt) const
    {
        return jumpScope(cursor).cpus;
    }
    int64_t latencyThresholdNs() const { return latencyThresholdNs_; }
    void setLatencyThresholdNs(int64_t ns);

    void showCpus(std::vector<int> cpus);
    void moveCpu(int cpu, int delta);

    // Many CPUs: the order of the lanes by a figure of the whole-trace report (worst first), collapsing,
    // and the overview strip beside the lanes.
    enum class CpuOrder
    {
        Number,
        SpuriousTicks,
        Catchups,
        TickStopped, // the least time with the tick stopped first
        WakeupLatency,
        Group, // housekeeping CPUs, isolated ones (isolcpus= only), then nohz_full ones
    };
    bool sortCpus(CpuOrder order); // false until the report is computed
    void collapseAll(bool collapsed);
    void expandCpusWithFindings(); // and collapses the others (nothing until the findings are in)
    CpuStrip *strip() const { return strip_; }
    std::shared_ptr<const TickReport> cpuReport() const { return cpuReport_; }

signals:
    void cpuReportReady(); // the whole-trace report behind the strip and the sorting

    void latencyThresholdChanged(int64_t ns); // the findings follow it

private:
    // Centres the range on event time ts of `trace` (run 0: the document, 1: the compared run, whose
    // times are A's plus `shift`) and selects the event at or after it on `cpu`.
    void goToEvent(const Trace &trace, int run, int cpu, int64_t ts, int64_t shift, bool zoomIn);
    QAction *addAction(const QString &text, const QKeySequence &key, std::function<void()> f);
    void laneMenu(int cpu, QPoint globalPos);
    void zoomToMarkers();
    void zoomToPrints();
    void chooseCpus();

    ViewState *state_;
    Document doc_;
    TimelinePlot *plot_;
    QScrollBar *scroll_;
    LegendBar *legend_;
    CpuStrip *strip_;
    std::shared_ptr<const TickReport> cpuReport_;
    uint64_t reportGeneration_ = 0;
    int laneMenuActions_ = 0; // viewActions_ from here on are in the lanes' context menu too
    int64_t latencyThresholdNs_ = 100'000;
    SpuriousClass spuriousClass_ = SpuriousClass::All;
    QList<QAction *> spuriousClassActions_;
    std::shared_ptr<const std::vector<Finding>> findings_, findingsB_;
    // Where a jump in `run` starts, in that run's time: its selected event, else the view's centre.
    int64_t jumpFrom(int run) const;
    const Document *runDocument(int run) const; // null: no such run
    QList<QAction *> viewActions_, navigateActions_;
};

} // namespace tickscope
