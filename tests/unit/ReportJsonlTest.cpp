// SPDX-License-Identifier: GPL-3.0-or-later
// `tickscope-cli report --jsonl FILE...`: one compact JSON line per file, in the order given, with the
// numbers `report --json` gives for that file alone; a failed file is an error line and exit 1; files too
// big for their share of the memory are tried again alone.
#include "TestUtil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace tickscope {
namespace {

using nlohmann::json;
using test::cli;
using test::dataPath;

std::string quoted(const std::string &path)
{
    return "'" + path + "'";
}

std::vector<std::string> splitLines(const std::string &s)
{
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

// The report without what depends on the run (times, threads, the process's memory).
json numbers(json j)
{
    j.erase("load_seconds");
    j.erase("peak_rss_bytes");
    j["analysis"].erase("seconds");
    j["analysis"].erase("threads");
    return j;
}

// Every committed fixture a report reads: trace.dat files and ftrace text.
std::vector<std::string> fixtures()
{
    std::vector<std::string> files;
    for (const auto &dir : {dataPath(""), dataPath("text")}) {
        for (const auto &e : std::filesystem::directory_iterator(dir)) {
            const std::string ext = e.path().extension().string();
            if (e.is_regular_file() &&
                (ext == ".dat" || (ext == ".txt" && e.path().filename() != "README.txt")))
                files.push_back(e.path().string());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

TEST(ReportJsonl, EveryFixtureGivesTheNumbersOfItsOwnReport)
{
    const std::vector<std::string> files = fixtures();
    ASSERT_GE(files.size(), 15u) << "fixtures missing from " << dataPath("");
    std::string args = "report --jsonl --threads 2";
    for (const auto &f : files)
        args += " " + quoted(f);
    const auto batch = cli(args);
    const std::vector<std::string> lines = splitLines(batch.out);
    ASSERT_EQ(lines.size(), files.size()) << batch.err;
    bool anyFailed = false;
    for (size_t k = 0; k < files.size(); ++k) {
        SCOPED_TRACE(files[k]);
        EXPECT_EQ(lines[k].find('\n'), std::string::npos);
        const json line = json::parse(lines[k]);
        ASSERT_EQ(line.at("file"), files[k]); // in the order given
        const auto alone = cli("report --json " + quoted(files[k]));
        if (alone.exitCode != 0) {
            // the same failure, as an error line (a file with several instances needs --instance)
            anyFailed = true;
            ASSERT_TRUE(line.contains("error")) << lines[k];
            EXPECT_NE(alone.err.find(line.at("error").get<std::string>()), std::string::npos) << alone.err;
            continue;
        }
        ASSERT_FALSE(line.contains("error")) << lines[k];
        EXPECT_EQ(line.at("peak_rss_bytes"), 0);
        const json want = json::parse(alone.out);
        // something was reported: events, or (function_graph text) calls
        EXPECT_TRUE(want.at("analysis").at("events").get<uint64_t>() > 0 || want.contains("functions"));
        EXPECT_EQ(numbers(line), numbers(want));
    }
    EXPECT_EQ(batch.exitCode, anyFailed ? 1 : 0) << batch.err;
}

TEST(ReportJsonl, AFailedFileIsALineAndExitOne)
{
    const std::string good = dataPath("nohzfull-poll.dat");
    const std::string missing = dataPath("no-such-file.dat");
    const auto r = cli("report --jsonl " + quoted(missing) + " " + quoted(good) + " --markers");
    EXPECT_EQ(r.exitCode, 1);
    const std::vector<std::string> lines = splitLines(r.out);
    ASSERT_EQ(lines.size(), 2u) << r.out;
    const json bad = json::parse(lines[0]);
    EXPECT_EQ(bad.at("file"), missing);
    EXPECT_NE(bad.at("error").get<std::string>().find("no-such-file.dat"), std::string::npos);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    const json ok = json::parse(lines[1]);
    EXPECT_EQ(ok.at("window").at("source"), "markers");
    // options apply to every file; --json/--format do not go with --jsonl
    for (const std::string &extra : {std::string(" --json"), std::string(" --format text")}) {
        const auto u = cli("report --jsonl " + quoted(good) + extra);
        EXPECT_EQ(u.exitCode, 2) << extra;
        EXPECT_TRUE(u.out.empty());
    }
    EXPECT_EQ(cli("report " + quoted(good) + " " + quoted(good)).exitCode, 2); // many files need --jsonl
}

TEST(ReportJsonl, FilesTooBigForTheirShareAreTriedAgainAlone)
{
    // 100 MiB in all: 50 MiB each for two files side by side, less than a model's 64 MiB base, but enough
    // for one alone.
    const std::string a = dataPath("rt-hrtimer-k4.dat"), b = dataPath("nohzfull-poll.dat");
    const auto r =
        test::run("TICKSCOPE_MEMORY_AVAILABLE=104857600 timeout 120 '" + std::string(TICKSCOPE_CLI) +
                  "' report --jsonl --threads 2 " + quoted(a) + " " + quoted(b));
    EXPECT_EQ(r.exitCode, 0) << r.err;
    const std::vector<std::string> lines = splitLines(r.out);
    ASSERT_EQ(lines.size(), 2u) << r.out;
    EXPECT_EQ(json::parse(lines[0]).at("file"), a);
    EXPECT_EQ(json::parse(lines[1]).at("file"), b);
    EXPECT_FALSE(json::parse(lines[0]).contains("error")) << lines[0];
    EXPECT_FALSE(json::parse(lines[1]).contains("error")) << lines[1];
    // with too little for even one alone, each is an error line that says how much it needs
    const auto tiny =
        test::run("TICKSCOPE_MEMORY_AVAILABLE=1048576 timeout 120 '" + std::string(TICKSCOPE_CLI) +
                  "' report --jsonl --threads 2 " + quoted(a) + " " + quoted(b));
    EXPECT_EQ(tiny.exitCode, 1);
    for (const std::string &line : splitLines(tiny.out))
        EXPECT_NE(json::parse(line).at("error").get<std::string>().find("of memory to load"),
                  std::string::npos)
            << line;
}

} // namespace
} // namespace tickscope
