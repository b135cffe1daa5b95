// SPDX-License-Identifier: GPL-3.0-or-later
// Line structure of ftrace text: timestamp, task and pid, TGID, CPU and irq-flags columns, instance
// prefixes, header and lost-events lines. Each event's fields are decoded by its kind's entry in the
// event-kind table (model/EventKinds.h).
#include "TextLineParser.h"

#include <algorithm>
#include <cstddef>
#include <limits>

namespace tickscope::text {
using namespace detail;
namespace {

// The timestamp must start within this many bytes of the line (instance prefix + task columns), and at
// most this many numeric ": " candidates are tried, so that no line, however long, costs much.
constexpr size_t kMaxHead = 1024;
constexpr int kMaxTsCandidates = 8;

// ---- line structure -------------------------------------------------------------------------------------

bool parseBracketCpu(std::string_view tok, int &cpu)
{
    return tok.size() >= 3 && tok.front() == '[' && tok.back() == ']' &&
           parseDec(tok.substr(1, tok.size() - 2), cpu) && cpu >= 0;
}

// Splits "name: rest" when name has no spaces.
bool splitPrefix(std::string_view s, std::string_view &prefix, std::string_view &rest)
{
    const size_t p = s.find(": ");
    if (p == npos || p == 0 || hasSpace(s.substr(0, p))) return false;
    prefix = s.substr(0, p);
    rest = ltrim(s.substr(p + 2));
    return true;
}

// Prefix, task, pid, optional TGID, CPU and irq-flags columns: everything before the timestamp.
bool parseHead(std::string_view head, const PrefixOracle *prefixes, ParsedLine &out)
{
    out.prefix = {};
    std::string_view h = rtrim(head);
    size_t sp = h.find_last_of(" \t");
    if (sp == npos) return false;
    const std::string_view tok = h.substr(sp + 1);
    h = rtrim(h.substr(0, sp));
    out.hasFlags = true;
    out.latencyColumns = false;
    if (tok.front() == '[') {
        out.hasFlags = false;
        if (!parseBracketCpu(tok, out.cpu)) return false;
    } else if (isDigit(tok.front())) {
        // `report -l`: the "%3d" CPU fused with the flags, "0d.h1."
        const size_t d = static_cast<size_t>(std::find_if_not(tok.begin(), tok.end(), isDigit) - tok.begin());
        if (d > 6 || !parseDec(tok.substr(0, d), out.cpu) ||
            !parseFlagsColumn(tok.substr(d), out.flags, out.preempt))
            return false;
        // libtraceevent prints 'N' for NEED_RESCHED alone (checked against `report -F common_flags & 32`)
        if (tok[d + 1] == 'N') out.flags = static_cast<uint8_t>(out.flags & ~0x20);
        out.latencyColumns = true;
    } else {
        sp = h.find_last_of(" \t");
        if (sp == npos || !parseFlagsColumn(tok, out.flags, out.preempt) ||
            !parseBracketCpu(h.substr(sp + 1), out.cpu))
            return false;
        h = rtrim(h.substr(0, sp));
    }
    // options/record-tgid: "(   123)" or "(-------)"
    if (!h.empty() && h.back() == ')') {
        const size_t open = h.rfind('(');
        if (open == npos) return false;
        const std::string_view tgid = h.substr(open + 1, h.size() - open - 2);
        if (!std::all_of(tgid.begin(), tgid.end(), [](char c) { return isDigit(c) || c == ' ' || c == '-'; }))
            return false;
        h = rtrim(h.substr(0, open));
    }
    // The pid is after the last '-': comms may contain dashes and spaces.
    const size_t dash = h.rfind('-');
    if (dash == npos) return false;
    const std::string_view pidTok = h.substr(dash + 1);
    if (pidTok.size() > 10 || !allDigits(pidTok) || !parseDec(pidTok, out.pid)) return false;
    std::string_view commArea = h.substr(0, dash);
    std::string_view prefix;
    std::string_view rest;
    // The comm column is right-aligned in 16 columns (8 with -l, which it then fills), so text at column 0
    // followed by ": " is an instance prefix; after leading spaces only a prefix the caller knows is.
    if (!commArea.empty() && !isSpace(commArea.front())) {
        if (splitPrefix(commArea, prefix, rest)) {
            out.prefix = prefix;
            commArea = rest;
        }
    } else if (prefixes && splitPrefix(ltrim(commArea), prefix, rest) && prefixes->known(prefix)) {
        out.prefix = prefix;
        commArea = rest;
    }
    out.comm = ltrim(commArea);
    return true;
}

bool parseNameAndFields(std::string_view rest, ParsedLine &out)
{
    rest = ltrim(rest);
    // `report --ts-diff`: "(+844)" between the timestamp and the name
    if (rest.size() > 2 && rest[0] == '(' && (rest[1] == '+' || rest[1] == '-')) {
        const size_t close = rest.find(')');
        if (close == npos) return false;
        rest = ltrim(rest.substr(close + 1));
    }
    out.fields = {};
    if (rest.starts_with("<stack trace>") || rest.starts_with("<user stack trace>")) {
        out.name = rest[1] == 's' ? "stack_trace" : "user_stack_trace";
        return true;
    }
    out.syscall = 0;
    if (rest.starts_with("sys_")) {
        const size_t open = rest.find('('), arrow = rest.find(" -> ");
        const size_t end = std::min(open, arrow);
        if (end != npos && end > 4 && end <= 256 && !hasSpace(rest.substr(0, end)) &&
            rest.substr(0, end).find(':') == npos) {
            out.name = rest.substr(0, end);
            out.fields = end == open ? rest.substr(open) : rest.substr(arrow + 1);
            out.syscall = end == open ? 1 : 2;
            return true;
        }
    }
    const size_t c = rest.find(':');
    // The function tracer's lines name no event: "copy_process.part.5+0x14/0x1acc <-_do_fork+0xc0/0x41c"
    // (options/print-parent, sym-offset), "vfs_read <ffffffff811c2a40> <-ksys_read <ffffffff811c2b3f>"
    // (sym-addr), or the function alone: kept as a "function" event with the text as written.
    const std::string_view first = rest.substr(0, rest.find(' '));
    if (!first.empty() && first.size() <= 256 && c == npos &&
        std::all_of(first.begin(), first.end(), [](char ch) {
            return isDigit(ch) || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' ||
                   ch == '.' || ch == '+' || ch == '/' || ch == '$';
        })) {
        out.name = "function";
        out.fields = rest;
        return true;
    }
    if (c == 0 || c == npos || c > 256) return false;
    out.name = rest.substr(0, c);
    out.fields = ltrim(rest.substr(c + 1));
    // options/sym-addr: a print event's caller with its address, "tracing_mark_write <ffffffff814abf11>"
    if (const size_t lt = out.name.find(" <"); lt != npos && out.name.back() == '>') {
        const std::string_view addr = out.name.substr(lt + 2, out.name.size() - lt - 3);
        if (!addr.empty() && std::all_of(addr.begin(), addr.end(),
                                         [](char ch) { return isDigit(ch) || (ch >= 'a' && ch <= 'f'); }))
            out.name = out.name.substr(0, lt);
    }
    // options/sym-offset: the same caller with its offset, "tracing_mark_write+0x91/0x170"
    if (const size_t plus = out.name.find("+0x"); plus != npos && out.name.find('/', plus) != npos)
        out.name = scan::stripSymbolOffset(out.name);
    return !hasSpace(out.name);
}

// tracefs's latency format (options/latency-format): "  1234us#: ", microseconds since the buffer's start
// then the delay mark of the next event ('$' > 1 s, '@' > 100 ms, '*' > 10 ms, '#' > 1 ms, '!' > 100 us,
// '+' > 10 us, ' ').
bool parseMicrosecondEvent(std::string_view line, const PrefixOracle *prefixes, ParsedLine &out)
{
    static constexpr std::string_view kMarks = " +!#*@$";
    const std::string_view head = line.substr(0, std::min(line.size(), kMaxHead));
    for (size_t us = head.find("us"); us != npos; us = head.find("us", us + 2)) {
        if (us + 4 >= line.size() || kMarks.find(line[us + 2]) == npos || line[us + 3] != ':' ||
            line[us + 4] != ' ')
            continue;
        size_t b = us;
        while (b > 0 && isDigit(line[b - 1]))
            --b;
        uint64_t v = 0;
        if (b == us || b == 0 || !isSpace(line[b - 1]) || us - b > 15 || !parseDec(line.substr(b, us - b), v))
            continue;
        if (!parseHead(line.substr(0, b), prefixes, out) || !out.latencyColumns) continue;
        out.ts = static_cast<int64_t>(v) * 1000;
        out.microseconds = true;
        if (!parseNameAndFields(line.substr(us + 4), out)) return false;
        out.kind = LineKind::Event;
        return true;
    }
    return false;
}

bool parseEvent(std::string_view line, const PrefixOracle *prefixes, ParsedLine &out)
{
    const size_t limit = std::min(line.size(), kMaxHead);
    size_t pos = 0;
    for (int tries = 0; tries < kMaxTsCandidates && pos < limit;) {
        const void *hit = std::memchr(line.data() + pos, ':', limit - pos);
        if (!hit) break;
        const size_t colon = static_cast<size_t>(static_cast<const char *>(hit) - line.data());
        pos = colon + 1;
        if (colon + 1 >= line.size() || line[colon + 1] != ' ') continue;
        size_t b = colon;
        while (b > 0 && (isDigit(line[b - 1]) || line[b - 1] == '.'))
            --b;
        if (b == colon || b == 0 || !isSpace(line[b - 1])) continue;
        ++tries;
        if (!parseTimestamp(line.substr(b, colon - b), out.ts) ||
            !parseHead(line.substr(0, b), prefixes, out))
            continue;
        if (!parseNameAndFields(line.substr(colon + 1), out)) return false;
        out.kind = LineKind::Event;
        return true;
    }
    return parseMicrosecondEvent(line, prefixes, out);
}

// "CPU:1 [LOST 12 EVENTS]" (tracefs), "CPU:0 [12 EVENTS DROPPED]", "CPU:0 [EVENTS DROPPED]" (trace-cmd)
bool parseLost(std::string_view s, ParsedLine &out)
{
    if (!s.starts_with("CPU:")) return false;
    const size_t sp = s.find(" [");
    if (sp == npos || !parseDec(s.substr(4, sp - 4), out.cpu) || out.cpu < 0) return false;
    const std::string_view b = s.substr(sp + 2);
    out.lostCount = 0;
    if (b.starts_with("LOST ") && b.ends_with(" EVENTS]"))
        return parseDec(b.substr(5, b.size() - 13), out.lostCount);
    if (b == "EVENTS DROPPED]") return true;
    return b.ends_with(" EVENTS DROPPED]") && parseDec(b.substr(0, b.size() - 16), out.lostCount);
}

void parseComment(std::string_view s, ParsedLine &out)
{
    out.kind = LineKind::Comment;
    out.tracerHeader = s.starts_with("# tracer:");
    const size_t p = s.find("#P:");
    constexpr std::string_view kEntries = "entries-in-buffer/entries-written:";
    if (const size_t e = s.find(kEntries); e != npos) {
        std::string_view v = ltrim(s.substr(e + kEntries.size()));
        v = v.substr(0, v.find_first_of(" \t"));
        const size_t slash = v.find('/');
        if (slash == npos || !parseDec(v.substr(0, slash), out.entriesInBuffer) ||
            !parseDec(v.substr(slash + 1), out.entriesWritten))
            out.entriesInBuffer = out.entriesWritten = 0;
    }
    if (p != npos && s.find("entries-in-buffer") != npos) {
        const std::string_view n = s.substr(p + 3);
        parseDec(n.substr(0, static_cast<size_t>(std::find_if_not(n.begin(), n.end(), isDigit) - n.begin())),
                 out.cpus);
    }
}

} // namespace

// ---- public ---------------------------------------------------------------------------------------------

bool parseTimestamp(std::string_view tok, int64_t &ns)
{
    constexpr uint64_t kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    const size_t dot = tok.find('.');
    uint64_t secs = 0;
    if (dot == npos) { // counter clocks print a plain integer
        if (tok.size() > 19 || !allDigits(tok) || !parseDec(tok, secs) || secs > kMax) return false;
        ns = static_cast<int64_t>(secs);
        return true;
    }
    const std::string_view frac = tok.substr(dot + 1);
    if (dot > 11 || !allDigits(tok.substr(0, dot)) || frac.size() > 18 || !allDigits(frac) ||
        !parseDec(tok.substr(0, dot), secs) || secs >= kMax / 1000000000u)
        return false;
    uint64_t f = 0;
    for (size_t n = 0; n < 9; ++n)
        f = f * 10 + (n < frac.size() ? static_cast<uint64_t>(frac[n] - '0') : 0);
    ns = static_cast<int64_t>(secs * 1000000000u + f);
    return true;
}

bool parseFlagsColumn(std::string_view tok, uint8_t &flags, uint8_t &preempt)
{
    // Kernel trace_print_lat_fmt(): irqs-off, need-resched, hardirq/softirq, preempt depth, migrate-disable.
    // Bits: IRQS_OFF 0x01, NEED_RESCHED_LAZY 0x02, NEED_RESCHED 0x04, HARDIRQ 0x08, SOFTIRQ 0x10,
    // PREEMPT_RESCHED 0x20, NMI 0x40, BH_OFF 0x80. 'X' (irq flags not supported) says nothing.
    static constexpr std::string_view kIrq = ".XdDb";
    static constexpr uint8_t kIrqBits[] = {0, 0, 0x01, 0x81, 0x80};
    static constexpr std::string_view kResched = ".nNplLbB";
    static constexpr uint8_t kReschedBits[] = {0, 0x04, 0x24, 0x20, 0x02, 0x22, 0x06, 0x26};
    static constexpr std::string_view kCtx = ".hsHzZ"; // 'Z' is printed for nmi && hardirq, 'z' for nmi only
    static constexpr uint8_t kCtxBits[] = {0, 0x08, 0x10, 0x18, 0x40, 0x48};
    static constexpr std::string_view kHex = ".123456789abcdef";
    if (tok.size() != 4 && tok.size() != 5) return false;
    const size_t a = kIrq.find(tok[0]);
    const size_t b = kResched.find(tok[1]);
    const size_t c = kCtx.find(tok[2]);
    const size_t d = kHex.find(tok[3]);
    const size_t m = tok.size() == 5 ? kHex.find(tok[4]) : 0;
    if (a == npos || b == npos || c == npos || d == npos || m == npos) return false;
    flags = kIrqBits[a] | kReschedBits[b] | kCtxBits[c];
    preempt = static_cast<uint8_t>(d | (m << 4));
    return true;
}

ParsedLine parseLine(std::string_view line, const PrefixOracle *prefixes)
{
    ParsedLine out;
    while (!line.empty() && (line.back() == '\r' || isSpace(line.back())))
        line.remove_suffix(1);
    const std::string_view s = ltrim(line);
    if (s.empty()) {
        out.kind = LineKind::Empty;
    } else if (s[0] == '#') {
        parseComment(s, out);
    } else if (s.starts_with("=>")) {
        out.kind = LineKind::StackLine;
    } else if (!parseEvent(line, prefixes, out)) {
        out = ParsedLine{};
        std::string_view body = s;
        std::string_view rest;
        if (!s.starts_with("CPU") && !s.starts_with("cpus=") && splitPrefix(s, out.prefix, rest)) body = rest;
        if (body.starts_with("cpus=") && parseDec(body.substr(5), out.cpus) && out.cpus > 0)
            out.kind = LineKind::CpusHeader;
        else if (parseLost(body, out))
            out.kind = LineKind::Lost;
        else if (body.starts_with("CPU ") && body.ends_with(" is empty") &&
                 parseDec(body.substr(4, body.size() - 13), out.cpu))
            out.kind = LineKind::CpuEmpty;
        else
            out = ParsedLine{};
    }
    return out;
}

// A "[003]" CPU column: the line is an event line, however damaged (e.g. an overflowing timestamp).
bool hasCpuColumn(std::string_view line)
{
    for (size_t open = line.find('['); open != std::string_view::npos; open = line.find('[', open + 1)) {
        size_t k = open + 1;
        while (k < line.size() && line[k] >= '0' && line[k] <= '9')
            ++k;
        if (k > open + 1 && k < line.size() && line[k] == ']') return true;
    }
    return false;
}

// trace-cmd prints "version = 6" and the like before "cpus=N".
bool looksLikeHeader(std::string_view line)
{
    const size_t start = line.find_first_not_of(" \t");
    if (line.size() > 256 || start == std::string_view::npos || hasCpuColumn(line)) return false;
    const char c = line[start];
    return ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) &&
           line.find_first_of("=:") != std::string_view::npos &&
           std::all_of(line.begin(), line.end(),
                       [](char ch) { return (ch >= 0x20 && ch < 0x7f) || ch == '\t' || ch == '\r'; });
}

std::string unreadableForm(std::string_view line)
{
    const auto word = [&](size_t &at, auto accept) {
        const size_t from = at;
        while (at < line.size() && accept(line[at]))
            ++at;
        const bool ok = at > from && at < line.size() && line[at] == ' ';
        ++at;
        return ok;
    };
    const auto isHex = [](char c) { return isDigit(c) || (c >= 'a' && c <= 'f'); };
    size_t at = 0;
    if (word(at, isDigit) && word(at, isDigit) && word(at, isDigit))
        return "ftrace text in the raw form (tracefs options/raw): its lines give event type numbers, not "
               "the events' names and fields; read the trace with options/raw off, or record a trace.dat";
    at = 0;
    if (word(at, isHex) && word(at, isHex) && word(at, isHex) && at == 8 + 1 + 8 + 1 + 16 + 1)
        return "ftrace text in the hex form (tracefs options/hex): its lines give event type numbers, not "
               "the events' names and fields; read the trace with options/hex off, or record a trace.dat";
    at = 0;
    const auto isName = [](char c) { return (c >= 'a' && c <= 'z') || isDigit(c) || c == '_'; };
    if (!line.empty() && line[0] >= 'a' && line[0] <= 'z' &&
        word(at, [&](char c) { return isName(c) || c == ':'; }) && line[at - 2] == ':')
        return "ftrace text without the context columns (tracefs options/context-info off): no task, CPU or "
               "timestamp on its lines; read the trace with options/context-info on";
    return {};
}

} // namespace tickscope::text
