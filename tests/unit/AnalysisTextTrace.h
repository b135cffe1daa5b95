// SPDX-License-Identifier: GPL-3.0-or-later
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

// hrtimer items that share their microsecond, for the pairing's order (latenesses in the comments):
// CPU 0's periodic tick whose expiry, exit and re-arm share their microsecond (unknown, 7 us, 4 us: an
// expiry must not pair with its own re-arm); a timer of pointer 0 (never paired: unknown); a timer started on
// CPU 1 in the microsecond it expires on CPU 0 (500 ns: a start on another CPU at one time is first), then
// re-armed by CPU 0 in the microsecond of that expiry (100 ns at its next expiry, as on one CPU).
inline TextTrace timerItemsOfOneMicrosecond()
{
    TextTrace t;
    const std::string shared = "00000000cccc0000", zero = "0000000000000000";
    auto expiry = [&](int cpu, double ts, const std::string &ptr, const std::string &fn, long long now) {
        t.ev(cpu, ts, "app-100",
             "hrtimer_expire_entry: hrtimer=" + ptr + " function=" + fn + " now=" + std::to_string(now),
             "d.h..");
    };
    auto start = [&](int cpu, double ts, const std::string &ptr, const std::string &fn, long long expires) {
        const std::string e = std::to_string(expires);
        t.ev(cpu, ts, cpu ? "other-200" : "app-100",
             "hrtimer_start: hrtimer=" + ptr + " function=" + fn + " expires=" + e + " softexpires=" + e +
                 " mode=ABS was_armed=0",
             "d....");
    };
    auto tick = [&](double at, long long late) {
        t.ev(0, at, "app-100", "local_timer_entry: vector=236", "d.h..");
        expiry(0, at + 1e-6, P0, "tick_nohz_handler", static_cast<long long>(at * 1e9 + 0.5) + late);
        t.ev(0, at + 1e-6, "app-100", "hrtimer_expire_exit: hrtimer=" + P0, "d.h..");
        start(0, at + 1e-6, P0, "tick_nohz_handler", static_cast<long long>((at + 0.004) * 1e9 + 0.5));
        t.ev(0, at + 3e-6, "app-100", "local_timer_exit: vector=236", "d.h..");
    };
    t.ev(1, 1.000000, "other-200", "sys_enter: NR 1 (0, 0, 0, 0, 0, 0)");
    tick(1.000, 1000);
    start(0, 1.001000, zero, "it_real_fn", 1001500000);
    expiry(0, 1.001500, zero, "it_real_fn", 1001500300);
    start(1, 1.002000, shared, "it_real_fn", 1002000000);
    expiry(0, 1.002000, shared, "it_real_fn", 1002000500);
    tick(1.004, 7000);
    expiry(0, 1.005500, shared, "it_real_fn", 1005500200); // (no start since its last expiry: unknown)
    start(0, 1.005500, shared, "it_real_fn", 1009000000);
    tick(1.008, 4000);
    expiry(0, 1.009000, shared, "it_real_fn", 1009000100);
    return t;
}

} // namespace tickscope::test
