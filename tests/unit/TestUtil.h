// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers for tests: running commands, temp files, and counting `trace-cmd report` output
// independently of tickscope's own text importer.
#pragma once

#include "model/Trace.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <thread>
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

// Cancels `work` while it runs, as the GUI's Cancel button does, for work that reports no progress to
// set the flag from: `work` gets a flag that is false when it starts, which another thread sets after a
// quarter of `whole` (how long the work takes uncancelled, measured by the caller in the same run); when
// the work ended before that, the next attempt sets it twice as soon (at most 10 attempts). True once an
// attempt threw `Stop` (the work stopped without a result); false when every attempt returned.
template <class Stop>
bool stopsWhenCancelledWhileRunning(const std::function<void(const std::atomic<bool> *)> &work,
                                    std::chrono::nanoseconds whole)
{
    for (int attempt = 0; attempt < 10; ++attempt) {
        std::atomic<bool> cancel{false};
        const auto delay = whole / (4 << attempt);
        std::thread setter([&] {
            std::this_thread::sleep_for(delay);
            cancel = true;
        });
        bool stopped = false;
        try {
            work(&cancel);
        } catch (const Stop &) {
            stopped = true;
        } catch (...) {
            setter.join();
            throw;
        }
        setter.join();
        if (stopped) return true;
    }
    return false;
}

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
