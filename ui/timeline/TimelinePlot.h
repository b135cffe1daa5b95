// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline's QCustomPlot: one CpuLanePlottable per shown CPU and an overlay, the time axis on top,
// and every input gesture, each turned into a ViewState change (the one time model): wheel zoom at the
// cursor, drag to pan, Shift+drag box zoom, Ctrl+drag in a B lane to move run B against A (compare view),
// W/S/A/D, +/-, Home/End, Ctrl+click marker A, Ctrl+Shift+click marker B, click to select, tooltips, and a
// context menu per lane.
#pragma once

#include "LaneGeometry.h"
#include "LaneSummaries.h"
#include "session/Document.h"

#include "view/TimelinePick.h"

#include <qcustomplot.h>

#include <QElapsedTimer>

#include <memory>
#include <vector>

class QRubberBand;

namespace tickscope {
class ViewState;
class TimelineOverlay;

class TimelinePlot : public QCustomPlot
{
    Q_OBJECT
public:
    TimelinePlot(ViewState *state, QWidget *parent = nullptr);

    void setDocument(const Document &doc);
    const Document &document() const { return doc_; }

    // The one paint path into an image (screenshots, tests, the paint benchmark): QCustomPlot::toPainter
    // with the same plottables that paint the screen.
    QImage render(QSize size = {});
    // The same into any painter (an image, SVG, PDF), the plot laid out for `size` and put back after.
    void paintTo(QCPPainter *painter, QSize size);
    const LaneGeometry &geometry() const { return geometry_; }
    // The keys' zoom and pan (View and Navigate menus): around the mouse when it is over the lanes, else the
    // view's centre; a pan moves the view by that fraction of its span.
    void zoomByKey(double factor);
    void panByKey(double fraction) { pan(fraction); }
    const LaneSummaries &summaries() const { return summaries_; }
    // Starts summarizing the lanes on screen for a repaint at the size the lanes are laid out for
    // (LaneSummaries::prime), before the background and axes are painted.
    void primeSummaries();
    LaneGeometry geometryFor(QSize size); // the lanes as a picture of that size lays them out
    // The same paint path into a file: PDF through QCustomPlot's vector export, else a raster image by
    // the file's suffix (PNG, JPG, BMP). False when the file cannot be written.
    bool exportTo(const QString &path);
    void invalidateSummaries();
    const TimelineOverlay *overlay() const
    {
        return overlay_;
    } // the next paint asks core for every lane's columns again (benchmarks)

    void setCollapsed(int cpu, bool collapsed);
    bool collapsed(int cpu) const;
    void setGridVisible(bool on);
    // Zoomed in, a strip of a stable colour per task (by name) along the top of the state row.
    void setTaskColours(bool on);
    bool taskColours() const { return taskColours_; }
    bool gridVisible() const;
    int scroll() const { return scroll_; }
    void setScroll(int y);
    int contentHeight() const { return geometry_.contentHeight; }
    int dataHeight() const;

    int64_t timeAt(double x) const; // absolute ns (the document's) at widget x
    double xOf(int64_t t) const;
    // The widget x of run `run`'s absolute time t (run 1: the compared run); -1 without that run.
    double xOfRun(int run, int64_t t) const;
    // The absolute ns the time axis' 0 stands for: the trace start, or the document's time zero in the
    // compare view.
    int64_t origin() const { return origin_; }

    static constexpr int kLeftMargin = 100, kTopMargin = 26, kRightMargin = 12, kBottomMargin = 4;

signals:
    void scrollChanged(int y, int max);
    void laneMenuRequested(int cpu, QPoint globalPos);

protected:
    void resizeEvent(QResizeEvent *e) override;
    void wheelEvent(QWheelEvent *e) override;
    void mousePressEvent(QMouseEvent *e) override;
    void mouseMoveEvent(QMouseEvent *e) override;
    void mouseReleaseEvent(QMouseEvent *e) override;
    void keyPressEvent(QKeyEvent *e) override;
    void contextMenuEvent(QContextMenuEvent *e) override;
    bool event(QEvent *e) override;

private:
    void rebuild();            // plottables for the shown CPUs
    void relayout(QSize size); // lane geometry for a widget size
    // The group header of each of these lanes (housekeeping / isolated / nohz_full), "" for none.
    std::vector<QString> groupHeaders(const std::vector<int> &cpus) const;
    void syncRange(); // ViewState range -> key axis
    void zoomAround(int64_t t, double factor, bool recordUndo);
    void pan(double fraction);
    void selectAt(QPoint pos);
    TimelinePickResult pickAt(QPoint pos, int &run) const;
    const Comparison *comparison() const;              // the state's comparison when it is shown, else null
    const Document *run(int run, int64_t &zero) const; // a run's document and its time zero
    void showSelection();

    ViewState *state_;
    Document doc_;
    LaneGeometry geometry_;
    LaneSummaries summaries_;
    std::vector<LaneGeometry::Lane> lanes_; // the lanes shown, before layout
    int64_t origin_ = 0;
    std::vector<bool> collapsed_;
    TimelineOverlay *overlay_ = nullptr;
    bool grid_ = false;
    bool taskColours_ = false;
    int scroll_ = 0;
    enum class Drag
    {
        None,
        Pending,
        Pan,
        Box,
        ShiftB, // Ctrl+drag in a B lane of the compare view: moves run B against A
    } drag_ = Drag::None;
    int64_t pressZeroB_ = 0;
    QPoint pressPos_;
    int64_t pressStart_ = 0, pressEnd_ = 0;
    QRubberBand *band_ = nullptr;
    QElapsedTimer lastWheel_;
    QImage image_;
};

} // namespace tickscope
