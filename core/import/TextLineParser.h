// SPDX-License-Identifier: GPL-3.0-or-later
// Single-line parsing of ftrace text: the tracefs `trace` / `trace_pipe` format and `trace-cmd report`
// output (default, -l latency columns, -t nanoseconds, -N no plugins, instance prefixes). Pure functions
// on string_views so that each printed form can be unit-tested on one line; the importer owns the state.
#pragma once

#include "model/EventKinds.h"
#include "model/FieldText.h"
#include "model/StringPool.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
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
    uint64_t entriesInBuffer = 0, entriesWritten = 0; // `# entries-in-buffer/entries-written: A/B` (0: none)
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
    bool commCut = false;        // the comm may be cut short (function_graph's funcgraph-proc: 7 chars)
    // tracefs with options/latency-format: "  1234us+: ", whole microseconds since the buffer's start
    bool microseconds = false;
    std::string_view name;   // event name as printed
    std::string_view fields; // text after "name:", leading padding removed
    // The syscalls events print no name: "sys_openat(dfd: ...)" enters (1), "sys_openat -> 0x3" returns
    // (2); `name` is then "sys_openat", the event syscalls:sys_enter_openat / sys_exit_openat.
    uint8_t syscall = 0;
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

// A "[003]" CPU column: the line is an event line, however damaged (e.g. an overflowing timestamp).
bool hasCpuColumn(std::string_view line);
// A header line of a tool's text before its events (trace-cmd's "version = 6" and the like): a name,
// '=' or ':', printable, no CPU column.
bool looksLikeHeader(std::string_view line);

// For a text none of whose lines is an event: what tracefs form its first line is in, when it is one the
// importer cannot read (options/raw, options/hex, options/context-info off), as the words of an error;
// empty otherwise.
std::string unreadableForm(std::string_view line);

// "335.037977" (us), "4.804849357" (ns), any 1..9 fractional digits, or an integer (counter clocks).
bool parseTimestamp(std::string_view tok, int64_t &ns);

// The irq-flags column: "d.h1.", "dNs2.", "d.h1" (no migrate-disable column), "X..." etc.
bool parseFlagsColumn(std::string_view tok, uint8_t &flags, uint8_t &preempt);

// ---- fields -------------------------------------------------------------------------------------------

using tickscope::Decoded;
using tickscope::FieldTask;

// Decodes the payload of `kind` from the printed fields, in the tracefs print format and in the
// trace-cmd plugin forms (the kind's entry in the event-kind table). Symbols and texts are interned into
// `strings`. Returns false when the text matches no known form (the caller then keeps the event as
// Generic). For Print, `rawPrintText` says the fields are already the message (tracefs prints
// "tracing_mark_write: msg" with the ip as the "name").
inline bool decodeFields(EventKind kind, std::string_view fields, StringPool &strings, Decoded &out,
                         bool rawPrintText = false)
{
    return kinds::decodeText(kind, fields, strings, out, rawPrintText);
}

// Field-value helpers, exposed for the tests.
using scan::parseHrtimerMode;
using scan::parsePointer;
using scan::parsePrevState;
using scan::stripSymbolOffset;

// Scanning helpers of TextLineParser.cpp.
namespace detail {
using namespace ::tickscope::scan;
} // namespace detail

} // namespace tickscope::text
