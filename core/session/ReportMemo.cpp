// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReportMemo.h"

namespace tickscope {

std::shared_ptr<const TickReport> ReportMemo::get(const std::shared_ptr<const Trace> &trace,
                                                  const std::shared_ptr<const TickAnalysis> &analysis,
                                                  const ReportOptions &options)
{
    if (!sameAsWholeTrace(options, *trace)) {
        if (cpuSubsetOfWholeTrace(options, *trace)) { // some CPUs shown: a filter of the whole report
            auto sub = std::make_shared<TickReport>(cpuSubset(*wholeReport(trace, analysis), options.cpus));
            sub->windowSource = options.windowSource;
            return sub;
        }
        return std::make_shared<const TickReport>(TickReport::make(*trace, *analysis, options));
    }
    Result whole = wholeReport(trace, analysis);
    if (whole->windowSource == options.windowSource) return whole;
    auto named = std::make_shared<TickReport>(*whole);
    named->windowSource = options.windowSource;
    return named;
}

ReportMemo::Result ReportMemo::wholeReport(const std::shared_ptr<const Trace> &trace,
                                           const std::shared_ptr<const TickAnalysis> &analysis)
{
    std::promise<Result> mine;
    std::shared_future<Result> kept;
    {
        const std::lock_guard lock(mutex_);
        if (whole_.valid() && trace_.lock() == trace && analysis_.lock() == analysis) {
            kept = whole_;
        } else {
            trace_ = trace;
            analysis_ = analysis;
            whole_ = mine.get_future().share();
        }
    }
    if (kept.valid()) return kept.get(); // made, or being made by another thread
    try {
        Result r = std::make_shared<const TickReport>(TickReport::make(*trace, *analysis, ReportOptions{}));
        mine.set_value(r);
        return r;
    } catch (...) {
        mine.set_exception(std::current_exception());
        const std::lock_guard lock(mutex_);
        if (trace_.lock() == trace && analysis_.lock() == analysis)
            whole_ = {}; // the next caller tries again
        throw;
    }
}

} // namespace tickscope
