// SPDX-License-Identifier: GPL-3.0-or-later
#include "RecordDecoder.h"

#include "TraceCmdApi.h"
#include "model/FieldText.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <initializer_list>

namespace tickscope {
namespace {

FieldRef ref(const tep_format_field *f)
{
    if (!f) return {};
    return {f->offset, f->size, f->flags};
}

} // namespace

namespace {
const EventLayout kNoFormat{}; // known == false: "looked up, the file has no such format"
}

void EventLayouts::commonFieldsFrom(tep_event *ev)
{
    commonType = ref(tep_find_common_field(ev, "common_type"));
    commonFlags = ref(tep_find_common_field(ev, "common_flags"));
    commonPreempt = ref(tep_find_common_field(ev, "common_preempt_count"));
    commonPid = ref(tep_find_common_field(ev, "common_pid"));
}

std::shared_ptr<const RecordFormat> EventLayouts::keepFormat(const tep_event *ev, uint16_t type) const
{
    auto format = std::make_shared<RecordFormat>();
    format->swap = swap;
    int base = INT32_MAX;
    for (const tep_format_field *f = ev->format.fields; f; f = f->next)
        base = std::min(base, f->offset);
    if (base == INT32_MAX || base < 0) base = 0;
    format->base = base;
    for (const tep_format_field *f = ev->format.fields; f; f = f->next) {
        RecordField &r = format->fields.emplace_back();
        r.name = f->name ? f->name : "";
        r.offset = f->offset - base;
        r.size = f->size;
        const auto has = [&](unsigned long flag) { return (f->flags & flag) != 0; };
        r.flags = static_cast<uint16_t>((has(TEP_FIELD_IS_ARRAY) ? RecordField::Array : 0) |
                                        (has(TEP_FIELD_IS_POINTER) ? RecordField::Pointer : 0) |
                                        (has(TEP_FIELD_IS_SIGNED) ? RecordField::Signed : 0) |
                                        (has(TEP_FIELD_IS_STRING) ? RecordField::String : 0) |
                                        (has(TEP_FIELD_IS_DYNAMIC) ? RecordField::Dynamic : 0) |
                                        (has(TEP_FIELD_IS_LONG) ? RecordField::Long : 0) |
                                        (has(TEP_FIELD_IS_RELATIVE) ? RecordField::Relative : 0));
        if ((r.flags & RecordField::Pointer) && !(r.flags & RecordField::Array) &&
            (r.size == 4 || r.size == 8))
            format->symbolFields.push_back(format->fields.size() - 1);
    }
    format->bareText = format->fields.size() == 1 && format->fields[0].name == "text" &&
                       (format->fields[0].flags & RecordField::String);
    if (formats_ && ev->id >= 0 && static_cast<size_t>(ev->id) < formatIndex_.size() &&
        formatIndex_[static_cast<size_t>(ev->id)] >= 0)
        format->formatText = (*formats_)[static_cast<size_t>(formatIndex_[static_cast<size_t>(ev->id)])].text;
    trace_.setRecordFormat(type, format);
    return format;
}

const EventLayout *EventLayouts::add(tep_event *ev) const
{
    EventLayout &l = owned_.emplace_back();
    l.type = trace_.addType(ev->system ? ev->system : "", ev->name ? ev->name : "");
    l.kind = trace_.kind(l.type);
    l.known = true;
    const KindSpec &spec = kinds::spec(l.kind);
    l.payloadSize = spec.payloadSize;
    uint64_t covered = 0; // payload bytes the ops write
    for (size_t k = 0; k < spec.fields.size() && k < kMaxKindFields; ++k) {
        const FieldSpec &f = spec.fields[k];
        // the field's name, else the first alias this kernel's format has
        FieldRef src;
        const auto found = [&](std::string_view name) {
            src = ref(tep_find_field(ev, std::string(name).c_str()));
            return src.valid();
        };
        if (!found(f.name) && !f.aliases.empty()) anyName(f.aliases, found);
        if (f.role == FieldRole::Comm) {
            l.comms[l.commCount++] = {spec.fields[static_cast<size_t>(f.ref)].at, src};
            continue;
        }
        FieldOp &op = l.ops[l.opCount++];
        op.at = f.at;
        op.src = src;
        op.trimNewlines = f.flags & kTrimNewlines;
        if (f.at.size)
            covered |= (f.at.size == 64 ? ~uint64_t{0} : ((uint64_t{1} << f.at.size) - 1)) << f.at.offset;
        const bool sized = src.size == 1 || src.size == 2 || src.size == 4 || src.size == 8;
        switch (f.role) {
        case FieldRole::Value:
            if (!src.valid()) {
                op.code = f.missing == Missing::SameAs ? FieldOp::SameAs : FieldOp::Const;
                if (f.missing == Missing::SameAs) op.from = spec.fields[static_cast<size_t>(f.ref)].at;
                op.value = f.missing == Missing::Required ? 0 : static_cast<uint64_t>(f.missingValue);
            } else if (f.codec && f.codec->boolean) {
                op.code = FieldOp::Bool;
            } else if (!swap && sized && src.size >= f.at.size &&
                       std::endian::native == std::endian::little) {
                op.code = FieldOp::Copy;
            } else {
                op.code = f.at.isSigned ? FieldOp::Signed : FieldOp::Unsigned;
            }
            break;
        case FieldRole::Symbol:
            op.code = FieldOp::Symbol;
            break;
        case FieldRole::Pointer:
            op.code = src.valid() ? FieldOp::Pointer : FieldOp::Const; // a missing one: the null pointer
            break;
        case FieldRole::String:
            op.code =
                f.flags & kFromPrint ? (src.valid() ? FieldOp::FromPrint : FieldOp::Const) : FieldOp::String;
            op.value = static_cast<uint64_t>(f.missingValue);
            op.spec = &f;
            break;
        case FieldRole::Text:
            // a generic event: its record is kept, and prints by the file's format
            op.code = FieldOp::Keep;
            l.kept = keepFormat(ev, l.type);
            break;
        case FieldRole::Comm:
            break;
        }
    }
    l.zeroFirst =
        l.payloadSize && covered != (l.payloadSize == 64 ? ~uint64_t{0} : (uint64_t{1} << l.payloadSize) - 1);
    byId_[static_cast<size_t>(ev->id)].store(&l, std::memory_order_release);
    return &l;
}

EventLayouts::EventLayouts(tep_handle *tep, Trace &trace) : tep_(tep), trace_(trace)
{
    swap = tep_is_file_bigendian(tep) != (std::endian::native == std::endian::big);
    const int n = tep_get_events_count(tep);
    tep_event **events = tep_list_events(tep, TEP_EVENT_SORT_ID);
    for (int i = 0; i < n && events && events[i]; ++i) {
        if (events[i]->id >= 0 && events[i]->id <= 65535)
            count_ = std::max(count_, static_cast<size_t>(events[i]->id) + 1);
    }
    byId_ = std::make_unique<std::atomic<const EventLayout *>[]>(count_);
    for (size_t i = 0; i < count_; ++i)
        byId_[i].store(&kNoFormat);
    for (int i = 0; i < n && events && events[i]; ++i) {
        tep_event *ev = events[i];
        if (ev->id < 0 || ev->id > 65535) continue;
        add(ev);
        if (!commonType.valid()) commonFieldsFrom(ev);
    }
    if (!commonType.valid()) commonType = {0, 2, 0};
}

EventLayouts::EventLayouts(tep_handle *tep, Trace &trace, const std::vector<FormatText> &formats,
                           std::mutex &tepMutex)
    : tep_(tep), trace_(trace), formats_(&formats), tepMutex_(&tepMutex)
{
    swap = tep_is_file_bigendian(tep) != (std::endian::native == std::endian::big);
    for (const auto &f : formats) {
        if (f.id >= 0 && f.id <= 65535) count_ = std::max(count_, static_cast<size_t>(f.id) + 1);
    }
    formatIndex_.assign(count_, -1);
    for (size_t i = 0; i < formats.size(); ++i) {
        if (formats[i].id >= 0 && formats[i].id <= 65535)
            formatIndex_[static_cast<size_t>(formats[i].id)] = static_cast<int>(i);
    }
    byId_ = std::make_unique<std::atomic<const EventLayout *>[]>(count_);
    for (size_t i = 0; i < count_; ++i)
        byId_[i].store(nullptr);
    trace.reserveTypes(formats.size());
    // The common fields are the same in every format: take them from the first one that parses.
    for (const auto &f : formats) {
        if (f.system == "ftrace" || f.id < 0) continue;
        if (const EventLayout *l = parse(f.id); l && l->known) {
            if (tep_event *ev = tep_find_event(tep_, f.id)) commonFieldsFrom(ev);
            break;
        }
    }
    if (!commonType.valid()) commonType = {0, 2, 0};
}

const EventLayout *EventLayouts::parse(int id) const
{
    std::lock_guard lock(*tepMutex_);
    const EventLayout *l = byId_[static_cast<size_t>(id)].load(std::memory_order_acquire);
    if (l) return l->known ? l : nullptr;
    const int idx = formatIndex_[static_cast<size_t>(id)];
    tep_event *ev = tep_find_event(tep_, id); // another instance of the file may have parsed it
    if (!ev && idx >= 0) {
        const FormatText &f = (*formats_)[static_cast<size_t>(idx)];
        tep_parse_event(tep_, f.text.data(), f.text.size(), f.system.c_str());
        ev = tep_find_event(tep_, id);
    }
    if (!ev) {
        byId_[static_cast<size_t>(id)].store(&kNoFormat, std::memory_order_release);
        return nullptr;
    }
    return add(ev);
}

const char *TepNames::function(uint64_t addr) const
{
    return tep_find_function(tep_, addr);
}

const char *TepNames::functionAt(uint64_t addr) const
{
    const char *name = tep_find_function(tep_, addr);
    return name && tep_find_function_address(tep_, addr) == addr ? name : nullptr;
}

const char *TepNames::comm(int pid) const
{
    const char *c = tep_data_comm_from_pid(tep_, pid);
    return c && std::strcmp(c, "<...>") != 0 ? c : nullptr;
}

RecordDecoder::RecordDecoder(tep_handle *tep, const NameResolver &names, const EventLayouts &layouts,
                             Trace &trace)
    : tep_(tep), names_(names), layouts_(layouts), strings_(trace.strings)
{
}

uint64_t RecordDecoder::num(const uint8_t *d, int size, const FieldRef &f) const
{
    if (f.offset < 0 || f.offset + f.size > size) return 0;
    return readRecordNumber(d + f.offset, f.size, layouts_.swap);
}

int64_t RecordDecoder::snum(const uint8_t *d, int size, const FieldRef &f) const
{
    return signExtendRecord(num(d, size, f), f.size);
}

std::string_view RecordDecoder::str(const uint8_t *d, int size, const FieldRef &f) const
{
    if (f.offset < 0 || f.offset >= size) return {};
    int off = f.offset;
    int len = f.size;
    if (f.flags & TEP_FIELD_IS_DYNAMIC) {
        const auto loc = static_cast<uint32_t>(num(d, size, {f.offset, 4, 0}));
        off = static_cast<int>(loc & 0xffff);
        len = static_cast<int>(loc >> 16);
        if (f.flags & TEP_FIELD_IS_RELATIVE) off += f.offset + f.size;
    } else if (len == 0) {
        len = size - off; // char buf[] at the end of the record
    }
    if (off < 0 || off >= size) return {};
    if (len > size - off) len = size - off;
    const auto *s = reinterpret_cast<const char *>(d + off);
    return {s, strnlen(s, static_cast<size_t>(len))};
}

uint32_t RecordDecoder::symbol(uint64_t addr)
{
    if (auto it = symbols_.find(addr); it != symbols_.end()) return it->second;
    const char *name = names_.function(addr);
    uint32_t id;
    if (name) {
        id = strings_.intern(name);
    } else {
        char buf[24];
        std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(addr));
        id = strings_.intern(buf);
    }
    symbols_.emplace(addr, id);
    return id;
}

void RecordDecoder::beginCpu()
{
    tasks.newStream();
    for (auto &s : comms_)
        s.pid = INT32_MIN;
}

void RecordDecoder::noteComm(int64_t ts, int32_t pid, std::string_view comm)
{
    if (comm.empty()) return;
    CommSlot &s = comms_[static_cast<uint32_t>(pid) % std::size(comms_)];
    if (s.pid == pid && s.len == comm.size() && std::memcmp(s.text, comm.data(), comm.size()) == 0) return;
    const uint32_t id = strings_.intern(comm);
    tasks.note(ts, pid, id);
    if (comm.size() <= sizeof s.text) {
        s.pid = pid;
        s.id = id;
        s.len = static_cast<uint8_t>(comm.size());
        std::memcpy(s.text, comm.data(), comm.size());
    } else {
        s.pid = INT32_MIN;
    }
}

void RecordDecoder::notePid(int32_t pid)
{
    if (pid == lastPid_) return;
    lastPid_ = pid;
    if (!pidsSeen_.insert(pid).second) return;
    // The saved cmdlines name tasks that never appear in a sched event.
    if (const char *comm = names_.comm(pid)) tasks.noteInitial(pid, strings_.intern(comm));
}

uint32_t RecordDecoder::fromPrint(const tep_record &rec, const FieldSpec &f)
{
    // A field the format stores as a pointer the decoder cannot follow (tick_stop's error_msg before 4.6):
    // let libtraceevent print the record and take the field from the text (rare events, the slow path is
    // fine).
    std::unique_lock<std::mutex> lock;
    if (layouts_.tepMutex()) lock = std::unique_lock(*layouts_.tepMutex());
    trace_seq s;
    trace_seq_init(&s);
    tep_print_event(tep_, &s, const_cast<tep_record *>(&rec), "%s", TEP_PRINT_INFO);
    trace_seq_terminate(&s);
    std::string_view text(s.buffer, s.len);
    std::string_view value;
    if ((f.flags & kTail) ? scan::tailField(text, f.name, value) : scan::field(text, f.name, value))
        text = value;
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.remove_suffix(1);
    const uint32_t id = strings_.intern(text);
    trace_seq_destroy(&s);
    return id;
}

uint32_t RecordDecoder::keep(const uint8_t *d, int size, const RecordFormat &format)
{
    if (format.base >= size) return 0;
    const std::string_view record(reinterpret_cast<const char *>(d) + format.base,
                                  static_cast<size_t>(size - format.base));
    if (format.symbolFields.empty()) return strings_.keep(record);
    // A pointer that is a function's address prints as the function (as libtraceevent does): its name is
    // looked up now, while the file's symbols are at hand, and kept after the record.
    kept_.assign(record);
    for (const size_t k : format.symbolFields) {
        const RecordField &f = format.fields[k];
        const uint64_t v = num(d, size, {f.offset + format.base, f.size, 0});
        const char *name = v ? names_.functionAt(v) : nullptr;
        const uint32_t id = name ? strings_.intern(name) : 0;
        kept_.append(reinterpret_cast<const char *>(&id), sizeof id);
    }
    return strings_.keep(kept_);
}

bool RecordDecoder::decode(const tep_record &rec, CpuEvents &out)
{
    const auto *d = static_cast<const uint8_t *>(rec.data);
    const int sz = rec.size;
    const int id = static_cast<int>(num(d, sz, layouts_.commonType));
    const EventLayout *l = layouts_.find(id);
    if (!l) {
        ++unknownRecords;
        return false;
    }
    const auto ts = static_cast<int64_t>(rec.ts);
    const auto flags = static_cast<uint8_t>(num(d, sz, layouts_.commonFlags));
    const auto preempt = static_cast<uint8_t>(num(d, sz, layouts_.commonPreempt));
    const auto pid = static_cast<int32_t>(snum(d, sz, layouts_.commonPid));
    notePid(pid);
    // The kind's fields, by the steps compiled from its table entry.
    alignas(8) uint8_t buf[sizeof(Decoded::payload)];
    if (l->zeroFirst) std::memset(buf, 0, l->payloadSize);
    for (size_t k = 0; k < l->opCount; ++k) {
        const FieldOp &op = l->ops[k];
        switch (op.code) {
        case FieldOp::Copy: {
            uint8_t *dst = buf + op.at.offset;
            if (op.src.offset + op.src.size > sz) {
                std::memset(dst, 0, op.at.size);
                break;
            }
            const uint8_t *src = d + op.src.offset;
            switch (op.at.size) {
            case 1:
                *dst = *src;
                break;
            case 2:
                std::memcpy(dst, src, 2);
                break;
            case 4:
                std::memcpy(dst, src, 4);
                break;
            default:
                std::memcpy(dst, src, 8);
                break;
            }
            break;
        }
        case FieldOp::Unsigned:
            kinds::store(buf, op.at, num(d, sz, op.src));
            break;
        case FieldOp::Signed:
            kinds::store(buf, op.at, static_cast<uint64_t>(snum(d, sz, op.src)));
            break;
        case FieldOp::Bool:
            kinds::store(buf, op.at, num(d, sz, op.src) != 0);
            break;
        case FieldOp::Const:
            kinds::store(buf, op.at, op.value);
            break;
        case FieldOp::SameAs:
            kinds::store(buf, op.at, kinds::load(buf, op.from));
            break;
        case FieldOp::Symbol:
            kinds::store(buf, op.at, symbol(num(d, sz, op.src)));
            break;
        case FieldOp::Pointer:
            kinds::store(buf, op.at, strings_.internPointer(num(d, sz, op.src)));
            break;
        case FieldOp::String: {
            std::string_view text = str(d, sz, op.src);
            if (op.trimNewlines)
                while (!text.empty() && text.back() == '\n')
                    text.remove_suffix(1);
            kinds::store(buf, op.at, strings_.intern(text));
            break;
        }
        case FieldOp::FromPrint:
            kinds::store(buf, op.at, fromPrint(rec, *op.spec));
            break;
        case FieldOp::Keep:
            kinds::store(buf, op.at, keep(d, sz, *l->kept));
            break;
        }
    }
    for (size_t k = 0; k < l->commCount; ++k)
        noteComm(ts, static_cast<int32_t>(kinds::load(buf, l->comms[k].pid)), str(d, sz, l->comms[k].src));
    out.append(ts, l->type, flags, preempt, pid, buf, l->payloadSize);
    return true;
}

} // namespace tickscope
