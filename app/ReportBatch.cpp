// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReportBatch.h"
#include "session/OpenRun.h"
#include "stream/StreamReport.h"
#include "util/PhaseClock.h"

#include "util/JsonWriter.h"
#include "util/Parallel.h"
#include "util/ProcessStats.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <new>
#include <optional>

namespace tickscope {

namespace {

void checkCpus(const std::vector<int> &cpus, const Trace &trace)
{
    for (int c : cpus) {
        if (c >= trace.cpuCount())
            throw RequestError("--cpus: CPU " + std::to_string(c) + " is not in the trace (" +
                               std::to_string(trace.cpuCount()) + " CPUs)");
    }
}

TickReport streamed(const std::string &file, const ReportRequest &request)
{
    StreamOptions o;
    o.load = request.load;
    o.analysis = request.analysis;
    o.report = request.report;
    if (request.window) o.report.windowSource = "window";
    o.markers = request.markers;
    if (request.sliceNs > 0) o.sliceNs = request.sliceNs;
    o.exactValues = request.exactValues;
    o.opened = [&](const Trace &trace) { checkCpus(request.report.cpus, trace); };
    StreamResult r = streamReport(file, o);
    for (const auto &w : r.warnings)
        std::fprintf(stderr, "tickscope-cli: warning: %s: %s\n", file.c_str(), w.c_str());
    return std::move(r.report);
}

} // namespace

TickReport reportOf(const std::string &file, const ReportRequest &request)
{
    if (request.stream) return streamed(file, request);
    OpenOptions options;
    options.load = request.load;
    options.analysis = request.analysis;
    options.timeline = false;
    const OpenedRun run = openRun(RunSource::file(file), options);
    const Trace *trace = run.doc.trace.get();
    const TickAnalysis &analysis = *run.doc.analysis;
    ReportOptions ro = request.report;
    if (request.window) ro.windowSource = "window";
    if (request.markers) {
        const auto span = markerWindow(*trace, analysis);
        if (!span) throw LoadError(file + ": --markers: the trace has fewer than two ftrace print markers");
        ro.from = span->first;
        ro.to = span->second;
        ro.windowSource = "markers";
    }
    checkCpus(ro.cpus, *trace);
    PhaseClock clock;
    TickReport report = TickReport::make(*trace, analysis, ro);
    clock.mark("report");
    report.loadSeconds = run.loadSeconds;
    for (const auto &w : trace->warnings)
        std::fprintf(stderr, "tickscope-cli: warning: %s: %s\n", file.c_str(), w.c_str());
    return report;
}

namespace {

std::string oneLine(std::string json)
{
    while (!json.empty() && json.back() == '\n')
        json.pop_back();
    return json + '\n';
}

std::string errorLine(const std::string &file, const std::string &message)
{
    JsonWriter j(0);
    j.beginObject().value("file", file).value("error", message).endObject();
    return oneLine(j.str());
}

// Runs one file into its line; nullopt when it was too big for the memory it was given and should be
// tried again alone.
std::optional<std::string> runOne(const std::string &file, const ReportRequest &request, bool retryTooBig,
                                  bool &failed)
{
    std::string message;
    try {
        TickReport r = reportOf(file, request);
        r.peakRssBytes = 0;
        return oneLine(formatReportJson(r, 0));
    } catch (const TooBigError &e) {
        if (retryTooBig) return std::nullopt;
        message = e.what();
    } catch (const RequestError &e) {
        message = file + ": " + e.what();
    } catch (const LoadError &e) {
        message = e.what();
    } catch (const std::bad_alloc &) {
        message = file + ": out of memory";
    } catch (const std::exception &e) {
        message = file + ": error: " + e.what();
    }
    std::fprintf(stderr, "tickscope-cli: %s\n", message.c_str());
    failed = true;
    return errorLine(file, message);
}

} // namespace

int reportJsonLines(const std::vector<std::string> &files, const ReportRequest &request, int threads,
                    std::FILE *out)
{
    const int total = defaultThreads(threads);
    const int workers = std::clamp(static_cast<int>(files.size()), 1, total);
    ReportRequest shared = request;
    shared.load.threads = shared.analysis.threads = std::max(1, total / workers);
    // Side by side, the files share the memory: each is weighed against its part before it loads.
    if (workers > 1 && !request.load.memoryAvailable) {
        if (const uint64_t avail = memoryAvailableBytes()) shared.load.memoryAvailable = avail / workers;
    }

    std::vector<std::optional<std::string>> lines(files.size());
    std::vector<bool> done(files.size(), false);
    std::mutex mutex;
    size_t printed = 0;
    auto flush = [&] { // the finished lines at the head, in the order given
        while (printed < files.size() && done[printed]) {
            if (lines[printed]) {
                std::fputs(lines[printed]->c_str(), out);
                lines[printed].reset();
            }
            ++printed;
        }
        std::fflush(out);
    };
    std::vector<size_t> tooBig;
    std::vector<char> failed(files.size(), 0);
    parallelFor(files.size(), workers, [&](size_t k) {
        bool bad = false;
        std::optional<std::string> line = runOne(files[k], shared, workers > 1, bad);
        const std::lock_guard lock(mutex);
        if (!line) {
            tooBig.push_back(k);
            return;
        }
        lines[k] = std::move(line);
        failed[k] = bad;
        done[k] = true;
        flush();
    });
    // Alone, with all the memory and threads.
    std::sort(tooBig.begin(), tooBig.end());
    ReportRequest alone = request;
    alone.load.threads = alone.analysis.threads = total;
    for (size_t k : tooBig) {
        bool bad = false;
        lines[k] = runOne(files[k], alone, false, bad);
        failed[k] = bad;
        done[k] = true;
        flush();
    }
    flush();
    return std::count(failed.begin(), failed.end(), 1) ? 1 : 0;
}

} // namespace tickscope
