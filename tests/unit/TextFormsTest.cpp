// SPDX-License-Identifier: GPL-3.0-or-later
// tracefs text in the forms its trace_options give it (tests/data/text, recorded on a real kernel): the
// forms that change a line are read as the plain form is; those whose lines do not carry the events
// (raw, hex, context-info off) are refused with the option named.
#include "TextTestUtil.h"
#include "import/TextLineParser.h"
#include "model/EventFormat.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

using namespace tickscope;
using namespace tickscope::texttest;

namespace {

// The "entries-in-buffer" count of a tracefs header.
uint64_t headerEntries(const std::string &path)
{
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        const text::ParsedLine pl = text::parseLine(line);
        if (pl.entriesInBuffer) return pl.entriesInBuffer;
    }
    return 0;
}

size_t linesStartingWith(const std::string &path, const std::string &start)
{
    std::ifstream in(path);
    size_t n = 0;
    for (std::string line; std::getline(in, line);)
        n += line.rfind(start, 0) == 0;
    return n;
}

size_t linesWith(const std::string &path, const std::string &needle)
{
    std::ifstream in(path);
    size_t n = 0;
    for (std::string line; std::getline(in, line);)
        n += line.find(needle) != std::string::npos;
    return n;
}

// The print event's text, from the first print event of the trace.
std::string markerText(const Trace &t)
{
    const int type = t.findType("print");
    if (type < 0) return {};
    for (int c = 0; c < t.cpuCount(); ++c)
        for (size_t i = 0; i < t.cpu(c).size(); ++i)
            if (t.cpu(c).type(i) == type) return formatEventFields(t, c, i);
    return {};
}

} // namespace

// options/sym-offset and options/sym-addr print the print event's caller as "tracing_mark_write+0x91/0x170"
// and "tracing_mark_write <ffffffff814abf11>"; record-tgid adds the TGID column. Every line is an event.
TEST(TextForms, SymOffsetSymAddrAndTgidReadAsThePlainForm)
{
    for (const char *name : {"text/tracefs-symoffset-tgid.txt", "text/tracefs-symaddr.txt"}) {
        SCOPED_TRACE(name);
        const std::string path = dataFile(name);
        const auto t = loadOne(path);
        ASSERT_TRUE(t);
        EXPECT_TRUE(t->warnings.empty()) << t->warnings.front();
        EXPECT_EQ(t->eventCount(), headerEntries(path));
        EXPECT_EQ(markerText(*t).rfind("forms marker sym", 0), 0u) << markerText(*t);
        EXPECT_EQ(t->kind(static_cast<uint16_t>(t->findType("print"))), EventKind::Print);
        EXPECT_EQ(t->findType("tracing_mark_write+0x91/0x170"), -1);
    }
}

// options/latency-format: "capture.-7112      0d..2. 18751us#: sched_switch: ...", the comm cut to 8
// characters, the CPU fused with the flags and the time in whole microseconds since the buffer's start.
TEST(TextForms, LatencyFormatReadsWithMicrosecondTimes)
{
    const std::string path = dataFile("text/tracefs-latency.txt");
    const auto t = loadOne(path);
    ASSERT_TRUE(t);
    ASSERT_EQ(t->warnings.size(), 1u);
    EXPECT_NE(t->warnings[0].find("whole microseconds"), std::string::npos) << t->warnings[0];
    EXPECT_EQ(t->eventCount(), 517u); // "# latency: 0 us, #517/517, CPU#0"
    EXPECT_EQ(t->cpuCount(), 2);
    size_t switches = 0;
    for (int c = 0; c < t->cpuCount(); ++c)
        for (size_t i = 0; i < t->cpu(c).size(); ++i) {
            EXPECT_EQ(t->cpu(c).ts(i) % 1000, 0);
            switches += t->kind(t->cpu(c).type(i)) == EventKind::SchedSwitch;
        }
    EXPECT_EQ(switches, linesWith(path, " sched_switch: "));
    EXPECT_EQ(t->firstTs(), 18751000); // the first line's "18751us"
    EXPECT_EQ(markerText(*t), "forms marker latency");
    EXPECT_EQ(t->meta.format, "ftrace text");
}

TEST(TextForms, RawHexAndNoContextFormsAreRefusedWithTheOptionNamed)
{
    const std::pair<const char *, const char *> cases[] = {
        {"text/tracefs-raw.txt", "options/raw"},
        {"text/tracefs-hex.txt", "options/hex"},
        {"text/tracefs-nocontext.txt", "options/context-info"}};
    for (const auto &[name, option] : cases) {
        SCOPED_TRACE(name);
        try {
            loadOne(dataFile(name));
            ADD_FAILURE() << "loaded";
        } catch (const LoadError &e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(option), std::string::npos) << what;
            EXPECT_NE(what.find(name), std::string::npos) << what; // names the file
        }
    }
}

// The function tracer names no event on its lines; each becomes a "function" event with the line's text.
// Real output of Debian's 6.1 kernel in the x86 lab (set_ftrace_filter 'hrtimer_*'), one file per form:
// print-parent (default) and off, sym-offset, sym-addr, both, latency-format, and mixed with events.
TEST(TextForms, FunctionTracerLinesAreFunctionEvents)
{
    for (const char *form :
         {"default", "noparent", "symoffset", "symaddr", "symoffset-symaddr", "latency", "mixed-events"}) {
        SCOPED_TRACE(form);
        const std::string path = dataFile(std::string("text/lab-fn-") + form + ".txt");
        const auto t = loadOne(path);
        ASSERT_TRUE(t);
        EXPECT_EQ(t->warnings.size(), std::string_view(form) == "latency" ? 1u : 0u);
        EXPECT_EQ(t->eventCount(), linesWith(path, "") - linesStartingWith(path, "#"));
        const int fn = t->findType("function");
        ASSERT_GE(fn, 0);
        size_t functions = 0;
        std::string first;
        for (int c = 0; c < t->cpuCount(); ++c)
            for (size_t i = 0; i < t->cpu(c).size(); ++i)
                if (t->cpu(c).type(i) == fn) {
                    ++functions;
                    if (first.empty()) first = formatEventFields(*t, c, i);
                }
        EXPECT_GT(functions, 100u);
        EXPECT_EQ(first.rfind("hrtimer_", 0), 0u) << first; // the filter's functions, as the line wrote them
        if (std::string_view(form) == "mixed-events") {
            EXPECT_EQ(linesWith(path, " sched_switch: "), 25u);
            EXPECT_EQ(t->eventCount() - functions, 25u + 20u); // sched_switch, hrtimer_expire_entry
        }
    }
}
