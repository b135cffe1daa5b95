// SPDX-License-Identifier: GPL-3.0-or-later
// The command lines of tickscope-cli and tickscope-render: every option a command reads is in its paragraph
// of --help and every option its paragraph names is read (so the usage cannot drift from the parser), and
// the forms a user types: negative values, repeated options, what follows `--`, and the refusals' words.
#include "CommandLine.h"

#include <gtest/gtest.h>

#include <functional>
#include <regex>
#include <set>
#include <string>
#include <vector>

using namespace tickscope;

namespace {

std::set<std::string> optionsIn(const std::string &text)
{
    std::set<std::string> out;
    const std::regex opt("--[a-z][a-z-]*[a-z]");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), opt); it != std::sregex_iterator(); ++it)
        out.insert(it->str());
    return out;
}

std::string refusal(const std::function<void()> &parse)
{
    try {
        parse();
    } catch (const UsageError &e) {
        return e.message;
    }
    return "(accepted)";
}

} // namespace

TEST(CommandLine, EveryCommandReadsExactlyTheOptionsItsUsageParagraphNames)
{
    StatsArgs s;
    ReportArgs r;
    SimulateArgs m;
    CompareArgs c;
    CaptureArgs p;
    RenderArgs d;
    std::vector<CommandLine> lines;
    lines.push_back(statsCommandLine(s));
    lines.push_back(reportCommandLine(r));
    lines.push_back(simulateCommandLine(m));
    lines.push_back(compareCommandLine(c));
    lines.push_back(captureCommandLine(p));
    lines.push_back(renderCommandLine(d));
    std::set<std::string> commandsInUsage;
    const std::string usage = cliUsage();
    const std::regex cmd("\n  ([a-z]+) ");
    for (auto it = std::sregex_iterator(usage.begin(), usage.end(), cmd); it != std::sregex_iterator(); ++it)
        commandsInUsage.insert((*it)[1]);
    std::set<std::string> parsed;
    for (const CommandLine &cl : lines) {
        parsed.insert(cl.command());
        const std::string paragraph = usageOf(cl.command());
        ASSERT_FALSE(paragraph.empty()) << cl.command();
        const std::vector<std::string> read = cl.options();
        EXPECT_EQ(std::set<std::string>(read.begin(), read.end()), optionsIn(paragraph))
            << cl.command() << "'s paragraph:\n"
            << paragraph;
    }
    EXPECT_EQ(parsed, commandsInUsage); // and no command in the usage without a parser
}

TEST(CommandLine, UsageParagraphsAreWholeAndApart)
{
    const std::string report = usageOf("report");
    EXPECT_EQ(report.rfind("  report FILE", 0), 0u) << report;
    EXPECT_NE(report.find("  report --jsonl FILE..."), std::string::npos); // its second form
    EXPECT_EQ(report.find("  simulate"), std::string::npos);
    EXPECT_EQ(report.find("--format mail:"), std::string::npos); // a note of its own, after the commands
    EXPECT_NE(usageOf("capture").find("  capture --cleanup"), std::string::npos);
    EXPECT_EQ(usageOf("nonesuch"), "");
}

TEST(CommandLine, ValuesThatLookLikeOptionsAndRepeatedOptions)
{
    CompareArgs c;
    CommandLine cl = compareCommandLine(c);
    cl.parse({"a.dat", "--window", "-1.5:2", "--align", "-0.25", "b.dat", "--json"});
    EXPECT_EQ(c.sides, (std::vector<std::string>{"a.dat", "b.dat"}));
    EXPECT_EQ(c.window, "-1.5:2");
    EXPECT_EQ(c.align, "-0.25");
    EXPECT_TRUE(c.json);
    EXPECT_TRUE(cl.given("--window"));
    EXPECT_FALSE(cl.given("--seed"));

    SimulateArgs m;
    CommandLine sim = simulateCommandLine(m);
    sim.parse({"--set", "cpus=4", "seed000-nohzfull-poll", "--set", "hz=250", "--seed=7"});
    EXPECT_EQ(m.spec, "seed000-nohzfull-poll"); // --set takes one value: the scenario stays the scenario
    EXPECT_EQ(m.sets, (std::vector<std::string>{"cpus=4", "hz=250"}));
    EXPECT_EQ(m.seed, "7");

    CaptureArgs p;
    CommandLine cap = captureCommandLine(p);
    parseCapture(cap, p,
                 {"--out", "x.dat", "--filter", "sched/sched_switch:prev_pid==1", "--", "sleep", "--help"});
    EXPECT_EQ(p.out, "x.dat");
    EXPECT_EQ(p.filters, (std::vector<std::string>{"sched/sched_switch:prev_pid==1"}));
    EXPECT_EQ(p.command, (std::vector<std::string>{"sleep", "--help"})); // the command's own --help is its
}

TEST(CommandLine, RefusalsNameTheCommandTheOptionAndTheText)
{
    ReportArgs r;
    EXPECT_EQ(refusal([&] {
                  reportCommandLine(r).parse({"x.dat", "--bogus"});
              }),
              "report: unknown option --bogus");
    EXPECT_EQ(refusal([&] {
                  reportCommandLine(r).parse({"x.dat", "--threads"});
              }),
              "report: --threads: its value is missing");
    EXPECT_EQ(refusal([&] {
                  reportCommandLine(r).parse({"x.dat", "--threads", "2", "--threads", "3"});
              }),
              "report: --threads: given more than once");
    StatsArgs s;
    EXPECT_EQ(refusal([&] {
                  statsCommandLine(s).parse({"a.dat", "b.dat"});
              }),
              "stats: one FILE only, got 'b.dat'");
    CaptureArgs p;
    EXPECT_EQ(refusal([&] {
                  CommandLine cl = captureCommandLine(p);
                  parseCapture(cl, p, {"--out", "x.dat", "sleep", "1"});
              }),
              "capture: a command to run goes after --, got 'sleep'");
    // --help anywhere before `--` asks for the command's paragraph, whatever else is on the line.
    RenderArgs d;
    try {
        renderCommandLine(d).parse({"x.dat", "--bogus", "--help"});
        ADD_FAILURE() << "no help asked";
    } catch (const HelpRequest &h) {
        EXPECT_EQ(h.command, "render");
    }
}
