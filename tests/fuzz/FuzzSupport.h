// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the fuzz targets: the input as a file (a memfd: a regular file, as the importers require),
// and the analysis of whatever loaded, as the CLI and the GUI run it.
#pragma once

#include "analysis/TickAnalysis.h"
#include "import/Loader.h"
#include "report/TickReport.h"
#include "stream/StreamReport.h"
#include "view/TimelineIndex.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <sys/mman.h>
#include <unistd.h>

namespace tickscope::fuzz {

class MemFile
{
public:
    MemFile(const uint8_t *data, size_t size)
    {
        fd_ = ::memfd_create("tickscope-fuzz", MFD_CLOEXEC);
        if (fd_ < 0) std::abort();
        for (size_t done = 0; done < size;) {
            const ssize_t n = ::write(fd_, data + done, size - done);
            if (n <= 0) std::abort();
            done += static_cast<size_t>(n);
        }
        path_ = "/proc/self/fd/" + std::to_string(fd_);
    }
    ~MemFile() { ::close(fd_); }
    const std::string &path() const { return path_; }

private:
    int fd_ = -1;
    std::string path_;
};

// The report of a whole trace as JSON, but for what differs from run to run (times, threads, memory).
inline std::string timelessJson(TickReport r)
{
    r.analysisSeconds = 0;
    r.derivedBytes = 0;
    r.threads = 1;
    r.path.clear();
    return formatReportJson(r);
}

// Loads every source of the file and runs what a user's first look runs: the tick analysis, the
// report of the whole trace and the timeline index. Load errors are expected; crashes are not. The
// analysis again with every CPU cut into pieces of 16 events for the steps across CPUs (as a busy
// CPU's are, in pieces of 2^15-2^18) must give the same report (traces of up to 20000 events and 64
// CPUs).
inline void loadAndAnalyse(const uint8_t *data, size_t size, bool recordApi)
{
    MemFile file(data, size);
    LoadOptions options;
    options.threads = 1;
    options.recordApi = recordApi;
    options.streamIdleTimeoutMs = 10;
    size_t events = 0;
    try {
        for (const auto &trace : loadAll(file.path(), options)) {
            events += trace->eventCount();
            const TickAnalysis analysis = TickAnalysis::run(*trace, AnalysisOptions{});
            // A line naming CPU 7000 makes 7001 CPUs: the report of thousands of empty ones took most of such
            // an input's time under the fuzzer's instrumentation (1.5 s each, 0.5 s without; the corpus fills
            // with them: clang 14's libFuzzer keeps an input whatever the target returns) and covers nothing
            // a few empty CPUs do not, so past 64 CPUs the report is of the CPUs with events.
            ReportOptions ro;
            if (trace->cpuCount() > 64)
                for (int c = 0; c < trace->cpuCount(); ++c)
                    if (trace->cpu(c).size()) ro.cpus.push_back(c);
            const TickReport report = TickReport::make(*trace, analysis, ro);
            (void)formatReportText(report);
            (void)formatReportJson(report);
            (void)TimelineIndex::build(*trace, analysis, 1);
            // (not the fixtures' captures nor sparse CPU numbers: the sweep's slices of 64 events each go
            // through every CPU, and the time is better spent on more inputs)
            if (trace->eventCount() > 20000 || trace->cpuCount() > 64) continue;
            // (two threads: a CPU with more than half the events has its pass run beside the sweep, taking
            // its events a slice at a time)
            AnalysisOptions pieces;
            pieces.threads = 2;
            pieces.partEvents = 16;
            pieces.sliceEvents = 64;
            if (timelessJson(TickReport::make(*trace, TickAnalysis::run(*trace, pieces), ReportOptions{})) !=
                timelessJson(report))
                std::abort();
        }
    } catch (const LoadError &e) {
        // An exception the importers do not turn into a message of their own is a defect.
        if (std::string_view(e.what()).find(kUnexpectedContent) != std::string_view::npos) std::abort();
        return;
    }
    if (recordApi) return; // (the window reads through the page decoder only)
    // --load-window: a span of the file (a trace.dat's pages of that time, a text's lines) loads no more
    // events than the whole file.
    LoadOptions part = options;
    part.window = std::make_pair(1e-4, 2e-3);
    try {
        size_t inside = 0;
        for (const auto &trace : loadAll(file.path(), part))
            inside += trace->eventCount();
        if (inside > events) std::abort();
    } catch (const LoadError &e) {
        if (std::string_view(e.what()).find(kUnexpectedContent) != std::string_view::npos) std::abort();
    }
}

// The same file through `report --stream` (1 ms slices, every value kept): a LoadError is fine (a text
// trace, events out of order, a damaged page), an unexpected exception or a crash is not, and when both
// the load and the stream read one source their reports must be the same.
inline void streamAndCompare(const uint8_t *data, size_t size)
{
    MemFile file(data, size);
    const auto timeless = timelessJson;
    std::string loaded;
    try {
        LoadOptions options;
        options.threads = 1;
        options.streamIdleTimeoutMs = 10;
        const auto traces = loadAll(file.path(), options);
        if (traces.size() == 1 && traces[0]->functions.empty() && traces[0]->warnings.empty()) {
            AnalysisOptions ao;
            ao.threads = 1;
            const TickAnalysis analysis = TickAnalysis::run(*traces[0], ao);
            // A trace whose tick lanes are inferred from its interrupts' gaps: the stream does not infer
            // them (it says so in its evidence), so the two reports differ by design.
            if (!analysis.inferredTickPeriodNs)
                loaded = timeless(TickReport::make(*traces[0], analysis, ReportOptions{}));
        }
    } catch (const LoadError &) {
    }
    try {
        StreamOptions so;
        so.load.threads = 1;
        so.analysis.threads = 1;
        so.sliceNs = 1000000;
        so.exactValues = SIZE_MAX;
        const StreamResult r = streamReport(file.path(), so);
        (void)formatReportText(r.report);
        if (!loaded.empty() && r.warnings.empty() && timeless(r.report) != loaded) std::abort();
    } catch (const LoadError &e) {
        if (std::string_view(e.what()).find(kUnexpectedContent) != std::string_view::npos) std::abort();
    }
}

} // namespace tickscope::fuzz
