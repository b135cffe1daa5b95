// SPDX-License-Identifier: GPL-3.0-or-later
// One CPU's swimlane as a QCustomPlot plottable. draw() asks core (TimelineIndex::summarize) for one
// ColumnSummary per pixel column of the visible key range (through LaneSummaries, all lanes at once) and
// paints runs of equal colour: the work per repaint is columns x rows, whatever the number of events. The
// same draw() paints the screen and QCustomPlot::toPainter() images (screenshots, tests, the paint
// benchmark).
#pragma once

#include "LaneGeometry.h"
#include "LaneSummaries.h"
#include "PixelCanvas.h"

#include "view/TimelineIndex.h"

#include <qcustomplot.h>

#include <span>
#include <vector>

namespace tickscope {

class CpuLanePlottable : public QCPAbstractPlottable
{
public:
    struct Spec
    {
        const TimelineIndex *index;
        int cpu;
        int run = 0;     // its lane in LaneGeometry: (cpu, run)
        size_t slot = 0; // its columns in LaneSummaries
        int64_t origin;  // the run's absolute ns at the key axis' 0 (its trace start, or its time zero)
        CpuGroup group = CpuGroup::Housekeeping; // the label under the CPU name
        QString runTag;           // the compare view's run label ("A", "B"); empty for a single document
        QColor runTint;           // the label's background in the compare view
        bool taskColours = false; // a strip of each task's identity colour (zoomed in)
        // The tick row's evidence (report/Evidence): why it is not recorded (the row is hatched), or
        // that it is inferred (its label says so). Empty: measured.
        QString tickNotRecorded, tickInferred;
        // No syscall or context-tracking events: a task's user/kernel mode is not recorded, and its
        // stretches are painted as "unknown" rather than the kernel mode a switch-in leaves them in.
        bool modeNotRecorded = false;
    };
    CpuLanePlottable(QCPAxis *keyAxis, QCPAxis *valueAxis, Spec spec, const LaneGeometry *geometry,
                     LaneSummaries *summaries);

    int cpu() const { return spec_.cpu; }
    static constexpr int kLabelPixels = 10; // the lane's row labels; its CPU name is 2 px larger, bold
    // Zoomed in: the names written into the state row and the wakeup arrows of the last draw (for tests).
    const QStringList &taskNamesDrawn() const { return namesDrawn_; }
    int arrowsDrawn() const { return arrowsDrawn_; }
    const QList<QRect> &arrowLabelsDrawn() const { return arrowLabels_; } // their latencies' text boxes
    int callsDrawn() const { return callsDrawn_; } // zoomed in: the function row's boxes (-1: columns)
    // Moves the lane to the end of its layer: drawn after the plottables there now.
    void drawAfterTheOthers() { moveToLayer(layer(), false); }
    // A task's identity colour: stable for its name across runs and traces.
    static QColor taskColour(const std::string &comm);

    double selectTest(const QPointF &, bool, QVariant * = nullptr) const override { return -1; }
    QCPRange getKeyRange(bool &foundRange, QCP::SignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool &foundRange, QCP::SignDomain = QCP::sdBoth,
                           const QCPRange & = QCPRange()) const override;

protected:
    void draw(QCPPainter *painter) override;
    void drawLegendIcon(QCPPainter *, const QRectF &) const override {}
    QRect clipRect() const override;

private:
    void drawStateRow(QCPPainter *p, const QRect &row, bool collapsed);
    void drawTickRow(QCPPainter *p, const QRect &row);
    void drawEventRow(QCPPainter *p, const QRect &row);
    void drawFunctionRow(QCPPainter *p, const QRect &row);
    void drawLost(QCPPainter *p, const QRect &lane);
    void drawTaskNames(QCPPainter *p, const QRect &row);
    void drawWakeupArrows(QCPPainter *p, const QRect &row);
    double xOfAbs(int64_t t) const; // pixel x of an absolute time of this lane's run
    void drawLabel(QCPPainter *p, const LaneGeometry::Lane &lane);
    // Fills [left + j0, left + j1) x [y, y + h) for each run of columns with the same colour (alpha 0: none).
    template <class F> void fillRuns(QCPPainter *p, int y, int h, F &&colourOf);
    // A band segment of one column: [top + y, top + y + h); h == 0: none.
    struct Seg
    {
        int16_t y = 0, h = 0;
        bool operator==(const Seg &) const = default;
    };
    // Runs of columns whose segment (segs[j]: a band's slot of every column side by side, one slot after
    // the other in segs_) is the same, at least minW pixels wide (centred on the run), appended to runs_ as
    // rectangles of `colour`; fillCollected fills them in order through the canvas over `band` (an empty
    // band: on the painter) and empties runs_.
    void collectSegs(int top, const Seg *segs, const QColor &colour, int minW = 1);
    // segs_ as `count` slots of every column, cleared; and slot k's segments, column by column.
    void resetSegs(size_t count) { segs_.assign(count * columns_.size(), Seg{}); }
    Seg *slotSegs(size_t k) { return segs_.data() + k * columns_.size(); }
    // Column j's heights h stacked from the band's top, one segment per slot, clipped to `height` in all.
    template <size_t K> void stackSegs(int j, const std::array<int16_t, K> &h, int height);
    void fillCollected(QCPPainter *p, const QRect &band);
    struct Run
    {
        QRect rect;
        QRgb colour = 0;
    };
    // Scratch shared by every lane painted on this thread (the GUI thread): it grows to the largest lane's
    // needs once, where a buffer per lane grew at each new zoom level and faulted fresh pages in during a
    // repaint (up to 150 in one repaint of a 100 M-event trace).
    static std::vector<Run> &scratchRuns();
    static std::vector<Seg> &scratchSegs();
    std::vector<Run> &runs_ = scratchRuns();

    Spec spec_;
    const LaneGeometry *geometry_;
    int left_ = 0;
    LaneSummaries *summaries_;
    std::span<const ColumnSummary> columns_;             // this draw's columns
    double colNs_ = 0;                                   // and the time one column covers
    std::vector<Seg> &segs_ = scratchSegs();             // scratch: a band's segments, slot by slot
    PixelCanvas &canvas_ = PixelCanvas::forThisThread(); // the band being drawn (state, tick, event rows)
    double rangeLower_ = 0;                              // the key range's lower end of this draw
    int64_t from_ = 0, to_ = 0;                          // and the visible range in the run's absolute time
    QStringList namesDrawn_;
    int arrowsDrawn_ = 0;
    QList<QRect> arrowLabels_;
    int callsDrawn_ = -1;
    std::vector<uint32_t> calls_; // scratch: the function row's calls in view
};

} // namespace tickscope
