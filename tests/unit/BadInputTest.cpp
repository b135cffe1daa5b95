// SPDX-License-Identifier: GPL-3.0-or-later
// Bad input through the CLI, as a user meets it: one clear line and a non-zero exit, or a load of
// what is intact with a warning that says what was lost. Never a crash, a hang or a silent partial.
#include "TestUtil.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

using namespace tickscope::test;
namespace fs = std::filesystem;

namespace {

struct CliRun
{
    CommandResult r;
    int lines = 0; // lines on stderr
};

CliRun stats(const std::string &file, const std::string &extra = "")
{
    CliRun c;
    c.r = run("timeout 60 '" + std::string(TICKSCOPE_CLI) + "' stats --json " + extra + " '" + file + "'");
    for (char ch : c.r.err)
        c.lines += ch == '\n';
    return c;
}

uint64_t eventsOf(const std::string &json)
{
    // top-level "events": N (the last occurrence, after the sources array)
    const auto p = json.rfind("\"events\": ");
    return p == std::string::npos ? 0 : std::stoull(json.substr(p + 10));
}

void writeFile(const fs::path &p, const std::string &bytes)
{
    std::ofstream(p, std::ios::binary) << bytes;
}

std::string readFile(const std::string &p)
{
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// The invariant for every bad input.
void expectCleanOutcome(const CliRun &c, uint64_t fullEvents, const std::string &what)
{
    ASSERT_EQ(c.r.signal, 0) << what << ": crashed\n" << c.r.err;
    ASSERT_NE(c.r.exitCode, 124) << what << ": hung";
    if (c.r.exitCode == 0) {
        const uint64_t n = eventsOf(c.r.out);
        if (n != fullEvents) {
            EXPECT_NE(c.r.err.find("warning:"), std::string::npos)
                << what << ": partial load (" << n << " of " << fullEvents << " events) without a warning";
        }
    } else {
        EXPECT_EQ(c.r.exitCode, 1) << what;
        EXPECT_EQ(c.lines, 1) << what << ": expected one error line, got:\n" << c.r.err;
        EXPECT_EQ(c.r.out, "") << what;
    }
}

} // namespace

TEST(BadInput, MissingFile)
{
    const auto c = stats("/nonexistent/trace.dat");
    EXPECT_EQ(c.r.exitCode, 1);
    EXPECT_EQ(c.lines, 1);
    EXPECT_NE(c.r.err.find("No such file"), std::string::npos) << c.r.err;
}

TEST(BadInput, Directory)
{
    const auto dir = tempDir();
    const auto c = stats(dir.string());
    EXPECT_EQ(c.r.exitCode, 1);
    EXPECT_EQ(c.lines, 1);
    EXPECT_NE(c.r.err.find("directory"), std::string::npos) << c.r.err;
    fs::remove_all(dir);
}

TEST(BadInput, EmptyFile)
{
    const auto dir = tempDir();
    writeFile(dir / "empty.dat", "");
    const auto c = stats((dir / "empty.dat").string());
    EXPECT_EQ(c.r.exitCode, 1);
    EXPECT_EQ(c.lines, 1);
    EXPECT_NE(c.r.err.find("empty"), std::string::npos) << c.r.err;
    fs::remove_all(dir);
}

TEST(BadInput, UnreadableFile)
{
    // Root reads a file whatever its mode: as root the CLI runs as nobody (setpriv), as a user would.
    const auto dir = tempDir();
    ::chmod(dir.c_str(), 0755); // the folder open to nobody: only the file is unreadable
    writeFile(dir / "secret.dat", "x");
    ::chmod((dir / "secret.dat").c_str(), 0);
    const std::string asUser = ::geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
    const auto r = run(asUser + "timeout 60 '" + TICKSCOPE_CLI + "' stats --json '" +
                       (dir / "secret.dat").string() + "'");
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_EQ(r.err, "tickscope-cli: " + (dir / "secret.dat").string() + ": Permission denied\n");
    fs::remove_all(dir);
}

TEST(BadInput, RandomBytes)
{
    const auto dir = tempDir();
    std::mt19937 rng(7);
    for (int k = 0; k < 3; ++k) {
        std::string bytes(4096 << k, '\0');
        for (char &b : bytes)
            b = static_cast<char>(rng());
        const fs::path p = dir / ("random" + std::to_string(k));
        writeFile(p, bytes);
        const auto c = stats(p.string());
        EXPECT_EQ(c.r.exitCode, 1) << c.r.err;
        EXPECT_EQ(c.lines, 1) << c.r.err;
    }
    // The trace.dat magic followed by garbage.
    std::string fake("\x17\x08\x44tracing6\0", 11);
    for (int i = 0; i < 5000; ++i)
        fake += static_cast<char>(rng());
    writeFile(dir / "fake.dat", fake);
    const auto c = stats((dir / "fake.dat").string());
    EXPECT_EQ(c.r.exitCode, 1) << c.r.err;
    EXPECT_EQ(c.lines, 1) << c.r.err;
    fs::remove_all(dir);
}

// A trace.dat cut at many points: the header, the metadata sections, and through the event data.
TEST(BadInput, TruncatedTraceDatAnywhere)
{
    for (const char *name : {"nohzfull-poll.dat", "host-cyclic-v6.dat"}) {
        const std::string full = readFile(dataPath(name));
        const auto whole = stats(dataPath(name));
        ASSERT_EQ(whole.r.exitCode, 0) << whole.r.err;
        const uint64_t fullEvents = eventsOf(whole.r.out);
        ASSERT_GT(fullEvents, 0u);
        const auto dir = tempDir();
        std::vector<size_t> cuts = {1, 3, 9, 10, 12, 20, 64, 200, 1000, 4096};
        for (int k = 1; k < 24; ++k)
            cuts.push_back(full.size() * static_cast<size_t>(k) / 24);
        cuts.push_back(full.size() - 1);
        for (size_t cut : cuts) {
            const fs::path p = dir / "cut.dat";
            writeFile(p, full.substr(0, cut));
            expectCleanOutcome(stats(p.string()), fullEvents,
                               std::string(name) + " cut at " + std::to_string(cut));
        }
        fs::remove_all(dir);
    }
}

TEST(BadInput, TextWithGarbageLinesLoadsWithAWarning)
{
    if (!haveTraceCmd()) GTEST_SKIP() << "trace-cmd is not installed";
    const auto dir = tempDir();
    const std::string txt = (dir / "r.txt").string();
    ASSERT_EQ(run("trace-cmd report '" + dataPath("nohzfull-poll.dat") + "' > '" + txt + "'").exitCode, 0);
    const auto clean = stats(txt);
    ASSERT_EQ(clean.r.exitCode, 0) << clean.r.err;
    const uint64_t n = eventsOf(clean.r.out);
    std::string text = readFile(txt);
    // Garbage in the middle: a binary blob, a half line, a line of text.
    const size_t mid = text.find('\n', text.size() / 2) + 1;
    text.insert(mid, std::string("\x01\x02garbage\xff\n   half a line [00\nthis is not an event\n", 47));
    writeFile(dir / "g.txt", text);
    const auto c = stats((dir / "g.txt").string());
    EXPECT_EQ(c.r.exitCode, 0) << c.r.err;
    EXPECT_EQ(eventsOf(c.r.out), n);
    EXPECT_NE(c.r.err.find("warning:"), std::string::npos) << c.r.err;
    // A text file cut in the middle of a line.
    writeFile(dir / "cut.txt", readFile(txt).substr(0, mid + 20));
    expectCleanOutcome(stats((dir / "cut.txt").string()), n, "text cut mid-line");
    fs::remove_all(dir);
}

TEST(BadInput, UsageErrors)
{
    const auto c = run("'" + std::string(TICKSCOPE_CLI) + "' stats");
    EXPECT_EQ(c.exitCode, 2);
    const auto d = run("'" + std::string(TICKSCOPE_CLI) + "' frobnicate x");
    EXPECT_EQ(d.exitCode, 2);
    EXPECT_NE(d.err.find("unknown command"), std::string::npos);
}
