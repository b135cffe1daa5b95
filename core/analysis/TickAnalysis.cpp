// SPDX-License-Identifier: GPL-3.0-or-later
#include "TickAnalysis.h"
#include "model/MachineFacts.h"

#include "util/Cancel.h"

#include "util/Parallel.h"
#include "util/PhaseClock.h"

#include "CpuList.h"
#include "CpuPass.h"
#include "CrossCpuModes.h"
#include "EventRoles.h"
#include "HrtimerPairing.h"
#include "Migrations.h"
#include "WakeupLatency.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <functional>
#include <mutex>
#include <numeric>
#include <span>
#include <thread>

namespace tickscope {

std::string_view nohzFullSourceName(NohzFullSource s)
{
    switch (s) {
    case NohzFullSource::Option:
        return "option";
    case NohzFullSource::Metadata:
        return "metadata";
    case NohzFullSource::Inferred:
        break;
    }
    return "inferred";
}

std::string_view cpuGroupName(CpuGroup g)
{
    switch (g) {
    case CpuGroup::NohzFull:
        return "nohz_full";
    case CpuGroup::Isolated:
        return "isolated";
    case CpuGroup::Housekeeping:
        break;
    }
    return "housekeeping";
}

std::optional<std::vector<int>> isolcpusList(std::string_view value)
{
    // The flags come first, each followed by a comma; the CPU list is the rest.
    for (;;) {
        bool flag = false;
        for (std::string_view f : {"nohz,", "domain,", "managed_irq,"}) {
            if (value.substr(0, f.size()) == f) {
                value.remove_prefix(f.size());
                flag = true;
            }
        }
        if (!flag) break;
    }
    if (value.empty()) return std::vector<int>{};
    return parseCpuList(std::string(value));
}

std::string cmdlineValue(std::string_view cmdline, std::string_view key)
{
    for (size_t p = cmdline.find(key); p != std::string_view::npos; p = cmdline.find(key, p + 1)) {
        if (p > 0 && cmdline[p - 1] != ' ') continue;
        const size_t v = p + key.size();
        return std::string(cmdline.substr(v, cmdline.find(' ', v) - v));
    }
    return {};
}

namespace {

// The passes of the CPUs in `beside` (busy ones), each on a thread of its own taking the events the sweep
// has finished with slice by slice, beside the sweep on the other threads, which then run the passes of the
// CPUs in `rest` (passOf: a whole pass of one CPU once the sweep is done). A busy CPU's migrations move from
// `migrations` to its pass as the sweep finds them.
void runPassesBesideSweep(const Trace &trace, const EventRoles &roles, MigrationSweep &sweep,
                          Migrations &migrations, std::vector<CpuAnalysis> &cpus, std::span<const int> beside,
                          std::span<const int> rest, int threads, const std::function<void(int)> &passOf,
                          const std::atomic<bool> *cancel, PhaseClock &clock)
{
    struct Feed
    {
        size_t ready = 0; // the events whose migrations are all in
        std::vector<Migration> moves;
    };
    std::vector<Feed> feeds(beside.size());
    std::mutex m;
    std::condition_variable cv;
    bool swept = false, failed = false;
    sweep.afterEachSlice([&] {
        {
            const std::lock_guard lock(m);
            for (size_t b = 0; b < beside.size(); ++b) {
                std::vector<Migration> &out = migrations[static_cast<size_t>(beside[b])];
                Feed &f = feeds[b];
                f.moves.insert(f.moves.end(), out.begin(), out.end());
                out.clear();
                f.ready = sweep.scanned(static_cast<size_t>(beside[b]));
            }
        }
        cv.notify_all();
    });
    const int others = threads - static_cast<int>(beside.size());
    runThreads(1 + static_cast<int>(beside.size()), [&](int t) {
        if (t == 0) {
            try {
                sweep.through(trace, roles, INT64_MAX, migrations, others);
            } catch (...) {
                {
                    const std::lock_guard lock(m);
                    failed = true;
                }
                cv.notify_all();
                throw;
            }
            {
                const std::lock_guard lock(m);
                swept = true;
            }
            cv.notify_all();
            clock.mark("analysis: migrations, beside the busiest CPUs' passes");
            parallelFor(rest.size(), others, [&](size_t k) { passOf(rest[k]); });
            return;
        }
        const int cpu = beside[static_cast<size_t>(t - 1)];
        Feed &f = feeds[static_cast<size_t>(t - 1)];
        CpuPass pass(trace, roles, cpu, cpus[static_cast<size_t>(cpu)]);
        pass.start(trace.cpu(cpu).size());
        std::vector<Migration> moves;
        for (bool last = false; !last;) {
            size_t ready = 0;
            {
                std::unique_lock lock(m);
                cv.wait(lock, [&] { return f.ready > pass.processed() || swept || failed; });
                if (failed) return;
                moves.clear();
                moves.swap(f.moves);
                ready = f.ready;
                last = swept;
            }
            throwIfCancelled(cancel);
            pass.addMigrations(moves);
            pass.advance(last ? SIZE_MAX : ready);
        }
        pass.finish();
    });
}

} // namespace

TickAnalysis TickAnalysis::run(const Trace &trace, const AnalysisOptions &options)
{
    const auto t0 = std::chrono::steady_clock::now();
    PhaseClock clock;
    TickAnalysis a;
    const int n = trace.cpuCount();
    a.cpus.resize(static_cast<size_t>(n));
    const EventRoles roles(trace);

    // Biggest CPUs first, taken by whichever thread is free.
    std::vector<int> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](int x, int y) { return trace.cpu(x).size() > trace.cpu(y).size(); });
    const int threads = std::clamp(defaultThreads(options.threads), 1, std::max(n, 1));
    a.threads = threads;
    Migrations migrations;
    MigrationSweep sweep(options.sliceEvents ? options.sliceEvents : MigrationSweep::kSliceEvents);
    const auto passOf = [&](int cpu) {
        throwIfCancelled(options.cancel);
        CpuPass pass(trace, roles, cpu, a.cpus[static_cast<size_t>(cpu)]);
        pass.addMigrations(migrations[static_cast<size_t>(cpu)]);
        pass.run();
    };
    // A CPU with more than a thread's share of the events would keep one thread busy long after the others
    // are done: its pass runs beside the migration sweep instead, taking each slice of events the sweep has
    // finished with (a pass taken in steps gives the records of one run), on a thread of its own. A thread
    // is left for the sweep, then for the other CPUs' passes.
    // (the first CPUs of `order`, the biggest)
    size_t beside = 0;
    if (threads > 1) {
        const size_t share = trace.eventCount() / static_cast<size_t>(threads);
        while (beside + 1 < static_cast<size_t>(threads) && trace.cpu(order[beside]).size() > share)
            ++beside;
    }
    a.passesBesideSweep = static_cast<int>(beside);
    if (beside == 0) {
        sweep.through(trace, roles, INT64_MAX, migrations, threads);
        clock.mark("analysis: migrations");
        parallelFor(order.size(), threads, [&](size_t k) { passOf(order[k]); });
    } else {
        const std::span<const int> all(order);
        runPassesBesideSweep(trace, roles, sweep, migrations, a.cpus, all.first(beside), all.subspan(beside),
                             threads, passOf, options.cancel, clock);
    }
    throwIfCancelled(options.cancel);
    clock.mark("analysis: per-CPU passes");

    a.acrossCpus(trace, roles, options);
    a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return a;
}

TickAnalysis TickAnalysis::fromPasses(const Trace &trace, const EventRoles &roles,
                                      std::vector<CpuAnalysis> cpus, const AnalysisOptions &options,
                                      bool acrossDone)
{
    TickAnalysis a;
    a.cpus = std::move(cpus);
    a.threads = std::clamp(defaultThreads(options.threads), 1, std::max(trace.cpuCount(), 1));
    a.acrossCpus(trace, roles, options, acrossDone);
    return a;
}

void TickAnalysis::acrossCpus(const Trace &trace, const EventRoles &roles, const AnalysisOptions &options,
                              bool stepsDone)
{
    PhaseClock clock;
    if (!stepsDone) {
        // The hrtimer pairing then the wakeup latency, each over every thread, beside the cross-CPU modes,
        // one merge by time of every CPU's switches: they write different fields (the pairing and the
        // latency those of the expiry records, the modes task-lane codes and tick contexts), and read the
        // switch arrays, freed once all are done.
        const auto timerSteps = [&] {
            pairHrtimers(trace, cpus, threads, options.partEvents);
            throwIfCancelled(options.cancel);
            clock.mark("analysis: hrtimer pairing");
            measureWakeupLatency(trace, cpus, threads, options.partEvents);
            clock.mark("analysis: wakeup latency");
        };
        const auto modes = [&] { crossCpuResolved = CrossCpuModes::resolve(trace, roles, cpus); };
        if (threads > 1) {
            runThreads(2, [&](int t) { t == 0 ? timerSteps() : modes(); });
        } else {
            timerSteps();
            modes();
        }
        throwIfCancelled(options.cancel);
        for (CpuAnalysis &c : cpus)
            c.timers.switches = SwitchRecords();
        clock.mark("analysis: cross-CPU modes, by then");
    }
    // The facts a capture stored (MachineFacts), read once for the decisions.
    const MachineFacts facts = MachineFacts::parse(trace.meta.machine);
    decideFallback(trace, roles, stepsDone ? 0 : facts.hz, !stepsDone);
    decidePolling(trace);
    decideNohzFull(trace, facts, options);
    decideIsolated(trace, facts);
    flagTicks();
    clock.mark("analysis: decisions");
}

void TickAnalysis::decideFallback(const Trace &trace, const EventRoles &roles, int factsHz, bool inferLanes)
{
    bool anyTimer = false;
    uint64_t starts = 0;
    for (const CpuAnalysis &c : cpus) {
        anyTimer |= c.tickTimer != 0;
        starts += c.evidence.hrtimerStarts;
        if (c.tickTimer && tickFunction.empty())
            tickFunction = std::string(trace.strings.str(c.tickFunction));
    }
    localTimerFallback = !anyTimer;
    for (CpuAnalysis &c : cpus) {
        if (localTimerFallback) {
            c.ticks = std::move(c.localTimerTicks); // low-res mode: the local timer interrupt is the tick
        }
        c.localTimerTicks = {};
    }
    // Without tick_stop nothing in the pass said when the tick ran: the gaps between the interrupts do.
    // (A stream has folded its ticks and lanes as they came: it keeps "not recorded".)
    if (localTimerFallback && !roles.recorded(Role::TickStop)) {
        if (inferLanes)
            inferTickLanes(trace, roles, factsHz);
        else
            lanesNotInferred = true;
    }
    for (CpuAnalysis &c : cpus) {
        for (TickRecord &t : c.ticks) {
            // Without hrtimer_start events (or at the trace's end, or before lost events) the re-arm cannot
            // be seen: then the tick lane says whether the tick ran (tickPeriodicIn), and the flag says so.
            if (!(t.flags & TickFlag::Resolved) || starts == 0) {
                const bool periodic = tickPeriodicIn(t.flags, starts > 0);
                t.flags &= static_cast<uint8_t>(~(TickFlag::Periodic | TickFlag::Resolved));
                if (periodic) t.flags |= TickFlag::Periodic;
            }
        }
    }
}

namespace {
// The time a task other than idle ran on `cpu` while `lane` says the tick was stopped: the task is the one
// a sched_switch switched in, else the TASK-PID of the event (an interrupt names the task it interrupted).
int64_t busyWhileStopped(const Trace &trace, const EventRoles &roles, int cpu,
                         const std::vector<TickLaneChange> &lane)
{
    const CpuEvents &ev = trace.cpu(cpu);
    int64_t busy = 0;
    size_t change = 0;
    TickState state = TickState::Unknown;
    for (size_t i = 0; i + 1 < ev.size(); ++i) {
        while (change < lane.size() && lane[change].index <= i)
            state = lane[change++].state;
        if (state != TickState::Stopped) continue;
        const int32_t running =
            roles.role(ev.type(i)) == Role::SchedSwitch ? ev.payload<SchedSwitchP>(i).nextPid : ev.pid(i);
        if (running != 0) busy += ev.ts(i + 1) - ev.ts(i);
    }
    return busy;
}
} // namespace

// The tick lanes of a trace whose timer interrupts are its only tick evidence (no tick hrtimer, no
// tick_stop). While the tick runs it fires every period P, so a CPU without a timer interrupt for more than
// 2 P had its tick stopped; P is the capture's CONFIG_HZ, else the one of 100/250/300/1000 Hz that most
// intervals between a CPU's interrupts match (within 10 %). Each CPU's lane: Running between interrupts at
// most 2 P apart, Stopped from the event after an interrupt to the next one when they are further apart
// (and before the first / after the last interrupt when the CPU's events reach more than 2 P beyond it),
// Unknown across lost events. An interrupt the tick did not run into (a longer gap before it) is the
// stopped tick's wakeup or another hrtimer's expiry, not a periodic tick (flag LaneStopped). Limits
// (docs/ANALYSIS.md): while the tick runs, other hrtimer expiries cannot be told from it, so the ticks
// counted are an upper bound there; the stopped spans are within one period of the truth at each end.
void TickAnalysis::inferTickLanes(const Trace &trace, const EventRoles &roles, int factsHz)
{
    constexpr std::array<int, 4> kHz{100, 250, 300, 1000};
    int64_t period = 0;
    if (factsHz > 0) {
        period = 1000000000 / factsHz;
        tickPeriodSource = "CONFIG_HZ=" + std::to_string(factsHz) + " from the capture";
    } else {
        std::array<uint64_t, kHz.size()> near{};
        for (const CpuAnalysis &c : cpus) {
            const CpuEvents &ev = trace.cpu(c.cpu);
            for (size_t k = 1; k < c.ticks.size(); ++k) {
                const int64_t d = ev.ts(c.ticks[k].index) - ev.ts(c.ticks[k - 1].index);
                for (size_t h = 0; h < kHz.size(); ++h) {
                    const int64_t p = 1000000000 / kHz[h];
                    near[h] += d >= p - p / 10 && d <= p + p / 10;
                }
            }
        }
        const size_t best = static_cast<size_t>(std::max_element(near.begin(), near.end()) - near.begin());
        if (near[best] < 10) return; // too few regular intervals to tell the period
        period = 1000000000 / kHz[best];
        tickPeriodSource = "HZ=" + std::to_string(kHz[best]) + " from the interrupt intervals";
    }
    inferredTickPeriodNs = period;
    const int64_t limit = 2 * period;
    for (CpuAnalysis &c : cpus) {
        const CpuEvents &ev = trace.cpu(c.cpu);
        const size_t n = c.ticks.size();
        if (n == 0 || ev.size() == 0) continue; // nothing to infer from: the pass's lane (Unknown) stays
        std::vector<TickLaneChange> lane;
        const auto push = [&lane](size_t i, TickState s) {
            if (!lane.empty() && lane.back().index == i) lane.pop_back();
            if (lane.empty() || lane.back().state != s) lane.push_back({static_cast<uint32_t>(i), s});
        };
        push(0, TickState::Unknown);
        const auto tsOf = [&](size_t k) { return ev.ts(c.ticks[k].index); };
        // before the first interrupt
        if (tsOf(0) - ev.ts(0) > limit && !ev.lostBetween(ev.ts(0), tsOf(0))) push(0, TickState::Stopped);
        for (size_t k = 0; k < n; ++k) {
            const size_t at = c.ticks[k].index;
            const int64_t t = tsOf(k);
            const bool last = k + 1 == n;
            const int64_t next = last ? ev.ts(ev.size() - 1) : tsOf(k + 1);
            const bool lostAfter = ev.lostBetween(t, next);
            const bool lostBefore = k > 0 && ev.lostBetween(tsOf(k - 1), t);
            // periodic: the tick ran into this interrupt (for the first, or after lost events: it runs on)
            const bool ranInto =
                k > 0 && !lostBefore ? t - tsOf(k - 1) <= limit : !lostAfter && next - t <= limit;
            if (ranInto)
                c.ticks[k].flags &= static_cast<uint8_t>(~TickFlag::LaneStopped);
            else
                c.ticks[k].flags |= TickFlag::LaneStopped;
            const size_t after = std::min(at + 1, ev.size() - 1);
            const bool runsOn = !lostAfter && next - t <= limit;
            if (ranInto) push(at, TickState::Running);
            if (lostAfter)
                push(after, TickState::Unknown);
            else if (runsOn)
                push(at, TickState::Running); // (a restart, when the tick did not run into it)
            else
                push(ranInto ? after : at, TickState::Stopped);
        }
        c.evidence.busyStoppedNs = busyWhileStopped(trace, roles, c.cpu, lane);
        c.tickLane.assign(std::move(lane));
    }
}

void TickAnalysis::decidePolling(const Trace &trace)
{
    uint64_t poll = 0, deeper = 0, reselect = 0, idleStops = 0;
    for (const CpuAnalysis &c : cpus) {
        poll += c.evidence.pollEnters;
        deeper += c.evidence.deeperEnters;
        reselect += c.evidence.pollReselects;
        idleStops += c.evidence.stopsInIdle;
    }
    // idle=poll uses state 0 only and does not stop the tick in idle; the cpuidle POLL state sits beside
    // deeper states and is left for one of them when its poll time runs out, and the governor stops the
    // tick before it polls. A nohz_full CPU may stop its tick from the idle task now and then on its own
    // (an interrupt's exit: 2 of 192 polls on Debian's 6.12 with idle=poll), so only stops in at least a
    // tenth of the polls say cpuidle.
    const std::string idle = cmdlineValue(trace.meta.kernelCmdline, "idle=");
    if (idle == "poll") {
        polling = PollingKind::IdlePoll;
        pollingWhy = "idle=poll on the kernel command line";
    } else if (poll == 0) {
        polling = PollingKind::None;
    } else if (deeper || reselect || idleStops * 10 >= poll) {
        polling = PollingKind::CpuidlePoll;
        pollingWhy = deeper ? "cpuidle states above 0 are used" : "the tick is stopped in idle";
    } else {
        polling = PollingKind::IdlePoll;
        pollingWhy = idleStops ? "only cpu_idle state 0, and the tick stopped in idle in " +
                                     std::to_string(idleStops) + " of " + std::to_string(poll) + " polls"
                               : "only cpu_idle state 0, and no tick stop in idle";
    }
}

void TickAnalysis::decideNohzFull(const Trace &trace, const MachineFacts &facts,
                                  const AnalysisOptions &options)
{
    const size_t n = cpus.size();
    nohzFull.assign(n, false);
    nohzFullWhy.assign(n, std::string());
    auto mark = [&](const std::vector<int> &list, const char *why) {
        for (int c : list) {
            if (c >= 0 && static_cast<size_t>(c) < n) {
                nohzFull[static_cast<size_t>(c)] = true;
                nohzFullWhy[static_cast<size_t>(c)] = why;
            }
        }
    };
    if (options.nohzFullGiven) {
        nohzFullSource = NohzFullSource::Option;
        mark(options.nohzFull, "--nohz-full");
        return;
    }
    if (const auto list = parseCpuList(cmdlineValue(trace.meta.kernelCmdline, "nohz_full="))) {
        nohzFullSource = NohzFullSource::Metadata;
        mark(*list, "nohz_full= on the kernel command line");
        return;
    }
    // A capture recorded the kernel's own list (sysfs), which is also right when it is empty.
    const auto recorded = facts.nohzFull.empty() ? std::optional<std::vector<int>>(std::vector<int>{})
                                                 : parseCpuList(facts.nohzFull);
    if (facts.nohzFullKnown && recorded) {
        nohzFullSource = NohzFullSource::Metadata;
        mark(*recorded, "the kernel's nohz_full CPU list, recorded by the capture");
        return;
    }
    nohzFullSource = NohzFullSource::Inferred;
    for (size_t c = 0; c < n; ++c) {
        const CpuEvidence &e = cpus[c].evidence;
        // context_tracking is active only on nohz_full CPUs; only they stop the tick while a task
        // runs, and only they evaluate (and fail) full-dynticks stops.
        const char *why = e.contextTracking ? "context_tracking events"
                          : e.stopsInTask   ? "tick stopped while a task ran"
                          : e.failedStops   ? "failed tick stops (tick_stop success=0)"
                                            : nullptr;
        if (why) {
            nohzFull[c] = true;
            nohzFullWhy[c] = why;
        } else if (e.busyStoppedNs > kNohzFullBusyStoppedNs) {
            // Only a nohz_full CPU keeps its tick off while a task runs. Weaker than the events above:
            // inferred from gaps between timer interrupts, so the span is bounded by them.
            nohzFull[c] = true;
            char s[160];
            std::snprintf(s, sizeof s,
                          "a task ran %.3f s with no timer interrupt for more than two tick periods "
                          "(inferred from the interrupt gaps)",
                          static_cast<double>(e.busyStoppedNs) / 1e9);
            nohzFullWhy[c] = s;
        }
    }
}

void TickAnalysis::decideIsolated(const Trace &trace, const MachineFacts &facts)
{
    isolated.assign(cpus.size(), false);
    std::optional<std::vector<int>> list;
    const std::string value = cmdlineValue(trace.meta.kernelCmdline, "isolcpus=");
    if (!value.empty()) {
        list = isolcpusList(value);
    } else if (!facts.isolated.empty()) {
        list = parseCpuList(facts.isolated);
    }
    if (!list) return;
    for (int c : *list)
        if (c >= 0 && static_cast<size_t>(c) < isolated.size()) isolated[static_cast<size_t>(c)] = true;
}

void TickAnalysis::flagTicks()
{
    for (CpuAnalysis &c : cpus) {
        const bool full = isNohzFull(c.cpu);
        for (TickRecord &t : c.ticks) {
            t.flags &= static_cast<uint8_t>(~TickFlag::Spurious);
            if (!t.periodic()) continue;
            if (!full) continue; // a housekeeping CPU keeps its tick on purpose: never spurious there
            if (spuriousOnNohzFull(t)) t.flags |= TickFlag::Spurious;
        }
    }
}

size_t TickAnalysis::bytes() const
{
    size_t b = 0;
    for (const CpuAnalysis &c : cpus)
        b += c.bytes();
    return b;
}

} // namespace tickscope
