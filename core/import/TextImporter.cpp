// SPDX-License-Identifier: GPL-3.0-or-later
#include "TextImporter.h"

#include "FuncGraphText.h"
#include "InputFile.h"
#include "MemoryFit.h"
#include "TextLineParser.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <optional>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>
#include <utility>

namespace tickscope {
namespace {

using text::LineKind;
using text::ParsedLine;

constexpr size_t kProgressStep = size_t{1} << 20;
constexpr int kMaxCpus = 8192;
// Real traces have a few hundred event types; the cap keeps a file of random "name:" lines from making
// Trace::addType (a linear scan) quadratic.
constexpr size_t kMaxTypes = 8192;
constexpr int64_t kNoTs = INT64_MIN;

struct SvHash
{
    using is_transparent = void;
    size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};
template <class V> using SvMap = std::unordered_map<std::string, V, SvHash, std::equal_to<>>;

struct TypeRef
{
    uint16_t id;
    EventKind kind;
};

struct CommSlot
{
    uint32_t id = 0;
    std::string_view str; // the pool's copy
};

struct CpuState
{
    std::unique_ptr<CpuEvents> events;
    int64_t lastTs = kNoTs;
    long openLost = -1;         // index in events->lost of a range still waiting for its first event after
    int32_t colPid = INT32_MIN; // task column of the previous line, to skip the task table for repeats
    std::string_view graphTask; // function_graph text: the task of the last context switch shown (comm-pid)
    std::string colComm;
};

// One Trace being filled: the top-level buffer ("") or one instance prefix.
struct Instance
{
    std::string name;
    std::unique_ptr<Trace> trace = std::make_unique<Trace>();
    int cpusHeader = 0;
    std::vector<CpuState> cpus;
    SvMap<TypeRef> types;
    SvMap<uint16_t> undecodedTypes;
    std::unordered_map<int32_t, CommSlot> comms;
    TaskTable::Recorder rec;
    int64_t minTs = INT64_MAX;
    int64_t maxTs = INT64_MIN;
    size_t events = 0;
    std::map<std::string, size_t, std::less<>> undecoded;
    size_t undecodedTotal = 0;
    std::string firstUndecoded;
    size_t timerStarts = 0;
    size_t timerStartsDPI = 0;
    // function_graph lines, per CPU
    std::vector<funcgraph::CpuBuilder> graph;
    size_t graphLines = 0;
    size_t graphNoCpu = 0;
    size_t graphEvents = 0;         // events taken from among the calls ("/* name: fields */")
    size_t graphEventsUnplaced = 0; // those without a timestamp or a CPU column: left out
    size_t graphEventsNoTask = 0;   // before their CPU's first context switch, without funcgraph-proc
    size_t graphBadDurations = 0;
    std::string firstGraphBad;
};

// A line for a warning: at most 100 bytes, control and non-ASCII bytes shown as '?'.
std::string quoteLine(std::string_view line)
{
    std::string q = "\"";
    for (char c : line.substr(0, 100))
        q += (c >= 0x20 && c < 0x7f) ? c : '?';
    q += line.size() > 100 ? "...\"" : "\"";
    return q;
}

// What the function_graph lines could not give: one warning per kind of loss.
void graphWarnings(const Instance &in, std::vector<std::string> &out)
{
    if (!in.graphLines) return;
    size_t open = 0, abandoned = 0, unmatched = 0, missing = 0;
    for (const funcgraph::CpuBuilder &b : in.graph) {
        open += b.open();
        abandoned += b.abandoned;
        unmatched += b.unmatchedExits;
        missing += b.missingDurations;
    }
    auto n = [](size_t k, const char *one, const char *many) {
        return std::to_string(k) + " " + (k == 1 ? one : many);
    };
    if (in.graphNoCpu)
        out.push_back(n(in.graphNoCpu, "function_graph line has", "function_graph lines have") +
                      " no CPU column (funcgraph-cpu off): their calls are counted on CPU 0");
    if (in.graphEventsUnplaced)
        out.push_back(n(in.graphEventsUnplaced, "event", "events") + " among the function_graph calls " +
                      (in.graphEventsUnplaced == 1 ? "has" : "have") +
                      " no timestamp or no CPU column (funcgraph-abstime or funcgraph-cpu off), left out");
    if (in.graphEventsNoTask)
        out.push_back(n(in.graphEventsNoTask, "event", "events") + " among the function_graph calls " +
                      (in.graphEventsNoTask == 1 ? "comes" : "come") +
                      " before the first context switch on its CPU and the text has no task column "
                      "(funcgraph-proc off): their task is not known, nor the context of ticks there");
    if (in.graphBadDurations)
        out.push_back(n(in.graphBadDurations, "function_graph line has", "function_graph lines have") +
                      " a duration that is not \"N.NNN us\" (first at " + in.firstGraphBad + ")");
    if (missing) out.push_back(n(missing, "call", "calls") + " without a usable duration, left out");
    if (open) out.push_back(n(open, "call", "calls") + " had not returned when the trace ends, left out");
    if (abandoned)
        out.push_back(n(abandoned, "call", "calls") +
                      " never returned before a shallower call on their CPU (lost records or lines cut "
                      "from a paste), left out");
    if (unmatched)
        out.push_back(
            n(unmatched, "return", "returns") +
            " (\"}\") whose call is not in the trace and that funcgraph-tail does not name, left out");
}

class TextImport final : public text::PrefixOracle
{
public:
    TextImport(const InputFile &file, const LoadOptions &options)
        : path_(file.path()), opt_(options), file_(file)
    {
    }

    std::vector<std::unique_ptr<Trace>> run();
    bool known(std::string_view prefix) const override { return instances_.find(prefix) != instances_.end(); }

private:
    void onLine(std::string_view line, bool unterminated);
    void onEvent(ParsedLine &pl, std::string_view line);
    void onLost(const ParsedLine &pl);
    void onGraph(Instance &in, const funcgraph::Line &g, std::string_view line);
    void onGraphEvent(Instance &in, const funcgraph::Line &g, std::string_view line);
    Instance &instance(std::string_view prefix);
    CpuState &cpu(Instance &in, int c);
    bool type(Instance &in, std::string_view name, TypeRef &t);
    void noteComm(Instance &in, int64_t ts, int32_t pid, std::string_view comm, bool truncated);
    void badLine(std::string_view line);
    bool outsideWindow(int64_t ts) const { return window_ && (ts < window_->first || ts > window_->second); }
    std::vector<std::unique_ptr<Trace>> finish();

    const std::string &path_;
    const LoadOptions &opt_;
    const InputFile &file_;
    SvMap<std::unique_ptr<Instance>> instances_;
    std::vector<Instance *> order_;
    Instance *last_ = nullptr;
    size_t lineNo_ = 0;
    size_t estLines_ = 0;
    int fileCpus_ = 0;
    // tracefs' `# entries-in-buffer/entries-written: A/B` header (the last one; how many were seen)
    uint64_t entriesInBuffer_ = 0, entriesWritten_ = 0;
    size_t entryHeaders_ = 0;
    bool tracefsHeader_ = false;
    bool traceCmdEvidence_ = false;
    bool sawEvent_ = false;
    size_t badLines_ = 0;
    std::string firstBad_;
    std::string firstBadForm_;    // the unreadable tracefs form the first bad line is in, if any
    bool microseconds_ = false;   // tracefs's latency format: times in whole microseconds
    std::string firstHeaderForm_; // the same, of the first header-like line (context-info off looks like one)
    size_t headerLines_ = 0;
    std::string truncated_;
    std::string carryPrefix_;
    bool carry_ = false;
    // --load-window: the first line's time, the window in ns, the last event line's time read (kept or not)
    // and how many lines fell outside it.
    int64_t firstTs_ = kNoTs;
    std::optional<std::pair<int64_t, int64_t>> window_;
    int64_t lastReadTs_ = kNoTs;
    size_t outside_ = 0;
};

std::vector<std::unique_ptr<Trace>> TextImport::run()
{
    const std::string_view data = file_.bytes();
    if (data.empty()) throw LoadError(path_ + ": the file is empty");
    // Reservations are sized from the line length of the first 256 KiB (address space only until used).
    const std::string_view sample = data.substr(0, size_t{256} * 1024);
    const auto sampleLines = static_cast<size_t>(std::count(sample.begin(), sample.end(), '\n'));
    estLines_ = data.size() / std::max<size_t>(sample.size() / std::max<size_t>(sampleLines, 1), 16) + 16;
    const TextWeight w = weighText(path_, data, estLines_, opt_, this);
    firstTs_ = w.first;
    window_ = w.window;

    size_t pos = 0;
    size_t nextReport = kProgressStep;
    while (pos < data.size()) {
        const char *s = data.data() + pos;
        const auto *nl = static_cast<const char *>(std::memchr(s, '\n', data.size() - pos));
        const size_t len = nl ? static_cast<size_t>(nl - s) : data.size() - pos;
        ++lineNo_;
        onLine({s, len}, nl == nullptr);
        pos += len + 1;
        if (pos >= nextReport) {
            checkCancel(opt_);
            if (opt_.progress) opt_.progress(static_cast<double>(std::min(pos, data.size())) / data.size());
            nextReport = pos + kProgressStep;
        }
    }
    auto traces = finish();
    if (opt_.progress) opt_.progress(1.0);
    return traces;
}

void TextImport::onLine(std::string_view line, bool unterminated)
{
    // Tools end their output with a newline: a last line without one was cut (a copy of a live file, an
    // interrupted download) and its numbers may be cut too. Only a file of that one line is parsed.
    if (unterminated && sawEvent_) {
        if (line.find_first_not_of(" \t\r") != std::string_view::npos) truncated_ = quoteLine(line);
        return;
    }
    ParsedLine pl = text::parseLine(line, this);
    // trace-cmd prints "inst: CPU:1 [12 EVENTS DROPPED]" and then the next record without its prefix.
    const bool carry = std::exchange(carry_, false);
    switch (pl.kind) {
    case LineKind::Empty:
    case LineKind::StackLine:
        return;
    case LineKind::Comment:
        tracefsHeader_ = tracefsHeader_ || pl.tracerHeader;
        if (pl.cpus > 0 && pl.cpus <= kMaxCpus) fileCpus_ = pl.cpus;
        if (pl.entriesWritten) {
            ++entryHeaders_;
            entriesInBuffer_ = pl.entriesInBuffer;
            entriesWritten_ = pl.entriesWritten;
        }
        return;
    case LineKind::CpusHeader:
        traceCmdEvidence_ = true;
        if (pl.cpus > kMaxCpus) break;
        if (pl.prefix.empty())
            fileCpus_ = pl.cpus;
        else
            instance(pl.prefix).cpusHeader = pl.cpus;
        return;
    case LineKind::CpuEmpty:
        traceCmdEvidence_ = true;
        return;
    case LineKind::Lost:
        if (pl.cpu >= kMaxCpus) break;
        if (window_ && (lastReadTs_ == kNoTs ? window_->first > firstTs_ : outsideWindow(lastReadTs_))) {
            ++outside_; // (lost before the next event read: in the window when the last event read was)
            return;
        }
        onLost(pl);
        if (!pl.prefix.empty()) {
            carryPrefix_.assign(pl.prefix);
            carry_ = true;
        }
        return;
    case LineKind::Event:
        if (pl.cpu >= kMaxCpus) break;
        if (pl.prefix.empty() && carry) pl.prefix = carryPrefix_;
        lastReadTs_ = pl.ts;
        if (outsideWindow(pl.ts)) {
            ++outside_;
            return;
        }
        onEvent(pl, line);
        return;
    case LineKind::Bad:
        if (const funcgraph::Line g = funcgraph::parseLine(line); g.kind != funcgraph::LineKind::None) {
            if (window_ && g.kind != funcgraph::LineKind::Other) {
                if (g.ts == kNoTs)
                    throw LoadError(path_ + ": --load-window: the function_graph lines show no time "
                                            "(funcgraph-abstime was off); load the file whole");
                if (outsideWindow(g.ts)) {
                    ++outside_;
                    return;
                }
            }
            onGraph(instance(""), g, line);
            return;
        }
        if (!sawEvent_ && text::looksLikeHeader(line)) {
            // a header line, or the first of a text in a form no line of which parses
            if (firstHeaderForm_.empty() && !headerLines_++) firstHeaderForm_ = text::unreadableForm(line);
            return;
        }
        break;
    }
    badLine(line);
}

void TextImport::badLine(std::string_view line)
{
    if (badLines_++ == 0) {
        firstBad_ = "line " + std::to_string(lineNo_) + ": " + quoteLine(line);
        firstBadForm_ = text::unreadableForm(line);
    }
}

Instance &TextImport::instance(std::string_view prefix)
{
    if (last_ && last_->name == prefix) return *last_;
    auto it = instances_.find(prefix);
    if (it == instances_.end()) {
        auto in = std::make_unique<Instance>();
        in->name = prefix;
        order_.push_back(in.get());
        it = instances_.emplace(std::string(prefix), std::move(in)).first;
    }
    last_ = it->second.get();
    return *last_;
}

CpuState &TextImport::cpu(Instance &in, int c)
{
    if (static_cast<size_t>(c) >= in.cpus.size()) in.cpus.resize(static_cast<size_t>(c) + 1);
    CpuState &cs = in.cpus[static_cast<size_t>(c)];
    if (!cs.events) {
        cs.events = std::make_unique<CpuEvents>(&in.trace->typeSizes());
        const int hint = in.cpusHeader ? in.cpusHeader : fileCpus_ ? fileCpus_ : 4;
        const size_t n = std::min(estLines_, estLines_ * 2 / static_cast<size_t>(hint) + 4096);
        cs.events->reserve(n, n * 20);
    }
    return cs;
}

bool TextImport::type(Instance &in, std::string_view name, TypeRef &t)
{
    if (auto it = in.types.find(name); it != in.types.end()) {
        t = it->second;
        return true;
    }
    if (in.trace->types().size() >= kMaxTypes) return false;
    const uint16_t id = in.trace->addType("", name);
    t = TypeRef{id, in.trace->kind(id)};
    in.types.emplace(std::string(name), t);
    return true;
}

void TextImport::noteComm(Instance &in, int64_t ts, int32_t pid, std::string_view comm, bool truncated)
{
    if (comm.empty() || comm == "<...>") return; // "<...>": the kernel did not know the comm
    auto [it, inserted] = in.comms.try_emplace(pid);
    CommSlot &e = it->second;
    if (!inserted) {
        if (e.str == comm) return;
        // The idle tasks share pid 0 (swapper/N per CPU, "<idle>" in the task column): keep one name.
        if (pid == 0 && e.str != "<idle>") return;
        // `report -l` cuts the task column to 8 characters.
        if (truncated && e.str.starts_with(comm)) return;
    }
    e.id = in.trace->strings.intern(comm, &e.str);
    in.rec.note(ts, pid, e.id);
}

void TextImport::onGraph(Instance &in, const funcgraph::Line &g, std::string_view line)
{
    if (g.kind == funcgraph::LineKind::Event) return onGraphEvent(in, g, line);
    if (g.kind == funcgraph::LineKind::Other && g.cpu >= 0 && g.cpu < kMaxCpus && !g.proc.empty())
        cpu(in, g.cpu).graphTask = g.proc; // a context switch's next task
    int c = g.cpu;
    if (c < 0 && g.kind == funcgraph::LineKind::Other) { // a context-switch banner's dashes: nothing to count
        ++in.graphLines;
        sawEvent_ = true;
        return;
    }
    if (c < 0) {
        c = 0;
        ++in.graphNoCpu;
    }
    if (c >= kMaxCpus) return badLine(line);
    const auto cpu = static_cast<size_t>(c);
    if (in.graph.size() <= cpu) in.graph.resize(cpu + 1);
    auto &spans = in.trace->functions.cpus;
    if (spans.size() <= cpu) spans.resize(cpu + 1);
    if (g.badDuration && in.graphBadDurations++ == 0)
        in.firstGraphBad = "line " + std::to_string(lineNo_) + ": " + quoteLine(line);
    // the CPU's events of the line's microsecond read before it: the last ones read (unknown without a
    // CPU column)
    uint8_t tied = g.cpu < 0 ? FunctionSpan::kTiesUnknown : 0;
    if (g.cpu >= 0 && cpu < in.cpus.size() && g.ts != kNoTs && in.cpus[cpu].lastTs == g.ts) {
        const CpuEvents &ev = *in.cpus[cpu].events;
        for (size_t i = ev.size(); i-- > 0 && tied < FunctionSpan::kTiesUnknown && ev.ts(i) == g.ts;)
            ++tied;
    }
    in.graph[cpu].add(g, lineNo_, tied, in.trace->strings, spans[cpu]);
    ++in.graphLines;
    sawEvent_ = true;
}

void TextImport::onGraphEvent(Instance &in, const funcgraph::Line &g, std::string_view line)
{
    // An event among the calls: placed by the funcgraph-abstime and -cpu columns, its task from the
    // funcgraph-proc column or else the CPU's last context switch shown (unknown before the first).
    sawEvent_ = true;
    if (g.ts == kNoTs || g.cpu < 0 || g.cpu >= kMaxCpus) {
        ++in.graphEventsUnplaced;
        return;
    }
    ++in.graphEvents;
    ParsedLine pl;
    pl.kind = text::LineKind::Event;
    pl.prefix = in.name;
    pl.cpu = g.cpu;
    pl.ts = g.ts;
    pl.name = g.name.empty() ? kinds::spec(EventKind::Print).textName : g.name;
    pl.fields = g.fields;
    pl.pid = -1;
    const std::string_view task = g.proc.empty() ? cpu(in, g.cpu).graphTask : g.proc;
    if (task.empty()) ++in.graphEventsNoTask;
    if (const size_t dash = task.rfind('-'); dash != std::string_view::npos) {
        std::from_chars(task.data() + dash + 1, task.data() + task.size(), pl.pid);
        pl.comm = task.substr(0, dash);
        pl.commCut = pl.comm.size() >= 7; // (the tracer cuts a comm to 7 characters)
    }
    if (!g.latency.empty()) pl.hasFlags = text::parseFlagsColumn(g.latency, pl.flags, pl.preempt);
    onEvent(pl, line);
}

void TextImport::onEvent(ParsedLine &pl, std::string_view line)
{
    Instance &in = instance(pl.prefix);
    // trace-cmd report of a function_graph recording: the calls, not events.
    if (pl.name == "funcgraph_entry" || pl.name == "funcgraph_exit") {
        funcgraph::Line g = funcgraph::parseBody(pl.fields, pl.name == "funcgraph_exit", pl.ts);
        if (g.kind == funcgraph::LineKind::None) return badLine(line);
        g.cpu = pl.cpu;
        traceCmdEvidence_ = true;
        return onGraph(in, g, line);
    }
    // tracefs shows the ftrace print event as "tracing_mark_write: message": the ip, not an event name.
    const KindSpec &print = kinds::spec(EventKind::Print);
    const bool rawPrint = pl.name == print.textName;
    std::string
        syscallName; // "sys_openat(...)" is syscalls:sys_enter_openat, "sys_openat -> 3" sys_exit_openat
    if (pl.syscall)
        syscallName = (pl.syscall == 1 ? "sys_enter_" : "sys_exit_") + std::string(pl.name.substr(4));
    const std::string_view name = rawPrint     ? print.name()
                                  : pl.syscall ? std::string_view(syscallName)
                                               : pl.name;
    TypeRef t{};
    if (!type(in, name, t)) return badLine(line);
    text::Decoded d;
    uint16_t typeId = t.id;
    if (!text::decodeFields(t.kind, pl.fields, in.trace->strings, d, rawPrint)) {
        // A known event whose fields match no known form: kept as a Generic event of the same name, in a
        // type of its own (system "unparsed") so that the kind of `name` stays right.
        auto [it, inserted] = in.undecodedTypes.try_emplace(std::string(name), uint16_t{0});
        if (inserted) it->second = in.trace->addType("unparsed", name);
        typeId = it->second;
        d = text::Decoded{};
        d.set(TextP{in.trace->strings.intern(pl.fields)});
        if (in.undecodedTotal++ == 0)
            in.firstUndecoded = "line " + std::to_string(lineNo_) + ": " + quoteLine(line);
        auto u = in.undecoded.find(name);
        if (u == in.undecoded.end()) u = in.undecoded.emplace(std::string(name), 0).first;
        ++u->second;
    } else if (t.kind == EventKind::TimerStart) {
        ++in.timerStarts;
        in.timerStartsDPI += d.timerFlagsDPI;
    }
    traceCmdEvidence_ =
        traceCmdEvidence_ || (pl.latencyColumns && !pl.microseconds) || d.pluginForm || !pl.prefix.empty();
    microseconds_ = microseconds_ || pl.microseconds;
    sawEvent_ = true;

    CpuState &cs = cpu(in, pl.cpu);
    if (cs.colPid != pl.pid || cs.colComm != pl.comm) {
        noteComm(in, pl.ts, pl.pid, pl.comm, pl.latencyColumns || pl.commCut);
        cs.colPid = pl.pid;
        cs.colComm.assign(pl.comm);
    }
    for (int i = 0; i < d.taskCount; ++i)
        noteComm(in, pl.ts, d.tasks[i].pid, d.tasks[i].comm, false);
    cs.events->append(pl.ts, typeId, pl.flags, pl.preempt, pl.pid, d.payload, d.size);
    if (cs.openLost >= 0) {
        LostRange &r = cs.events->lost[static_cast<size_t>(cs.openLost)];
        r.to = pl.ts;
        r.next = static_cast<uint32_t>(cs.events->size() - 1);
        if (r.from == kNoTs) r.from = pl.ts;
        cs.openLost = -1;
    }
    cs.lastTs = pl.ts;
    in.minTs = std::min(in.minTs, pl.ts);
    in.maxTs = std::max(in.maxTs, pl.ts);
    ++in.events;
}

void TextImport::onLost(const ParsedLine &pl)
{
    Instance &in = instance(pl.prefix);
    CpuState &cs = cpu(in, pl.cpu);
    auto &lost = cs.events->lost;
    if (cs.openLost >= 0) { // two reports before the next event: one gap
        LostRange &r = lost[static_cast<size_t>(cs.openLost)];
        r.count = CpuEvents::addLostCounts(r.count, pl.lostCount);
        return;
    }
    // The gap starts after the CPU's last event; when it opens the CPU's data, from == to (set then).
    LostRange r;
    r.from = cs.lastTs;
    r.to = kNoTs;
    r.count = pl.lostCount;
    r.opens = cs.lastTs == kNoTs;
    lost.push_back(r);
    cs.openLost = static_cast<long>(lost.size()) - 1;
}

std::vector<std::unique_ptr<Trace>> TextImport::finish()
{
    std::vector<Instance *> live;
    for (Instance *in : order_) {
        if (in->events || in->graphLines) live.push_back(in);
    }
    if (live.empty() && outside_)
        throw LoadError(path_ +
                        ": no events in the chosen window (--load-window: seconds after the first event)");
    if (live.empty() && !firstBadForm_.empty()) throw LoadError(path_ + ": " + firstBadForm_);
    if (live.empty() && !firstHeaderForm_.empty()) throw LoadError(path_ + ": " + firstHeaderForm_);
    if (live.empty())
        throw LoadError(path_ + ": no ftrace events found (not a trace.dat or ftrace text file)");
    std::stable_partition(live.begin(), live.end(), [](const Instance *in) { return in->name.empty(); });
    std::vector<std::string> names(live.size());
    std::transform(live.begin(), live.end(), names.begin(), [](const Instance *in) { return in->name; });

    std::vector<std::string> fileWarnings;
    if (badLines_) {
        fileWarnings.push_back("skipped " + std::to_string(badLines_) + " unparsable line" +
                               (badLines_ == 1 ? "" : "s") + " (first at " + firstBad_ + ")");
    }
    if (microseconds_)
        fileWarnings.push_back("times in whole microseconds since the ring buffer's start (tracefs "
                               "options/latency-format): nothing finer than 1 us is in this text");
    if (!truncated_.empty()) {
        fileWarnings.push_back("skipped the last line: it has no newline (truncated file?): " + truncated_);
    }
    // tracefs' header: what the ring buffer held when the text was read, against what follows
    if (entryHeaders_ == 1 && live.size() == 1 && !live[0]->graphLines && !window_) {
        const uint64_t lines = live[0]->events + badLines_ + (truncated_.empty() ? 0 : 1);
        if (entriesWritten_ > entriesInBuffer_)
            fileWarnings.push_back(
                "the header says " + std::to_string(entriesWritten_) + " events were written and " +
                std::to_string(entriesInBuffer_) + " were in the buffer: the ring buffer overwrote the " +
                std::to_string(entriesWritten_ - entriesInBuffer_) +
                " oldest before the text was read (each CPU's start is later than the recording's)");
        if (lines != entriesInBuffer_)
            fileWarnings.push_back("the header counts " + std::to_string(entriesInBuffer_) +
                                   " entries and the text holds " + std::to_string(lines) +
                                   " event lines: lines were cut or added after tracefs wrote it");
    }
    const bool traceCmd = traceCmdEvidence_ && !tracefsHeader_;
    std::vector<std::unique_ptr<Trace>> out;
    for (Instance *in : live) {
        Trace &t = *in->trace;
        const int header = in->cpusHeader ? in->cpusHeader : fileCpus_;
        t.setCpuCount(
            std::max({header, static_cast<int>(in->cpus.size()), static_cast<int>(in->graph.size())}));
        t.functions.cpus.resize(static_cast<size_t>(t.cpuCount()));
        for (size_t c = 0; c < in->cpus.size(); ++c) {
            CpuState &cs = in->cpus[c];
            if (!cs.events) continue;
            // A gap at the end of the trace lasts to its end: from the CPU's last event to the trace's last
            // (zero-width when that is the CPU's; not one that opens the data, unless nothing came before).
            for (LostRange &r : cs.events->lost) {
                if (r.to == kNoTs) {
                    r.to = std::max(in->maxTs, r.from);
                    r.next = static_cast<uint32_t>(cs.events->size());
                }
                if (r.from == kNoTs) r.from = r.to;
            }
            CpuEvents &dst = t.cpu(static_cast<int>(c));
            dst = std::move(*cs.events);
            if (!dst.sorted()) dst.sortByTime();
        }
        t.tasks.merge(std::move(in->rec.entries));
        t.tasks.finalize();
        t.meta.path = path_;
        t.meta.format = traceCmd ? "trace-cmd report text"
                        : (in->graphLines || in->graphEvents) && in->events == in->graphEvents
                            ? "function_graph text"
                            : "ftrace text";
        t.meta.instance = in->name;
        t.meta.fileInstances = names;
        t.meta.cpuCount = t.cpuCount();
        t.meta.fileBytes = file_.bytes().size();
        t.warnings = fileWarnings;
        if (in->undecodedTotal) {
            std::string w = std::to_string(in->undecodedTotal) +
                            " events of known types could not be decoded and were kept as generic events (";
            for (const auto &[name, n] : in->undecoded)
                w += name + " " + std::to_string(n) + ", ";
            w.resize(w.size() - 2);
            t.warnings.push_back(w + "; first at " + in->firstUndecoded + ")");
        }
        graphWarnings(*in, t.warnings);
        if (traceCmd && in->timerStarts >= 2 && in->timerStartsDPI == in->timerStarts) {
            t.warnings.push_back(
                "all " + std::to_string(in->timerStarts) +
                " timer_start events print flags=D|P|I: libtraceevent misprints this field, so "
                "the D/P/I timer flags of this text are not reliable (cpu, idx and M are)");
        }
        out.push_back(std::move(in->trace));
    }
    return out;
}

} // namespace

std::vector<std::unique_ptr<Trace>> importText(const InputFile &file, const LoadOptions &options)
{
    TextImport imp(file, options);
    return imp.run();
}

std::vector<std::unique_ptr<Trace>> importText(const std::string &path, const LoadOptions &options)
{
    const InputFile file(path, options.streamIdleTimeoutMs);
    return importText(file, options);
}

} // namespace tickscope
