// SPDX-License-Identifier: GPL-3.0-or-later
#include "OpenRun.h"

#include "analysis/EventRoles.h"

#include "analysis/TickAnalysis.h"
#include "sim/Presets.h"
#include "sim/SimReport.h"
#include "sim/Simulator.h"
#include "util/Cancel.h"
#include "view/TimelineIndex.h"

#include <chrono>
#include <stdexcept>
#include <utility>

namespace tickscope {

RunSource RunSource::file(std::string path)
{
    RunSource s;
    s.kind = Kind::File;
    s.name = std::move(path);
    return s;
}

RunSource RunSource::spec(std::string spec, uint64_t seed)
{
    RunSource s;
    s.kind = Kind::Spec;
    s.name = std::move(spec);
    s.seed = seed;
    return s;
}

RunSource RunSource::named(const std::string &run, uint64_t seed)
{
    return sim::namesTraceFile(run) ? file(run) : spec(run, seed);
}

RunSource RunSource::simulation(sim::Scenario scenario, uint64_t seed, std::string title)
{
    RunSource s;
    s.kind = Kind::Scenario;
    s.name = std::move(title);
    s.scenario = std::move(scenario);
    s.seed = seed;
    return s;
}

std::string runTitle(const RunSource &source)
{
    switch (source.kind) {
    case RunSource::Kind::File: {
        const size_t slash = source.name.find_last_of('/');
        return slash == std::string::npos ? source.name : source.name.substr(slash + 1);
    }
    case RunSource::Kind::Spec:
        return "simulated " + source.name;
    case RunSource::Kind::Scenario:
        break;
    }
    return source.name;
}

// The weighing of a trace.dat shown in a timeline: peak RSS of the whole window per byte of page data,
// measured on 128-CPU simulations once the document was drawn and every panel filled: 1.34 (25.6 M events,
// 936 MB for a 700 MB file; Qt's own ~100 MB included), 1.27 (100.5 M, 3.50 GB for 2.74 GB), 1.59 (6.4 M,
// 278 MB for 175 MB, where Qt's part weighs most), against 1.04 for `report`. Qt's part is most of
// the fixed 64 MiB the loader adds, so 1.45 per byte covers the large files with room. `render` keeps
// the same timeline index without the panels (1.28 at 25.6 M) and weighs with it too.
LoadOptions viewLoadOptions()
{
    LoadOptions o;
    o.bytesPerDataByte = 1.45;
    return o;
}

namespace {

double since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The run's traces: the file's (every source, or exactly one) or the simulation's.
std::vector<std::unique_ptr<Trace>> produce(const RunSource &source, const OpenOptions &options,
                                            const std::function<void(double)> &progress)
{
    std::vector<std::unique_ptr<Trace>> traces;
    if (source.kind == RunSource::Kind::File) {
        if (options.early) return options.early(options.cancel, progress);
        LoadOptions load = options.load;
        load.cancel = options.cancel;
        if (options.progress) load.progress = progress;
        if (options.allSources) return loadAll(source.name, load);
        traces.push_back(loadTrace(source.name, load));
        return traces;
    }
    if (options.load.window) throw RunOptionError("--load-window reads a trace file, not a scenario");
    // A spec is made here, in the step that may fail, so that a bad one is reported like a bad file.
    sim::SimControl control;
    control.cancel = options.cancel;
    if (options.progress) control.progress = progress;
    sim::SimResult r = sim::simulate(source.kind == RunSource::Kind::Spec ? sim::scenarioFromSpec(source.name)
                                                                          : *source.scenario,
                                     source.seed, control);
    if (options.progress) progress(1.0);
    traces.push_back(std::move(r.trace));
    return traces;
}

void throwIfLoadCancelled(const std::atomic<bool> *cancel)
{
    if (cancel && cancel->load()) throw LoadCancelled();
}

} // namespace

OpenedRun openRun(const RunSource &source, const OpenOptions &options)
{
    auto progress = [&options](double f) {
        if (options.progress) options.progress(f);
    };
    auto mark = [&options](const char *step) {
        if (options.mark) options.mark(step);
    };
    OpenedRun run;
    auto t0 = std::chrono::steady_clock::now();
    for (auto &t : produce(source, options, [&progress](double f) { progress(0.8 * f); }))
        run.sources.push_back(std::shared_ptr<const Trace>(std::move(t)));
    if (run.sources.empty()) throw std::runtime_error(source.name + ": no events");
    run.loadSeconds = since(t0);
    mark("loaded");
    throwIfLoadCancelled(options.cancel);

    Document &doc = run.doc;
    doc.title = runTitle(source);
    doc.trace = run.sources.front();
    t0 = std::chrono::steady_clock::now();
    AnalysisOptions analysis = options.analysis;
    analysis.cancel = options.cancel;
    doc.analysis = std::make_shared<const TickAnalysis>(TickAnalysis::run(*doc.trace, analysis));
    doc.evidence =
        std::make_shared<const Evidence>(Evidence::of(*doc.trace, EventRoles(*doc.trace), *doc.analysis));
    run.analysisSeconds = since(t0);
    mark("analysed");
    progress(0.95);
    throwIfLoadCancelled(options.cancel);

    if (options.timeline) {
        t0 = std::chrono::steady_clock::now();
        doc.timeline = std::make_shared<const TimelineIndex>(
            TimelineIndex::build(*doc.trace, *doc.analysis, 0, options.cancel));
        run.timelineSeconds = since(t0);
        mark("timeline indexed");
    }
    progress(1.0);
    return run;
}

std::optional<Comparison> compareRuns(const Document &a, Document b, std::optional<Alignment> align,
                                      std::string &why)
{
    const auto zeros = alignRuns(*a.trace, *a.analysis, *b.trace, *b.analysis, align, why);
    if (!zeros) return std::nullopt;
    Comparison c;
    c.b = std::move(b);
    c.zeroA = zeros->a;
    c.zeroB = zeros->b;
    c.how = zeros->how;
    return c;
}

} // namespace tickscope
