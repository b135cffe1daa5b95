// SPDX-License-Identifier: GPL-3.0-or-later
#include "ViewState.h"

#include <algorithm>

namespace tickscope {

ViewState::ViewState(QObject *parent) : QObject(parent) {}

void ViewState::reset(int64_t first, int64_t last, int cpuCount, std::vector<int> shown)
{
    if (first > last) { // nothing timed
        first = 0;
        last = 0;
    }
    docStart_ = boundsStart_ = first;
    docEnd_ = boundsEnd_ = std::max(last, first + kMinSpan);
    const bool hadComparison = comparison_ != nullptr;
    comparison_.reset();
    start_ = boundsStart_;
    end_ = boundsEnd_;
    selection_ = {};
    markerA_.reset();
    markerB_.reset();
    cpus_ = std::move(shown);
    if (cpus_.empty()) {
        for (int c = 0; c < cpuCount; ++c)
            cpus_.push_back(c);
    }
    undo_.clear();
    redo_.clear();
    emit documentReset();
    if (hadComparison) emit comparisonChanged();
    emit rangeChanged(start_, end_);
    emit selectionChanged(selection_);
    emit markersChanged();
    emit cpusChanged();
}

void ViewState::follow(int64_t first, int64_t last, int cpuCount)
{
    const int64_t oldStart = boundsStart_, oldEnd = boundsEnd_, start = start_, end = end_;
    const std::vector<int> cpus = cpus_;
    const std::optional<int64_t> a = markerA_, b = markerB_;
    reset(first, last, cpuCount); // shows all of the new span
    const int64_t width = end - start;
    if (start <= oldStart && end >= oldEnd) {
        // all of it before: all of it now
    } else if (end >= oldEnd || end <= boundsStart_ || start >= boundsEnd_) {
        setRange(boundsEnd_ - width, boundsEnd_, false);
    } else {
        setRange(start, end, false);
    }
    if (std::all_of(cpus.begin(), cpus.end(), [&](int c) { return c < cpuCount; })) setCpus(cpus);
    auto inside = [&](std::optional<int64_t> t) {
        return t && *t >= boundsStart_ && *t <= boundsEnd_ ? t : std::nullopt;
    };
    setMarkerA(inside(a));
    setMarkerB(inside(b));
}

ViewState::Range ViewState::clamp(int64_t start, int64_t end) const
{
    if (end < start) std::swap(start, end);
    const int64_t bounds = boundsEnd_ - boundsStart_;
    int64_t span = std::clamp<int64_t>(end - start, kMinSpan, bounds);
    if (end - start < kMinSpan) start -= (kMinSpan - (end - start)) / 2;
    start = std::clamp(start, boundsStart_, boundsEnd_ - span);
    return {start, start + span};
}

void ViewState::setRange(int64_t start, int64_t end, bool recordUndo)
{
    const Range r = clamp(start, end);
    if (r.start == start_ && r.end == end_) return;
    if (recordUndo) {
        undo_.push_back({start_, end_});
        redo_.clear();
    }
    start_ = r.start;
    end_ = r.end;
    emit rangeChanged(start_, end_);
}

void ViewState::undoRange()
{
    if (undo_.empty()) return;
    redo_.push_back({start_, end_});
    const Range r = undo_.back();
    undo_.pop_back();
    start_ = r.start;
    end_ = r.end;
    emit rangeChanged(start_, end_);
}

void ViewState::redoRange()
{
    if (redo_.empty()) return;
    undo_.push_back({start_, end_});
    const Range r = redo_.back();
    redo_.pop_back();
    start_ = r.start;
    end_ = r.end;
    emit rangeChanged(start_, end_);
}

void ViewState::setSelection(EventRef e)
{
    if (e == selection_) return;
    selection_ = e;
    emit selectionChanged(e);
}

void ViewState::setMarkerA(std::optional<int64_t> t)
{
    markerA_ = t;
    emit markersChanged();
}

void ViewState::setMarkerB(std::optional<int64_t> t)
{
    markerB_ = t;
    emit markersChanged();
}

void ViewState::setComparison(std::shared_ptr<const Comparison> c, bool keepRange)
{
    comparison_ = std::move(c);
    boundsStart_ = docStart_;
    boundsEnd_ = docEnd_;
    if (comparison_ && comparison_->valid()) {
        const Trace &b = *comparison_->b.trace;
        boundsStart_ = std::min(boundsStart_, b.startTs() - comparison_->shift());
        boundsEnd_ = std::max(boundsEnd_, b.endTs() - comparison_->shift());
    }
    if (keepRange) {
        const Range r = clamp(start_, end_);
        start_ = r.start;
        end_ = r.end;
    } else {
        start_ = boundsStart_;
        end_ = boundsEnd_;
        undo_.clear();
        redo_.clear();
        if (selection_.run != 0) selection_ = {};
    }
    emit comparisonChanged();
    emit rangeChanged(start_, end_);
    emit selectionChanged(selection_);
}

void ViewState::setCpus(std::vector<int> cpus)
{
    if (cpus == cpus_) return;
    cpus_ = std::move(cpus);
    emit cpusChanged();
}

} // namespace tickscope
