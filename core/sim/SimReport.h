// SPDX-License-Identifier: GPL-3.0-or-later
// What `tickscope-cli simulate` and `compare` print: the tick report of a trace (TickReport, the same as
// `report`), its timer_list pairing, and for a simulation the ground truth. A comparison puts the report
// numbers of two runs (simulations or traces) side by side: before -> after.
#pragma once

#include "Simulator.h"

#include "analysis/TimerListPairing.h"
#include "report/ReportDiff.h"
#include "report/TickReport.h"

#include <string>
#include <vector>

namespace tickscope::sim {

struct Analysed
{
    std::string label;
    TickReport report;
    std::vector<TimerListCpu> timers; // per CPU, over the report's window
    bool simulated = false;
    Scenario scenario;
    GroundTruth truth;
    int64_t from = INT64_MIN, to = INT64_MAX;
};

// Analyses a trace over its marker window when it has two print markers (useMarkers), else all of it.
Analysed analyse(const Trace &trace, std::string label, bool useMarkers = true);
// The same for a trace already analysed.
Analysed analyseRun(const Trace &trace, const TickAnalysis &analysis, std::string label,
                    bool useMarkers = true);
// Analyses a trace over [from, to] (absolute ns; INT64_MIN/MAX: open), `source` naming where the window
// came from ("trace", "markers", "window").
Analysed analyseSpan(const Trace &trace, const TickAnalysis &analysis, std::string label, int64_t from,
                     int64_t to, std::string source);
// Simulates and analyses; `result` keeps the trace (for --out).
Analysed simulateAndAnalyse(const Scenario &s, uint64_t seed, SimResult &result, bool useMarkers = true);

std::string formatSimText(const Analysed &a);
std::string formatSimJson(const Analysed &a);
std::string formatTimerListText(const std::vector<TimerListCpu> &timers);

// "SPEC[,key=value...]": a preset or scenario file (with ':variant') and settings, for `compare`.
Scenario scenarioFromSpec(const std::string &spec);

// A window in relative time given to `compare --window`: seconds after each run's time zero.
struct CompareWindow
{
    int64_t from = INT64_MIN, to = INT64_MAX; // relative ns; open ends stay open
    std::string align;                        // how the zeros were chosen ("marker", "start", "offset ...")
    int64_t zeroA = 0, zeroB = 0;             // absolute ns
};

// `window`: nullptr for the default window (each run's markers, or the whole run); the output is then
// unchanged from before relative windows existed.
std::string formatCompareText(const Analysed &a, const Analysed &b, const CompareWindow *window = nullptr);
std::string formatCompareJson(const Analysed &a, const Analysed &b, const CompareWindow *window = nullptr);
// The mail form (ReportMail.h): per CPU "before -> after" of the quoted figures, for the CPUs that are
// nohz_full in either run (every CPU when neither has one), then how each run was measured.
std::string formatCompareMail(const Analysed &a, const Analysed &b, const std::string &tool,
                              const CompareWindow *window = nullptr);

} // namespace tickscope::sim
