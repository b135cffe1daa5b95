// SPDX-License-Identifier: GPL-3.0-or-later
// The command lines of tickscope-cli and tickscope-render (see CommandLine.h).
#include "CommandLine.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <utility>

namespace tickscope {

namespace {

constexpr const char *kUsage =
    "usage: tickscope-cli COMMAND [ARGS]\n"
    "  stats FILE [--json] [--instance NAME] [--threads N] [--record-api] [--load-window A:B]\n"
    "      what was loaded: events per CPU and per event name, span, lost events, load time,\n"
    "      peak memory per event. FILE is a trace.dat (v6/v7) or ftrace text (tracefs trace,\n"
    "      trace_pipe, trace-cmd report output). Without --instance every buffer instance\n"
    "      that has events is listed (NAME 'top' selects the top-level buffer).\n"
    "  report FILE [--json | --format text|json|mail] [--instance NAME] [--threads N]\n"
    "         [--nohz-full LIST] [--cpus LIST] [--window A:B | --markers] [--functions NAME,...]\n"
    "         [--load-window A:B | --stream [--stream-slice-us N] [--stream-exact N]]\n"
    "  report --jsonl FILE... [the options above but --json/--format]\n"
    "      the tick analysis per CPU: ticks and what they interrupted, spurious ticks, tick-stopped\n"
    "      time, failed tick stops, TIMER softirqs, hrtimer wakeup lateness and latency; then the\n"
    "      findings, worst first, with their pattern and known cause. With function_graph calls\n"
    "      in the trace (tracer text, trace-cmd report of a recording): the timer functions'\n"
    "      durations per CPU, and those of the functions --functions names\n"
    "      --stream: a trace.dat read a slice of time at a time (N us of every CPU per step,\n"
    "      default 100000) instead of loaded whole first: the same report, but for the p50/p90/p99\n"
    "      of a distribution of more than N values (default 4096), which come from log-linear\n"
    "      buckets (within 0.8 %)\n"
    "      --jsonl: one line per FILE, in the order given, of compact JSON with the keys of --json\n"
    "      (or {\"file\", \"error\"} for a file that failed, which is also said on stderr); the files\n"
    "      run side by side over the cores (--threads N in all), each weighed against its share of\n"
    "      the free memory (one too big for it is tried again alone at the end). Exit 1 when any\n"
    "      file failed\n"
    "  simulate PRESET[:VARIANT]|FILE.json[:VARIANT] [--set KEY=VALUE ...] [--seed N] [--out FILE]\n"
    "           [--json] [--whole]\n"
    "      simulates the scenario and prints the report of the simulated trace (over its print\n"
    "      markers unless --whole) with the ground truth; --out writes the trace: FILE.dat as\n"
    "      trace.dat (trace-cmd and KernelShark open it), any other name as ftrace text\n"
    "  simulate --list\n"
    "      the presets and their variants\n"
    "  compare A B [--seed N] [--json | --format text|json|mail]\n"
    "          [--whole | --window A:B [--align start|marker|OFFSET]]\n"
    "      the report numbers of A and B side by side (before -> after); each is a trace file or a\n"
    "      scenario: PRESET[:VARIANT][,KEY=VALUE...] or FILE.json[:VARIANT][,KEY=VALUE...].\n"
    "      Each run over its own print markers by default; --window: seconds after each run's time\n"
    "      zero, which --align sets: its first print marker (the default when both runs have one),\n"
    "      its start, or OFFSET (seconds, may be negative) after its start for B\n"
    "  capture --out FILE.dat [--duration S] [--cpus LIST] [--events LIST] [--filter EVENT:EXPR]\n"
    "          [--buffer-kb N] [--report] [-- COMMAND ARGS...]\n"
    "      records this machine (root; tracefs mounted) into a private tracefs instance,\n"
    "      tickscope-PID, and saves a trace.dat with the machine's facts (kernel command line,\n"
    "      HZ, cpuidle, online CPUs). Events: the tick analysis's set (those this kernel has;\n"
    "      the missing ones are named with what they cost), or LIST (system/event or system,\n"
    "      comma-separated). It runs for S seconds, until COMMAND exits (started after the\n"
    "      recording), or until Ctrl-C/SIGTERM; either way the file is saved and the instance\n"
    "      removed. Nothing else in tracefs changes. --report: the report of the saved file\n"
    "  capture --cleanup\n"
    "      removes tracefs instances left by captures that were killed (SIGKILL), and only those\n"
    "  render FILE|SCENARIO --out OUT.png|.svg|.pdf [--compare B [--align start|marker|OFFSET]]\n"
    "         [--window A:B | --markers] [--cpus LIST] [--size WxH] [--scale N] [--title TEXT]\n"
    "         [--no-legend] [--summary] [--seed N] [--load-window A:B]\n"
    "      the timeline (or the compare view of A and B) as a picture, without a display, the same\n"
    "      as the GUI's File -> Export View: a title line, the lanes, the legend, with --summary the\n"
    "      mail form of the window's report, and a footer with this command. --window: seconds\n"
    "      after the trace start (after the time zero with --compare); --load-window as for stats;\n"
    "      needs the GUI build\n"
    "  --format mail: the few lines a cover letter quotes (ASCII, at most 72 columns): per CPU\n"
    "      (the nohz_full ones, or --cpus) ticks in userspace/hrtimer wakeups, while polling,\n"
    "      spurious, tick-stopped share, failed stops, worst TIMER softirq, catch-ups, wakeup\n"
    "      latency p99/max; then how it was measured\n"
    "  --load-window A:B (stats, report): load only seconds A to B after the file's first event (a\n"
    "      trace.dat's pages found by their timestamps; a text's lines outside it skipped): for a file\n"
    "      whose model would not fit in memory, which is refused before loading, with the span\n"
    "      that would fit. --window instead analyses a span of the whole loaded trace\n"
    "  --help, --version (COMMAND --help: that command's part of this text)\n"
    "Exit status: 0 done, 1 bad input (one line on stderr names the file and the problem),\n"
    "2 bad command line (an unknown option, a value missing or given twice, or one out of range).\n";

bool startsWith(const std::string &s, const std::string &prefix)
{
    return s.compare(0, prefix.size(), prefix) == 0;
}

// A paragraph's command: "  report FILE ..." -> "report"; "" for other lines.
std::string commandOfLine(const std::string &line)
{
    if (!startsWith(line, "  ") || line.size() < 3 || !std::islower(static_cast<unsigned char>(line[2])))
        return "";
    const size_t end = line.find(' ', 2);
    return line.substr(2, end == std::string::npos ? std::string::npos : end - 2);
}

} // namespace

const char *cliUsage()
{
    return kUsage;
}

std::string usageOf(const std::string &command)
{
    std::string out;
    bool in = false;
    const std::string text = kUsage;
    for (size_t pos = 0; pos < text.size();) {
        const size_t nl = std::min(text.find('\n', pos), text.size());
        const std::string line = text.substr(pos, nl - pos);
        pos = nl + 1;
        const std::string cmd = commandOfLine(line);
        if (!cmd.empty() || !startsWith(line, "    ")) in = cmd == command; // a new paragraph
        if (in) out += line + "\n";
    }
    return out;
}

CommandLine::CommandLine(std::string command, std::string extraArgument)
    : command_(std::move(command)), extra_(std::move(extraArgument)),
      app_(std::make_unique<CLI::App>("", command_))
{
    app_->set_help_flag(); // our own: the usage paragraph, not CLI11's generated page
    app_->allow_extras(false);
}

CommandLine::~CommandLine() = default;
CommandLine::CommandLine(CommandLine &&) noexcept = default;

void CommandLine::parse(const std::vector<std::string> &args)
{
    for (const std::string &a : args) {
        if (a == "--") break;
        if (a == "--help" || a == "-h") throw HelpRequest{command_};
    }
    std::vector<std::string> reversed(args.rbegin(), args.rend()); // (CLI11 takes them last first)
    const std::string cmd = command_ + ": ";
    try {
        app_->parse(reversed);
    } catch (const CLI::ExtrasError &) {
        // The first argument nothing took: an option the command does not have, or one argument too many.
        std::vector<std::string> left = app_->remaining();
        const std::string first = left.empty() ? std::string() : left.front();
        if (startsWith(first, "-") && first.size() > 1 && !std::isdigit(static_cast<unsigned char>(first[1])))
            throw UsageError{cmd + "unknown option " + first};
        throw UsageError{cmd + extra_ + (first.empty() ? "" : ", got '" + first + "'")};
    } catch (const CLI::ArgumentMismatch &e) {
        // CLI11 says "--threads: 1 required TEXT missing" or "...: At Most 1 required but received 2".
        const std::string what = e.what();
        const std::string option = what.substr(0, what.find(':'));
        if (what.find("missing") != std::string::npos)
            throw UsageError{cmd + option + ": its value is missing"};
        if (what.find("At Most") != std::string::npos)
            throw UsageError{cmd + option + ": given more than once"};
        throw UsageError{cmd + what};
    } catch (const CLI::ParseError &e) {
        throw UsageError{cmd + e.what()};
    }
}

bool CommandLine::given(const std::string &option) const
{
    return app_->count(option) > 0;
}

std::vector<std::string> CommandLine::options() const
{
    std::vector<std::string> out;
    for (const CLI::Option *o : app_->get_options()) {
        for (const std::string &n : o->get_lnames())
            out.push_back("--" + n);
    }
    std::sort(out.begin(), out.end());
    return out;
}

namespace {

// An option with one value, as text (checked by the command, which names it in its message).
void value(CommandLine &cl, const std::string &name, std::string &to)
{
    cl.app().add_option(name, to);
}

void flag(CommandLine &cl, const std::string &name, bool &to)
{
    cl.app().add_flag(name, to);
}

} // namespace

CommandLine statsCommandLine(StatsArgs &a)
{
    CommandLine cl("stats", "one FILE only");
    flag(cl, "--json", a.json);
    value(cl, "--instance", a.instance);
    value(cl, "--threads", a.threads);
    flag(cl, "--record-api", a.recordApi);
    value(cl, "--load-window", a.loadWindow);
    cl.app().add_option("FILE", a.file);
    return cl;
}

CommandLine reportCommandLine(ReportArgs &a)
{
    CommandLine cl("report", "one FILE only (--jsonl reports many)");
    flag(cl, "--json", a.json);
    value(cl, "--format", a.format);
    flag(cl, "--jsonl", a.jsonl);
    flag(cl, "--stream", a.stream);
    value(cl, "--stream-slice-us", a.streamSlice);
    value(cl, "--stream-exact", a.streamExact);
    flag(cl, "--markers", a.markers);
    value(cl, "--window", a.window);
    value(cl, "--load-window", a.loadWindow);
    value(cl, "--nohz-full", a.nohzFull);
    value(cl, "--cpus", a.cpus);
    value(cl, "--functions", a.functions);
    value(cl, "--instance", a.instance);
    value(cl, "--threads", a.threads);
    cl.app().add_option("FILE", a.files);
    return cl;
}

CommandLine simulateCommandLine(SimulateArgs &a)
{
    CommandLine cl("simulate", "one scenario only");
    flag(cl, "--list", a.list);
    flag(cl, "--json", a.json);
    flag(cl, "--whole", a.whole);
    value(cl, "--seed", a.seed);
    value(cl, "--out", a.out);
    // --set KEY=VALUE, as often as wanted: one value each time (a scenario after it stays the scenario).
    cl.app().add_option("--set", a.sets)->allow_extra_args(false);
    cl.app().add_option("SCENARIO", a.spec);
    return cl;
}

CommandLine compareCommandLine(CompareArgs &a)
{
    CommandLine cl("compare", "expected two traces or scenarios (A B)");
    flag(cl, "--json", a.json);
    value(cl, "--format", a.format);
    flag(cl, "--whole", a.whole);
    value(cl, "--seed", a.seed);
    value(cl, "--window", a.window);
    value(cl, "--align", a.align);
    cl.app().add_option("A B", a.sides); // (two of them: the command checks)
    return cl;
}

CommandLine captureCommandLine(CaptureArgs &a)
{
    CommandLine cl("capture", "a command to run goes after --");
    value(cl, "--out", a.out);
    value(cl, "--duration", a.duration);
    value(cl, "--cpus", a.cpus);
    value(cl, "--events", a.events);
    cl.app().add_option("--filter", a.filters)->allow_extra_args(false);
    value(cl, "--buffer-kb", a.bufferKb);
    flag(cl, "--report", a.report);
    flag(cl, "--cleanup", a.cleanup);
    return cl;
}

void parseCapture(CommandLine &cl, CaptureArgs &a, const std::vector<std::string> &args)
{
    const auto dash = std::find(args.begin(), args.end(), "--");
    a.command.assign(dash == args.end() ? dash : dash + 1, args.end());
    cl.parse(std::vector<std::string>(args.begin(), dash));
}

CommandLine renderCommandLine(RenderArgs &a)
{
    CommandLine cl("render", "one FILE or SCENARIO (use --compare B for a second run)");
    value(cl, "--out", a.out);
    value(cl, "--compare", a.compare);
    value(cl, "--align", a.align);
    value(cl, "--window", a.window);
    value(cl, "--load-window", a.loadWindow);
    flag(cl, "--markers", a.markers);
    value(cl, "--cpus", a.cpus);
    value(cl, "--size", a.size);
    value(cl, "--scale", a.scale);
    value(cl, "--title", a.title);
    flag(cl, "--no-legend", a.noLegend);
    flag(cl, "--summary", a.summary);
    value(cl, "--seed", a.seed);
    cl.app().add_option("FILE", a.in);
    return cl;
}

} // namespace tickscope
