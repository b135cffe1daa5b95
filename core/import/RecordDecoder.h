// Turns raw trace.dat records (libtraceevent field layout) into model events: one Layout per event
// id, built once from the event formats; per-thread symbol and comm caches.
#pragma once

#include "model/Trace.h"

#include <cstdint>
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

// Where each field the model needs sits in one event's records.
struct EventLayout
{
    uint16_t type = 0; // model type id
    EventKind kind = EventKind::Generic;
    FieldRef f[8]; // the fields of kFieldNames[kind], in that order (RecordDecoder.cpp)
    bool known = false;
};

class EventLayouts
{
public:
    // Registers every event of the file as a type of trace, and the field positions of the known kinds.
    EventLayouts(tep_handle *tep, Trace &trace);
    const EventLayout *find(int id) const
    {
        return id >= 0 && static_cast<size_t>(id) < byId_.size() && byId_[id].known ? &byId_[id] : nullptr;
    }
    FieldRef commonType, commonFlags, commonPreempt, commonPid;
    bool swap = false; // file endianness differs from ours

private:
    std::vector<EventLayout> byId_;
};

// Decodes records of one CPU stream into a CpuEvents. One per thread (holds per-thread caches).
class RecordDecoder
{
public:
    RecordDecoder(tep_handle *tep, const EventLayouts &layouts, Trace &trace);
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
    uint32_t oldTickStopReason(const tep_record &rec);

    tep_handle *tep_;
    const EventLayouts &layouts_;
    Trace &trace_;
    LocalInterner strings_;
    std::unordered_map<uint64_t, uint32_t> symbols_;
    std::unordered_set<int32_t> pidsSeen_;
};

} // namespace tickscope
