// SPDX-License-Identifier: GPL-3.0-or-later
#include "TestUtil.h"

#include "model/EventFormat.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace tickscope::test {

namespace fs = std::filesystem;

static std::string slurp(const fs::path &p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

CommandResult run(const std::string &cmd)
{
    const fs::path dir = tempDir();
    const fs::path out = dir / "stdout";
    const fs::path err = dir / "stderr";
    const std::string full = "(" + cmd + ") >'" + out.string() + "' 2>'" + err.string() + "' </dev/null";
    const int status = std::system(full.c_str());
    CommandResult r;
    if (WIFEXITED(status)) {
        r.exitCode = WEXITSTATUS(status);
        // sh reports a child killed by signal N as 128+N.
        if (r.exitCode > 128 && r.exitCode < 160) r.signal = r.exitCode - 128;
    } else if (WIFSIGNALED(status)) {
        r.signal = WTERMSIG(status);
    }
    r.out = slurp(out);
    r.err = slurp(err);
    fs::remove_all(dir);
    return r;
}

CommandResult cli(const std::string &args)
{
    return run("cd / && timeout 120 '" + std::string(TICKSCOPE_CLI) + "' " + args);
}

std::string dataPath(const std::string &name)
{
    return std::string(TICKSCOPE_TEST_DATA) + "/" + name;
}

namespace {
// The process' scratch directory, removed with everything in it when the test process exits.
struct ScratchRoot
{
    fs::path path = fs::temp_directory_path() / ("tickscope-test-" + std::to_string(::getpid()));
    ~ScratchRoot()
    {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};
} // namespace

fs::path tempDir()
{
    static std::mt19937_64 rng{std::random_device{}()};
    static const ScratchRoot root;
    fs::path dir = root.path / std::to_string(rng());
    fs::create_directories(dir);
    return dir;
}

bool haveTraceCmd()
{
    const bool have = std::system("command -v trace-cmd >/dev/null 2>&1") == 0;
    // In CI scripts/install-deps.sh --test has installed it: a test that would skip its comparison fails.
    const char *ci = std::getenv("CI");
    if (!have && ci && std::string(ci) == "true")
        ADD_FAILURE()
            << "trace-cmd, the reference these tests compare with, is not installed in CI (CI=true)";
    return have;
}

ReportCounts countReportText(const std::string &text)
{
    // An event line: "<comm>-<pid> [CPU] <ts>: <name>: ...". Find the "[NNN]" cpu token, then the
    // first two tokens after it that end in ':' are the timestamp and the event name.
    ReportCounts c;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("cpus=", 0) == 0 || line.rfind("version", 0) == 0) continue;
        if (line.find("EVENTS DROPPED]") != std::string::npos) {
            ++c.droppedLines;
            continue;
        }
        std::istringstream ls(line);
        std::vector<std::string> tok;
        std::string t;
        while (ls >> t)
            tok.push_back(t);
        for (size_t i = 0; i < tok.size(); ++i) {
            const std::string &k = tok[i];
            if (k.size() < 3 || k.front() != '[' || k.back() != ']') continue;
            bool digits = true;
            for (size_t j = 1; j + 1 < k.size(); ++j)
                digits &= std::isdigit(static_cast<unsigned char>(k[j])) != 0;
            if (!digits) continue;
            const int cpu = std::stoi(k.substr(1, k.size() - 2));
            size_t j = i + 1;
            while (j < tok.size() && tok[j].back() != ':')
                ++j; // skip latency columns
            if (j + 1 >= tok.size()) break;
            std::string name = tok[j + 1];
            if (name.back() != ':') break;
            name.pop_back();
            ++c.byName[name];
            ++c.byCpu[cpu];
            ++c.total;
            break;
        }
    }
    return c;
}

ReportCounts countReport(const std::string &file, const std::string &extraArgs)
{
    const auto r = run("trace-cmd report " + extraArgs + " '" + file + "'");
    return countReportText(r.out);
}

ReportCounts countModel(const std::vector<const Trace *> &traces)
{
    ReportCounts c;
    for (const Trace *t : traces) {
        for (int cpu = 0; cpu < t->cpuCount(); ++cpu) {
            const CpuEvents &ev = t->cpu(cpu);
            for (size_t i = 0; i < ev.size(); ++i)
                ++c.byName[t->types()[ev.type(i)].name];
            if (ev.size()) c.byCpu[cpu] += ev.size();
            c.total += ev.size();
            c.droppedLines += ev.lost.size();
        }
    }
    return c;
}

void expectSameEvents(const Trace &a, const Trace &b, const std::string &what)
{
    ASSERT_EQ(a.cpuCount(), b.cpuCount()) << what;
    for (int c = 0; c < a.cpuCount(); ++c) {
        const CpuEvents &x = a.cpu(c);
        const CpuEvents &y = b.cpu(c);
        ASSERT_EQ(x.size(), y.size()) << what << " CPU " << c;
        for (size_t i = 0; i < x.size(); ++i) {
            const std::string at = what + " CPU " + std::to_string(c) + " event " + std::to_string(i);
            ASSERT_EQ(x.ts(i), y.ts(i)) << at;
            ASSERT_EQ(a.types()[x.type(i)].name, b.types()[y.type(i)].name) << at;
            ASSERT_EQ(x.pid(i), y.pid(i)) << at;
            ASSERT_EQ(x.flags(i), y.flags(i)) << at;
            ASSERT_EQ(x.preempt(i), y.preempt(i)) << at;
            ASSERT_EQ(formatEventFields(a, c, i), formatEventFields(b, c, i)) << at;
            ASSERT_EQ(taskComm(a, c, i), taskComm(b, c, i)) << at;
        }
    }
}

} // namespace tickscope::test
