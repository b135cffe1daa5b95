// SPDX-License-Identifier: GPL-3.0-or-later
// A lane of states over one CPU's events, stored by where it changes: one bit per event marks a change,
// and each change has a one-byte code (StateCode). About 0.13 byte per event plus one byte per change,
// instead of 8+ bytes per interval. The state in force at event i is a rank query (O(1)); an interval
// starts at the ts of its change's event and lasts until the next change.
#pragma once

#include "model/Column.h"
#include "util/Prefetch.h"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tickscope {

class ChangeLane
{
public:
    static constexpr size_t npos = static_cast<size_t>(-1);

    // Sizes the bitmap for a CPU with `events` events and clears the lane (a lane whose events arrive in
    // parts may start with fewer: it grows as changes come).
    void reset(size_t events);

    // Records that the state becomes `code` at event i. Changes come in event order; a second change
    // at the same event replaces the first (its interval would last no time).
    void set(size_t i, uint8_t code);
    // A lane whose events are read in parts and taken as they come: hands back the memory of the bitmap
    // before event i and of the codes before change number `change` (reading them after is an error).
    void releaseBefore(size_t i, size_t change);
    // The same for a lane whose last codes may still be relabelled: the released ones read as `gone`, and
    // relabelling one does nothing (a stream's readers are past them).
    void releaseCodes(size_t i, size_t change, uint8_t gone);
    // Rewrites the code of an existing change (retroactive decisions).
    void relabel(size_t change, uint8_t code)
    {
        if (change >= firstLiveCode()) codes_[change] = code;
    }
    size_t firstLiveCode() const { return codes_.firstLive(); } // the codes before were handed back

    size_t changes() const { return codes_.size(); }
    uint8_t code(size_t change) const { return change < firstLiveCode() ? gone_ : codes_[change]; }
    size_t lastIndex() const { return last_; } // event index of the last change, npos when none
    uint8_t lastCode(uint8_t none = 0) const { return codes_.size() ? codes_.back() : none; }

    // Builds the rank directory for a CPU of `events` events; call once when all changes are set.
    void finish(size_t events);

    // After finish(): the number of the last change at or before event i (npos when none), and its code.
    size_t changeAt(size_t i) const;
    uint8_t codeAt(size_t i, uint8_t none = 0) const
    {
        const size_t c = changeAt(i);
        return c == npos ? none : code(c); // (a code handed back reads as `gone`)
    }

    // Calls f(eventIndex, code) for each change from the one in force at event `from` (or the first)
    // up to the last change at or before event `to`, in order.
    template <class F> void forEach(size_t from, size_t to, F &&f) const
    {
        if (codes_.empty() || from >= events_) return;
        size_t c = changeAt(from);
        const size_t i = c == npos ? 0 : indexOf(c);
        forEachFrom(c == npos ? 0 : c, i, to, f);
    }
    template <class F> void forEach(F &&f) const { forEach(0, events_, f); }

    // The same from change number `change`, whose event index `index` the caller knows (no rank search).
    template <class F> void forEachFrom(size_t change, size_t index, size_t to, F &&f) const
    {
        if (codes_.empty() || index >= events_) return;
        size_t c = change;
        size_t i = index;
        to = to < events_ ? to : events_ - 1;
        for (; i <= to; ++i) {
            const uint64_t w = bits_[i >> 6] >> (i & 63);
            if (!w) {
                i |= 63; // next word
                continue;
            }
            i += static_cast<size_t>(std::countr_zero(w));
            if (i > to) break;
            f(i, codes_[c++]);
        }
    }

    // How many changes lie in events [index, to] (to clipped to the lane's end): a popcount a word.
    size_t countFrom(size_t index, size_t to) const
    {
        if (codes_.empty() || index >= events_ || index > to) return 0;
        to = to < events_ ? to : events_ - 1;
        size_t n = 0;
        for (size_t w = index >> 6; w <= to >> 6; ++w) {
            uint64_t bits = bits_[w];
            if (w == index >> 6) bits &= ~uint64_t{0} << (index & 63);
            if (w == to >> 6 && (to & 63) != 63) bits &= (uint64_t{1} << ((to & 63) + 1)) - 1;
            n += static_cast<size_t>(std::popcount(bits));
        }
        return n;
    }

    // The change bitmap: bit i % 64 of word i / 64 marks a change at event i (for indexes that keep
    // their own per-block directory, e.g. the timeline's StatePrefix).
    uint64_t word(size_t w) const { return bits_[w]; }
    size_t words() const { return bits_.size(); }
    // Start loading the code of a change (util/Prefetch.h).
    void prefetchCode(size_t change) const
    {
        if (change < codes_.size()) prefetch(&codes_[change]);
    }

    // After finish(): the event index of a change.
    size_t indexOf(size_t change) const;

    size_t bytes() const;
    size_t liveCodeBytes() const { return codes_.liveBytes(); }
    size_t liveBitBytes() const { return bits_.liveBytes(); }

private:
    size_t events_ = 0;
    size_t last_ = npos;
    Column<uint64_t> bits_;
    std::vector<uint32_t> rank_; // changes before each 512-event block
    Column<uint8_t> codes_;
    uint8_t gone_ = 0;           // what a handed-back code reads as
    size_t releasedChanges_ = 0; // the changes marked in the bitmap's handed-back head
};

} // namespace tickscope
