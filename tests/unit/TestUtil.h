// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers for tests: running commands, temp files, and counting `trace-cmd report` output
// independently of tickscope's own text importer.
#pragma once

#include "model/Trace.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace tickscope::test {

struct CommandResult
{
    int exitCode = -1; // -1 when killed by a signal
    int signal = 0;
    std::string out;
    std::string err;
};

// Runs `sh -c cmd`, capturing stdout and stderr.
CommandResult run(const std::string &cmd);
// Runs the built tickscope-cli with `args` (shell words) from '/', 120 s at most.
CommandResult cli(const std::string &args);

std::string dataPath(const std::string &name); // tests/data/NAME
std::filesystem::path tempDir();               // a fresh directory under the build's temp
bool haveTraceCmd(); // false: not installed (a test failure too with CI=true: the reference must be there)

struct ReportCounts
{
    std::map<std::string, uint64_t> byName;
    std::map<int, uint64_t> byCpu;
    uint64_t total = 0;
    uint64_t droppedLines = 0;
};

// Counts the event lines of `trace-cmd report FILE` (header and CPU-dropped lines ignored).
ReportCounts countReport(const std::string &file, const std::string &extraArgs = "");
ReportCounts countReportText(const std::string &text);

// Every event of a and b: the same CPU, time, name, task, flags and printed fields (gtest assertions).
void expectSameEvents(const Trace &a, const Trace &b, const std::string &what);

// The same counts from a loaded model (summed over sources).
ReportCounts countModel(const std::vector<const Trace *> &traces);

} // namespace tickscope::test

namespace tickscope::test {
// Built with AddressSanitizer or ThreadSanitizer: their shadow memory makes address-space figures
// and `ulimit -v` limits meaningless, so the tests that measure those skip.
constexpr bool kSanitized =
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    true;
#else
    false;
#endif
} // namespace tickscope::test
