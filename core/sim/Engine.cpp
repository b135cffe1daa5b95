// SPDX-License-Identifier: GPL-3.0-or-later
#include "Engine.h"

#include "Simulator.h"
#include "util/Cancel.h"

#include <algorithm>

namespace tickscope::sim {
namespace {

constexpr int32_t kNanosleep = 230;         // x86_64 clock_nanosleep
constexpr int64_t kDefaultSlackNs = 50000;  // timer_slack_ns of SCHED_OTHER tasks
constexpr int64_t kCyclicUserNs = 1500;     // cyclictest between two sleeps (clock_gettime, bookkeeping)
constexpr uint16_t kStateSleeping = 1;      // prev_state S
constexpr uint16_t kStatePreempted = 0x100; // prev_state R+

} // namespace

void Engine::push(int64_t t, int cpu, EvKind k, uint32_t a, uint32_t gen)
{
    heap_.push(Ev{t, ++seq_, cpu, k, a, gen});
}

int64_t Engine::cost(int64_t base)
{
    if (base <= 0) return 0;
    const int64_t j = base * pf_.jitterPct / 100;
    return base + (j ? rng_.range(-j, j) : 0);
}

TraceEmitter::Ctx Engine::ctx(const Cpu &c, uint8_t flags) const
{
    TraceEmitter::Ctx x;
    x.pid = c.curr >= 0 ? tasks_[static_cast<size_t>(c.curr)].pid : 0;
    x.flags = static_cast<uint8_t>(flags | (c.needResched ? kFlagNeedResched : 0));
    x.preempt = (flags & (kFlagHardirq | kFlagSoftirq)) ? 1 : 0;
    return x;
}

void Engine::run(const SimControl &control)
{
    for (uint32_t step = 1; !heap_.empty(); ++step) {
        const Ev e = heap_.top();
        if (e.t >= end_) break;
        if ((step & 0xffff) == 0) {
            throwIfCancelled(control.cancel);
            if (control.progress)
                control.progress(static_cast<double>(e.t - start_) / static_cast<double>(end_ - start_));
        }
        if (em_.events() > maxEvents_)
            throw ScenarioError(label(sc_) + ": the run made " + std::to_string(em_.events()) +
                                " events, more than twice its estimate: lower duration_ms");
        heap_.pop();
        Cpu &c = cpus_[static_cast<size_t>(e.cpu)];
        switch (e.kind) {
        case EvClock:
            if (e.gen == c.ceGen) onClock(c, e.t);
            break;
        case EvIrq:
            onIrq(c, e.t, e.a);
            break;
        case EvWork: {
            Task &task = tasks_[e.a];
            if (e.gen != task.gen || task.state != TaskState::Running || c.curr != static_cast<int>(e.a))
                break;
            int64_t now = std::max(e.t, c.t);
            if (task.ktimers) {
                runKtimers(c, task, now);
            } else {
                task.inWork = false;
                onWorkDone(c, task, now);
            }
            c.t = std::max(c.t, now);
            reprogram(c);
            break;
        }
        }
    }
    for (int i = 0; i < k_.cpus; ++i)
        trace_.cpu(i).finishLoading();
}

uint32_t Engine::depMask(const Cpu &c) const
{
    uint32_t m = 0;
    if (c.curr >= 0) {
        const Task &t = tasks_[static_cast<size_t>(c.curr)];
        if (t.spec && t.spec->posixCpuTimer) m |= static_cast<uint32_t>(TickDependency::PosixTimer);
    }
    size_t normal = 0;
    if (c.curr >= 0 && !tasks_[static_cast<size_t>(c.curr)].rt) ++normal;
    for (int i : c.rq)
        normal += tasks_[static_cast<size_t>(i)].rt ? 0 : 1;
    if (normal > 1) m |= static_cast<uint32_t>(TickDependency::Sched);
    return m;
}

int Engine::pickNext(const Cpu &c) const
{
    int best = -1;
    for (int i : c.rq) {
        if (best < 0 || tasks_[static_cast<size_t>(i)].prio < tasks_[static_cast<size_t>(best)].prio)
            best = i;
    }
    return best;
}

void Engine::wake(Cpu &c, int idx, int64_t &now, uint8_t flags)
{
    Task &t = tasks_[static_cast<size_t>(idx)];
    if (t.state != TaskState::Sleeping) return;
    const auto x = ctx(c, flags);
    em_.schedWake(c.id, now, x, true, t.pid, t.prio, static_cast<int16_t>(t.cpu));
    now += cost(pf_.wakeup);
    t.state = TaskState::Runnable;
    t.woken = true;
    c.rq.push_back(idx);
    if (c.curr < 0 || t.prio < tasks_[static_cast<size_t>(c.curr)].prio) c.needResched = true;
    em_.schedWake(c.id, now, ctx(c, flags), false, t.pid, t.prio, static_cast<int16_t>(t.cpu));
}

void Engine::schedule(Cpu &c, int64_t &now, bool preempt)
{
    c.needResched = false;
    int next = pickNext(c);
    if (c.curr >= 0) {
        Task &cur = tasks_[static_cast<size_t>(c.curr)];
        if (preempt && cur.state == TaskState::Running) {
            if (next < 0 || tasks_[static_cast<size_t>(next)].prio >= cur.prio) {
                // nothing better (a CFS slice with equal prio rotates; else it keeps the CPU)
                if (next < 0 || cur.rt || tasks_[static_cast<size_t>(next)].rt) return;
            }
            if (cur.inWork) {
                cur.workLeft = cur.workEnd == kNever ? kNever : std::max<int64_t>(cur.workEnd - now, 0);
                cur.inWork = false;
            }
            ++cur.gen;
            if (cur.ktimers && c.inSoftirq) {
                em_.softirqExit(c.id, now, ctx(c, kFlagSoftirq), 8);
                c.inSoftirq = false;
            }
            cur.state = TaskState::Runnable;
            c.rq.push_back(c.curr);
        }
    }
    if (next >= 0) c.rq.erase(std::find(c.rq.begin(), c.rq.end(), next));
    const int prev = c.curr;
    const Task *p = prev >= 0 ? &tasks_[static_cast<size_t>(prev)] : nullptr;
    const uint16_t state = !p ? 0 : (p->state == TaskState::Runnable ? kStatePreempted : kStateSleeping);
    if (next < 0 && prev < 0) return; // idle stays idle
    const Task *n = next >= 0 ? &tasks_[static_cast<size_t>(next)] : nullptr;
    const int64_t switchTs = now;
    em_.schedSwitch(c.id, now, ctx(c), p ? p->pid : 0, p ? p->prio : 120, state, n ? n->pid : 0,
                    n ? n->prio : 120);
    now += cost(pf_.ctxSwitch);
    c.curr = next;
    c.userMode = false;
    if (!n) {
        c.inIdle = true;
        idleLoopEnter(c, now);
        return;
    }
    Task &t = tasks_[static_cast<size_t>(next)];
    t.state = TaskState::Running;
    t.switchedIn = now;
    if (t.truthWakeup >= 0) {
        gt_.wakeups[static_cast<size_t>(t.truthWakeup)].switchTs = switchTs;
        t.truthWakeup = -1;
    }
    if (t.ktimers) {
        t.woken = false;
        runKtimers(c, t, now);
        return;
    }
    if (t.woken) {
        t.woken = false;
        returnToUser(c, t, now);
        return;
    }
    // resumes preempted user work
    c.userMode = true;
    if (c.nohzFull) em_.user(c.id, now, ctx(c), true);
    startWork(c, t, now, t.workLeft);
}

void Engine::startWork(Cpu &c, Task &t, int64_t now, int64_t ns)
{
    c.userMode = true;
    t.inWork = true;
    t.workEnd = ns == kNever ? kNever : now + ns;
    ++t.gen;
    if (t.workEnd != kNever) push(t.workEnd, c.id, EvWork, static_cast<uint32_t>(&t - tasks_.data()), t.gen);
}

// After its wakeup: the rest of clock_nanosleep, then its program's next step in user mode.
void Engine::returnToUser(Cpu &c, Task &t, int64_t &now)
{
    const TaskSpec &s = *t.spec;
    // every task starts asleep in clock_nanosleep, so each switch-in after a wakeup returns from one
    em_.sys(c.id, now, ctx(c), false, kNanosleep);
    now += cost(pf_.syscall / 2);
    if (c.nohzFull) {
        // P1: stop a tick left running in the kernel from context tracking, on the way to user mode.
        if (k_.p1Reevaluate && !c.tickStopped && !depMask(c)) {
            const int64_t next = nextEvent(c);
            if (next == kNever || next - now >= tickNs_) {
                em_.tickStop(c.id, now, ctx(c), true, 0);
                c.tickStopped = true;
                c.lastEvalFailed = false;
                programStopped(c, now, next);
                now += cost(pf_.tickStop);
            }
        }
        em_.user(c.id, now, ctx(c), true);
    }
    c.userMode = true;
    if (!t.started) {
        t.started = true;
        if (s.markers) {
            const std::string m = "workload task " + t.comm + " start cpu=" + std::to_string(c.id);
            em_.print(c.id, now, ctx(c), m);
            if (gt_.markerFrom < 0) gt_.markerFrom = now;
        }
    }
    if (t.cyclic >= 0 && t.wantWake > 0) {
        CyclicResult &r = gt_.cyclic[static_cast<size_t>(t.cyclic)];
        const int64_t lat = now + cost(300) - t.wantWake; // + clock_gettime
        ++r.cycles;
        r.sumNs += lat;
        r.minNs = std::min(r.minNs, lat);
        r.maxNs = std::max(r.maxNs, lat);
    }
    switch (s.program) {
    case ProgramKind::SleepWork:
        startWork(c, t, now, s.workNs);
        break;
    case ProgramKind::Cyclic:
        startWork(c, t, now, cost(kCyclicUserNs));
        break;
    case ProgramKind::RandomSleep:
        startWork(c, t, now, cost(std::max<int64_t>(s.workNs, 1000)));
        break;
    case ProgramKind::Busy:
        startWork(c, t, now, kNever);
        break;
    }
}

void Engine::onWorkDone(Cpu &c, Task &t, int64_t now)
{
    if (t.loopsLeft == 0) {
        taskFinish(c, t, now);
    } else {
        if (t.loopsLeft > 0) --t.loopsLeft;
        taskSleep(c, t, now);
    }
    c.t = std::max(c.t, now);
}

void Engine::armSleeper(Cpu &c, Task &t, int64_t now, int64_t soft, int64_t slack, uint8_t mode)
{
    Hrtimer &h = hr_[static_cast<size_t>(t.hr)];
    h.soft = soft;
    h.expires = soft + slack;
    h.armed = true;
    h.seq = ++hrSeq_;
    h.task = static_cast<int>(&t - tasks_.data());
    // PREEMPT_RT (1842f5a427f5): sleepers of RT tasks expire in hard interrupt context; with
    // soft_for_non_rt the others expire in the HRTIMER softirq (seed 003).
    h.hard = !k_.preemptRt || t.rt || k_.hrtimerWakeups == HrtimerWakeups::Hard;
    const uint8_t m = static_cast<uint8_t>(mode | (k_.preemptRt && t.rt ? kModeHard : 0));
    em_.hrtimerStart(c.id, now, ctx(c), h.ptr, fnWakeup_, h.expires, h.soft, m, false);
    c.hrtimers.push_back(t.hr);
}

void Engine::taskSleep(Cpu &c, Task &t, int64_t &now)
{
    const TaskSpec &s = *t.spec;
    if (c.nohzFull) em_.user(c.id, now, ctx(c), false);
    c.userMode = false;
    em_.sys(c.id, now, ctx(c), true, kNanosleep);
    now += cost(pf_.syscall / 2);
    const int64_t slack = t.rt ? 0 : kDefaultSlackNs;
    switch (s.program) {
    case ProgramKind::SleepWork:
        armSleeper(c, t, now, now + s.sleepNs, slack, kModeRel);
        break;
    case ProgramKind::Cyclic:
        t.nextPeriod += s.intervalNs;
        while (t.nextPeriod <= now)
            t.nextPeriod += s.intervalNs;
        t.wantWake = t.nextPeriod;
        armSleeper(c, t, now, t.nextPeriod, slack, kModeAbs);
        break;
    case ProgramKind::RandomSleep:
        if (s.syncNs > 0) {
            armSleeper(c, t, now, (now / s.syncNs + 1) * s.syncNs, slack, kModeAbs);
        } else {
            armSleeper(c, t, now, now + rng_.range(s.minNs, s.maxNs), slack, kModeRel);
        }
        break;
    case ProgramKind::Busy:
        break;
    }
    // The syscall path of a SCHED_OTHER task has sections with interrupts off.
    if (!t.rt && pf_.irqsOffMax > 0) now += rng_.range(0, pf_.irqsOffMax);
    t.state = TaskState::Sleeping;
    schedule(c, now, false);
}

void Engine::taskFinish(Cpu &c, Task &t, int64_t &now)
{
    if (t.spec->markers) {
        const std::string m = "workload task " + t.comm + " done";
        em_.print(c.id, now, ctx(c), m);
        gt_.markerTo = now;
    }
    if (c.nohzFull) em_.user(c.id, now, ctx(c), false);
    c.userMode = false;
    em_.sys(c.id, now, ctx(c), true, 231); // exit_group
    now += cost(pf_.syscall);
    t.state = TaskState::Done;
    schedule(c, now, false);
}

// ktimers/N (PREEMPT_RT, 6.13+): the HRTIMER softirq in task context, one expiry per step so that
// interrupts and preemption by higher-priority tasks come in between.
void Engine::runKtimers(Cpu &c, Task &t, int64_t &now)
{
    const uint8_t fl = kFlagSoftirq;
    if (!c.inSoftirq) {
        em_.softirqEntry(c.id, now, ctx(c, fl), 8);
        c.inSoftirq = true;
        now += cost(pf_.softirq / 2);
    }
    int best = -1;
    for (int i : c.hrtimers) {
        const Hrtimer &h = hr_[static_cast<size_t>(i)];
        if (!h.hard && h.soft <= now && (best < 0 || h.expires < hr_[static_cast<size_t>(best)].expires))
            best = i;
    }
    if (best >= 0) {
        sleeperExpiry(c, hr_[static_cast<size_t>(best)], now, fl);
        ++t.gen;
        if (!c.needResched) { // the next expiry is a step of its own
            push(now, c.id, EvWork, static_cast<uint32_t>(&t - tasks_.data()), t.gen);
            return;
        }
        em_.softirqExit(c.id, now, ctx(c, fl), 8); // preempted between two expiries: resumes later
        c.inSoftirq = false;
        schedule(c, now, true);
        return;
    }
    em_.softirqExit(c.id, now, ctx(c, fl), 8);
    c.inSoftirq = false;
    c.pendingSoftirq = static_cast<uint16_t>(c.pendingSoftirq & ~(1u << 8));
    t.state = TaskState::Sleeping;
    schedule(c, now, false);
}

} // namespace tickscope::sim
