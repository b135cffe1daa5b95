// SPDX-License-Identifier: GPL-3.0-or-later
// Opening a run, the one way every program does it: a trace file, or a scenario to simulate (a preset
// with its variant and settings, a FILE.json, or a scenario already made), loaded or simulated, analysed
// and indexed for the timeline into a Document, with the load options, cancel and progress the caller
// wants. Two opened runs become a Comparison by aligning their time zeros (RunAlignment.h).
#pragma once

#include "Document.h"
#include "RunAlignment.h"

#include "analysis/TickAnalysis.h"
#include "import/Loader.h"
#include "sim/Scenario.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tickscope {

// What a run is.
struct RunSource
{
    enum class Kind : uint8_t
    {
        File,     // a trace.dat or ftrace text file
        Spec,     // PRESET[:VARIANT][,KEY=VALUE...] or FILE.json[,KEY=VALUE...], made when the run opens
        Scenario, // a scenario already made (the simulator panel's)
    };
    Kind kind = Kind::File;
    std::string name; // the path, the spec, or the scenario's title
    std::optional<sim::Scenario> scenario;
    uint64_t seed = 1; // simulated runs

    static RunSource file(std::string path);
    static RunSource spec(std::string spec, uint64_t seed = 1);
    // A file when `run` names one (sim::namesTraceFile), else a spec: what the command lines take.
    static RunSource named(const std::string &run, uint64_t seed = 1);
    static RunSource simulation(sim::Scenario scenario, uint64_t seed, std::string title);
};

// The run's title: a file's name without its folders, "simulated SPEC", or a made scenario's own title.
std::string runTitle(const RunSource &source);

// A load already under way for a file (the GUI starts one before its window exists): it gives the
// file's traces, or throws the load's error; cancel and progress as LoadOptions' own.
using EarlyLoad = std::function<std::vector<std::unique_ptr<Trace>>(
    const std::atomic<bool> *cancel, const std::function<void(double)> &progress)>;

struct OpenOptions
{
    LoadOptions load;         // window, instance, threads, weighing; openRun sets its cancel and progress
    bool allSources = false;  // keep every buffer instance of a file (the first one is the document's)
                              // rather than insist on exactly one (loadTrace)
    AnalysisOptions analysis; // nohz_full CPUs, threads; openRun sets its cancel
    bool timeline = true;     // build the timeline's LOD index (a report needs none)
    const std::atomic<bool> *cancel = nullptr; // load or simulation, analysis and index; throws on set
    // 0 to 0.8 while loading or simulating, 0.95 once analysed, 1 once indexed.
    std::function<void(double)> progress;
    void (*mark)(const char *step) = nullptr; // told "loaded", "analysed" and "timeline indexed"
    EarlyLoad early;                          // a file's load already under way, adopted
};

struct OpenedRun
{
    Document doc;
    std::vector<std::shared_ptr<const Trace>> sources; // every source kept; front() is doc.trace
    double loadSeconds = 0, analysisSeconds = 0, timelineSeconds = 0;
};

// Opens `source`. Throws what the steps throw, with their own messages: LoadError (TooBigError when the
// model would not fit; LoadCancelled), sim::ScenarioError for a bad spec, Cancelled; and
// RunOptionError for load options a scenario cannot take.
OpenedRun openRun(const RunSource &source, const OpenOptions &options = {});

class RunOptionError : public std::invalid_argument
{
public:
    using std::invalid_argument::invalid_argument;
};

// The load options of a file shown in a timeline (the GUI, `render`): the loader's defaults, with the
// weighing of the file against the free memory for the timeline's index and panels besides the model.
LoadOptions viewLoadOptions();

// Run B against run A, aligned as `align` asks (RunAlignment.h); nullopt with `why` when it cannot be.
std::optional<Comparison> compareRuns(const Document &a, Document b, std::optional<Alignment> align,
                                      std::string &why);

} // namespace tickscope
