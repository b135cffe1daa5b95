// SPDX-License-Identifier: GPL-3.0-or-later
#include "FuncGraphText.h"

#include "TextLineParser.h"
#include "model/FieldText.h"

#include <algorithm>
#include <charconv>

namespace tickscope::funcgraph {
namespace {

constexpr int64_t kNoTs = INT64_MIN;
// What the tracer puts before a duration to flag it: > 10 us, > 100 us, > 1 ms, > 10 ms, > 100 ms, > 1 s.
constexpr std::string_view kOverheadMarkers = "+!#*@$";

using scan::isDigit;
using scan::ltrim;

// Both ends; a pasted line may end in '\r'.
std::string_view trim(std::string_view s)
{
    s = scan::rtrim(ltrim(s));
    while (!s.empty() && s.back() == '\r')
        s = scan::rtrim(s.substr(0, s.size() - 1));
    return s;
}

bool isNameChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) || c == '_' || c == '.' || c == '$';
}

// "bash-1234", "<idle>-0", "kworker/0:1-42": a task column of funcgraph-proc.
bool isProcColumn(std::string_view f)
{
    const size_t dash = f.rfind('-');
    if (dash == std::string_view::npos || dash == 0 || dash + 1 == f.size()) return false;
    return std::all_of(f.begin() + static_cast<long>(dash) + 1, f.end(), isDigit);
}

// "d..1", "dNh2.", "....": the latency-format column.
bool isLatencyColumn(std::string_view f)
{
    if (f.size() < 3 || f.size() > 6) return false;
    return std::all_of(f.begin(), f.end(), [](char c) {
        return c == '.' || isDigit(c) || std::string_view("dDnNhHsSzZXbBp").find(c) != std::string_view::npos;
    });
}

// The function column, after the duration column's '|' (afterBar) or directly after the CPU column.
void parseFunction(std::string_view rest, bool afterBar, Line &out)
{
    const size_t indent = std::min(rest.find_first_not_of(' '), rest.size());
    std::string_view f = trim(rest);
    out.depth = afterBar ? std::max<int>(0, (static_cast<int>(std::min<size_t>(indent, 4096)) - 1) / 2) : -1;
    if (f.empty() || f.starts_with("/*")) {
        out.kind = f.empty() && out.durationNs < 0 ? LineKind::None : LineKind::Other;
        // a trace event: "/* name: fields */"; a print (trace_marker, trace_printk) shows its message alone,
        // which may begin "word:" too: an event's name is one the table knows or has an underscore
        if (f.size() >= 4 && f.ends_with("*/")) {
            const std::string_view inner = trim(f.substr(2, f.size() - 4));
            size_t k = 0;
            while (k < inner.size() && isNameChar(inner[k]) && inner[k] != '.' && inner[k] != '$')
                ++k;
            out.kind = LineKind::Event;
            const std::string_view name = inner.substr(0, k);
            if (k > 0 && k < inner.size() && inner[k] == ':' &&
                (name.find('_') != std::string_view::npos || kindForEvent({}, name) != EventKind::Generic)) {
                out.name = name;
                out.fields = trim(inner.substr(k + 1));
            } else {
                out.fields = inner;
            }
        }
        return;
    }
    if (f[0] == '}') {
        out.kind = LineKind::Exit;
        std::string_view tail = trim(f.substr(1));
        if (tail.starts_with("/*")) { // funcgraph-tail "/* func */", with funcgraph-retval "/* func = 0x0 */"
            tail = ltrim(tail.substr(2));
            size_t k = 0;
            while (k < tail.size() && isNameChar(tail[k]))
                ++k;
            out.name = tail.substr(0, k);
        }
        return;
    }
    // "func();", "func() {", with funcgraph-retval "func(); /* = 0x0 */", with arguments "func(a=1) {"
    if (f.ends_with("*/")) {
        const size_t c = f.rfind("/*");
        if (c == std::string_view::npos) return;
        f = trim(f.substr(0, c));
    }
    size_t k = 0;
    while (k < f.size() && isNameChar(f[k]))
        ++k;
    if (k == 0 || k >= f.size() || f[k] != '(' || f.size() < k + 3) return;
    if (f.back() == ';' && f[f.size() - 2] == ')') {
        out.kind = LineKind::Leaf;
    } else if (f.back() == '{' && trim(f.substr(0, f.size() - 1)).ends_with(')')) {
        out.kind = LineKind::Entry;
    } else {
        return;
    }
    out.name = f.substr(0, k);
}

uint64_t parseHex(std::string_view s, bool &ok)
{
    uint64_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v, 16);
    ok = r.ec == std::errc{} && r.ptr != s.data();
    return v;
}

} // namespace

int64_t parseDuration(std::string_view field)
{
    std::string_view f = trim(field);
    if (f.empty()) return -1;
    if (kOverheadMarkers.find(f[0]) != std::string_view::npos) f = ltrim(f.substr(1));
    size_t k = 0;
    while (k < f.size() && isDigit(f[k]))
        ++k;
    if (k == 0 || k > 12) return -2;
    int64_t whole = 0;
    std::from_chars(f.data(), f.data() + k, whole);
    int64_t frac = 0, scale = 1;
    if (k < f.size() && f[k] == '.') {
        size_t j = k + 1;
        while (j < f.size() && isDigit(f[j])) {
            if (scale < 1000000000) {
                frac = frac * 10 + (f[j] - '0');
                scale *= 10;
            }
            ++j;
        }
        k = j;
    }
    const std::string_view unit = trim(f.substr(k));
    int64_t mult = 0;
    if (unit == "us")
        mult = 1000;
    else if (unit == "ns")
        mult = 1;
    else if (unit == "ms")
        mult = 1000000;
    else if (unit == "s")
        mult = 1000000000;
    else
        return -2;
    return whole * mult + frac * mult / scale;
}

Line parseLine(std::string_view line)
{
    Line out;
    std::string_view s = trim(line);
    if (s.empty()) return out;
    if (s.size() >= 10 && s.find_first_not_of('-') == std::string_view::npos) { // context switch separator
        out.kind = LineKind::Other;
        return out;
    }
    // funcgraph-abstime: "3715.395000 |"
    {
        size_t k = 0;
        while (k < s.size() && (isDigit(s[k]) || s[k] == '.'))
            ++k;
        const std::string_view rest = ltrim(s.substr(k));
        if (k > 0 && !rest.empty() && rest[0] == '|' && s.substr(0, k).find('.') != std::string_view::npos) {
            int64_t ns = 0;
            if (!text::parseTimestamp(s.substr(0, k), ns)) return out;
            out.ts = ns;
            s = ltrim(rest.substr(1));
        }
    }
    // funcgraph-cpu: "10)"
    {
        size_t k = 0;
        while (k < s.size() && isDigit(s[k]))
            ++k;
        if (k > 0 && k <= 5 && k < s.size() && s[k] == ')') {
            std::from_chars(s.data(), s.data() + k, out.cpu);
            s = s.substr(k + 1);
        }
    }
    const bool columns = out.cpu >= 0 || out.ts != kNoTs;
    // funcgraph-duration off: a comment (an event) right after the columns; it may hold "|" and "=>"
    if (columns && ltrim(s).starts_with("/*")) {
        parseFunction(s, false, out);
        return out;
    }
    // A context switch: " 1)    <idle>-0    =>   bash-1234" (a comm may hold "(": "(udev-worker)")
    if (const size_t arrow = s.find("=>"); out.cpu >= 0 && arrow != std::string_view::npos) {
        const std::string_view prev = trim(s.substr(0, arrow)), next = trim(s.substr(arrow + 2));
        if ((s.find('|') == std::string_view::npos && s.find('(') == std::string_view::npos) ||
            (isProcColumn(prev) && isProcColumn(next))) {
            out.kind = LineKind::Other;
            if (isProcColumn(next)) out.proc = next;
            return out;
        }
    }
    // [proc |] [latency |] duration | function
    for (int extra = 0;; ++extra) {
        if (extra > 0 && columns && ltrim(s).starts_with("/*")) { // after the proc column, no duration
            parseFunction(s, false, out);
            return out;
        }
        const size_t bar = s.find('|');
        if (bar == std::string_view::npos) {
            // funcgraph-duration off: the function follows the CPU (and proc) columns
            if (columns) parseFunction(s, false, out);
            return out;
        }
        const std::string_view f = trim(s.substr(0, bar));
        const std::string_view rest = s.substr(bar + 1);
        if (f == "==========>" || f == "<==========") {
            out.kind = f[0] == '=' ? LineKind::IrqEnter : LineKind::IrqExit;
            return out;
        }
        const int64_t d = parseDuration(f);
        if (d >= -1) {
            out.durationNs = d;
            parseFunction(rest, true, out);
            return out;
        }
        if (extra < 2 && (isProcColumn(f) || isLatencyColumn(f))) {
            (isProcColumn(f) ? out.proc : out.latency) = f;
            s = rest;
            continue;
        }
        // A number in the duration column's place without a unit we know: a damaged or edited line.
        if (columns && !f.empty() &&
            (isDigit(f[0]) || kOverheadMarkers.find(f[0]) != std::string_view::npos)) {
            parseFunction(rest, true, out);
            if (out.kind == LineKind::Leaf || out.kind == LineKind::Exit) out.badDuration = true;
            return out;
        }
        return Line{};
    }
}

Line parseBody(std::string_view body, bool exitRecord, int64_t ts)
{
    Line out;
    out.ts = ts;
    std::string_view b = trim(body);
    // Without trace-cmd's plugin: the kernel's own print format.
    if (b.starts_with("-->") || b.starts_with("<--")) {
        const bool exit = b[0] == '<';
        b = ltrim(b.substr(3));
        size_t k = 0;
        while (k < b.size() && isNameChar(b[k]))
            ++k;
        if (k == 0) return Line{};
        out.name = b.substr(0, k);
        b = ltrim(b.substr(k));
        if (b.starts_with("(")) {
            int depth = -1;
            const auto r = std::from_chars(b.data() + 1, b.data() + b.size(), depth);
            if (r.ec == std::errc{} && depth >= 0 && depth < 65536) out.depth = depth;
        }
        out.kind = exit ? LineKind::Exit : LineKind::Entry;
        if (exit) {
            const size_t st = b.find("start:"), en = b.find("end:");
            if (st != std::string_view::npos && en != std::string_view::npos) {
                bool ok1 = false, ok2 = false;
                const uint64_t calltime = parseHex(ltrim(b.substr(st + 6)), ok1);
                const uint64_t rettime = parseHex(ltrim(b.substr(en + 4)), ok2);
                if (ok1 && ok2 && rettime >= calltime && rettime - calltime < (uint64_t{1} << 62))
                    out.durationNs = static_cast<int64_t>(rettime - calltime);
                else
                    out.badDuration = true;
            }
        }
        return out;
    }
    const size_t bar = b.find('|');
    if (bar == std::string_view::npos) return Line{};
    const std::string_view f = trim(b.substr(0, bar));
    if (f == "==========>" || f == "<==========") {
        out.kind = f[0] == '=' ? LineKind::IrqEnter : LineKind::IrqExit;
        return out;
    }
    const int64_t d = parseDuration(f);
    parseFunction(b.substr(bar + 1), true, out);
    if (d >= -1)
        out.durationNs = d;
    else if (out.kind == LineKind::Leaf || out.kind == LineKind::Exit)
        out.badDuration = true;
    if (exitRecord && out.kind == LineKind::Leaf) out.kind = LineKind::None; // a return is never a leaf
    return out;
}

void CpuBuilder::add(const Line &l, size_t lineNo, uint8_t tiedBefore, StringPool &strings,
                     std::vector<FunctionSpan> &out)
{
    switch (l.kind) {
    case LineKind::IrqEnter:
        inIrq_ = true;
        return;
    case LineKind::IrqExit:
        inIrq_ = false;
        return;
    case LineKind::None:
    case LineKind::Event:
    case LineKind::Other:
        return;
    default:
        break;
    }
    const uint8_t irq = inIrq_ ? FunctionSpan::InIrq : 0;
    auto depthOf = [&](int fallback) { return l.depth >= 0 ? l.depth : fallback; };
    // A line at depth d while calls at depth >= d are open: those never returned in the trace (an
    // overrun, or lines cut from a paste).
    auto abandon = [&](int d) {
        while (!stack_.empty() && stack_.back().depth >= d) {
            stack_.pop_back();
            ++abandoned;
        }
    };
    auto emit = [&](int64_t at, int64_t dur, uint32_t name, int depth, uint8_t flags,
                    uint8_t tied = FunctionSpan::kTiesUnknown) {
        FunctionSpan s;
        s.at = at;
        s.durationNs = dur;
        s.name = name;
        s.depth = static_cast<uint16_t>(std::clamp(depth, 0, 65535));
        s.flags = flags;
        s.tiedBefore = tied;
        out.push_back(s);
    };
    if (l.kind == LineKind::Entry) {
        const int d = depthOf(static_cast<int>(stack_.size()));
        abandon(d);
        stack_.push_back({strings.intern(l.name), l.ts, d, irq, tiedBefore});
        return;
    }
    if (l.kind == LineKind::Leaf) {
        const int d = depthOf(static_cast<int>(stack_.size()));
        abandon(d);
        if (l.durationNs < 0 || l.badDuration) {
            ++missingDurations;
            return;
        }
        const bool timed = l.ts != kNoTs;
        emit(timed ? l.ts : static_cast<int64_t>(lineNo), l.durationNs, strings.intern(l.name), d,
             static_cast<uint8_t>((timed ? FunctionSpan::Timed : 0) | irq), tiedBefore);
        return;
    }
    // Exit
    const int d = depthOf(stack_.empty() ? 0 : stack_.back().depth);
    while (!stack_.empty() && stack_.back().depth > d) {
        stack_.pop_back();
        ++abandoned;
    }
    const int64_t dur = l.badDuration ? -1 : l.durationNs;
    if (!stack_.empty() && stack_.back().depth == d) {
        const Open o = stack_.back();
        stack_.pop_back();
        int64_t length = dur;
        if (length < 0 && o.ts != kNoTs && l.ts != kNoTs && l.ts >= o.ts) length = l.ts - o.ts;
        if (length < 0) {
            ++missingDurations;
            return;
        }
        if (o.ts != kNoTs)
            emit(o.ts, length, o.name, d, static_cast<uint8_t>(FunctionSpan::Timed | o.flags), o.tiedBefore);
        else if (l.ts != kNoTs)
            emit(l.ts - length, length, o.name, d, static_cast<uint8_t>(FunctionSpan::Timed | o.flags));
        else
            emit(static_cast<int64_t>(lineNo), length, o.name, d, o.flags);
        return;
    }
    if (l.name.empty()) {
        ++unmatchedExits;
        return;
    }
    if (dur < 0) {
        ++missingDurations;
        return;
    }
    const bool timed = l.ts != kNoTs;
    emit(timed ? l.ts - dur : static_cast<int64_t>(lineNo), dur, strings.intern(l.name), d,
         static_cast<uint8_t>(FunctionSpan::NameFromTail | (timed ? FunctionSpan::Timed : 0) | irq));
}

void spansFromRecords(Trace &trace)
{
    int entryType = -1, exitType = -1;
    for (size_t k = 0; k < trace.types().size(); ++k) {
        if (trace.types()[k].kind == EventKind::FuncgraphEntry) entryType = static_cast<int>(k);
        if (trace.types()[k].kind == EventKind::FuncgraphExit) exitType = static_cast<int>(k);
    }
    if (exitType < 0 || !trace.functions.empty()) return;
    constexpr uint8_t kHardirq = 0x08; // TRACE_FLAG_HARDIRQ in common_flags
    struct Open
    {
        uint32_t func;
        int32_t depth;
        int64_t ts;
        uint8_t tiedBefore; // (FunctionSpan::tiedBefore: the events of its time before the record)
    };
    size_t open = 0;
    trace.functions.cpus.assign(static_cast<size_t>(trace.cpuCount()), {});
    for (int c = 0; c < trace.cpuCount(); ++c) {
        const CpuEvents &ev = trace.cpu(c);
        std::vector<FunctionSpan> &out = trace.functions.cpus[static_cast<size_t>(c)];
        std::vector<Open> stack;
        size_t sameTsFrom = 0; // the first event of the current event's time
        int64_t lastTs = INT64_MIN;
        for (CpuEvents::Cursor e(ev, 0); e.valid(); e.next()) {
            if (e.ts() != lastTs) {
                lastTs = e.ts();
                sameTsFrom = e.index();
            }
            const int type = ev.type(e.index());
            if (type == entryType) {
                const auto p = e.payload<FuncgraphEntryP>();
                while (!stack.empty() && stack.back().depth >= p.depth)
                    stack.pop_back();
                const size_t tied = e.index() - sameTsFrom;
                stack.push_back({p.func, p.depth, e.ts(),
                                 static_cast<uint8_t>(std::min<size_t>(tied, FunctionSpan::kTiesUnknown))});
            } else if (type == exitType) {
                const auto p = e.payload<FuncgraphExitP>();
                while (!stack.empty() && stack.back().depth > p.depth)
                    stack.pop_back();
                if (p.rettime < p.calltime || p.rettime - p.calltime >= (uint64_t{1} << 62)) continue;
                FunctionSpan s;
                s.durationNs = static_cast<int64_t>(p.rettime - p.calltime);
                s.at = static_cast<int64_t>(p.calltime);
                if (!stack.empty() && stack.back().depth == p.depth && stack.back().func == p.func) {
                    s.at = stack.back().ts;
                    s.tiedBefore = stack.back().tiedBefore;
                    stack.pop_back();
                }
                s.name = p.func;
                s.depth = static_cast<uint16_t>(std::clamp<int32_t>(p.depth, 0, 65535));
                s.flags = static_cast<uint8_t>(FunctionSpan::Timed |
                                               ((ev.flags(e.index()) & kHardirq) ? FunctionSpan::InIrq : 0));
                out.push_back(s);
            }
        }
        open += stack.size();
    }
    if (open)
        trace.warnings.push_back(std::to_string(open) + (open == 1 ? " call" : " calls") +
                                 " had not returned when the trace ends, left out");
}

} // namespace tickscope::funcgraph
