// SPDX-License-Identifier: GPL-3.0-or-later
// What the tests of hrtimer lateness, wakeup latency and the TIMER softirq on hand-written ftrace text traces
// share: a trace builder with hrtimer starts and expiries, wakings and switches, and the analysis of it.
#pragma once

#include "TestUtil.h"
#include "TextTraceBuilder.h"

#include "analysis/TickAnalysis.h"
#include "report/TickReport.h"

#include <cstdio>
#include <memory>
#include <string>

namespace tickscope::test {

class TimerTextTrace : public TextTraceBuilder<TimerTextTrace>
{
public:
    TimerTextTrace &start(int cpu, double ts, const std::string &task, const std::string &ptr,
                          long long expires, long long softexpires, const std::string &fn = "hrtimer_wakeup")
    {
        return ev(cpu, ts, task,
                  "hrtimer_start: hrtimer=" + ptr + " function=" + fn +
                      " expires=" + std::to_string(expires) + " softexpires=" + std::to_string(softexpires) +
                      " mode=ABS was_armed=0",
                  fl("d...."));
    }
    TimerTextTrace &expire(int cpu, double ts, const std::string &task, const std::string &ptr, long long now,
                           const std::string &fn = "hrtimer_wakeup")
    {
        return ev(cpu, ts, task,
                  "hrtimer_expire_entry: hrtimer=" + ptr + " function=" + fn + " now=" + std::to_string(now),
                  fl("d.h.."));
    }
    TimerTextTrace &waking(int cpu, double ts, const std::string &task, const std::string &comm, int pid,
                           int prio, int target)
    {
        char t[8];
        std::snprintf(t, sizeof t, "%03d", target);
        const std::string f = "comm=" + comm + " pid=" + std::to_string(pid) +
                              " prio=" + std::to_string(prio) + " target_cpu=" + t;
        ev(cpu, ts, task, "sched_waking: " + f, fl("d.h2."));
        return ev(cpu, ts, task, "sched_wakeup: " + f, fl("d.h3."));
    }
    TimerTextTrace &sw(int cpu, double ts, const std::string &from, int fromPid, const std::string &to,
                       int toPid, int toPrio = 120, const char *prevState = "S")
    {
        return ev(cpu, ts, from + "-" + std::to_string(fromPid),
                  "sched_switch: prev_comm=" + from + " prev_pid=" + std::to_string(fromPid) +
                      " prev_prio=120 prev_state=" + prevState + " ==> next_comm=" + to +
                      " next_pid=" + std::to_string(toPid) + " next_prio=" + std::to_string(toPrio),
                  fl("d..2."));
    }
    // One hrtimer_wakeup expiry in hard context: its entry at ts, the waking 1 µs later, its exit 1 µs after.
    TimerTextTrace &wakeOne(int cpu, double ts, const std::string &task, const std::string &ptr,
                            long long now, const std::string &comm, int pid, int prio)
    {
        expire(cpu, ts, task, ptr, now).waking(cpu, ts + 1e-6, task, comm, pid, prio, 0);
        return ev(cpu, ts + 2e-6, task, "hrtimer_expire_exit: hrtimer=" + ptr, fl("d.h.."));
    }
    // From here on the helpers write no irq-flags column (as `trace-cmd report` without -l).
    TimerTextTrace &noFlags()
    {
        noFlags_ = true;
        return *this;
    }

private:
    const char *fl(const char *flags) const { return noFlags_ ? "" : flags; }
    bool noFlags_ = false;
};

inline const char *kIdle = "<idle>-0";

struct Result
{
    std::unique_ptr<Trace> trace;
    TickAnalysis a;
    const CpuTimers &timers(int c) const { return a.cpus[static_cast<size_t>(c)].timers; }
    TickReport report() const { return TickReport::make(*trace, a, {}); }
};

using TextTrace = TimerTextTrace; // (the tests' name for it)

inline Result analyse(const TimerTextTrace &t)
{
    Result r{t.load(), {}};
    r.a = TickAnalysis::run(*r.trace);
    return r;
}

} // namespace tickscope::test
