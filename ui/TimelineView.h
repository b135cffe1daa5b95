// The timeline: the plot of the CPU swimlanes (TimelinePlot), a vertical scroll bar, the legend, and the
// navigation actions (zoom undo/redo, jumps to the next spurious tick / catch-up softirq / late wakeup,
// markers, CPU lanes). Everything goes through the shared ViewState.
#pragma once

#include "Document.h"

#include "view/TimelineIndex.h"

#include <QWidget>

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

    void jump(JumpTarget target, bool forward);
    int64_t latencyThresholdNs() const { return latencyThresholdNs_; }
    void setLatencyThresholdNs(int64_t ns);

    void showCpus(std::vector<int> cpus);
    void moveCpu(int cpu, int delta);

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
    QList<QAction *> viewActions_, navigateActions_;
};

} // namespace tickscope
