// The timeline: the plot of the CPU swimlanes (TimelinePlot), a vertical scroll bar, the legend, and the
// navigation actions (zoom undo/redo, jumps to the next spurious tick / catch-up softirq / late wakeup,
// markers, CPU lanes). Everything goes through the shared ViewState.
#pragma once

#include "Document.h"

#include "analysis/Findings.h"
#include "view/TimelineIndex.h"

#include <QWidget>

#include <memory>
#include <optional>

class QAction;
class QMenu;
class QScrollBar;

namespace tickscope {
class LegendBar;
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
    // shown; N follows the spurious-tick class chosen in the Navigate menu.
    void jump(JumpTarget target, bool forward);
    enum class SpuriousClass
    {
        All,
        User,
        Polling,
    };
    void setSpuriousClass(SpuriousClass c);
    SpuriousClass spuriousClass() const { return spuriousClass_; }
    // The findings F / Shift+F step through (FindingsPanel computes them).
    void setFindings(std::shared_ptr<const std::vector<Finding>> findings)
    {
        findings_ = std::move(findings);
    }
    void jumpToFinding(bool forward);
    // Centres the view on an event time of a CPU and selects the event there; zoomIn: narrow a view wider
    // than 100 ms to 10 ms first.
    void goTo(int cpu, int64_t ts, bool zoomIn);
    // The CPUs the jumps search (see jump()); `cursor` in plot coordinates.
    std::vector<int> jumpCpus(std::optional<QPoint> cursor = std::nullopt) const;
    int64_t latencyThresholdNs() const { return latencyThresholdNs_; }
    void setLatencyThresholdNs(int64_t ns);

    void showCpus(std::vector<int> cpus);
    void moveCpu(int cpu, int delta);

signals:
    void latencyThresholdChanged(int64_t ns); // the findings follow it

private:
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
    int64_t latencyThresholdNs_ = 100'000;
    SpuriousClass spuriousClass_ = SpuriousClass::All;
    QList<QAction *> spuriousClassActions_;
    std::shared_ptr<const std::vector<Finding>> findings_;
    int64_t jumpFrom() const; // where a jump starts: the selected event, else the view's centre
    QList<QAction *> viewActions_, navigateActions_;
};

} // namespace tickscope
