#include "RecordDecoder.h"

#include "TraceCmdApi.h"

#include <array>
#include <bit>
#include <cstring>
#include <initializer_list>

namespace tickscope {
namespace {

// Field names read for each kind; EventLayout::f[i] holds the i-th. Alternatives for renamed fields
// are separated by '|'.
std::vector<const char *> fieldNames(EventKind k)
{
    switch (k) {
    case EventKind::HrtimerStart: return {"hrtimer", "function", "expires", "softexpires", "mode", "was_armed"};
    case EventKind::HrtimerExpireEntry: return {"hrtimer", "now", "function"};
    case EventKind::HrtimerCancel:
    case EventKind::HrtimerExpireExit: return {"hrtimer"};
    case EventKind::HrtimerInit: return {"hrtimer", "clockid", "mode"};
    case EventKind::TimerStart: return {"timer", "function", "expires", "now", "bucket_expiry", "flags"};
    case EventKind::TimerExpireEntry: return {"timer", "function", "now", "baseclk"};
    case EventKind::TimerExpireExit:
    case EventKind::TimerCancel:
    case EventKind::TimerInit: return {"timer"};
    case EventKind::TimerBaseIdle: return {"is_idle", "cpu"};
    case EventKind::TickStop: return {"success", "dependency", "error_msg"};
    case EventKind::CpuIdle: return {"state", "cpu_id"};
    case EventKind::CpuIdleMiss: return {"cpu_id", "state", "below"};
    case EventKind::SoftirqRaise:
    case EventKind::SoftirqEntry:
    case EventKind::SoftirqExit: return {"vec"};
    case EventKind::IrqHandlerEntry: return {"irq", "name"};
    case EventKind::IrqHandlerExit: return {"irq", "ret"};
    case EventKind::LocalTimerEntry:
    case EventKind::LocalTimerExit:
    case EventKind::VectorEntry:
    case EventKind::VectorExit: return {"vector"};
    case EventKind::SchedSwitch:
        return {"prev_pid", "next_pid", "prev_prio", "next_prio", "prev_state", "prev_comm", "next_comm"};
    case EventKind::SchedWaking:
    case EventKind::SchedWakeup:
    case EventKind::SchedWakeupNew: return {"pid", "prio", "target_cpu", "comm"};
    case EventKind::SchedMigrateTask: return {"pid", "prio", "orig_cpu", "dest_cpu", "comm"};
    case EventKind::SchedWakeIdleNoIpi: return {"cpu"};
    case EventKind::SysEnter:
    case EventKind::SysExit: return {"id"};
    case EventKind::Print: return {"buf"};
    case EventKind::IpiSendCpu: return {"cpu", "callsite", "callback"};
    default: return {};
    }
}

FieldRef ref(const tep_format_field *f)
{
    if (!f) return {};
    return {f->offset, f->size, f->flags};
}

uint64_t bswapSized(uint64_t v, int size)
{
    switch (size) {
    case 2: return __builtin_bswap16(static_cast<uint16_t>(v));
    case 4: return __builtin_bswap32(static_cast<uint32_t>(v));
    case 8: return __builtin_bswap64(v);
    default: return v;
    }
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

const EventLayout *EventLayouts::add(tep_event *ev) const
{
    EventLayout &l = owned_.emplace_back();
    l.type = trace_.addType(ev->system ? ev->system : "", ev->name ? ev->name : "");
    l.kind = trace_.kind(l.type);
    l.known = true;
    const auto names = fieldNames(l.kind);
    for (size_t k = 0; k < names.size() && k < std::size(l.f); ++k) l.f[k] = ref(tep_find_field(ev, names[k]));
    byId_[static_cast<size_t>(ev->id)].store(&l, std::memory_order_release);
    return &l;
}

EventLayouts::EventLayouts(tep_handle *tep, Trace &trace) : tep_(tep), trace_(trace)
{
    swap = tep_is_file_bigendian(tep) != (std::endian::native == std::endian::big);
    const int n = tep_get_events_count(tep);
    tep_event **events = tep_list_events(tep, TEP_EVENT_SORT_ID);
    for (int i = 0; i < n && events && events[i]; ++i) {
        if (events[i]->id >= 0 && events[i]->id <= 65535) count_ = std::max(count_, static_cast<size_t>(events[i]->id) + 1);
    }
    byId_ = std::make_unique<std::atomic<const EventLayout *>[]>(count_);
    for (size_t i = 0; i < count_; ++i) byId_[i].store(&kNoFormat);
    for (int i = 0; i < n && events && events[i]; ++i) {
        tep_event *ev = events[i];
        if (ev->id < 0 || ev->id > 65535) continue;
        add(ev);
        if (!commonType.valid()) commonFieldsFrom(ev);
    }
    if (!commonType.valid()) commonType = {0, 2, 0};
}

EventLayouts::EventLayouts(tep_handle *tep, Trace &trace, const std::vector<FormatText> &formats, std::mutex &tepMutex)
    : tep_(tep), trace_(trace), formats_(&formats), tepMutex_(&tepMutex)
{
    swap = tep_is_file_bigendian(tep) != (std::endian::native == std::endian::big);
    for (const auto &f : formats) {
        if (f.id >= 0 && f.id <= 65535) count_ = std::max(count_, static_cast<size_t>(f.id) + 1);
    }
    formatIndex_.assign(count_, -1);
    for (size_t i = 0; i < formats.size(); ++i) {
        if (formats[i].id >= 0 && formats[i].id <= 65535) formatIndex_[static_cast<size_t>(formats[i].id)] = static_cast<int>(i);
    }
    byId_ = std::make_unique<std::atomic<const EventLayout *>[]>(count_);
    for (size_t i = 0; i < count_; ++i) byId_[i].store(nullptr);
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
    const uint8_t *p = d + f.offset;
    uint64_t v = 0;
    switch (f.size) {
    case 1: v = *p; break;
    case 2: { uint16_t x; std::memcpy(&x, p, 2); v = x; break; }
    case 4: { uint32_t x; std::memcpy(&x, p, 4); v = x; break; }
    case 8: { std::memcpy(&v, p, 8); break; }
    default: return 0;
    }
    return layouts_.swap ? bswapSized(v, f.size) : v;
}

int64_t RecordDecoder::snum(const uint8_t *d, int size, const FieldRef &f) const
{
    const uint64_t v = num(d, size, f);
    switch (f.size) {
    case 1: return static_cast<int8_t>(v);
    case 2: return static_cast<int16_t>(v);
    case 4: return static_cast<int32_t>(v);
    default: return static_cast<int64_t>(v);
    }
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
    for (auto &s : comms_) s.pid = INT32_MIN;
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

uint32_t RecordDecoder::oldTickStopReason(const tep_record &rec)
{
    // Kernels before ~4.6 trace a string reason (error_msg) instead of a dependency mask; let
    // libtraceevent format it (rare event, the slow path is fine).
    std::unique_lock<std::mutex> lock;
    if (layouts_.tepMutex()) lock = std::unique_lock(*layouts_.tepMutex());
    trace_seq s;
    trace_seq_init(&s);
    tep_print_event(tep_, &s, const_cast<tep_record *>(&rec), "%s", TEP_PRINT_INFO);
    trace_seq_terminate(&s);
    std::string_view text(s.buffer, s.len);
    if (auto p = text.find("msg="); p != std::string_view::npos) text = text.substr(p + 4);
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
    const uint32_t id = strings_.intern(text);
    trace_seq_destroy(&s);
    return id;
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
    const FieldRef *f = l->f;
    alignas(8) uint8_t buf[64];
    auto put = [&](const auto &p) {
        std::memcpy(buf, &p, sizeof p);
        return out.append(ts, l->type, flags, preempt, pid, buf, sizeof p);
    };
    switch (l->kind) {
    case EventKind::HrtimerStart: {
        HrtimerStartP p{num(d, sz, f[0]), symbol(num(d, sz, f[1])), snum(d, sz, f[2]), snum(d, sz, f[3]),
                        f[4].valid() ? static_cast<uint8_t>(num(d, sz, f[4])) : kModeUnknown,
                        static_cast<int8_t>(f[5].valid() ? num(d, sz, f[5]) != 0 : -1)};
        put(p);
        break;
    }
    case EventKind::HrtimerExpireEntry: put(HrtimerExpireEntryP{num(d, sz, f[0]), snum(d, sz, f[1]), symbol(num(d, sz, f[2]))}); break;
    case EventKind::HrtimerCancel:
    case EventKind::HrtimerExpireExit:
    case EventKind::TimerExpireExit:
    case EventKind::TimerCancel:
    case EventKind::TimerInit: put(PtrP{num(d, sz, f[0])}); break;
    case EventKind::HrtimerInit:
        put(HrtimerInitP{num(d, sz, f[0]), static_cast<int32_t>(snum(d, sz, f[1])), static_cast<uint32_t>(num(d, sz, f[2]))});
        break;
    case EventKind::TimerStart: {
        const uint64_t expires = num(d, sz, f[2]);
        put(TimerStartP{num(d, sz, f[0]), symbol(num(d, sz, f[1])), expires, num(d, sz, f[3]),
                        f[4].valid() ? num(d, sz, f[4]) : expires, static_cast<uint32_t>(num(d, sz, f[5]))});
        break;
    }
    case EventKind::TimerExpireEntry: {
        const uint64_t now = num(d, sz, f[2]);
        put(TimerExpireEntryP{num(d, sz, f[0]), symbol(num(d, sz, f[1])), now, f[3].valid() ? num(d, sz, f[3]) : now});
        break;
    }
    case EventKind::TimerBaseIdle: put(TimerBaseIdleP{static_cast<uint8_t>(num(d, sz, f[0]) != 0), static_cast<uint32_t>(num(d, sz, f[1]))}); break;
    case EventKind::TickStop: {
        TickStopP p{static_cast<int32_t>(snum(d, sz, f[0])), static_cast<uint32_t>(num(d, sz, f[1])), 0};
        if (!f[1].valid()) p.reason = oldTickStopReason(rec);
        put(p);
        break;
    }
    case EventKind::CpuIdle: put(CpuIdleP{static_cast<uint32_t>(num(d, sz, f[0])), static_cast<uint32_t>(num(d, sz, f[1]))}); break;
    case EventKind::CpuIdleMiss:
        put(CpuIdleMissP{static_cast<uint32_t>(num(d, sz, f[0])), static_cast<uint32_t>(num(d, sz, f[1])), static_cast<uint8_t>(num(d, sz, f[2]) != 0)});
        break;
    case EventKind::SoftirqRaise:
    case EventKind::SoftirqEntry:
    case EventKind::SoftirqExit: put(SoftirqP{static_cast<uint8_t>(num(d, sz, f[0]))}); break;
    case EventKind::IrqHandlerEntry: put(IrqEntryP{static_cast<int32_t>(snum(d, sz, f[0])), strings_.intern(str(d, sz, f[1]))}); break;
    case EventKind::IrqHandlerExit: put(IrqExitP{static_cast<int32_t>(snum(d, sz, f[0])), static_cast<int32_t>(snum(d, sz, f[1]))}); break;
    case EventKind::LocalTimerEntry:
    case EventKind::LocalTimerExit:
    case EventKind::VectorEntry:
    case EventKind::VectorExit: put(VectorP{static_cast<int32_t>(snum(d, sz, f[0]))}); break;
    case EventKind::SchedSwitch: {
        SchedSwitchP p{static_cast<int32_t>(snum(d, sz, f[0])), static_cast<int32_t>(snum(d, sz, f[1])),
                       static_cast<int16_t>(snum(d, sz, f[2])), static_cast<int16_t>(snum(d, sz, f[3])),
                       static_cast<uint16_t>(num(d, sz, f[4]))};
        noteComm(ts, p.prevPid, str(d, sz, f[5]));
        noteComm(ts, p.nextPid, str(d, sz, f[6]));
        put(p);
        break;
    }
    case EventKind::SchedWaking:
    case EventKind::SchedWakeup:
    case EventKind::SchedWakeupNew: {
        SchedWakeP p{static_cast<int32_t>(snum(d, sz, f[0])), static_cast<int16_t>(snum(d, sz, f[1])),
                     static_cast<int16_t>(f[2].valid() ? snum(d, sz, f[2]) : -1)};
        noteComm(ts, p.pid, str(d, sz, f[3]));
        put(p);
        break;
    }
    case EventKind::SchedMigrateTask: {
        SchedMigrateP p{static_cast<int32_t>(snum(d, sz, f[0])), static_cast<int16_t>(snum(d, sz, f[1])),
                        static_cast<int16_t>(snum(d, sz, f[2])), static_cast<int16_t>(snum(d, sz, f[3]))};
        noteComm(ts, p.pid, str(d, sz, f[4]));
        put(p);
        break;
    }
    case EventKind::SchedWakeIdleNoIpi: put(CpuP{static_cast<int32_t>(snum(d, sz, f[0]))}); break;
    case EventKind::UserEnter:
    case EventKind::UserExit: out.append(ts, l->type, flags, preempt, pid, nullptr, 0); break;
    case EventKind::SysEnter:
    case EventKind::SysExit: put(SyscallP{static_cast<int32_t>(snum(d, sz, f[0]))}); break;
    case EventKind::Print: {
        std::string_view text = str(d, sz, f[0]);
        while (!text.empty() && text.back() == '\n') text.remove_suffix(1);
        put(TextP{strings_.intern(text)});
        break;
    }
    case EventKind::IpiSendCpu:
        put(IpiSendCpuP{static_cast<uint32_t>(num(d, sz, f[0])), symbol(num(d, sz, f[1])), symbol(num(d, sz, f[2]))});
        break;
    case EventKind::Generic:
    case EventKind::Count: put(TextP{0}); break;
    }
    return true;
}

} // namespace tickscope
