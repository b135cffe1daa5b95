// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's start: CPUs, tasks (each asleep in clock_nanosleep until its first wakeup), interrupt
// times, scenario wheel timers, memory reserved from an estimate of the events, every CPU in its idle loop.
#include "Engine.h"
#include "Simulator.h"

#include <algorithm>

namespace tickscope::sim {
namespace {

constexpr int64_t kStartNs = 5000000000; // simulated boot time at the trace start
constexpr int32_t kFirstPid = 1000;
constexpr size_t kPayloadBytes = 16; // per event, on average at most (the largest payload is hrtimer_start's)

} // namespace

Engine::Engine(const Scenario &s, uint64_t seed, Trace &trace, GroundTruth &gt, const Estimate &est)
    : sc_(s), k_(s.kernel), pf_(platformPreset(s.platform)), rng_(seed), trace_(trace), gt_(gt), em_(trace),
      tickNs_(1000000000 / s.kernel.hz), start_(kStartNs), end_(kStartNs + s.durationNs)
{
    fnTick_ = em_.intern("tick_nohz_handler");
    fnWakeup_ = em_.intern("hrtimer_wakeup");
    fnTimer_ = em_.intern("process_timeout");
    fnVmstat_ = em_.intern("delayed_work_timer_fn");
    trace_.setCpuCount(k_.cpus);
    cpus_.resize(static_cast<size_t>(k_.cpus));
    for (int i = 0; i < k_.cpus; ++i) {
        Cpu &c = cpus_[static_cast<size_t>(i)];
        c.id = i;
        c.nohzFull = std::find(k_.nohzFull.begin(), k_.nohzFull.end(), i) != k_.nohzFull.end();
        anyNohzFull_ |= c.nohzFull;
        c.t = start_;
        c.tickPtr = 0xff3c2143be8235c0ull + (static_cast<uint64_t>(i) << 20);
        const int64_t lag =
            static_cast<size_t>(i) < s.initialIdleJiffies.size() ? s.initialIdleJiffies[i] : 0;
        c.baseClk = jiffies(start_) - static_cast<uint64_t>(lag);
    }
    // Reserve each CPU's columns from the run's estimate (huge pages for the big ones: in a VM the first
    // touch of every 4 KiB page is the dominant cost of writing millions of events). The estimate caps each
    // CPU at the wakeups it can serve, so thousands of threads do not reserve gigabytes of address space.
    maxEvents_ = static_cast<uint64_t>(2 * est.events) + 100000;
    gt_.wakeups.reserve(static_cast<size_t>(est.wakeups));
    gt_.ticks.reserve(static_cast<size_t>(est.ticks));
    for (int i = 0; i < k_.cpus; ++i) {
        const auto n = static_cast<size_t>(est.cpuEvents[static_cast<size_t>(i)]) + 4096;
        trace_.cpu(i).reserve(n, n * kPayloadBytes, n >= (size_t{1} << 21));
    }
    setupTasks();
    setupIrqs();
    for (size_t i = 0; i < s.wheelTimers.size(); ++i) {
        const WheelTimerSpec &w = s.wheelTimers[i];
        WheelTimer t;
        t.ptr = 0xffff9e0a40b1c000ull + i * 0x40;
        t.fn = fnVmstat_;
        t.periodic = static_cast<int>(i);
        wt_.push_back(t);
        Cpu &c = cpus_[static_cast<size_t>(w.cpu)];
        // armed before the trace started: no timer_start event, but it is in the ground truth
        enqueueWheel(c, start_, static_cast<int>(wt_.size() - 1), jiffies(start_ + w.firstNs), false, 0, -1);
    }
    // Every CPU's tick runs at the start; nohz CPUs stop it at their first idle entry or interrupt exit.
    for (Cpu &c : cpus_) {
        c.tickArmed = true;
        c.tickExp = (start_ / tickNs_ + 1) * tickNs_;
        int64_t now = start_;
        idleLoopEnter(c, now);
        c.t = now;
        reprogram(c);
    }
}

void Engine::setupTasks()
{
    int32_t pid = kFirstPid;
    for (const TaskSpec &spec : sc_.tasks) {
        for (int n = 0; n < spec.count; ++n) {
            Task t;
            t.pid = pid++;
            t.comm = spec.count > 1 ? spec.name + "-" + std::to_string(n) : spec.name;
            if (t.comm.size() > 15) t.comm.resize(15);
            t.spec = &spec;
            t.cpu = spec.cpu;
            t.rt = spec.rt;
            t.prio = static_cast<int16_t>(spec.rt ? 99 - spec.rtPrio : 120);
            t.loopsLeft = spec.loops;
            Hrtimer h;
            h.ptr = 0xff62c3e8c0423a98ull + static_cast<uint64_t>(tasks_.size()) * 0x1000;
            hr_.push_back(h);
            t.hr = static_cast<int>(hr_.size() - 1);
            if (spec.program == ProgramKind::Cyclic) {
                CyclicResult r;
                r.name = t.comm;
                r.cpu = t.cpu;
                r.pid = t.pid;
                r.intervalNs = spec.intervalNs;
                gt_.cyclic.push_back(r);
                t.cyclic = static_cast<int>(gt_.cyclic.size() - 1);
            }
            tasks_.push_back(t);
        }
    }
    if (k_.preemptRt) {
        for (Cpu &c : cpus_) {
            Task t;
            t.pid = 20 + c.id * 8;
            t.comm = "ktimers/" + std::to_string(c.id);
            t.cpu = c.id;
            t.rt = true;
            t.prio = 98; // SCHED_FIFO 1
            t.ktimers = true;
            tasks_.push_back(t);
            c.ktimers = static_cast<int>(tasks_.size() - 1);
        }
    }
    for (size_t i = 0; i < tasks_.size(); ++i) {
        Task &t = tasks_[i];
        trace_.tasks.merge({{INT64_MIN, t.pid, em_.intern(t.comm)}});
        if (!t.spec) continue;
        // Each task sleeps in clock_nanosleep when the trace starts; its first wakeup starts its program.
        Hrtimer &h = hr_[static_cast<size_t>(t.hr)];
        const bool spread = (t.spec->count > 1 || t.spec->program == ProgramKind::Cyclic) && !t.spec->aligned;
        const int64_t first = start_ + t.spec->startNs + (spread ? rng_.range(0, 1000000) : 0);
        h.soft = h.expires = first;
        h.hard = !k_.preemptRt || t.rt || k_.hrtimerWakeups == HrtimerWakeups::Hard; // as armSleeper
        h.armed = true;
        h.seq = ++hrSeq_;
        h.task = static_cast<int>(i);
        t.wantWake = first;
        t.nextPeriod = first;
        cpus_[static_cast<size_t>(t.cpu)].hrtimers.push_back(t.hr);
    }
    // The idle tasks share pid 0: one name, as the importers keep it.
    trace_.tasks.merge({{INT64_MIN, 0, em_.intern("swapper/0")}});
}

void Engine::setupIrqs()
{
    irqTimes_.resize(sc_.irqs.size());
    for (size_t i = 0; i < sc_.irqs.size(); ++i) {
        const IrqSpec &q = sc_.irqs[i];
        irqNames_.push_back(em_.intern(q.name));
        for (int n = 0; n < q.count; ++n) {
            const int64_t t =
                q.everyNs > 0 || q.count == 1 ? q.fromNs + n * q.everyNs : rng_.range(q.fromNs, q.toNs);
            irqTimes_[i].push_back(start_ + t);
        }
        std::sort(irqTimes_[i].begin(), irqTimes_[i].end());
        for (int n = 0; n < q.count; ++n)
            push(irqTimes_[i][static_cast<size_t>(n)], q.cpu, EvIrq, static_cast<uint32_t>(i), 0);
    }
}

} // namespace tickscope::sim
