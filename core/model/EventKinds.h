// SPDX-License-Identifier: GPL-3.0-or-later
// The event-kind table: one entry per event kind the model decodes into a compact payload, saying
// everything every reader and writer of that kind needs -- the event's system and names, the payload's
// typed fields with their format field names across kernel versions, how each value is printed and parsed
// in ftrace text, and any special handling. The trace.dat decoder (RecordDecoder), the text decoder
// (decodeTextFields), the formatter (formatFields: the event table, tooltips, the simulator's text writer)
// and the simulator's emitter are driven from it. docs/ARCHITECTURE.md says how to add a kind.
#pragma once

#include "EventKind.h"
#include "StringPool.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

namespace tickscope {

class Trace;

constexpr size_t kMaxKindFields = 12; // fields of one kind

// What a field is and where its value comes from.
enum class FieldRole : uint8_t
{
    Value,   // a number stored in the payload
    Symbol,  // a kernel function: trace.dat has its address (named from the file's symbols), text its name;
             // stored as a string id
    String,  // a string (char array or __data_loc string in trace.dat); stored as a string id
    Comm,    // the comm of the task whose pid is field `ref`: noted in the task table, not stored
    Text,    // the event's whole field text (Generic events): a string id, 0 in trace.dat
    Pointer, // a kernel pointer (%p: the address in trace.dat, tracefs's hashed value in text); stored as a
             // 4-byte pointer id (StringPool::pointer), printed as 16 hex digits
};

// What happens when a format (trace.dat) or a printed line (text) has no such field.
enum class Missing : uint8_t
{
    Required,    // text: the line is not this kind's form; trace.dat: 0
    Value,       // missingValue, which also marks the field absent when printing
    SameAs,      // the value of field `ref` (bucket_expiry = expires before 6.8)
    Alternative, // text: allowed only when field `ref` is present; the value is missingValue
};

// How a Value field prints and parses, for values that are not plain decimal numbers.
struct ValueCodec
{
    void (*print)(std::string &out, uint64_t v) = nullptr;    // nullptr: decimal (signed by the member)
    bool (*parse)(std::string_view s, uint64_t &v) = nullptr; // nullptr: decimal, or hex with 0x
    bool boolean = false; // the stored value is 0 or 1 (a nonzero raw value is stored as 1)
};

// Codecs for kinds added at run time; the built-in entries use these and their own.
namespace codecs {
extern const ValueCodec pointer; // %p: printed as 16 hex digits; reads those, "0x..." and "(null)"
extern const ValueCodec boolean; // stored as 0 or 1
} // namespace codecs

// Where a field sits in the payload struct; TS_AT(Struct, member) spells it.
struct PayloadAt
{
    uint8_t offset = 0;
    uint8_t size = 0; // 0: not stored
    bool isSigned = false;
};
#define TS_AT(T, m)                                                                                          \
    ::tickscope::PayloadAt                                                                                   \
    {                                                                                                        \
        static_cast<uint8_t>(offsetof(T, m)), static_cast<uint8_t>(sizeof(T::m)),                            \
            std::is_signed_v<decltype(T::m)>                                                                 \
    }

enum FieldFlag : uint8_t
{
    kTail = 1,         // text: the value runs to the end of the line (irq names, old tick_stop messages)
    kFromPrint = 2,    // trace.dat: the format stores a pointer the decoder cannot follow; the value is taken
                       // from libtraceevent's printed form of the record (tick_stop's old error_msg)
    kTrimNewlines = 4, // trailing newlines are dropped (trace_marker text)
    kPlain = 8,        // printed without "name=" (the Text role)
};

struct FieldSpec
{
    std::string_view name;    // the key printed in text, and the format field name
    std::string_view aliases; // its other names in other kernels' formats or texts, '|'-separated
    PayloadAt at;
    FieldRole role = FieldRole::Value;
    const ValueCodec *codec = nullptr;
    Missing missing = Missing::Required;
    int64_t missingValue = 0;
    int8_t ref = -1; // Missing::SameAs / Alternative: that field; FieldRole::Comm: the pid field
    uint8_t flags = 0;
    std::string_view before = " "; // printed before the field, unless it is the first printed

    // Builders, so that the table reads as one line per field.
    // clang-format off
    constexpr FieldSpec alias(std::string_view a) const { auto f = *this; f.aliases = a; return f; }
    constexpr FieldSpec orElse(int64_t v) const { auto f = *this; f.missing = Missing::Value; f.missingValue = v; return f; }
    constexpr FieldSpec sameAs(int k) const { auto f = *this; f.missing = Missing::SameAs; f.ref = static_cast<int8_t>(k); return f; }
    constexpr FieldSpec unless(int k) const { auto f = *this; f.missing = Missing::Alternative; f.ref = static_cast<int8_t>(k); return f; }
    constexpr FieldSpec with(uint8_t fl) const { auto f = *this; f.flags = static_cast<uint8_t>(f.flags | fl); return f; }
    constexpr FieldSpec after(std::string_view b) const { auto f = *this; f.before = b; return f; }
    // clang-format on
};

constexpr FieldSpec value(std::string_view name, PayloadAt at, const ValueCodec *codec = nullptr)
{
    return FieldSpec{name, {}, at, FieldRole::Value, codec};
}
constexpr FieldSpec pointer(std::string_view name, PayloadAt at)
{
    return FieldSpec{name, {}, at, FieldRole::Pointer, &codecs::pointer};
}
constexpr FieldSpec symbol(std::string_view name, PayloadAt at)
{
    return FieldSpec{name, {}, at, FieldRole::Symbol};
}
constexpr FieldSpec string(std::string_view name, PayloadAt at)
{
    return FieldSpec{name, {}, at, FieldRole::String};
}
constexpr FieldSpec comm(std::string_view name, int pidField)
{
    return FieldSpec{
        name, {}, {}, FieldRole::Comm, nullptr, Missing::Required, 0, static_cast<int8_t>(pidField)};
}

// Calls f on each name of a '|'-separated list ("hrtimer_init|hrtimer_setup") until it returns true;
// true when one did.
template <class F> bool anyName(std::string_view names, F &&f)
{
    for (size_t p = 0;;) {
        const size_t bar = names.find('|', p);
        if (f(names.substr(p, bar == std::string_view::npos ? std::string_view::npos : bar - p))) return true;
        if (bar == std::string_view::npos) return false;
        p = bar + 1;
    }
}

// A task named in an event's fields (sched_switch prev/next, sched_waking/wakeup/migrate).
struct FieldTask
{
    int32_t pid = 0;
    std::string_view comm;
};

// One event's payload decoded from its printed fields.
struct Decoded
{
    alignas(8) unsigned char payload[64];
    uint8_t size = 0;
    FieldTask tasks[2];
    int taskCount = 0;
    bool pluginForm = false;    // trace-cmd plugin print form (sched_switch/wakeup, hrtimer)
    bool timerFlagsDPI = false; // timer_start printed flags=D|P|I (see the importer's warning)

    template <class T> void set(const T &p)
    {
        static_assert(sizeof(T) <= sizeof(payload));
        std::memcpy(payload, &p, sizeof(T));
        size = static_cast<uint8_t>(sizeof(T));
    }
    template <class T> T get() const
    {
        T v;
        std::memcpy(&v, payload, sizeof(T));
        return v;
    }
};

struct KindSpec;

// What a print or text hook sees of one stored event.
struct EventView
{
    const Trace &trace;
    const uint8_t *payload;
    int64_t ts;
    uint16_t type = 0; // the trace's type id (a Generic event's record format is the type's)
};

struct KindSpec
{
    EventKind kind = EventKind::Generic;
    std::string_view system;
    std::string_view
        names; // the event's name, then other names of the same event ('|'): hrtimer_init|hrtimer_setup
    uint8_t payloadSize = 0;
    std::span<const FieldSpec> fields;
    std::string_view textName; // the name text traces show instead (print: "tracing_mark_write"), or empty

    // Special handling, each nullptr when the generic walk of `fields` does it.
    bool (*matches)(std::string_view system, std::string_view name) = nullptr; // names by pattern
    // Replaces the text decode. `textNamed`: the line named the event by textName.
    bool (*decodeText)(const KindSpec &, std::string_view fields, StringPool &, Decoded &,
                       bool textNamed) = nullptr;
    // Replaces the print.
    void (*print)(const KindSpec &, const EventView &, std::string &out) = nullptr;

    std::string_view name() const { return names.substr(0, names.find('|')); }

    // clang-format off
    constexpr KindSpec shownAs(std::string_view n) const { auto s = *this; s.textName = n; return s; }
    constexpr KindSpec matchBy(decltype(matches) f) const { auto s = *this; s.matches = f; return s; }
    constexpr KindSpec textBy(decltype(decodeText) f) const { auto s = *this; s.decodeText = f; return s; }
    constexpr KindSpec printBy(decltype(print) f) const { auto s = *this; s.print = f; return s; }
    // clang-format on
};

namespace kinds {

// The entry of a kind; every EventKind below count() has one (Generic's prints its text).
const KindSpec &spec(EventKind k);
size_t count();

// Adds a kind at run time (a user's own event, a test): call before any trace is loaded. The spec's
// strings and fields must outlive every trace. Returns the new kind; throws std::invalid_argument when
// the table is full, the payload is larger than 64 bytes or a field lies outside it.
EventKind add(KindSpec spec);

// Generic walks, used by the importers, the formatter and the writers.
bool decodeText(EventKind k, std::string_view fields, StringPool &strings, Decoded &out,
                bool textNamed = false);
bool decodeTextFields(const KindSpec &s, std::string_view fields, StringPool &strings, Decoded &out);
void print(EventKind k, const EventView &e, std::string &out);
void printFields(const KindSpec &s, const EventView &e, std::string &out);

// Read and write one stored field value (sign-extended when the member is signed). Inline: the trace.dat
// decoder calls them for every field of every event.
inline uint64_t load(const uint8_t *p, const PayloadAt &at)
{
    p += at.offset;
    switch (at.size) {
    case 1:
        return at.isSigned ? static_cast<uint64_t>(static_cast<int8_t>(*p)) : *p;
    case 2: {
        uint16_t v;
        std::memcpy(&v, p, 2);
        return at.isSigned ? static_cast<uint64_t>(static_cast<int16_t>(v)) : v;
    }
    case 4: {
        uint32_t v;
        std::memcpy(&v, p, 4);
        return at.isSigned ? static_cast<uint64_t>(static_cast<int32_t>(v)) : v;
    }
    case 8: {
        uint64_t v;
        std::memcpy(&v, p, 8);
        return v;
    }
    default:
        return 0;
    }
}

inline void store(uint8_t *p, const PayloadAt &at, uint64_t v)
{
    p += at.offset;
    switch (at.size) {
    case 1:
        *p = static_cast<uint8_t>(v);
        break;
    case 2: {
        const auto x = static_cast<uint16_t>(v);
        std::memcpy(p, &x, 2);
        break;
    }
    case 4: {
        const auto x = static_cast<uint32_t>(v);
        std::memcpy(p, &x, 4);
        break;
    }
    case 8:
        std::memcpy(p, &v, 8);
        break;
    default:
        break;
    }
}

} // namespace kinds

} // namespace tickscope
