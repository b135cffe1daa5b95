// SPDX-License-Identifier: GPL-3.0-or-later
// The whole-trace report of one document, made once and shared. Three views want it as soon as a document
// opens (the timeline's per-CPU strip, the Findings panel and the Summary panel); at tens of millions of
// events each copy costs a few hundred milliseconds and the three ran side by side on the same cores.
// Other options (a CPU subset, a time window, another late-wakeup threshold) are made by the caller's
// thread each time, as before.
#pragma once

#include "report/TickReport.h"

#include <future>
#include <memory>
#include <mutex>

namespace tickscope {

class ReportMemo
{
public:
    // The report of `options` over trace and analysis: the shared one when they give the whole trace's
    // numbers (sameAsWholeTrace, TickReport.h), renamed for a window; that one filtered when only the CPU
    // list differs (cpuSubsetOfWholeTrace: the CPUs shown); else a new one. Thread-safe: a
    // second caller for the whole trace waits for the first one's result instead of making its own.
    std::shared_ptr<const TickReport> get(const std::shared_ptr<const Trace> &trace,
                                          const std::shared_ptr<const TickAnalysis> &analysis,
                                          const ReportOptions &options);

private:
    using Result = std::shared_ptr<const TickReport>;
    Result wholeReport(const std::shared_ptr<const Trace> &trace,
                       const std::shared_ptr<const TickAnalysis> &analysis);
    std::mutex mutex_;
    // What the kept report was made from: a document whose trace or analysis was replaced gets a new one.
    std::weak_ptr<const Trace> trace_;
    std::weak_ptr<const TickAnalysis> analysis_;
    std::shared_future<Result> whole_;
};

} // namespace tickscope
