// Single-line parsing of ftrace text: the tracefs `trace` / `trace_pipe` format and `trace-cmd report`
// output (default, -l latency columns, -t nanoseconds, -N no plugins, instance prefixes). Pure functions
// on string_views so that each printed form can be unit-tested on one line; the importer owns the state.
#pragma once

#include "model/EventKind.h"
#include "model/StringPool.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace tickscope::text {

enum class LineKind : uint8_t
{
    Empty,      // blank or whitespace only
    Comment,    // '#' header line of a tracefs `trace` file
    CpusHeader, // trace-cmd report "cpus=N" (maybe with an instance or file prefix)
    CpuEmpty,   // trace-cmd report "CPU 3 is empty"
    Lost,       // "CPU:1 [LOST 12 EVENTS]" (tracefs), "CPU:0 [12 EVENTS DROPPED]" (trace-cmd)
    Event,      // an event line
    StackLine,  // " => func" continuation of a stack-trace event
    Bad,        // anything else
};

struct ParsedLine
{
    LineKind kind = LineKind::Bad;
    std::string_view prefix; // "name" of a "name: " instance (or file) prefix, empty when none

    // Comment: `# entries-in-buffer/entries-written: A/B   #P:N` gives cpus = N; "# tracer:" sets tracer.
    // CpusHeader: cpus. Lost / CpuEmpty: cpu.
    int cpus = 0;
    bool tracerHeader = false;
    int cpu = -1;
    uint64_t lostCount = 0; // 0 when the line does not say

    // Event
    std::string_view comm; // the task column, padding removed (truncated to 8 chars by `report -l`)
    int32_t pid = 0;
    int64_t ts = 0; // ns
    uint8_t flags = 0;
    uint8_t preempt = 0;         // preempt depth in the low nibble, migrate-disable depth in the high nibble
    bool hasFlags = false;       // the irq-flags column was present
    bool latencyColumns = false; // `trace-cmd report -l`: comm truncated to 8 chars, cpu fused with flags
    std::string_view name;       // event name as printed
    std::string_view fields;     // text after "name:", leading padding removed
};

// Whether a leading "name: " is an instance prefix. Lines that start at column 0 are unambiguous (the
// comm column is right-aligned in 16 columns); a prefix after leading spaces (`trace-cmd report -i A -i B`
// right-aligns file names) is accepted only when the caller already knows it.
struct PrefixOracle
{
    virtual ~PrefixOracle() = default;
    virtual bool known(std::string_view prefix) const = 0;
};

// line: without the '\n'; a trailing '\r' is ignored.
ParsedLine parseLine(std::string_view line, const PrefixOracle *prefixes = nullptr);

// "335.037977" (us), "4.804849357" (ns), any 1..9 fractional digits, or an integer (counter clocks).
bool parseTimestamp(std::string_view tok, int64_t &ns);

// The irq-flags column: "d.h1.", "dNs2.", "d.h1" (no migrate-disable column), "X..." etc.
bool parseFlagsColumn(std::string_view tok, uint8_t &flags, uint8_t &preempt);

// ---- fields -------------------------------------------------------------------------------------------

// A task named in an event's fields (sched_switch prev/next, sched_waking/wakeup/migrate).
struct FieldTask
{
    int32_t pid = 0;
    std::string_view comm;
};

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

// Decodes the payload of `kind` from the printed fields, in the tracefs print format and in the
// trace-cmd plugin forms. Symbols and texts are interned into `strings`. Returns false when the text
// matches no known form (the caller then keeps the event as Generic). For Print, `rawPrintText` says the
// fields are already the message (tracefs prints "tracing_mark_write: msg" with the ip as the "name").
bool decodeFields(EventKind kind, std::string_view fields, StringPool &strings, Decoded &out,
                  bool rawPrintText = false);

// Field-value helpers, exposed for the tests.
bool parsePrevState(std::string_view s, bool pluginLetters, uint32_t &state);
bool parseHrtimerMode(std::string_view s, uint32_t &mode);
bool parsePointer(std::string_view s, uint64_t &v);       // "00000000a1b2c3d4", "0xffff...", "ffff8881..."
std::string_view stripSymbolOffset(std::string_view sym); // "f+0x20/0x60" -> "f", "f/0x0" -> "f"

// ---- scanning helpers shared by TextLineParser.cpp and TextFieldDecoder.cpp ----------------------------

namespace detail {

inline constexpr auto npos = std::string_view::npos;

// Closures rather than functions, so that the std algorithms below inline them.
inline constexpr auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
inline constexpr auto isSpace = [](char c) { return c == ' ' || c == '\t'; };

inline std::string_view ltrim(std::string_view s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    return s;
}

inline std::string_view rtrim(std::string_view s)
{
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

inline bool allDigits(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), isDigit);
}

inline bool hasSpace(std::string_view s)
{
    return std::any_of(s.begin(), s.end(), isSpace);
}

template <class T> bool parseDec(std::string_view s, T &v)
{
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

} // namespace detail

} // namespace tickscope::text
