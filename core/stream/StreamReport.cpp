#include "StreamReport.h"

#include "analysis/CpuPass.h"
#include "analysis/EventRoles.h"
#include "import/TraceDatStream.h"
#include "util/Cancel.h"
#include "util/Parallel.h"

#include <algorithm>
#include <chrono>
#include <memory>

namespace tickscope {

StreamResult streamReport(const std::string &path, const StreamOptions &options)
{
    const auto t0 = std::chrono::steady_clock::now();
    TraceDatStream stream(path, options.load);
    const Trace &trace = stream.trace();
    if (options.opened) options.opened(trace);
    const int n = trace.cpuCount();
    const int threads = std::clamp(defaultThreads(options.analysis.threads), 1, std::max(n, 1));
    EventRoles roles(trace);
    std::vector<CpuAnalysis> cpus(static_cast<size_t>(n));
    std::vector<std::unique_ptr<CpuPass>> passes;
    for (int c = 0; c < n; ++c) {
        passes.push_back(std::make_unique<CpuPass>(trace, roles, c, cpus[static_cast<size_t>(c)]));
        passes.back()->start(0);
    }
    StreamResult r;
    const int64_t slice = std::max<int64_t>(options.sliceNs, 1);
    for (;;) {
        const int64_t t = stream.nextPageTs();
        if (t == INT64_MAX) break;
        stream.decodeThrough(t > INT64_MAX - slice ? INT64_MAX : t + slice - 1);
        ++r.steps;
        roles.refresh(trace);
        parallelFor(passes.size(), threads, [&](size_t c) {
            throwIfCancelled(options.analysis.cancel);
            passes[c]->advance();
        });
    }
    stream.finish();
    for (auto &p : passes)
        p->finish();
    passes.clear();
    TickAnalysis analysis = TickAnalysis::fromPasses(trace, roles, std::move(cpus), options.analysis);
    analysis.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    ReportOptions ro = options.report;
    if (options.markers) {
        const auto span = markerWindow(trace, analysis);
        if (!span) throw LoadError(path + ": --markers: the trace has fewer than two ftrace print markers");
        ro.from = span->first;
        ro.to = span->second;
        ro.windowSource = "markers";
    }
    r.report = TickReport::make(trace, analysis, ro);
    r.warnings = trace.warnings;
    return r;
}

} // namespace tickscope
