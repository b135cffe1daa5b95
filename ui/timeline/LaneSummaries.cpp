// SPDX-License-Identifier: GPL-3.0-or-later
#include "LaneSummaries.h"

#include <bit>
#include <cstdint>

namespace tickscope {

LaneSummaries::LaneSummaries()
{
    helperItem_ = [this](size_t k) {
        try {
            while (!stop_.load(std::memory_order_relaxed) && claimPart(ahead_[k])) {
            }
        } catch (...) { // the part was handed back: the lane's own ask computes it and meets the error
        }
    };
}

LaneSummaries::~LaneSummaries()
{
    stop_ = true;
    pool_.wait(); // (no helper's item throws: helperItem_ drops the error)
}

void LaneSummaries::settle()
{
    stop_ = true;
    pool_.wait();
    stop_ = false;
}

void LaneSummaries::setLanes(std::vector<Source> lanes, std::vector<size_t> drawOrder)
{
    settle();
    lanes_ = std::move(lanes);
    order_ = std::move(drawOrder);
    columns_.assign(lanes_.size(), {});
    taken_ = std::make_unique<std::atomic<uint32_t>[]>(lanes_.size());
    done_ = std::make_unique<std::atomic<uint32_t>[]>(lanes_.size());
    visible_.clear();
    collapsed_.clear();
    width_ = -1;
}

void LaneSummaries::setCollapsed(std::vector<bool> collapsed)
{
    if (collapsed == collapsed_) return;
    settle(); // (they read it)
    if (collapsed.size() != lanes_.size() || collapsed_.size() != lanes_.size()) {
        width_ = -1; // (a layout of other lanes, or the first: every lane anew)
    } else {
        for (size_t k = 0; k < lanes_.size(); ++k) {
            if (!collapsed_[k] || collapsed[k]) continue;
            // Expanded: its columns may hold the collapsed fields only. The next ask computes it.
            if ((done_[k].load(std::memory_order_relaxed) & kAllParts) == kAllParts) --computed_;
            taken_[k].store(0, std::memory_order_relaxed);
            done_[k].store(0, std::memory_order_relaxed);
        }
    }
    collapsed_ = std::move(collapsed);
}

void LaneSummaries::invalidate()
{
    settle(); // (they read the key)
    width_ = -1;
}

size_t LaneSummaries::computedLanes() const
{
    pool_.wait();
    return computed_;
}

bool LaneSummaries::claimPart(size_t slot)
{
    std::atomic<uint32_t> &taken = taken_[slot];
    uint32_t was = taken.load(std::memory_order_relaxed);
    uint32_t part = 0;
    do {
        if (was == kAllParts) return false;
        part = static_cast<uint32_t>(std::countr_one(was));
    } while (!taken.compare_exchange_weak(was, was | (1u << part), std::memory_order_acquire));
    const Source &l = lanes_[slot];
    const int from = static_cast<int>(static_cast<int64_t>(width_) * part / kParts);
    const int to = static_cast<int>(static_cast<int64_t>(width_) * (part + 1) / kParts);
    const bool collapsed = slot < collapsed_.size() && collapsed_[slot];
    try {
        l.index->summarize(l.cpu, l.zero + start_, l.zero + end_, width_, columns_[slot].data(), from, to,
                           collapsed ? SummaryDetail::Collapsed : SummaryDetail::Full);
    } catch (...) { // handed back: a waiter wakes (done_ changes) and takes it
        taken.fetch_and(~(1u << part), std::memory_order_release);
        done_[slot].fetch_xor(kHandedBack, std::memory_order_release);
        done_[slot].notify_all();
        throw;
    }
    const uint32_t before = done_[slot].fetch_or(1u << part, std::memory_order_acq_rel);
    if ((before & kAllParts) == (kAllParts & ~(1u << part))) {
        computed_.fetch_add(1, std::memory_order_relaxed);
        done_[slot].notify_all();
    }
    return true;
}

bool LaneSummaries::claimAhead(size_t slot)
{
    for (const size_t k : ahead_) {
        if (k == slot) continue;
        try {
            if (claimPart(k)) return true;
        } catch (...) { // handed back: lane k's own ask computes the part and meets the error
        }
    }
    return false;
}

void LaneSummaries::take(size_t slot)
{
    std::atomic<uint32_t> &done = done_[slot];
    for (;;) {
        const uint32_t d = done.load(std::memory_order_acquire);
        if ((d & kAllParts) == kAllParts) return;
        if (claimPart(slot)) continue;
        // A helper holds the rest of this lane: rather than wait, compute a part of a lane drawn later.
        if (claimAhead(slot)) continue;
        done.wait(d, std::memory_order_acquire);
    }
}

void LaneSummaries::rekey(int64_t start, int64_t end, int width, size_t except)
{
    settle(); // the helpers write the columns of the old key until then
    start_ = start;
    end_ = end;
    width_ = width;
    computed_ = 0;
    ahead_.clear();
    for (size_t k = 0; k < lanes_.size(); ++k) {
        taken_[k].store(0, std::memory_order_relaxed);
        done_[k].store(0, std::memory_order_relaxed);
    }
    for (size_t n = 0; n < lanes_.size(); ++n) {
        const size_t k = order_.size() == lanes_.size() ? order_[n] : n;
        if (k != except && (visible_.size() != lanes_.size() || visible_[k])) {
            columns_[k].resize(static_cast<size_t>(width)); // (before a helper writes a part)
            ahead_.push_back(k);
        }
    }
    ++keys_;
    pool_.start(ahead_.size(), helperItem_);
}

void LaneSummaries::prime(int64_t start, int64_t end, int width)
{
    if (width > 0 && !isKey(start, end, width)) rekey(start, end, width, SIZE_MAX);
}

const std::vector<ColumnSummary> &LaneSummaries::columns(size_t slot, int64_t start, int64_t end, int width)
{
    if (slot >= lanes_.size() || width <= 0) return empty_;
    if (!isKey(start, end, width)) rekey(start, end, width, slot);
    // A lane no helper takes (the first to ask, or one scrolled into view since) is sized here.
    if (columns_[slot].size() != static_cast<size_t>(width))
        columns_[slot].resize(static_cast<size_t>(width));
    take(slot);
    return columns_[slot];
}

} // namespace tickscope
