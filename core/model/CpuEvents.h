// SPDX-License-Identifier: GPL-3.0-or-later
// One CPU's events, sorted by time, in columns. About 8 bytes per event plus its payload:
//   ts: the low 32 bits per event, the high 32 bits per "epoch" (a run of events sharing them);
//   type (u16), common_flags (u8), common_preempt_count (u8);
//   pid: run-length coded (a CPU runs one task for many events), one {first index, pid} per run;
//   payload: the kind's packed struct in a byte arena; its offset is found from a per-64-event
//   block offset plus the payload sizes of the preceding events of the block.
#pragma once

#include "Column.h"
#include "EventKind.h"

#include "util/Prefetch.h"

#include <algorithm>

#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

namespace tickscope {

struct LostRange
{
    int64_t from = 0;   // ts of the last event before the gap (== to when the gap opens the CPU's data)
    int64_t to = 0;     // ts of the first event after the gap
    uint64_t count = 0; // events lost, 0 when the source did not say
    // The gap opens the CPU's data (nothing came before it): said by the importer, which knows. A gap
    // between two events of one microsecond in a text trace also reads from == to, and is not one.
    bool opens = false;
    // The index of the first event after the gap among the CPU's events (its size when none came after
    // it; kNoNext when the source did not say: then the first event at or after `to`). Times cannot place
    // a gap between two events of one microsecond; the importer that read the gap in its place can.
    uint32_t next = kNoNext;
    static constexpr uint32_t kNoNext = UINT32_MAX;
    // `to` of a gap a part of a CPU's pages ended in, decoded apart from the next part (appendEvents closes
    // it at the next part's first event; none is left in a loaded trace). A part after the first marks its
    // own opening gap with from == INT64_MIN (appendEvents puts the last event before the part there).
    static constexpr int64_t kOpenEnd = INT64_MAX;
};

class CpuEvents
{
public:
    static constexpr unsigned kBlockShift = 6;

    // typeSizes: payload size per type id, owned by the Trace (it may grow while importing).
    explicit CpuEvents(const std::vector<uint8_t> *typeSizes = nullptr) : typeSizes_(typeSizes) {}

    size_t size() const { return tsLow_.size(); }
    bool empty() const { return tsLow_.empty(); }

    int64_t ts(size_t i) const
    {
        return (static_cast<int64_t>(epochs_[epochIndex(i)].high) << 32) | tsLow_[i];
    }
    // Starts loading the timestamps of 64-event block b (a search in it follows; see util/Prefetch.h).
    void prefetchTimes(size_t b) const
    {
        const size_t i = b << kBlockShift;
        if (i >= size()) return;
        prefetch(&blockEpoch_[b]);
        prefetchBytes(&tsLow_[i], std::min<size_t>(size() - i, size_t{1} << kBlockShift) * sizeof(uint32_t));
    }
    uint16_t type(size_t i) const { return wide_ ? type16_[i] : type8_[i]; }
    // The first event in [from, end) of one type (end when none): a search of the type column at memory
    // speed.
    size_t findType(uint16_t type, size_t from, size_t end) const
    {
        if (wide_) {
            while (from < end && type16_[from] != type)
                ++from;
            return from;
        }
        if (from >= end || type > UINT8_MAX) return end;
        const void *at = std::memchr(type8_.data() + from, type, end - from);
        return at ? static_cast<size_t>(static_cast<const uint8_t *>(at) - type8_.data()) : end;
    }
    uint8_t flags(size_t i) const { return flags_[i]; }
    uint8_t preempt(size_t i) const { return preempt_[i]; }
    int32_t pid(size_t i) const;
    // The events as runs of one pid (the task that was current): run k starts at event runFirst(k).
    size_t runCount() const { return runs_.size(); }
    size_t runFirst(size_t k) const { return runs_[k].first; }
    int32_t runPid(size_t k) const { return runs_[k].pid; }
    size_t runOf(size_t i) const; // the run holding event i

    size_t payloadOffset(size_t i) const
    {
        size_t off = blockOffset_[i >> kBlockShift];
        const auto &sizes = *typeSizes_;
        for (size_t j = (i >> kBlockShift) << kBlockShift; j < i; ++j)
            off += sizes[type(j)];
        return off;
    }
    template <class T> T payload(size_t i) const { return payloadAt<T>(payloadOffset(i)); }
    const uint8_t *payloadBytes(size_t i) const { return arena_.data() + payloadOffset(i); }
    template <class T> T payloadAt(size_t offset) const
    {
        T v;
        std::memcpy(&v, arena_.data() + offset, sizeof(T));
        return v;
    }

    // First event with ts >= t (size() when none).
    size_t lowerBound(int64_t t, size_t first = 0) const; // searching from `first` on
    // Some lost range lies between times a and b (it ends after a and begins before b; not the one that
    // opens the CPU's data; one between two events of one microsecond when that lies between them).
    bool lostBetween(int64_t a, int64_t b) const;
    // Lost range k opens the CPU's data (LostRange::opens; only the first can).
    bool opensData(size_t k) const { return k == 0 && !lost.empty() && lost[0].opens; }
    // The first event after lost range k (size() when none).
    size_t firstAfterLost(size_t k, size_t searchFrom = 0) const
    {
        const LostRange &r = lost[k];
        return r.next != LostRange::kNoNext ? std::min<size_t>(r.next, size()) : lowerBound(r.to, searchFrom);
    }
    // The time lost range k leaves dark, as (from, to): the CPU may have run anything then. The gap that
    // opens the data from the start of time; a text trace's LOST line between two events of one
    // microsecond leaves that microsecond dark (from == to).
    std::optional<std::pair<int64_t, int64_t>> darkSpan(size_t k) const
    {
        const LostRange &r = lost[k];
        if (opensData(k)) return std::make_pair(INT64_MIN, r.to);
        if (r.from <= r.to) return std::make_pair(r.from, r.to);
        return std::nullopt;
    }
    // Events lost before a page are counted with the ones of a gap not closed yet (0: some count not said).
    static uint64_t addLostCounts(uint64_t a, uint64_t b) { return a && b ? a + b : 0; }
    // Forgets a gap that no later event closed (LostRange::kOpenEnd): the data ended in it.
    void dropOpenLost()
    {
        if (!lost.empty() && lost.back().to == LostRange::kOpenEnd) lost.pop_back();
    }

    // A CPU whose events are read in parts and analysed as they come: hands the memory of the events
    // before i (rounded down to a 64-event block) back to the system. Their indices stay; reading one
    // is an error (it reads zeros). The caller keeps every later read at or after i.
    void releaseBefore(size_t i);
    size_t releasedBefore() const { return released_; }
    // The events with from <= ts <= to, as indices [first, second).
    std::pair<size_t, size_t> indexRange(int64_t from, int64_t to) const
    {
        return {lowerBound(from), to == INT64_MAX ? size() : lowerBound(to + 1)};
    }

    // Importer side. Events must come in time order; append() reports false (and keeps the event)
    // when one goes back in time, and sortByTime() then restores the order.
    // hugeColumns: every column asks for huge pages, not only the arena (a writer that knows its size).
    // streamed: a CPU read in parts whose events are released as they are taken: no huge pages for the
    // payload arena and only `streamedAhead` bytes of each column populated ahead (per CPU, 64 KiB
    // stretches would outweigh the events kept; 0: none, every page faulted in as it is written).
    void reserve(size_t events, size_t payloadBytes, bool hugeColumns = false, bool streamed = false,
                 size_t streamedAhead = 0);
    bool append(int64_t ts, uint16_t type, uint8_t flags, uint8_t preempt, int32_t pid, const void *payload,
                uint8_t payloadSize);
    // Appends every event of `next` (same type sizes), as if each had been appended in turn: the decode of
    // one CPU's data split into parts joins them in order. A lost range that opens `next` (from == to at
    // its first event) is a gap after this one's last event.
    void appendEvents(const CpuEvents &next);
    bool sorted() const { return sorted_; }
    void sortByTime();
    void finishLoading(); // returns unused reserved memory

    std::vector<LostRange> lost;

    size_t memoryBytes() const; // bytes actually used by the columns

    // The timestamps of one 64-event block without ts()'s epoch search per event (a search in the block and
    // a walk over its changes read a dozen): the block's epoch, and the next one where it begins inside the
    // block. A block over more than one epoch boundary (a CPU idle for seconds between its events) reads
    // through ts().
    class BlockClock
    {
    public:
        BlockClock(const CpuEvents &ev, size_t b) : ev_(ev)
        {
            const size_t e = ev.blockEpoch_[b], end = (b + 1) << kBlockShift;
            high_ = static_cast<int64_t>(ev.epochs_[e].high) << 32;
            if (e + 1 < ev.epochs_.size() && ev.epochs_[e + 1].first < end) {
                switchAt_ = ev.epochs_[e + 1].first;
                next_ = static_cast<int64_t>(ev.epochs_[e + 1].high) << 32;
                many_ = e + 2 < ev.epochs_.size() && ev.epochs_[e + 2].first < end;
            }
        }
        // Event i of the block.
        int64_t ts(size_t i) const
        {
            if (many_) [[unlikely]]
                return ev_.ts(i);
            return (i >= switchAt_ ? next_ : high_) | ev_.tsLow_[i];
        }

    private:
        const CpuEvents &ev_;
        int64_t high_ = 0, next_ = 0;
        size_t switchAt_ = SIZE_MAX;
        bool many_ = false;
    };

    // Sequential reader of the timestamps alone (a merge by time reads nothing else).
    class TimeCursor
    {
    public:
        TimeCursor(const CpuEvents &ev, size_t start = 0) : ev_(ev), i_(start)
        {
            if (i_ < ev_.size()) {
                epoch_ = ev_.epochIndex(i_);
                high_ = ev_.epochs_[epoch_].high;
            }
        }
        bool valid() const { return i_ < ev_.size(); }
        size_t index() const { return i_; }
        int64_t ts() const { return (static_cast<int64_t>(high_) << 32) | ev_.tsLow_[i_]; }
        void next()
        {
            ++i_;
            if (epoch_ + 1 < ev_.epochs_.size() && ev_.epochs_[epoch_ + 1].first == i_)
                high_ = ev_.epochs_[++epoch_].high;
        }

    private:
        const CpuEvents &ev_;
        size_t i_, epoch_ = 0;
        uint32_t high_ = 0;
    };

    // Sequential reader: ts, pid and payload offset without the per-call searches.
    class Cursor
    {
    public:
        Cursor(const CpuEvents &ev, size_t start);
        bool valid() const { return time_.valid(); }
        size_t index() const { return time_.index(); }
        int64_t ts() const { return time_.ts(); }
        int32_t pid() const { return ev_.runs_[run_].pid; }
        size_t payloadOffset() const { return off_; }
        template <class T> T payload() const { return ev_.payloadAt<T>(off_); }
        void next() // inline: every pass over the events calls it once per event
        {
            off_ += (*ev_.typeSizes_)[ev_.type(time_.index())];
            time_.next();
            if (run_ + 1 < ev_.runs_.size() && ev_.runs_[run_ + 1].first == time_.index()) ++run_;
        }

    private:
        const CpuEvents &ev_;
        TimeCursor time_;
        size_t off_ = 0;
        size_t run_ = 0;
    };

    // Payload offsets of events visited in increasing index order, most of them skipped: each one from the
    // previous (the sizes of the events between) or from its block's offset, whichever is fewer steps.
    class OffsetWalker
    {
    public:
        explicit OffsetWalker(const CpuEvents &ev) : ev_(&ev) {}
        size_t offset(size_t i) // i >= the previous i
        {
            constexpr size_t mask = (size_t{1} << kBlockShift) - 1;
            if (i < i_ || i - i_ > (i & mask)) {
                i_ = i & ~mask;
                off_ = ev_->blockOffset_[i >> kBlockShift];
            }
            const auto &sizes = *ev_->typeSizes_;
            for (; i_ < i; ++i_)
                off_ += sizes[ev_->type(i_)];
            return off_;
        }
        template <class T> T payload(size_t i) { return ev_->payloadAt<T>(offset(i)); }

    private:
        const CpuEvents *ev_;
        size_t i_ = 0, off_ = 0;
    };

private:
    struct Epoch
    {
        size_t first;
        uint32_t high;
    };
    struct PidRun
    {
        uint32_t first;
        int32_t pid;
    };
    // The epoch of event i: its 64-event block's, then any that begin inside the block before it.
    size_t epochIndex(size_t i) const
    {
        size_t e = blockEpoch_[i >> kBlockShift];
        while (e + 1 < epochs_.size() && epochs_[e + 1].first <= i)
            ++e;
        return e;
    }
    void widen(); // type ids from one byte to two, for the first id above 255

    const std::vector<uint8_t> *typeSizes_;
    Column<uint32_t> tsLow_;
    std::vector<Epoch> epochs_;
    // Type ids take one byte each while they fit: ids go to the formats that occur in a trace, so all but
    // the rare trace with more than 256 kinds in use stay narrow; the first id above 255 widens the
    // CPU's column to two bytes (a copy, once).
    Column<uint8_t> type8_;
    Column<uint16_t> type16_;
    bool wide_ = false;
    Column<uint8_t> flags_;
    Column<uint8_t> preempt_;
    Column<PidRun> runs_;
    Column<uint8_t> arena_;
    Column<uint32_t> blockOffset_;
    Column<uint32_t> blockEpoch_; // per 64-event block: the epoch of its first event
    int64_t lastTs_ = INT64_MIN;
    bool sorted_ = true;
    size_t released_ = 0;
};

} // namespace tickscope
