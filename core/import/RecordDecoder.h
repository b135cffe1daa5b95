// SPDX-License-Identifier: GPL-3.0-or-later
// Turns raw trace.dat records (libtraceevent field layout) into model events: one Layout per event
// id, built once from the event formats; per-thread symbol and comm caches.
#pragma once

#include "FileSymbols.h"
#include "model/EventKinds.h"
#include "model/Trace.h"

#include "DatLayout.h"

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

struct tep_handle;
struct tep_event;
struct tep_record;

namespace tickscope {

struct FieldRef
{
    int offset = -1;
    int size = 0;
    unsigned long flags = 0;
    bool valid() const { return offset >= 0; }
};

// One payload field's decoding step, compiled from the kind's table entry and the file's format when
// the format is first seen, so that decoding a record is a short loop of plain copies.
struct FieldOp
{
    enum Code : uint8_t
    {
        Copy,      // same or narrower member, file in our byte order: the low bytes as they are
        Unsigned,  // zero-extended (or byte-swapped)
        Signed,    // sign-extended
        Bool,      // 0 or 1
        Const,     // the format lacks the field: the table's value for that
        SameAs,    // the format lacks the field: another field's value
        Symbol,    // an address named from the file's symbols
        Pointer,   // a pointer value, stored as its pointer id
        String,    // a char array or __data_loc string
        FromPrint, // from libtraceevent's printed record
        Keep,      // a generic event: its record from byte `value` on, kept as it is
    };
    Code code = Const;
    bool trimNewlines = false;
    PayloadAt at;                    // where the value goes
    PayloadAt from;                  // SameAs: the field copied
    FieldRef src;                    // where the value is in the record
    uint64_t value = 0;              // Const
    const FieldSpec *spec = nullptr; // FromPrint
};

// A task comm an event names (sched_switch prev/next): noted in the task table, not stored.
struct CommOp
{
    PayloadAt pid;
    FieldRef src;
};

// How one event's records become model events.
struct EventLayout
{
    uint16_t type = 0; // model type id
    EventKind kind = EventKind::Generic;
    uint8_t payloadSize = 0;
    bool zeroFirst = false; // the fields do not cover the payload
    uint8_t opCount = 0;
    uint8_t commCount = 0;
    FieldOp ops[kMaxKindFields];
    CommOp comms[kMaxKindFields];
    bool known = false;
    std::shared_ptr<const RecordFormat> kept; // a generic event's format (its records are kept)
};

class EventLayouts
{
public:
    // Eager: every event of a libtraceevent handle becomes a type of trace (the record path).
    EventLayouts(tep_handle *tep, Trace &trace);
    // Lazy: an event's format is parsed into tep (which the caller owns, with the formats) the first
    // time one of its records is seen, under tepMutex; only the events a trace uses cost anything.
    EventLayouts(tep_handle *tep, Trace &trace, const std::vector<FormatText> &formats, std::mutex &tepMutex);

    // Thread-safe. nullptr for an id the file has no format for.
    const EventLayout *find(int id) const
    {
        if (id < 0 || static_cast<size_t>(id) >= count_) return nullptr;
        const EventLayout *l = byId_[static_cast<size_t>(id)].load(std::memory_order_acquire);
        if (l) return l->known ? l : nullptr;
        return formats_ ? parse(id) : nullptr;
    }
    std::mutex *tepMutex() const { return tepMutex_; }
    FieldRef commonType, commonFlags, commonPreempt, commonPid;
    bool swap = false; // file endianness differs from ours

private:
    const EventLayout *add(tep_event *ev) const; // called with the lock held (lazy) or alone (eager)
    // A generic event's format, kept with its trace type.
    std::shared_ptr<const RecordFormat> keepFormat(const tep_event *ev, uint16_t type) const;
    const EventLayout *parse(int id) const;
    void commonFieldsFrom(tep_event *ev);

    tep_handle *tep_;
    Trace &trace_;
    const std::vector<FormatText> *formats_ = nullptr;
    std::mutex *tepMutex_ = nullptr;
    std::vector<int> formatIndex_; // id -> index into *formats_, -1 when none
    size_t count_ = 0;
    std::unique_ptr<std::atomic<const EventLayout *>[]> byId_;
    mutable std::deque<EventLayout> owned_;
};

// Decodes records of one CPU stream into a CpuEvents. One per thread (holds per-thread caches).
// NameResolver over a live libtraceevent handle (the reference path).
class TepNames : public NameResolver
{
public:
    explicit TepNames(tep_handle *tep) : tep_(tep) {}
    const char *function(uint64_t addr) const override;
    const char *functionAt(uint64_t addr) const override;
    const char *comm(int pid) const override;

private:
    tep_handle *tep_;
};

class RecordDecoder
{
public:
    RecordDecoder(tep_handle *tep, const NameResolver &names, const EventLayouts &layouts, Trace &trace);
    // Call before the first record of each CPU.
    void beginCpu();
    // Appends the record to out; returns false when the record is not an event the file describes.
    bool decode(const tep_record &rec, CpuEvents &out);

    TaskTable::Recorder tasks;
    size_t unknownRecords = 0;

private:
    uint64_t num(const uint8_t *d, int size, const FieldRef &f) const;
    int64_t snum(const uint8_t *d, int size, const FieldRef &f) const;
    std::string_view str(const uint8_t *d, int size, const FieldRef &f) const;
    uint32_t symbol(uint64_t addr);
    void noteComm(int64_t ts, int32_t pid, std::string_view comm);
    void notePid(int32_t pid);
    uint32_t fromPrint(const tep_record &rec, const FieldSpec &f);
    uint32_t keep(const uint8_t *d, int size, const RecordFormat &format);

    tep_handle *tep_;
    const NameResolver &names_;
    const EventLayouts &layouts_;
    LocalInterner strings_;
    std::unordered_map<uint64_t, uint32_t> symbols_;
    std::unordered_set<int32_t> pidsSeen_;
    int32_t lastPid_ = INT32_MIN;
    std::string kept_; // a generic record being kept, with its function names
    // Direct-mapped cache of the last comm noted per pid, so that a sched event whose comm did not
    // change costs a 16-byte compare instead of a hash lookup.
    struct CommSlot
    {
        int32_t pid = INT32_MIN;
        uint32_t id = 0;
        uint8_t len = 0;
        char text[16] = {};
    };
    CommSlot comms_[512];
};

} // namespace tickscope
