// SPDX-License-Identifier: GPL-3.0-or-later
// The command lines of tickscope-cli and tickscope-render, read by CLI11: each command's options bound to
// the plain fields of its *Args struct. Values stay text where the command's own checks give the message
// (a CPU list, a window, a whole number in a range), so every refusal names the option and the user's text.
// The usage text is here too: `--help` prints it whole, `COMMAND --help` its paragraph, and a unit test
// holds the two against each other (every option a command reads is in its paragraph, and no other).
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace tickscope {

// A bad command line: "COMMAND: what is wrong" (exit status 2).
struct UsageError
{
    std::string message;
};

// `COMMAND --help` or `-h` (before any `--`): its paragraph of the usage is printed, exit 0.
struct HelpRequest
{
    std::string command;
};

const char *cliUsage();
// The paragraph of cliUsage() that describes `command` (its lines up to the next command's), or "".
std::string usageOf(const std::string &command);

// One command's parser. parse() throws UsageError (in our words, naming the command) or HelpRequest.
class CommandLine
{
public:
    // extraArgument: the message for a positional argument the command has no place for.
    CommandLine(std::string command, std::string extraArgument);
    ~CommandLine();
    CommandLine(CommandLine &&) noexcept;
    CLI::App &app() { return *app_; }
    const std::string &command() const { return command_; }
    void parse(const std::vector<std::string> &args);
    bool given(const std::string &option) const; // e.g. "--threads"
    // The long options the command reads ("--json", ...), sorted.
    std::vector<std::string> options() const;

private:
    std::string command_, extra_;
    std::unique_ptr<CLI::App> app_;
};

struct StatsArgs
{
    std::string file, instance, loadWindow, threads;
    bool json = false, recordApi = false;
};

struct ReportArgs
{
    std::vector<std::string> files;
    std::string format, streamSlice, streamExact, window, loadWindow, nohzFull, cpus, functions, instance,
        threads;
    bool json = false, jsonl = false, stream = false, markers = false;
};

struct SimulateArgs
{
    std::string spec, seed, out;
    std::vector<std::string> sets;
    bool json = false, whole = false, list = false;
};

struct CompareArgs
{
    std::vector<std::string> sides;
    std::string seed, format, window, align;
    bool json = false, whole = false;
};

struct CaptureArgs
{
    std::string out, duration, cpus, events, bufferKb;
    std::vector<std::string> filters;
    std::vector<std::string> command; // what follows `--`
    bool report = false, cleanup = false;
};

struct RenderArgs
{
    std::string in, out, compare, align, window, loadWindow, cpus, size, scale, title, seed;
    bool markers = false, noLegend = false, summary = false;
};

CommandLine statsCommandLine(StatsArgs &a);
CommandLine reportCommandLine(ReportArgs &a);
CommandLine simulateCommandLine(SimulateArgs &a);
CommandLine compareCommandLine(CompareArgs &a);
// parse() of this one splits the arguments at the first `--`: what follows is the command to run.
CommandLine captureCommandLine(CaptureArgs &a);
CommandLine renderCommandLine(RenderArgs &a);

// Parses capture's arguments (the command after `--` kept apart).
void parseCapture(CommandLine &cl, CaptureArgs &a, const std::vector<std::string> &args);

} // namespace tickscope
