// SPDX-License-Identifier: GPL-3.0-or-later
// The event-kind registry (built-in entries from EventKindTable.cpp, plus kinds added at run time) and the
// generic walks over an entry's fields: text decoding and printing.
#include "EventKinds.h"

#include "FieldText.h"
#include "Trace.h"

#include <array>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <mutex>
#include <stdexcept>

namespace tickscope {

std::span<const KindSpec> builtinKinds(); // EventKindTable.cpp

namespace {

constexpr size_t kMaxKinds = 256; // EventKind is a u8

struct Registry
{
    std::array<KindSpec, kMaxKinds> specs{};
    std::atomic<size_t> count{0};
    std::mutex addMutex;

    Registry()
    {
        const auto b = builtinKinds();
        for (size_t i = 0; i < b.size(); ++i) {
            if (static_cast<size_t>(b[i].kind) != i) throw std::logic_error("event-kind table out of order");
            specs[i] = b[i];
        }
        count.store(b.size(), std::memory_order_release);
    }
};

Registry &registry()
{
    static Registry r;
    return r;
}

bool hasName(std::string_view names, std::string_view name)
{
    return anyName(names, [&](std::string_view n) { return n == name; });
}

} // namespace

namespace kinds {

const KindSpec &spec(EventKind k)
{
    const Registry &r = registry();
    const auto i = static_cast<size_t>(k);
    return i < r.count.load(std::memory_order_acquire) ? r.specs[i] : r.specs[0];
}

size_t count()
{
    return registry().count.load(std::memory_order_acquire);
}

EventKind add(KindSpec s)
{
    Registry &r = registry();
    std::lock_guard lock(r.addMutex);
    const size_t n = r.count.load(std::memory_order_relaxed);
    if (n >= kMaxKinds) throw std::invalid_argument("event-kind table full (256 kinds)");
    if (s.payloadSize > sizeof(Decoded::payload))
        throw std::invalid_argument(std::string(s.name()) + ": payload larger than 64 bytes");
    if (s.fields.size() > kMaxKindFields)
        throw std::invalid_argument(std::string(s.name()) + ": more than 12 fields");
    for (const FieldSpec &f : s.fields) {
        if (f.at.offset + f.at.size > s.payloadSize ||
            (f.at.size != 0 && f.at.size != 1 && f.at.size != 2 && f.at.size != 4 && f.at.size != 8) ||
            (f.role == FieldRole::Pointer && f.at.size != 4))
            throw std::invalid_argument(std::string(s.name()) + ": field " + std::string(f.name) +
                                        " does not fit the payload");
    }
    s.kind = static_cast<EventKind>(n);
    r.specs[n] = s;
    r.count.store(n + 1, std::memory_order_release);
    return s.kind;
}

namespace {

// Does v (two's complement when signed) fit the member?
bool fits(uint64_t v, const PayloadAt &at)
{
    if (at.size >= 8) return true;
    const unsigned bits = 8u * at.size;
    if (!at.isSigned) return v >> bits == 0;
    const auto i = static_cast<int64_t>(v);
    const int64_t lim = (int64_t{1} << (bits - 1)) - 1;
    return i <= lim && i >= -lim - 1;
}

bool findField(std::string_view text, const FieldSpec &f, std::string_view &v)
{
    const auto find = [&](std::string_view key) {
        return (f.flags & kTail) ? scan::tailField(text, key, v) : scan::field(text, key, v);
    };
    return find(f.name) || (!f.aliases.empty() && anyName(f.aliases, find));
}

bool parseValue(const FieldSpec &f, std::string_view v, uint64_t &u)
{
    if (f.codec && f.codec->parse) {
        if (!f.codec->parse(v, u)) return false;
    } else if (f.at.isSigned) {
        int64_t i = 0;
        if (!scan::parseIntAuto(v, i)) return false;
        u = static_cast<uint64_t>(i);
    } else if (!scan::parseU64Auto(v, u)) {
        return false;
    }
    if (f.codec && f.codec->boolean) u = u != 0;
    return fits(u, f.at);
}

} // namespace

bool decodeTextFields(const KindSpec &s, std::string_view text, StringPool &strings, Decoded &out)
{
    uint8_t *p = out.payload;
    out.size = s.payloadSize;
    uint32_t present = 0;
    std::string_view comms[kMaxKindFields];
    for (size_t k = 0; k < s.fields.size(); ++k) {
        const FieldSpec &f = s.fields[k];
        std::string_view v;
        if (f.role == FieldRole::Text) {
            store(p, f.at, strings.intern(text));
            present |= 1u << k;
            continue;
        }
        if (!findField(text, f, v)) continue;
        present |= 1u << k;
        uint64_t u = 0;
        switch (f.role) {
        case FieldRole::Value:
            if (!parseValue(f, v, u)) return false;
            break;
        case FieldRole::Symbol:
            if (v.empty()) return false;
            u = strings.intern(scan::stripSymbolOffset(v));
            break;
        case FieldRole::Pointer:
            if (!scan::parsePointer(v, u)) return false;
            u = strings.internPointer(u);
            break;
        case FieldRole::String:
            u = strings.intern(v);
            break;
        case FieldRole::Comm:
            comms[k] = v;
            continue;
        case FieldRole::Text:
            break;
        }
        store(p, f.at, u);
    }
    for (size_t k = 0; k < s.fields.size(); ++k) {
        const FieldSpec &f = s.fields[k];
        if (present & (1u << k)) continue;
        switch (f.missing) {
        case Missing::Required:
            return false;
        case Missing::Alternative:
            if (f.ref < 0 || !(present & (1u << f.ref))) return false;
            [[fallthrough]];
        case Missing::Value:
            store(p, f.at, static_cast<uint64_t>(f.missingValue));
            break;
        case Missing::SameAs:
            store(p, f.at, load(p, s.fields[static_cast<size_t>(f.ref)].at));
            break;
        }
    }
    for (size_t k = 0; k < s.fields.size(); ++k) {
        const FieldSpec &f = s.fields[k];
        if (f.role != FieldRole::Comm || !(present & (1u << k)) || out.taskCount >= 2) continue;
        out.tasks[out.taskCount++] = {static_cast<int32_t>(load(p, s.fields[static_cast<size_t>(f.ref)].at)),
                                      comms[k]};
    }
    return true;
}

bool decodeText(EventKind k, std::string_view fields, StringPool &strings, Decoded &out, bool textNamed)
{
    out = Decoded{};
    const KindSpec &s = spec(k);
    return s.decodeText ? s.decodeText(s, fields, strings, out, textNamed)
                        : decodeTextFields(s, fields, strings, out);
}

void printFields(const KindSpec &s, const EventView &e, std::string &out)
{
    bool first = true;
    for (const FieldSpec &f : s.fields) {
        const uint64_t v = f.role == FieldRole::Comm ? 0 : load(e.payload, f.at);
        if (f.missing == Missing::Value && f.role != FieldRole::Comm &&
            v == static_cast<uint64_t>(f.missingValue) && f.role != FieldRole::Text)
            continue; // absent in the source
        if (!first) out += f.before;
        first = false;
        if (!(f.flags & kPlain)) {
            out += f.name;
            out += '=';
        }
        switch (f.role) {
        case FieldRole::Value:
            if (f.codec && f.codec->print) {
                f.codec->print(out, v);
            } else {
                char buf[24];
                std::snprintf(buf, sizeof buf, f.at.isSigned ? "%" PRId64 : "%" PRIu64, v);
                out += buf;
            }
            break;
        case FieldRole::Pointer:
            codecs::pointer.print(out, e.trace.strings.pointer(static_cast<uint32_t>(v)));
            break;
        case FieldRole::Symbol:
        case FieldRole::String:
        case FieldRole::Text:
            out += e.trace.strings.str(static_cast<uint32_t>(v));
            break;
        case FieldRole::Comm: {
            const auto pid = static_cast<int32_t>(load(e.payload, s.fields[static_cast<size_t>(f.ref)].at));
            const std::string_view c = e.trace.strings.str(e.trace.tasks.comm(pid, e.ts));
            out += c.empty() ? std::string_view("<...>") : c;
            break;
        }
        }
    }
}

void print(EventKind k, const EventView &e, std::string &out)
{
    const KindSpec &s = spec(k);
    if (s.print)
        s.print(s, e, out);
    else
        printFields(s, e, out);
}

} // namespace kinds

EventKind kindForEvent(std::string_view system, std::string_view name)
{
    const Registry &r = registry();
    const size_t n = r.count.load(std::memory_order_acquire);
    for (size_t i = 1; i < n; ++i) {
        const KindSpec &s = r.specs[i];
        if (!s.matches && hasName(s.names, name) && (system.empty() || s.system == system)) return s.kind;
    }
    for (size_t i = 1; i < n; ++i) {
        if (r.specs[i].matches && r.specs[i].matches(system, name)) return r.specs[i].kind;
    }
    return EventKind::Generic;
}

std::string_view kindName(EventKind k)
{
    if (static_cast<size_t>(k) >= kinds::count()) return "?";
    return kinds::spec(k).name();
}

uint8_t payloadSize(EventKind k)
{
    return static_cast<size_t>(k) < kinds::count() ? kinds::spec(k).payloadSize : 0;
}

} // namespace tickscope
