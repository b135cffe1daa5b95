#include "ReportMemo.h"

namespace tickscope {

bool ReportMemo::isWholeTrace(const ReportOptions &o, const Trace &trace)
{
    const ReportOptions d;
    if (o.lateWakeupNs != d.lateWakeupNs || !o.functions.empty()) return false;
    if (o.from != d.from || o.to != d.to || o.windowSource != d.windowSource) {
        // A window over all of the trace ("window", the Summary's visible range at open) gives the same
        // numbers; only its name differs. Function reports keep their own window: made anew.
        const bool covers = o.windowSource == "window" && trace.eventCount() && o.from <= trace.firstTs() &&
                            o.to >= trace.lastTs() && trace.functions.empty();
        if (!covers) return false;
    }
    const int cpuCount = trace.cpuCount();
    if (o.cpus.empty()) return true;
    // Every CPU listed, in order: the same report as none listed.
    if (static_cast<int>(o.cpus.size()) != cpuCount) return false;
    for (int c = 0; c < cpuCount; ++c)
        if (o.cpus[static_cast<size_t>(c)] != c) return false;
    return true;
}

std::shared_ptr<const TickReport> ReportMemo::get(const std::shared_ptr<const Trace> &trace,
                                                  const std::shared_ptr<const TickAnalysis> &analysis,
                                                  const ReportOptions &options)
{
    if (!isWholeTrace(options, *trace))
        return std::make_shared<const TickReport>(TickReport::make(*trace, *analysis, options));
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
