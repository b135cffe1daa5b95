// What the tests of the tick analysis on hand-written ftrace text traces share: the trace builder with
// ticks, lost events and timer arms, and the analysis result read back by time.
#pragma once

#include "TestUtil.h"
#include "TextTraceBuilder.h"

#include "analysis/TickAnalysis.h"

#include <memory>
#include <string>
#include <vector>

namespace tickscope::test {

// Builds a tracefs text trace line by line.
class TextTrace : public test::TextTraceBuilder<TextTrace>
{
public:
    // A timer interrupt that runs the tick hrtimer `ptr`; `rearm`: the periodic tick re-arms itself (ABS).
    TextTrace &tick(int cpu, double ts, const std::string &task, const std::string &ptr,
                    const std::string &fn = "tick_nohz_handler", bool rearm = true,
                    const std::string &mode = " mode=ABS was_armed=0")
    {
        const auto now = std::to_string(static_cast<long long>(ts * 1e9) - 30000000);
        ev(cpu, ts, task, "local_timer_entry: vector=236", "d.h..");
        ev(cpu, ts + 1e-6, task, "hrtimer_expire_entry: hrtimer=" + ptr + " function=" + fn + " now=" + now,
           "d.h..");
        ev(cpu, ts + 2e-6, task, "hrtimer_expire_exit: hrtimer=" + ptr, "d.h..");
        if (rearm) {
            const auto next = std::to_string(static_cast<long long>(ts * 1e9) - 26000000);
            ev(cpu, ts + 3e-6, task,
               "hrtimer_start: hrtimer=" + ptr + " function=" + fn + " expires=" + next +
                   " softexpires=" + next + mode,
               "d.h..");
        }
        return ev(cpu, ts + 4e-6, task, "local_timer_exit: vector=236", "d.h..");
    }
    TextTrace &arm(int cpu, double ts, const std::string &task, const std::string &ptr,
                   const std::string &fn = "tick_nohz_handler",
                   const std::string &mode = " mode=ABS|PINNED|HARD was_armed=0")
    {
        return ev(cpu, ts, task,
                  "hrtimer_start: hrtimer=" + ptr + " function=" + fn +
                      " expires=999000000000 softexpires=999000000000" + mode,
                  "d....");
    }
};

inline const char *kIdle = "<idle>-0";
inline const std::string P0 = "00000000aaaa0000"; // tick hrtimer of CPU 0
inline const std::string P1 = "00000000bbbb0000"; // tick hrtimer of CPU 1

struct Result
{
    std::unique_ptr<Trace> trace;
    TickAnalysis a;
    const CpuAnalysis &cpu(int c) const { return a.cpus[static_cast<size_t>(c)]; }
    // The task-lane / IRQ-lane state at the first event of the CPU at or after ts.
    size_t at(int c, double ts) const
    {
        return trace->cpu(c).lowerBound(static_cast<int64_t>(ts * 1e9 + 0.5));
    }
    TaskState task(int c, double ts) const { return StateCode::taskState(cpu(c).task.codeAt(at(c, ts))); }
    unsigned taskDetail(int c, double ts) const { return StateCode::detail(cpu(c).task.codeAt(at(c, ts))); }
    IrqState irq(int c, double ts) const { return StateCode::irqState(cpu(c).irq.codeAt(at(c, ts))); }
    std::vector<TickContext> contexts(int c) const
    {
        std::vector<TickContext> v;
        for (const TickRecord &t : cpu(c).ticks)
            v.push_back(t.context);
        return v;
    }
};

inline Result analyse(const TextTrace &t, const AnalysisOptions &o = {})
{
    Result r{t.load(), {}};
    r.a = TickAnalysis::run(*r.trace, o);
    return r;
}

using TC = TickContext;

} // namespace tickscope::test
