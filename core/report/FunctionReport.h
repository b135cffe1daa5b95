// SPDX-License-Identifier: GPL-3.0-or-later
// Durations of function_graph calls for `report`: the timer functions (and any the user names), per
// CPU count and p50/p99/max, the longest calls with their place; and the TIMER softirq catch-up verdict
// from run_timer_softirq calls, for traces that have them instead of the softirq tracepoints.
//
// Catch-up from calls, the thresholds of the tracepoint rule: a run_timer_softirq call at least
// kCatchupMinNs long of which at least kCatchupUnexplainedPct % is not spent in call_timer_fn (the timer
// callbacks) is a catch-up (the wheel walking missed jiffies after a tickless idle). The callbacks'
// time is the call_timer_fn calls nested in it. When the trace has no call_timer_fn call at all (the
// graph was filtered to run_timer_softirq, as in most pastes) a long call is counted, not judged: a
// catch-up and a slow callback look the same from outside.
//
// When the trace also has events (tracepoints) on a call's CPU, the call is joined to the tick analysis
// at its entry: the tick lane's state (a long run_timer_softirq entered with the tick stopped is the wheel
// catching up after tickless idle) and what the CPU ran; and each run_timer_softirq call to the TIMER
// softirq (softirq_entry/exit vec=1) it ran in, so that the two catch-up verdicts stand side by side and
// the softirqs on which they differ are listed.
#pragma once

#include "TickReport.h"
#include "analysis/TickAnalysis.h"
#include "model/Trace.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tickscope {

// Reported whenever the trace has them.
constexpr std::array<std::string_view, 8> kTimerFunctions{
    "run_timer_softirq", "__run_timers",      "hrtimer_interrupt",         "__hrtimer_run_queues",
    "tick_sched_timer",  "tick_nohz_handler", "tick_nohz_highres_handler", "tick_handle_periodic"};
constexpr size_t kLongestCallsShown = 5;

struct FunctionCall
{
    int cpu = 0;
    int64_t at = 0; // entry time in ns when timed, else the file line that closed the call
    bool timed = false;
    int64_t durationNs = 0;
    int depth = 0;
    bool inIrq = false;
};

// The tick analysis at a call's entry; known only when its CPU has events around it.
struct CallContext
{
    bool known = false;
    TickState tick = TickState::Unknown;
    TaskState task = TaskState::Unknown;
    IrqState irq = IrqState::None;
};
// tiedBefore: of the CPU's events at t, how many came before the call (FunctionSpan::tiedBefore).
CallContext callContextAt(const Trace &trace, const TickAnalysis &analysis, int cpu, int64_t t,
                          uint8_t tiedBefore = FunctionSpan::kTiesUnknown);
// "tick stopped · idle" / "tick running · user + softirq"; empty when not known.
std::string callContextText(const CallContext &c);

struct FunctionCpuStats
{
    int cpu = 0;
    Distribution duration;
    int64_t totalNs = 0;
};

struct FunctionStats
{
    std::string name;
    bool requested = false; // named with --functions (listed even without calls)
    Distribution duration;
    int64_t totalNs = 0;
    std::vector<FunctionCpuStats> cpus;        // CPUs with calls
    std::vector<FunctionCall> longest;         // at most kLongestCallsShown, longest first
    uint64_t tickStopped = 0, tickRunning = 0; // calls entered with the tick lane in that state
};

// run_timer_softirq calls inside a traced TIMER softirq, and the two catch-up verdicts on them.
struct TimerJoin
{
    uint64_t calls = 0;           // joined to a softirq
    uint64_t softirqCatchups = 0; // of those, catch-ups by the softirq tracepoints' rule
    uint64_t callCatchups = 0;    // by the calls' rule (long calls when callbacks are not traced)
    struct Difference
    {
        FunctionCall call;
        int64_t softirqNs = 0;       // the TIMER softirq's duration
        int64_t callbackNs = 0;      // the call's nested call_timer_fn time
        bool softirqCatchup = false; // the tracepoints' verdict (the calls' is the other one)
    };
    std::vector<Difference> differences; // at most kLongestCallsShown, in time order
    uint64_t differing = 0;
};

struct FunctionReport
{
    uint64_t calls = 0; // every function's calls in the window, on the CPUs reported
    bool timed = false; // the calls have timestamps (else places are file lines)
    std::vector<FunctionStats> functions;
    // run_timer_softirq calls: at least kCatchupMinNs long, the catch-ups among them, whether the
    // callbacks (call_timer_fn) are traced at all.
    uint64_t timerCalls = 0, timerLong = 0, timerCatchups = 0;
    bool callbacksTraced = false;
    TimerJoin join; // empty without events or TIMER softirq tracepoints
};

// `names`: the functions the user asked for, besides kTimerFunctions. `cpus` empty: every CPU. Timed
// calls count when they start in [from, to]; calls without timestamps always count. `analysis`: the
// trace's tick analysis for the joins (null: none).
FunctionReport makeFunctionReport(const Trace &trace, const TickAnalysis *analysis,
                                  const std::vector<std::string> &names, const std::vector<int> &cpus,
                                  int64_t from, int64_t to);

void appendFunctionReportText(std::string &out, const FunctionReport &r);
// "461.167": a duration in µs to the tracer's precision (ns).
std::string usText(int64_t ns);
// "CPU 12 at 1.234567 s" or, without timestamps, "CPU 12 line 4"; "(in an interrupt)" when it was.
std::string callPlaceText(const FunctionCall &c);
// One line on the run_timer_softirq calls: how many were long, the catch-ups among them or why they are
// not judged; empty when the trace has none.
std::string timerVerdictText(const FunctionReport &r);
// Lines on the calls against the TIMER softirq tracepoints (their verdicts and where they differ); empty
// when nothing was joined.
std::vector<std::string> timerJoinText(const FunctionReport &r);
void functionReportJson(JsonWriter &j, const FunctionReport &r);

} // namespace tickscope
