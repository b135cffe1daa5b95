// SPDX-License-Identifier: GPL-3.0-or-later
#include "Simulator.h"

#include "Engine.h"

#include "analysis/CpuList.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tickscope::sim {
namespace {

// The most events one occurrence emits, counted on the presets' traces (SimLimitsTest keeps them honest).
constexpr double kTickEvents = 5;  // local_timer entry/exit, hrtimer_expire entry/exit, hrtimer_start
constexpr double kWakeEvents = 10; // the expiry, waking/wakeup, switch, syscall exit/entry, hrtimer_start
constexpr double kIdleEvents = 9;  // a wakeup from idle and back: cpu_idle, tick stop/restart, switch
constexpr double kIrqEvents = 12;  // irq_handler entry/exit, irq_work, idle exit/entry, tick restart
constexpr double kTimerEvents = 8; // timer_start, timer_expire entry/exit, the TIMER softirq's share
constexpr double kCpuEvents = 16;  // each CPU's start and end
constexpr double kSlackNs = 50000; // a SCHED_OTHER sleeper's timer slack

// One contribution to the estimate; key and value are set for interrupts only (duration_ms otherwise).
using Part = Estimate::Source;

double threadPeriodNs(const TaskSpec &t)
{
    switch (t.program) {
    case ProgramKind::Cyclic:
        return static_cast<double>(t.intervalNs);
    case ProgramKind::SleepWork:
        return static_cast<double>(t.sleepNs + t.workNs);
    case ProgramKind::RandomSleep:
        return (t.syncNs > 0 ? static_cast<double>(t.syncNs) : (t.minNs + t.maxNs) / 2.0 + kSlackNs) +
               static_cast<double>(std::max<int64_t>(t.workNs, 1000));
    case ProgramKind::Busy:
        break;
    }
    return INFINITY;
}

// One thread's wakeups over the run (its first one starts it).
double threadWakeups(const Scenario &s, const TaskSpec &t)
{
    const double active = std::max<double>(0, static_cast<double>(s.durationNs - t.startNs));
    double n = 1 + active / std::max(threadPeriodNs(t), 1.0);
    if (t.loops >= 0) n = std::min(n, t.loops + 1.0);
    return n;
}

// The share of its CPU one thread keeps in user mode.
double threadBusy(const TaskSpec &t)
{
    if (t.program == ProgramKind::Busy) return 1;
    if (t.program != ProgramKind::SleepWork) return 0;
    return static_cast<double>(t.workNs) / static_cast<double>(std::max<int64_t>(t.sleepNs + t.workNs, 1));
}

bool isNohzFull(const Scenario &s, int c)
{
    return std::count(s.kernel.nohzFull.begin(), s.kernel.nohzFull.end(), c) > 0;
}

// A wakeup's events: with one or two threads on the CPU each one comes from idle and goes back to it;
// with more, the CPU mostly switches from one to the next.
double wakeEvents(const Scenario &s, const TaskSpec &t, bool nohzFull, int threads)
{
    const KernelConfig &k = s.kernel;
    const bool soft = k.preemptRt && !t.rt && k.hrtimerWakeups == HrtimerWakeups::SoftForNonRt;
    return kWakeEvents + kIdleEvents * std::min(1.0, 2.0 / threads) + (soft ? 4 : 0) + (nohzFull ? 4 : 0) +
           (t.posixCpuTimer ? 2 : 0);
}

// The interrupts of a source that come before the end of the run.
double irqsInRun(const Scenario &s, const IrqSpec &q)
{
    const double from = static_cast<double>(q.fromNs), end = static_cast<double>(s.durationNs);
    if (from >= end) return 0;
    if (q.everyNs > 0) return std::min<double>(q.count, std::floor((end - from) / q.everyNs) + 1);
    if (q.count == 1) return 1;
    return q.count * std::clamp((end - from) / static_cast<double>(q.toNs - q.fromNs), 0.0, 1.0);
}

double wheelFires(const Scenario &s, const WheelTimerSpec &w)
{
    if (w.firstNs >= s.durationNs) return 0;
    if (w.periodNs <= 0) return 1;
    const double step = std::max<double>(static_cast<double>(w.periodNs), 1e9 / s.kernel.hz);
    return 1 + static_cast<double>(s.durationNs - w.firstNs) / step;
}

// The CPU time one wakeup of the thread costs at least: the expiry, the wakeup, a switch, the syscall and
// its shortest work, each less its jitter; a SCHED_OTHER thread's syscall also runs with interrupts off
// for a random while (counted a little below its mean: thousands of them average out).
double wakeupCostNs(const Platform &pf, const TaskSpec &t)
{
    const double work = t.program == ProgramKind::Cyclic ? 1500
                        : t.program == ProgramKind::RandomSleep
                            ? std::max<double>(static_cast<double>(t.workNs), 1000)
                            : static_cast<double>(t.workNs);
    const double fixed = static_cast<double>(pf.hrtimerCb + pf.wakeup + pf.ctxSwitch + pf.syscall) + work;
    return (1 - pf.jitterPct / 100.0) * fixed + (t.rt ? 0 : 0.4 * static_cast<double>(pf.irqsOffMax));
}

// Per CPU: the tasks' wakeups and their events (capped at what the CPU can serve), busy share and extra
// ticks.
struct CpuLoad
{
    double wakeups = 0, events = 0, busy = 0, ticksFromWakeups = 0, costNs = 0;
    int threads = 0;
    bool keepsTick = false; // a tick dependency may hold while its tasks work (POSIX timer, two threads)
};

void addTasks(const Scenario &s, const Platform &pf, std::vector<CpuLoad> &load, std::vector<Part> &parts)
{
    std::vector<std::vector<std::pair<size_t, double>>> perCpu(load.size()); // (task, wakeups)
    for (size_t i = 0; i < s.tasks.size(); ++i) {
        const TaskSpec &t = s.tasks[i];
        const double w = t.count * threadWakeups(s, t);
        CpuLoad &l = load[static_cast<size_t>(t.cpu)];
        perCpu[static_cast<size_t>(t.cpu)].push_back({i, w});
        l.busy += t.count * threadBusy(t);
        l.wakeups += w;
        l.costNs += w * wakeupCostNs(pf, t);
        l.threads += t.count;
        l.keepsTick |= t.posixCpuTimer || l.threads > 1;
    }
    for (size_t c = 0; c < load.size(); ++c) {
        const double scale = std::min(1.0, static_cast<double>(s.durationNs) / std::max(load[c].costNs, 1.0));
        const bool nohzFull = isNohzFull(s, static_cast<int>(c));
        for (const auto &[i, w] : perCpu[c]) {
            const TaskSpec &t = s.tasks[i];
            const double ev = w * scale * wakeEvents(s, t, nohzFull, load[c].threads);
            load[c].events += ev;
            parts.push_back({"tasks[" + std::to_string(i) + "] (" + t.name + ", " + std::to_string(t.count) +
                                 (t.count == 1 ? " thread)" : " threads)"),
                             "", "", ev});
        }
        load[c].wakeups *= scale;
        load[c].ticksFromWakeups += load[c].wakeups;
    }
}

double addIrqsAndWheel(const Scenario &s, std::vector<CpuLoad> &load, std::vector<Part> &parts)
{
    double irqEvents = 0;
    for (size_t i = 0; i < s.irqs.size(); ++i) {
        const IrqSpec &q = s.irqs[i];
        const double n = irqsInRun(s, q);
        const double ev = n * (kIrqEvents + kTimerEvents * q.timers);
        load[static_cast<size_t>(q.cpu)].events += ev;
        load[static_cast<size_t>(q.cpu)].ticksFromWakeups += n * (1 + q.timers);
        irqEvents += ev;
        const std::string at = "irqs[" + std::to_string(i) + "]";
        parts.push_back({at + " (" + q.name + ")", at + ".count", std::to_string(q.count), ev});
    }
    for (const WheelTimerSpec &w : s.wheelTimers) {
        const double n = wheelFires(s, w);
        load[static_cast<size_t>(w.cpu)].events += n * kTimerEvents;
        load[static_cast<size_t>(w.cpu)].ticksFromWakeups += n;
        parts.push_back({"wheel_timers", "", "", n * kTimerEvents});
    }
    return irqEvents;
}

// A CPU ticks all the time while it polls with the tick running, or keeps the timekeeping for nohz_full
// CPUs; else while its tasks work (on a nohz_full CPU only with a tick dependency), and once around each
// wakeup.
double cpuTicks(const Scenario &s, int c, const CpuLoad &load)
{
    const KernelConfig &k = s.kernel;
    const bool nohzFull = isNohzFull(s, c);
    const double all = static_cast<double>(s.durationNs) * 1e-9 * k.hz + 1;
    const bool pollTicks = k.idle == IdleMode::Poll && !k.legacyKernel && !(nohzFull && k.p2StopTickOnPoll);
    if (pollTicks || (!k.nohzFull.empty() && c == k.timekeeper)) return all;
    const double busy = nohzFull && !load.keepsTick ? 0 : std::min(load.busy, 1.0);
    return std::min(all, all * busy + load.ticksFromWakeups);
}

double tickEvents(const Scenario &s, int c)
{
    const KernelConfig &k = s.kernel;
    return kTickEvents + (k.legacyKernel && k.wheel == WheelDesign::Legacy ? 3 : 0) +
           (k.idle == IdleMode::Halt ? 3 : 0) + (isNohzFull(s, c) ? 2 : 0);
}

} // namespace

Estimate estimate(const Scenario &s)
{
    const Platform pf = platformPreset(s.platform);
    std::vector<CpuLoad> load(static_cast<size_t>(s.kernel.cpus));
    std::vector<Part> parts;
    addTasks(s, pf, load, parts);
    Estimate e;
    e.irqEvents = addIrqsAndWheel(s, load, parts);
    Part ticks{"the ticks of " + std::to_string(s.kernel.cpus) + " CPUs at hz " + std::to_string(s.kernel.hz),
               "", "", 0};
    for (int c = 0; c < s.kernel.cpus; ++c) {
        const CpuLoad &l = load[static_cast<size_t>(c)];
        const double n = cpuTicks(s, c, l);
        e.ticks += n;
        e.wakeups += l.wakeups;
        ticks.events += n * tickEvents(s, c);
        e.cpuEvents.push_back(l.events + n * tickEvents(s, c) + kCpuEvents);
        e.events += e.cpuEvents.back();
    }
    parts.push_back(ticks);
    e.top = *std::max_element(parts.begin(), parts.end(),
                              [](const Part &a, const Part &b) { return a.events < b.events; });
    return e;
}

namespace {

std::string millions(double n)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f M", std::ceil(n / 1e6));
    return buf;
}

// What to lower to come within the limit: the interrupt count when interrupts make most events, else
// duration_ms (everything else grows with it).
std::string remedy(const Scenario &s, const Estimate &e)
{
    if (!e.top.key.empty()) return "lower it, or spread the interrupts over fewer sources";
    const double timed = e.events - e.irqEvents;
    const double ms =
        static_cast<double>(s.durationNs) / 1e6 * (maxEvents() - e.irqEvents) / std::max(timed, 1.0);
    if (ms < 1) return "use fewer CPUs, threads or interrupts";
    char buf[64];
    std::snprintf(buf, sizeof buf, "use duration_ms <= %.0f", std::floor(ms));
    return buf;
}

} // namespace

double maxEvents()
{
    const char *env = std::getenv("TICKSCOPE_SIM_MAX_EVENTS");
    if (!env || !*env) return kMaxEvents;
    char *end = nullptr;
    const double v = std::strtod(env, &end);
    return end && *end == 0 && v >= 1e6 && v <= 1e10 ? v : kMaxEvents;
}

Estimate checkLimits(const Scenario &s)
{
    validateScenario(s);
    Estimate e = estimate(s);
    if (e.events <= maxEvents()) return e;
    char gb[32];
    std::snprintf(gb, sizeof gb, "%.1f GB", e.events * kBytesPerEvent / 1e9);
    const std::string key = e.top.key.empty()
                                ? "duration_ms=" + numberText(static_cast<double>(s.durationNs) / 1e6)
                                : e.top.key + "=" + e.top.value;
    throw ScenarioError(label(s) + ": " + key + " would make about " + millions(e.events) + " events (" + gb +
                        "), above the limit of " + millions(maxEvents()) + " (most from " + e.top.what +
                        "): " + remedy(s, e));
}

SimResult simulate(const Scenario &scenario, uint64_t seed, const SimControl &control)
{
    const Estimate est = checkLimits(scenario);
    const auto t0 = std::chrono::steady_clock::now();
    SimResult r;
    r.trace = std::make_unique<Trace>();
    Trace &t = *r.trace;
    const KernelConfig &k = scenario.kernel;
    Engine engine(scenario, seed, t, r.truth, est);
    engine.run(control);
    t.tasks.finalize();
    t.meta.path = label(scenario);
    t.meta.format = "tickscope simulation";
    t.meta.cpuCount = k.cpus;
    t.meta.traceClock = "mono";
    const std::string release = k.legacyKernel ? "3.10.0-sim" : k.preemptRt ? "6.18.0-sim-rt" : "6.18.0-sim";
    t.meta.uname = "Linux sim " + release + (k.preemptRt ? " #1 SMP PREEMPT_RT" : " #1 SMP PREEMPT_DYNAMIC");
    t.meta.kernelRelease = release;
    std::string cmdline = "BOOT_IMAGE=/vmlinuz-" + release;
    if (k.idle == IdleMode::Poll) cmdline += " idle=poll";
    if (!k.nohzFull.empty()) {
        std::string list;
        for (int c : k.nohzFull) {
            if (!list.empty()) list += ',';
            list += std::to_string(c);
        }
        cmdline += " nohz_full=" + list;
    }
    if (!k.isolcpus.empty()) cmdline += " isolcpus=" + formatCpuList(k.isolcpus);
    t.meta.kernelCmdline = cmdline;
    r.truth.events = t.eventCount();
    r.truth.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

} // namespace tickscope::sim
