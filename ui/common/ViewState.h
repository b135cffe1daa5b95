// SPDX-License-Identifier: GPL-3.0-or-later
// The one time model of the UI: the visible range, the selected event, the markers A/B,
// the CPU lanes shown and their order, and the zoom history. Every view reads it and listens to its
// signals; views never talk to each other. Times are absolute trace nanoseconds (CpuEvents::ts()).
#pragma once

#include "session/Document.h"

#include <QObject>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace tickscope {

struct EventRef
{
    int cpu = -1;
    int64_t index = -1; // event index on the CPU
    int run = 0;        // 0: the document (A), 1: the compared run (B)
    bool valid() const { return cpu >= 0 && index >= 0; }
    bool operator==(const EventRef &) const = default;
};

class ViewState : public QObject
{
    Q_OBJECT
public:
    explicit ViewState(QObject *parent = nullptr);

    // A new document: bounds = the trace span, range = all of it, CPUs `shown` (empty: 0..n-1), selection,
    // markers and comparison cleared, zoom history emptied.
    void reset(int64_t first, int64_t last, int cpuCount, std::vector<int> shown = {});
    // A newer snapshot of the same live capture: reset() to its span, then the view the user had comes
    // back. A range that showed all of the old span shows all of the new one; one zoomed in at the end
    // shows the end of the new span, as wide as before; any other range stays where it was while it is
    // inside the new span (once it has left it, the end is shown). The CPUs shown and the markers inside the
    // span stay; the selection, an event of the old snapshot, does not.
    void follow(int64_t first, int64_t last, int cpuCount);

    int64_t boundsStart() const { return boundsStart_; }
    int64_t boundsEnd() const { return boundsEnd_; }
    int64_t rangeStart() const { return start_; }
    int64_t rangeEnd() const { return end_; }

    // Clamped to the bounds, at least kMinSpan wide. recordUndo: push the old range on the undo stack
    // (zoom and pan gestures do; continuous drags push once at their start).
    void setRange(int64_t start, int64_t end, bool recordUndo = true);
    bool canUndo() const { return !undo_.empty(); }
    bool canRedo() const { return !redo_.empty(); }
    void undoRange();
    void redoRange();

    EventRef selection() const { return selection_; }
    void setSelection(EventRef e);

    std::optional<int64_t> markerA() const { return markerA_; }
    std::optional<int64_t> markerB() const { return markerB_; }
    void setMarkerA(std::optional<int64_t> t);
    void setMarkerB(std::optional<int64_t> t);

    // The compare view: a second run shown against the document (null: none). The bounds become the
    // union of both runs on A's time (B's span moved by -shift); the range shows all of it.
    const std::shared_ptr<const Comparison> &comparison() const { return comparison_; }
    // keepRange: the same runs realigned (a drag of B's lanes): the range and zoom history stay.
    void setComparison(std::shared_ptr<const Comparison> c, bool keepRange = false);

    // The CPU lanes shown, top to bottom (hidden CPUs are absent); A's CPU numbers.
    const std::vector<int> &cpus() const { return cpus_; }
    void setCpus(std::vector<int> cpus);

    static constexpr int64_t kMinSpan = 100; // ns

signals:
    void rangeChanged(int64_t start, int64_t end);
    void selectionChanged(tickscope::EventRef e);
    void markersChanged();
    void cpusChanged();
    void documentReset();
    void comparisonChanged();

private:
    struct Range
    {
        int64_t start, end;
    };
    Range clamp(int64_t start, int64_t end) const;

    int64_t docStart_ = 0, docEnd_ = 1; // the document's own span
    int64_t boundsStart_ = 0, boundsEnd_ = 1;
    int64_t start_ = 0, end_ = 1;
    EventRef selection_;
    std::optional<int64_t> markerA_, markerB_;
    std::vector<int> cpus_;
    std::shared_ptr<const Comparison> comparison_;
    std::vector<Range> undo_, redo_;
};

} // namespace tickscope
