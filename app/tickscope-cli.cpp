// SPDX-License-Identifier: GPL-3.0-or-later
// tickscope-cli: the command-line face of core. Exit 0 on success; on failure one line on stderr and 1.
#include "CaptureCommand.h"
#include "CommandLine.h"
#include "ReportBatch.h"
#include "WindowOption.h"
#include "analysis/CpuList.h"
#include "analysis/TickAnalysis.h"
#include "import/Loader.h"
#include "report/ReportMail.h"
#include "report/TickReport.h"
#include "session/OpenRun.h"
#include "sim/Presets.h"
#include "sim/Scenario.h"
#include "sim/SimReport.h"
#include "sim/TextWriter.h"
#include "stats/TraceStats.h"
#include "tickscope_version.h"
#include "util/ProcessStats.h"
#include "write/TraceDatWriter.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

using namespace tickscope;

namespace {

constexpr int kMaxThreads = 1024;

// A whole-number option value: all of the text, within [lo, hi]; "abc", "5abc", "-1", "2.5" and "1e3" are
// refused naming the option, with the user's own text.
int parseWhole(const std::string &cmd, const std::string &option, const std::string &v, int lo, int hi)
{
    if (const auto n = sim::parseWholeText(v, lo, hi)) return *n;
    throw UsageError{cmd + ": " + option + ": expected a whole number from " + std::to_string(lo) + " to " +
                     std::to_string(hi) + ", got '" + v + "'"};
}

int parseThreads(const std::string &cmd, const std::string &v)
{
    return parseWhole(cmd, "--threads", v, 1, kMaxThreads);
}

void parseLoadWindow(const std::string &cmd, const std::string &text, LoadOptions &opt);

int cmdStats(const std::vector<std::string> &args)
{
    StatsArgs a;
    CommandLine cl = statsCommandLine(a);
    cl.parse(args);
    if (a.file.empty()) throw UsageError{"stats: FILE missing"};
    const std::string &file = a.file;
    const bool json = a.json;
    LoadOptions opt;
    if (cl.given("--instance")) {
        opt.instance = a.instance == "top" ? "" : a.instance;
        opt.instanceGiven = true;
    }
    opt.recordApi = a.recordApi;
    if (cl.given("--load-window")) parseLoadWindow("stats", a.loadWindow, opt);
    if (cl.given("--threads")) opt.threads = parseThreads("stats", a.threads);

    const auto t0 = std::chrono::steady_clock::now();
    auto traces = loadAll(file, opt);
    const auto t1 = std::chrono::steady_clock::now();
    std::vector<TraceStats> stats;
    LoadFigures fig;
    fig.loadSeconds = std::chrono::duration<double>(t1 - t0).count();
    for (const auto &t : traces) {
        stats.push_back(TraceStats::compute(*t));
        fig.events += stats.back().events;
    }
    fig.peakRssBytes = peakRssBytes();
    fig.peakVirtualBytes = peakVirtualBytes();
    const std::string out = json ? formatStatsJson(stats, fig) : formatStatsText(stats, fig);
    std::fwrite(out.data(), 1, out.size(), stdout);
    for (const auto &s : stats) {
        for (const auto &w : s.warnings)
            std::fprintf(stderr, "tickscope-cli: warning: %s: %s\n", file.c_str(), w.c_str());
    }
    return 0;
}

// The window parsers of WindowOption.h, with a usage error naming the command.
void parseWindow(const std::string &cmd, const std::string &text, double lo, int64_t &from, int64_t &to)
{
    if (std::string e = tickscope::parseWindow(text, lo, from, to); !e.empty())
        throw UsageError{cmd + ": " + e};
}

void parseLoadWindow(const std::string &cmd, const std::string &text, LoadOptions &opt)
{
    if (std::string e = tickscope::parseLoadWindow(text, opt); !e.empty()) throw UsageError{cmd + ": " + e};
}

enum class Format
{
    Text,
    Json,
    Mail,
};

Format parseFormat(const std::string &cmd, const std::string &v)
{
    if (v == "text") return Format::Text;
    if (v == "json") return Format::Json;
    if (v == "mail") return Format::Mail;
    throw UsageError{cmd + ": --format: expected text, json or mail, got '" + v + "'"};
}

const std::string kTool = "tickscope " TICKSCOPE_VERSION;

// "run_timer_softirq,__run_timers": function names as the kernel's symbols spell them.
std::vector<std::string> parseFunctionNames(const std::string &text)
{
    std::vector<std::string> names;
    size_t pos = 0;
    while (pos <= text.size()) {
        const size_t comma = std::min(text.find(',', pos), text.size());
        const std::string name = text.substr(pos, comma - pos);
        const bool ok =
            !name.empty() && name.size() <= 128 && std::all_of(name.begin(), name.end(), [](char c) {
                return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
            });
        if (!ok)
            throw UsageError{"report: --functions: '" + name + "' is not a function name (NAME,NAME,...)"};
        names.push_back(name);
        pos = comma + 1;
    }
    return names;
}

int cmdReport(const std::vector<std::string> &args)
{
    ReportArgs o;
    CommandLine cl = reportCommandLine(o);
    cl.parse(args);
    const std::vector<std::string> &files = o.files;
    Format format = o.json ? Format::Json : Format::Text;
    const bool formatGiven = o.json || cl.given("--format");
    if (cl.given("--format")) {
        if (o.json) throw UsageError{"report: --json and --format exclude each other"};
        format = parseFormat("report", o.format);
    }
    const bool jsonl = o.jsonl;
    ReportRequest rq;
    rq.report.findingInstances = 0; // a printed report shows each finding's first and last instance only
    int threads = 0;
    auto list = [](const std::string &option, const std::string &text) {
        const auto cpus = parseCpuList(text);
        if (!cpus) throw UsageError{"report: " + option + ": not a CPU list: '" + text + "' (e.g. 1,3-5)"};
        return *cpus;
    };
    rq.stream = o.stream;
    if (cl.given("--stream-slice-us")) {
        const auto us = sim::parseWholeText<int64_t>(o.streamSlice, 1, INT64_MAX / 1000);
        if (!us) throw UsageError{"report: --stream-slice-us: expected a whole number of microseconds >= 1"};
        rq.sliceNs = *us * 1000;
    }
    if (cl.given("--stream-exact")) {
        const auto n = sim::parseWholeText<uint64_t>(o.streamExact, 0, uint64_t{1} << 32);
        if (!n) throw UsageError{"report: --stream-exact: expected a number of values (0 to 2^32)"};
        rq.exactValues = static_cast<size_t>(*n);
    }
    rq.markers = o.markers;
    if (cl.given("--window")) {
        rq.window = true;
        parseWindow("report", o.window, 0, rq.report.from, rq.report.to);
    }
    if (cl.given("--load-window")) parseLoadWindow("report", o.loadWindow, rq.load);
    if (cl.given("--nohz-full")) {
        rq.analysis.nohzFullGiven = true;
        rq.analysis.nohzFull = list("--nohz-full", o.nohzFull);
    }
    if (cl.given("--cpus")) rq.report.cpus = list("--cpus", o.cpus);
    if (cl.given("--functions")) rq.report.functions = parseFunctionNames(o.functions);
    if (cl.given("--instance")) {
        rq.load.instance = o.instance == "top" ? "" : o.instance;
        rq.load.instanceGiven = true;
    }
    if (cl.given("--threads"))
        threads = rq.load.threads = rq.analysis.threads = parseThreads("report", o.threads);
    if (files.empty()) throw UsageError{"report: FILE missing"};
    if (rq.markers && rq.window) throw UsageError{"report: --window and --markers exclude each other"};
    if (rq.stream && rq.load.window)
        throw UsageError{"report: --stream reads the whole file: no --load-window with it (use --window)"};
    if (jsonl && formatGiven)
        throw UsageError{"report: --jsonl writes JSON lines: no --json or --format with it"};
    if (jsonl) return reportJsonLines(files, rq, threads, stdout);
    if (files.size() > 1) throw UsageError{"report: one FILE only (--jsonl reports many)"};

    TickReport report;
    try {
        report = reportOf(files[0], rq);
    } catch (const RequestError &e) {
        throw UsageError{std::string("report: ") + e.what()};
    }
    report.peakRssBytes = peakRssBytes();
    const std::string out = format == Format::Json ? formatReportJson(report)
                            : format == Format::Mail
                                ? formatReportMail(report, !rq.report.cpus.empty(), kTool)
                                : formatReportText(report);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

uint64_t parseSeed(const std::string &cmd, const std::string &v)
{
    if (const auto n = sim::parseWholeText<uint64_t>(v, 0, UINT64_MAX)) return *n;
    throw UsageError{cmd + ": --seed: expected a non-negative integer below 2^64, got '" + v + "'"};
}

int cmdSimulate(const std::vector<std::string> &args)
{
    SimulateArgs o;
    CommandLine cl = simulateCommandLine(o);
    cl.parse(args);
    if (o.list) {
        const std::string text = sim::listPresets();
        std::fwrite(text.data(), 1, text.size(), stdout);
        return 0;
    }
    const std::string &spec = o.spec, &out = o.out;
    const bool json = o.json, whole = o.whole;
    const uint64_t seed = cl.given("--seed") ? parseSeed("simulate", o.seed) : 1;
    std::vector<std::pair<std::string, std::string>> sets;
    for (const std::string &kv : o.sets) {
        const size_t eq = kv.find('=');
        if (eq == std::string::npos || eq == 0)
            throw UsageError{"simulate: --set: expected KEY=VALUE, got '" + kv + "'"};
        sets.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
    if (spec.empty())
        throw UsageError{"simulate: PRESET or FILE.json missing (simulate --list shows the presets)"};
    sim::Scenario s = sim::loadScenario(spec);
    for (const auto &[k, v] : sets) {
        try {
            sim::applySetting(s, k, v);
        } catch (const sim::ScenarioError &e) {
            throw sim::ScenarioError("simulate: --set: " + std::string(e.what()));
        }
    }
    sim::SimResult result;
    const sim::Analysed a = sim::simulateAndAnalyse(s, seed, result, !whole);
    if (!out.empty()) {
        if (out.size() > 4 && out.compare(out.size() - 4, 4, ".dat") == 0) {
            MachineFacts facts;
            facts.kernelRelease = result.trace->meta.kernelRelease;
            facts.cmdline = result.trace->meta.kernelCmdline;
            facts.hz = s.kernel.hz;
            facts.onlineCpus = "0-" + std::to_string(s.kernel.cpus - 1);
            writeTraceDat(*result.trace, out, &facts);
        } else {
            sim::writeFtraceText(*result.trace, out);
        }
    }
    const std::string text = json ? sim::formatSimJson(a) : sim::formatSimText(a);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
}

// One run of a compare, opened for a report (no timeline index).
OpenedRun openForReport(const std::string &spec, uint64_t seed)
{
    OpenOptions options;
    options.timeline = false;
    return openRun(RunSource::named(spec, seed), options);
}

int64_t shifted(int64_t zero, int64_t relative)
{
    if (relative == INT64_MIN || relative == INT64_MAX) return relative;
    return zero + relative;
}

int cmdCompare(const std::vector<std::string> &args)
{
    CompareArgs o;
    CommandLine cl = compareCommandLine(o);
    cl.parse(args);
    const std::vector<std::string> &sides = o.sides;
    const uint64_t seed = cl.given("--seed") ? parseSeed("compare", o.seed) : 1;
    Format format = o.json ? Format::Json : Format::Text;
    if (cl.given("--format")) {
        if (o.json) throw UsageError{"compare: --json and --format exclude each other"};
        format = parseFormat("compare", o.format);
    }
    const bool whole = o.whole, window = cl.given("--window");
    sim::CompareWindow w;
    if (window) parseWindow("compare", o.window, -9e9, w.from, w.to);
    std::optional<Alignment> align;
    if (cl.given("--align")) {
        align = parseAlignment(o.align);
        if (!align)
            throw UsageError{"compare: --align: expected start, marker or an offset in seconds, got '" +
                             o.align + "'"};
    }
    if (sides.size() != 2) throw UsageError{"compare: expected two traces or scenarios (A B)"};
    if (window && whole) throw UsageError{"compare: --window and --whole exclude each other"};
    if (align && !window)
        throw UsageError{"compare: --align needs --window (the default window is each run's own markers)"};
    std::string text;
    if (!window) {
        // Each run's trace is let go once its report is made.
        const sim::Analysed a = [&] {
            const OpenedRun r = openForReport(sides[0], seed);
            return sim::analyseRun(*r.doc.trace, *r.doc.analysis, sides[0], !whole);
        }();
        const sim::Analysed b = [&] {
            const OpenedRun r = openForReport(sides[1], seed);
            return sim::analyseRun(*r.doc.trace, *r.doc.analysis, sides[1], !whole);
        }();
        text = format == Format::Json   ? sim::formatCompareJson(a, b)
               : format == Format::Mail ? sim::formatCompareMail(a, b, kTool)
                                        : sim::formatCompareText(a, b);
    } else {
        const Document da = openForReport(sides[0], seed).doc;
        std::string why;
        const auto c = compareRuns(da, openForReport(sides[1], seed).doc, align, why);
        if (!c) throw LoadError("compare: " + why);
        w.align = c->how;
        w.zeroA = c->zeroA;
        w.zeroB = c->zeroB;
        const sim::Analysed a = sim::analyseSpan(*da.trace, *da.analysis, sides[0], shifted(w.zeroA, w.from),
                                                 shifted(w.zeroA, w.to), "window");
        const sim::Analysed b = sim::analyseSpan(*c->b.trace, *c->b.analysis, sides[1],
                                                 shifted(w.zeroB, w.from), shifted(w.zeroB, w.to), "window");
        text = format == Format::Json   ? sim::formatCompareJson(a, b, &w)
               : format == Format::Mail ? sim::formatCompareMail(a, b, kTool, &w)
                                        : sim::formatCompareText(a, b, &w);
    }
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
}

} // namespace

// `render` needs the GUI's paint code (Qt): it is tickscope-render, beside this program in the build tree
// or in libexec when installed. Replaces this process; returns only when it cannot.
int runRender(char **argv)
{
    char self[4096];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    std::string dir = n > 0 ? std::string(self, static_cast<size_t>(n)) : std::string();
    dir = dir.substr(0, dir.rfind('/') + 1);
    std::vector<std::string> candidates{dir + "tickscope-render",
                                        dir + "../libexec/tickscope/tickscope-render",
                                        TICKSCOPE_LIBEXEC_DIR "/tickscope-render"};
    for (const std::string &c : candidates) {
        if (::access(c.c_str(), X_OK) != 0) continue;
        std::vector<char *> av{const_cast<char *>(c.c_str())};
        for (char **a = argv + 2; *a; ++a)
            av.push_back(*a);
        av.push_back(nullptr);
        ::execv(c.c_str(), av.data());
        std::fprintf(stderr, "tickscope-cli: render: cannot run %s: %s\n", c.c_str(), std::strerror(errno));
        return 1;
    }
    std::fprintf(stderr,
                 "tickscope-cli: render needs tickscope-render, which comes with the GUI build (not found in "
                 "%s or %s)\n",
                 dir.c_str(), TICKSCOPE_LIBEXEC_DIR);
    return 1;
}

int main(int argc, char **argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
        std::fputs(cliUsage(), args.empty() ? stderr : stdout);
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version" || args[0] == "-V") {
        std::puts("tickscope-cli " TICKSCOPE_VERSION_TEXT);
        return 0;
    }
    const std::string cmd = args[0];
    args.erase(args.begin());
    if (cmd == "render") return runRender(argv);
    try {
        if (cmd == "stats") return cmdStats(args);
        if (cmd == "report") return cmdReport(args);
        if (cmd == "simulate") return cmdSimulate(args);
        if (cmd == "compare") return cmdCompare(args);
        if (cmd == "capture") {
            CaptureHooks hooks;
            hooks.usage = [](const std::string &m) {
                std::fprintf(stderr, "tickscope-cli: %s\n", m.c_str());
                return 2;
            };
            hooks.report = [](const std::string &file) { return cmdReport({file}); };
            return runCapture(args, hooks);
        }
        throw UsageError{"unknown command '" + cmd + "' (try --help)"};
    } catch (const HelpRequest &h) {
        const std::string text = usageOf(h.command);
        std::fwrite(text.data(), 1, text.size(), stdout);
        return 0;
    } catch (const UsageError &e) {
        std::fprintf(stderr, "tickscope-cli: %s\n", e.message.c_str());
        return 2;
    } catch (const sim::ScenarioError &e) {
        std::fprintf(stderr, "tickscope-cli: %s\n", e.what());
        return 1;
    } catch (const LoadError &e) {
        std::fprintf(stderr, "tickscope-cli: %s\n", e.what());
        return 1;
    } catch (const std::bad_alloc &) {
        std::fprintf(stderr, "tickscope-cli: out of memory\n");
        return 1;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "tickscope-cli: error: %s\n", e.what());
        return 1;
    }
}
