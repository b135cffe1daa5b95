// SPDX-License-Identifier: GPL-3.0-or-later
// The function_graph tracer's text: single lines of the tracefs `trace` / `trace_pipe` output (with any
// of the funcgraph-abstime, -cpu, -proc, -duration, -overhead, -tail, -irqs, -retval options and the
// latency-format column) and the bodies trace-cmd report prints after "funcgraph_entry:" /
// "funcgraph_exit:"; and the per-CPU state that turns the lines into FunctionSpans.
#pragma once

#include "model/FunctionSpans.h"
#include "model/StringPool.h"
#include "model/Trace.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tickscope::funcgraph {

enum class LineKind : uint8_t
{
    None,     // not a function_graph line
    Entry,    // "func() {"
    Leaf,     // "func();" with its duration
    Exit,     // "}" (with its duration; "} /* func */" names it)
    IrqEnter, // "==========>"
    IrqExit,  // "<=========="
    Event, // "/* name: fields */": a trace event the tracer printed among the calls; "/* message */": a print
    Other, // another comment ("/* ... */"), a context switch ("bash-1 => sh-2", "-----"): no call
};

struct Line
{
    LineKind kind = LineKind::None;
    int cpu = -1;             // -1: no CPU column (funcgraph-cpu off)
    int64_t ts = INT64_MIN;   // ns, from funcgraph-abstime (or trace-cmd's column); INT64_MIN when none
    int64_t durationNs = -1;  // -1: the line has no duration
    bool badDuration = false; // a duration column that is not "[marker] N.NNN us"
    int depth = -1;           // from the indentation; -1 when the line does not show it
    std::string_view name;   // Entry, Leaf; Exit with funcgraph-tail; Event: the event's name (none: a print)
    std::string_view fields; // Event: the text after "name:"
    std::string_view proc;   // the funcgraph-proc column ("bash-1234"); a context switch's next task
    std::string_view latency; // the latency-format column ("d.h1.")
};

// A line of the tracefs text, without its '\n'. kind None when it is not function_graph output.
Line parseLine(std::string_view line);

// What trace-cmd report prints after "funcgraph_entry:" / "funcgraph_exit:" (the plugin's form
// "  0.118 us   |    getname();", or without the plugin "--> getname (1)" and
// "<-- getname (1) (start: 2a3f  end: 2b01) over: 0"). `ts` is the record's time.
Line parseBody(std::string_view body, bool exitRecord, int64_t ts);

// "+ 48.572 us", "! 461.167 us", "0.902 us": ns; -1 when `field` is blank; -2 when it is not a duration.
int64_t parseDuration(std::string_view field);

// Turns one CPU's lines, in order, into spans.
class CpuBuilder
{
public:
    // `lineNo`: the file line, the place of a span when the text has no timestamps. `tiedBefore`: the
    // CPU's events read so far at the line's time (FunctionSpan::tiedBefore).
    void add(const Line &l, size_t lineNo, uint8_t tiedBefore, StringPool &strings,
             std::vector<FunctionSpan> &out);
    // Calls still open at the end of the trace (entered, never returned in it).
    size_t open() const { return stack_.size(); }
    size_t unmatchedExits = 0;   // "}" with no entry in the trace and no name to say what returned
    size_t abandoned = 0;        // entries whose return never came before a shallower line
    size_t missingDurations = 0; // a leaf or exit without a usable duration and no timestamps to measure

private:
    struct Open
    {
        uint32_t name;
        int64_t ts;
        int depth;
        uint8_t flags;
        uint8_t tiedBefore;
    };
    std::vector<Open> stack_;
    bool inIrq_ = false;
};

// A trace.dat's funcgraph_entry / funcgraph_exit records (decoded as events) as spans: one per return
// record (its calltime and rettime give the duration; the start is its entry record's time when the
// trace has it, as trace-cmd report prints it, else the calltime); in an interrupt when the return
// record's irq flags say hardirq. Adds a warning for calls entered and never returned in the trace.
void spansFromRecords(Trace &trace);

} // namespace tickscope::funcgraph
