// SPDX-License-Identifier: GPL-3.0-or-later
#include "TraceDatWriter.h"

#include "DatFileWriter.h"
#include "RingPages.h"
#include "import/Loader.h"
#include "model/EventKinds.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <map>
#include <unordered_map>

namespace tickscope {

const std::string &headerPageText()
{
    static const std::string text = [] {
        constexpr uint32_t pageSize = 4096; // DatMetadata's, which the writer keeps
        char buf[512];
        std::snprintf(buf, sizeof buf,
                      "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
                      "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
                      "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
                      "\tfield: char data;\toffset:16;\tsize:%u;\tsigned:1;\n",
                      pageSize - 16);
        return std::string(buf);
    }();
    return text;
}

const std::string &headerEventText()
{
    static const std::string text = "# compressed entry header\n"
                                    "\ttype_len    :    5 bits\n"
                                    "\ttime_delta  :   27 bits\n"
                                    "\tarray       :   32 bits\n"
                                    "\n"
                                    "\tpadding     : type == 29\n"
                                    "\ttime_extend : type == 30\n"
                                    "\ttime_stamp : type == 31\n"
                                    "\tdata max type_len  == 28\n";
    return text;
}

namespace {

constexpr uint32_t kCommon = 8; // common_type, common_flags, common_preempt_count, common_pid
constexpr uint64_t kSymbolBase = 0xffffffff81000000ull;

enum class Put : uint8_t
{
    Number,   // the payload value, `size` bytes
    Symbol,   // the address kallsyms gives the name
    Pointer,  // void *: the value of the payload's pointer id
    Comm,     // char[16]: the comm of the pid in field `ref`
    DataLoc,  // __data_loc char[]: the string, appended after the fixed fields
    TailText, // char buf[]: the string, to the record's end (ftrace print)
    Zero,     // a field the model does not keep (print's ip)
};

struct OutField
{
    const FieldSpec *spec = nullptr;
    Put put = Put::Number;
    uint32_t offset = 0;
    uint32_t size = 0;
};

struct TypeOut
{
    bool used = false;
    int id = 0;
    std::string system;
    std::string format;
    std::vector<OutField> fields;
    uint32_t fixedSize = kCommon;
    const KindSpec *spec = nullptr;
    const RecordFormat *recordFormat = nullptr; // a generic event kept from a trace.dat
    bool asKept = false; // written with the file's own format and its record bytes (else as its text)
};

// A kept event's own format text, renumbered.
std::string renumbered(std::string_view text, int id)
{
    const size_t at = text.find("\nID: ");
    if (at == std::string_view::npos) return {};
    const size_t end = text.find('\n', at + 1);
    std::string out(text.substr(0, at));
    out += "\nID: " + std::to_string(id);
    if (end != std::string_view::npos) out += text.substr(end);
    if (out.empty() || out.back() != '\n') out += '\n';
    return out;
}

std::string typeName(const OutField &f)
{
    const FieldSpec &s = *f.spec;
    switch (f.put) {
    case Put::Symbol:
    case Put::Zero:
        return "unsigned long";
    case Put::Pointer:
        return "void *";
    case Put::Comm:
        return "char";
    case Put::DataLoc:
        return "__data_loc char[]";
    case Put::TailText:
        return "char";
    case Put::Number:
        break;
    }
    if (s.codec == &codecs::pointer && f.size == 8) return "void *";
    const bool sgn = s.at.isSigned;
    switch (f.size) {
    case 1:
        return sgn ? "signed char" : "unsigned char";
    case 2:
        return sgn ? "short" : "unsigned short";
    case 4:
        return sgn ? "int" : "unsigned int";
    default:
        return sgn ? "s64" : "u64";
    }
}

// The format file of one type, as tracefs prints it, with a print fmt libtraceevent parses.
void buildFormat(TypeOut &t, std::string_view name)
{
    std::string &o = t.format;
    char buf[256];
    std::snprintf(buf, sizeof buf, "name: %.*s\nID: %d\nformat:\n", static_cast<int>(name.size()),
                  name.data(), t.id);
    o = buf;
    o += "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
         "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
         "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
         "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n";
    std::string fmt, args;
    for (const OutField &f : t.fields) {
        const std::string_view fname = f.spec ? f.spec->name : std::string_view("ip");
        const std::string type = f.spec ? typeName(f) : "unsigned long";
        const char *suffix = f.put == Put::Comm ? "[16]" : f.put == Put::TailText ? "[]" : "";
        const bool sgn = f.put == Put::Number && f.spec->at.isSigned;
        std::snprintf(buf, sizeof buf, "\tfield:%s %.*s%s;\toffset:%u;\tsize:%u;\tsigned:%d;\n", type.c_str(),
                      static_cast<int>(fname.size()), fname.data(), suffix, f.offset, f.size, sgn ? 1 : 0);
        o += buf;
        if (f.put == Put::Zero) continue;
        const std::string field(fname);
        if (!fmt.empty()) fmt += ' ';
        if (f.put != Put::TailText) fmt += field + "=";
        switch (f.put) {
        case Put::Number:
            if (f.spec->codec == &codecs::pointer && f.size == 8)
                fmt += "%p", args += ", REC->" + field;
            else
                fmt += f.size == 8 ? (sgn ? "%lld" : "%llu") : (sgn ? "%d" : "%u"), args += ", REC->" + field;
            break;
        case Put::Symbol:
            fmt += "%ps", args += ", (void *)REC->" + field;
            break;
        case Put::Pointer:
            fmt += "%p", args += ", REC->" + field;
            break;
        case Put::Comm:
        case Put::TailText:
            fmt += "%s", args += ", REC->" + field;
            break;
        case Put::DataLoc:
            fmt += "%s", args += ", __get_str(" + field + ")";
            break;
        case Put::Zero:
            break;
        }
    }
    if (fmt.empty()) {
        o += "\tfield:int dummy;\toffset:8;\tsize:4;\tsigned:1;\n"; // as context_tracking's events have
        fmt = "%s";
        args = ", \"\"";
    }
    o += "\nprint fmt: \"" + fmt + "\"" + args + "\n";
}

class Exporter
{
public:
    explicit Exporter(const Trace &t) : t_(t) {}

    void plan()
    {
        const auto &types = t_.types();
        out_.resize(types.size());
        // One pass: which types occur, and which of their optional fields any event has.
        std::vector<uint32_t> present(types.size(), 0);
        for (int c = 0; c < t_.cpuCount(); ++c) {
            const CpuEvents &ev = t_.cpu(c);
            for (CpuEvents::Cursor cur(ev, 0); cur.valid(); cur.next()) {
                const uint16_t type = ev.type(cur.index());
                out_[type].used = true;
                const KindSpec &s = kinds::spec(types[type].kind);
                const uint8_t *payload = ev.payloadBytes(0) + cur.payloadOffset();
                for (size_t k = 0; k < s.fields.size(); ++k) {
                    const FieldSpec &f = s.fields[k];
                    if (f.missing == Missing::Value && f.role != FieldRole::Comm &&
                        kinds::load(payload, f.at) != static_cast<uint64_t>(f.missingValue))
                        present[type] |= 1u << k;
                }
            }
        }
        int nextId = 100;
        for (size_t k = 0; k < types.size(); ++k) {
            TypeOut &o = out_[k];
            if (!o.used) continue;
            const EventType &type = types[k];
            const KindSpec &s = kinds::spec(type.kind);
            o.spec = &s;
            o.recordFormat = type.format.get();
            o.system = !type.system.empty() ? type.system
                       : !s.system.empty()  ? std::string(s.system)
                                            : "generic";
            // a text trace names print events by what it shows ("tracing_mark_write")
            const std::string_view name = s.kind == EventKind::Print ? std::string_view("print") : type.name;
            if (o.system == "ftrace")
                o.id = name == "print"             ? 5
                       : name == "funcgraph_entry" ? 11
                       : name == "funcgraph_exit"  ? 10
                                                   : nextId++;
            else
                o.id = nextId++;
            // A kept record whose common fields are ours (8 bytes, as on every kernel since 4.x): written as
            // it was read, with its own format; otherwise as its text.
            // (in our byte order: the file is written in ours)
            if (o.recordFormat && !o.recordFormat->swap &&
                o.recordFormat->base == static_cast<int>(kCommon) &&
                !(o.format = renumbered(o.recordFormat->formatText, o.id)).empty()) {
                o.asKept = true;
                continue;
            }
            layFields(o, present[k]);
            buildFormat(o, name);
        }
    }

    DatMetadata metadata(const MachineFacts &facts)
    {
        DatMetadata m;
        m.headerPage = headerPageText();
        m.headerEvent = headerEventText();
        std::map<std::string, std::vector<std::string>> systems;
        for (const TypeOut &o : out_) {
            if (!o.used) continue;
            if (o.system == "ftrace")
                m.ftraceFormats.push_back(o.format);
            else
                systems[o.system].push_back(o.format);
        }
        for (auto &[name, formats] : systems)
            m.systems.emplace_back(name, std::move(formats));
        // kallsyms: the names the symbol fields use, at made-up addresses 16 bytes apart
        collectSymbols();
        for (const auto &[id, addr] : symbolAddr_) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%016" PRIx64 " T ", addr);
            m.kallsyms += buf;
            m.kallsyms += t_.strings.str(id);
            m.kallsyms += '\n';
        }
        for (const auto &[addr, id] : keptSymbols_) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%016" PRIx64 " t ", addr);
            m.kallsyms += buf;
            m.kallsyms += t_.strings.str(id);
            m.kallsyms += '\n';
        }
        std::map<int32_t, uint32_t> last;
        for (const auto &e : t_.tasks.entries())
            if (e.pid > 0 && e.comm) last[e.pid] = e.comm;
        for (const auto &[pid, comm] : last)
            m.cmdlines += std::to_string(pid) + " " + std::string(t_.strings.str(comm)) + "\n";
        m.cpuCount = t_.cpuCount();
        m.uname = t_.meta.uname.empty() && !facts.kernelRelease.empty()
                      ? "Linux tickscope " + facts.kernelRelease
                      : t_.meta.uname;
        m.traceClock = "[" + (t_.meta.traceClock.empty() ? std::string("local") : t_.meta.traceClock) + "]";
        m.machine = facts.serialize();
        return m;
    }

    // The record of event i of cpu c into rec_; its size.
    uint32_t record(const CpuEvents::Cursor &cur, const CpuEvents &ev, int64_t ts)
    {
        const size_t i = cur.index();
        const uint16_t type = ev.type(i);
        const TypeOut &o = out_[type];
        rec_.assign(o.fixedSize, 0);
        const uint16_t common = static_cast<uint16_t>(o.id);
        std::memcpy(rec_.data(), &common, 2);
        rec_[2] = ev.flags(i);
        rec_[3] = ev.preempt(i);
        const int32_t pid = cur.pid();
        std::memcpy(rec_.data() + 4, &pid, 4);
        const uint8_t *payload = ev.payloadBytes(0) + cur.payloadOffset();
        if (o.asKept) {
            const std::string_view bytes = o.recordFormat->record(kept(o, payload));
            rec_.insert(rec_.end(), bytes.begin(), bytes.end());
            return static_cast<uint32_t>(rec_.size());
        }
        for (const OutField &f : o.fields) {
            uint8_t *at = rec_.data() + f.offset;
            switch (f.put) {
            case Put::Number: {
                const uint64_t v = kinds::load(payload, f.spec->at);
                std::memcpy(at, &v, f.size); // little endian: the low bytes
                break;
            }
            case Put::Pointer: {
                const uint64_t v =
                    t_.strings.pointer(static_cast<uint32_t>(kinds::load(payload, f.spec->at)));
                std::memcpy(at, &v, 8);
                break;
            }
            case Put::Symbol: {
                const auto id = static_cast<uint32_t>(kinds::load(payload, f.spec->at));
                const uint64_t addr = symbolAddr_.count(id) ? symbolAddr_.at(id) : 0;
                std::memcpy(at, &addr, 8);
                break;
            }
            case Put::Comm: {
                const FieldSpec &pf = o.spec->fields[static_cast<size_t>(f.spec->ref)];
                const auto p = static_cast<int32_t>(kinds::load(payload, pf.at));
                const std::string_view c = t_.strings.str(t_.tasks.comm(p, ts));
                std::memcpy(at, c.data(), std::min<size_t>(c.size(), 15));
                break;
            }
            case Put::DataLoc:
            case Put::TailText: {
                const auto id = static_cast<uint32_t>(kinds::load(payload, f.spec->at));
                std::string_view s = t_.strings.str(id);
                if (o.recordFormat) {
                    text_.clear();
                    printRecord(*o.recordFormat, s, t_.strings, text_);
                    s = text_;
                }
                const auto start = static_cast<uint32_t>(rec_.size());
                rec_.insert(rec_.end(), s.begin(), s.end());
                if (f.put == Put::TailText && (s.empty() || s.back() != '\n')) rec_.push_back('\n');
                rec_.push_back(0);
                if (f.put == Put::DataLoc) {
                    const uint32_t loc = (static_cast<uint32_t>(rec_.size() - start) << 16) | start;
                    std::memcpy(rec_.data() + f.offset, &loc, 4);
                }
                break;
            }
            case Put::Zero:
                break;
            }
        }
        return static_cast<uint32_t>(rec_.size());
    }

    const uint8_t *recordData() const { return rec_.data(); }

private:
    // Which payload fields the format carries, and where: natural alignment, fixed fields first.
    void layFields(TypeOut &o, uint32_t present)
    {
        const KindSpec &s = *o.spec;
        uint32_t off = kCommon;
        auto place = [&](OutField f, uint32_t align) {
            off = (off + align - 1) / align * align;
            f.offset = off;
            off += f.size;
            o.fields.push_back(f);
        };
        const bool print = o.system == "ftrace" && s.kind == EventKind::Print;
        if (print) place({nullptr, Put::Zero, 0, 8}, 8);
        for (size_t k = 0; k < s.fields.size(); ++k) {
            const FieldSpec &f = s.fields[k];
            if (f.flags & kFromPrint) continue; // an old kernel's pointer to a string: not reproducible
            // a field no event has (a kernel before it was added): the format leaves it out
            if (f.missing == Missing::Value && f.role != FieldRole::Comm && !(present & (1u << k))) continue;
            switch (f.role) {
            case FieldRole::Value:
                place({&f, Put::Number, 0, std::max<uint32_t>(f.at.size, 1)},
                      std::max<uint32_t>(f.at.size, 1));
                break;
            case FieldRole::Symbol:
                place({&f, Put::Symbol, 0, 8}, 8);
                break;
            case FieldRole::Pointer:
                place({&f, Put::Pointer, 0, 8}, 8);
                break;
            case FieldRole::Comm:
                place({&f, Put::Comm, 0, 16}, 1);
                break;
            case FieldRole::String:
            case FieldRole::Text:
                if (print) {
                    place({&f, Put::TailText, 0, 0}, 1);
                } else {
                    place({&f, Put::DataLoc, 0, 4}, 4);
                }
                break;
            }
        }
        o.fixedSize = off;
    }

    // A kept event's record bytes (without the function names kept after them).
    std::string_view kept(const TypeOut &o, const uint8_t *payload) const
    {
        return t_.strings.str(static_cast<uint32_t>(kinds::load(payload, o.spec->fields[0].at)));
    }

    // The functions kept records point at, at their own addresses, so that the file names them again.
    void noteKeptSymbols(const TypeOut &o, const uint8_t *payload)
    {
        const std::string_view k = kept(o, payload);
        const RecordFormat &f = *o.recordFormat;
        const std::string_view bytes = f.record(k);
        for (size_t n = 0; n < f.symbolFields.size(); ++n) {
            const RecordField &field = f.fields[f.symbolFields[n]];
            const uint32_t id = f.functionName(k, n);
            if (id && field.size == 8 && field.offset >= 0 &&
                static_cast<size_t>(field.offset) + 8 <= bytes.size())
                keptSymbols_.emplace(
                    readRecordNumber(reinterpret_cast<const uint8_t *>(bytes.data()) + field.offset, 8,
                                     f.swap),
                    id);
        }
    }

    void collectSymbols()
    {
        std::vector<uint32_t> ids;
        for (int c = 0; c < t_.cpuCount(); ++c) {
            const CpuEvents &ev = t_.cpu(c);
            for (CpuEvents::Cursor cur(ev, 0); cur.valid(); cur.next()) {
                const TypeOut &o = out_[ev.type(cur.index())];
                if (o.asKept && !o.recordFormat->symbolFields.empty())
                    noteKeptSymbols(o, ev.payloadBytes(0) + cur.payloadOffset());
                for (const OutField &f : o.fields) {
                    if (f.put != Put::Symbol) continue;
                    const auto id = static_cast<uint32_t>(
                        kinds::load(ev.payloadBytes(0) + cur.payloadOffset(), f.spec->at));
                    if (id && !symbolAddr_.count(id)) {
                        symbolAddr_[id] = 0;
                        ids.push_back(id);
                    }
                }
            }
        }
        std::sort(ids.begin(), ids.end(),
                  [&](uint32_t a, uint32_t b) { return t_.strings.str(a) < t_.strings.str(b); });
        uint64_t addr = kSymbolBase;
        for (uint32_t id : ids) {
            symbolAddr_[id] = addr;
            addr += 16;
        }
    }

    const Trace &t_;
    std::vector<TypeOut> out_;
    std::map<uint32_t, uint64_t> symbolAddr_;
    std::map<uint64_t, uint32_t> keptSymbols_; // address -> name id, of kept records' function pointers
    std::vector<uint8_t> rec_;
    std::string text_; // a kept record printed as text
};

} // namespace

DatWriteStats writeTraceDat(const Trace &trace, const std::string &path, const MachineFacts *facts)
{
    MachineFacts f;
    if (facts) {
        f = *facts;
    } else {
        f.kernelRelease = trace.meta.kernelRelease;
        f.cmdline = trace.meta.kernelCmdline;
    }
    Exporter ex(trace);
    ex.plan();
    const DatMetadata meta = ex.metadata(f);
    DatFileWriter out(path, meta);
    DatWriteStats st;
    for (int c = 0; c < trace.cpuCount(); ++c) {
        const CpuEvents &ev = trace.cpu(c);
        if (ev.empty()) continue;
        out.beginCpu(c);
        RingPageWriter pages(meta.pageSize, [&](const uint8_t *p, size_t n) { out.write(p, n); });
        // Lost events before an event: its page says so (a reader puts the gap between the page before's last
        // event and its first, as the loader did; a text trace's LOST line between two events of one
        // microsecond too). After the CPU's last event none says it.
        size_t lost = 0;
        for (CpuEvents::Cursor cur(ev, 0); cur.valid(); cur.next()) {
            for (; lost < ev.lost.size() && ev.firstAfterLost(lost, cur.index()) <= cur.index(); ++lost)
                pages.lost(ev.lost[lost].count);
            const int64_t ts = cur.ts();
            const uint32_t n = ex.record(cur, ev, ts);
            if (!pages.add(ts, ex.recordData(), n))
                throw LoadError(path + ": an event of CPU " + std::to_string(c) + " at " +
                                std::to_string(ts) + " ns is larger than a ring-buffer page");
            ++st.events;
        }
        pages.flush();
        st.pages += pages.pages();
    }
    out.finish();
    st.bytes = out.bytesWritten();
    return st;
}

} // namespace tickscope
