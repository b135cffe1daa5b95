// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel paths of the simulator: the tick hrtimer and its stop/restart rules, the idle loop (idle=poll
// and halt with the governor's decision), hard interrupts with their exit path, the nohz_full kick, and
// the timer wheel in its two designs. Event order follows a real 6.x kernel (as the
// fixtures in tests/data show it).
#include "Engine.h"

#include <algorithm>

namespace tickscope::sim {
namespace {

constexpr uint64_t kJiffiesBase = 4294667296ull; // INITIAL_JIFFIES at HZ=1000
constexpr uint8_t kHard = kFlagIrqsOff | kFlagHardirq;
constexpr uint32_t kTimerPinned = 0x100000;
constexpr int kVecTimer = 1, kVecHrtimer = 8;

uint32_t lowestBit(uint32_t m)
{
    return m & (~m + 1);
}

} // namespace

uint64_t Engine::jiffies(int64_t t) const
{
    return kJiffiesBase + static_cast<uint64_t>(t / tickNs_);
}

int64_t Engine::jiffiesToNs(uint64_t j) const
{
    return static_cast<int64_t>(j - kJiffiesBase) * tickNs_;
}

int64_t Engine::nextEvent(const Cpu &c) const
{
    int64_t n = kNever;
    for (int i : c.hrtimers)
        n = std::min(n, hr_[static_cast<size_t>(i)].expires);
    // 3.x: get_next_timer_interrupt() rounds the next hrtimer up to a jiffy (cmp_next_hrtimer_event)
    if (k_.legacyKernel && n != kNever) n = (n / tickNs_ + 1) * tickNs_;
    uint64_t b = UINT64_MAX;
    for (int w : c.wheel)
        b = std::min(b, wt_[static_cast<size_t>(w)].bucket);
    if (b != UINT64_MAX) n = std::min(n, jiffiesToNs(b));
    return n;
}

void Engine::reprogram(Cpu &c)
{
    int64_t at = c.tickArmed ? c.tickExp : kNever;
    const bool softRaised = c.pendingSoftirq & (1u << kVecHrtimer);
    for (int i : c.hrtimers) {
        const Hrtimer &h = hr_[static_cast<size_t>(i)];
        if (h.hard || !softRaised) at = std::min(at, h.hard ? h.expires : h.soft);
    }
    if (at == c.ceAt) return;
    c.ceAt = at;
    ++c.ceGen;
    if (at != kNever) push(std::max(at, c.t), c.id, EvClock, 0, c.ceGen);
}

void Engine::irqEnter(Cpu &c, int64_t &now, TickContext &interrupted, bool &wasUser)
{
    wasUser = c.curr >= 0 && c.userMode;
    if (c.inSoftirq)
        interrupted = TickContext::Irq;
    else if (c.curr < 0)
        interrupted = c.idleState == 0 ? TickContext::Polling : TickContext::Idle;
    else
        interrupted = c.userMode ? TickContext::User : TickContext::Kernel;
    if (c.idleState == 1) now += cost(pf_.haltExit);
    if (wasUser && c.nohzFull) em_.user(c.id, now, ctx(c, kFlagIrqsOff), false);
    now += cost(pf_.irqEntry);
}

void Engine::onClock(Cpu &c, int64_t at)
{
    c.ceAt = kNever;
    int64_t now = std::max(at, c.t);
    const int64_t start = now;
    TickContext interrupted;
    bool wasUser;
    irqEnter(c, now, interrupted, wasUser);
    em_.localTimer(c.id, now, ctx(c, kHard), true);
    // hrtimer_interrupt(): every hard timer whose soft expiry has passed, in expiry order, until none is left
    struct Due
    {
        int64_t expires;
        uint64_t seq;
        int idx; // -1: the tick
    };
    Due due[64];
    for (int round = 0; round < 8; ++round) {
        int n = 0;
        if (c.tickArmed && c.tickExp <= now) due[n++] = {c.tickExp, 0, -1};
        for (int i : c.hrtimers) {
            const Hrtimer &h = hr_[static_cast<size_t>(i)];
            if (h.hard && h.soft <= now && n < 64) due[n++] = {h.expires, h.seq, i};
        }
        if (!n) break;
        std::sort(due, due + n, [](const Due &a, const Due &b) {
            return a.expires != b.expires ? a.expires < b.expires : a.seq < b.seq;
        });
        for (int k = 0; k < n; ++k) {
            if (due[k].idx < 0)
                tickExpiry(c, now, interrupted);
            else
                sleeperExpiry(c, hr_[static_cast<size_t>(due[k].idx)], now, kHard);
        }
    }
    if (!(c.pendingSoftirq & (1u << kVecHrtimer))) {
        for (int i : c.hrtimers) {
            const Hrtimer &h = hr_[static_cast<size_t>(i)];
            if (!h.hard && h.soft <= now) {
                em_.softirqRaise(c.id, now, ctx(c, kHard), kVecHrtimer);
                c.pendingSoftirq |= 1u << kVecHrtimer;
                break;
            }
        }
    }
    em_.localTimer(c.id, now, ctx(c, kHard), false);
    irqExitPath(c, now, start, wasUser);
}

void Engine::onIrq(Cpu &c, int64_t at, uint32_t source)
{
    const IrqSpec &q = sc_.irqs[source];
    int64_t now = std::max(at, c.t);
    const int64_t start = now;
    TickContext interrupted;
    bool wasUser;
    irqEnter(c, now, interrupted, wasUser);
    em_.irqEntry(c.id, now, ctx(c, kHard), q.irq, irqNames_[source]);
    now += cost(1000);
    bool kick = false;
    for (int n = 0; n < q.timers; ++n) {
        const int64_t timeout = q.randomTimeout ? rng_.range(q.timeoutsNs[0], q.timeoutsNs[1])
                                                : q.timeoutsNs[static_cast<size_t>(n) % q.timeoutsNs.size()];
        WheelTimer w;
        w.ptr = 0xffff9e0a41000000ull + wt_.size() * 0x80;
        w.fn = fnTimer_;
        wt_.push_back(w);
        const uint64_t expires =
            jiffies(now) + static_cast<uint64_t>(std::max<int64_t>(1, timeout / tickNs_));
        kick |= enqueueWheel(c, now, static_cast<int>(wt_.size() - 1), expires, true, kHard,
                             static_cast<int>(source));
        now += cost(300);
    }
    em_.irqExit(c.id, now, ctx(c, kHard), q.irq);
    if (kick) {
        // tick_nohz_full_kick_cpu(): an irq_work self-IPI. Mainline's nohz_full_kick_func() is empty (the
        // re-evaluation is left to the IRQ exit, which in idle only accounts); P1 sets need_resched in idle.
        em_.irqWork(c.id, now, ctx(c, kHard), true);
        now += cost(500);
        if (k_.p1Reevaluate && !k_.p2WithoutKick && c.inIdle) c.needResched = true;
        em_.irqWork(c.id, now, ctx(c, kHard), false);
    }
    irqExitPath(c, now, start, wasUser);
}

void Engine::irqExitPath(Cpu &c, int64_t &now, int64_t start, bool wasUser)
{
    now += cost(pf_.irqExit / 2);
    if (c.pendingSoftirq) {
        if (!k_.preemptRt)
            runSoftirqs(c, now);
        else if (c.ktimers >= 0) // PREEMPT_RT 6.13+: ktimers/N runs the timer softirqs
            wake(c, c.ktimers, now, kHard);
    }
    // tick_nohz_irq_exit()
    if (c.inIdle) {
        if (k_.legacyKernel) tickStopIdle(c, now); // 3.x re-evaluated the idle tick on every IRQ exit
    } else if (c.nohzFull) {
        fullUpdate(c, now);
    }
    now += cost(pf_.irqExit / 2);
    if (c.inIdle) {
        if (c.idleState == 1 || c.needResched) {
            em_.cpuIdle(c.id, now, ctx(c), kCpuIdleExit);
            const bool halted = c.idleState == 1;
            c.idleState = -1;
            if (c.needResched)
                idleExit(c, now);
            else if (halted)
                idleLoopEnter(c, now);
        }
    } else {
        Task &cur = tasks_[static_cast<size_t>(c.curr)];
        if (cur.inWork && cur.workEnd != kNever && !(cur.spec && cur.spec->workByClock)) {
            cur.workEnd += now - start;
            ++cur.gen;
            push(cur.workEnd, c.id, EvWork, static_cast<uint32_t>(c.curr), cur.gen);
        }
        const int before = c.curr;
        if (c.needResched) schedule(c, now, true);
        if (c.curr == before && wasUser && c.nohzFull) em_.user(c.id, now, ctx(c), true);
    }
    c.t = std::max(c.t, now);
    reprogram(c);
}

void Engine::tickExpiry(Cpu &c, int64_t &now, TickContext interrupted)
{
    em_.hrtimerExpireEntry(c.id, now, ctx(c, kHard), c.tickPtr, now, fnTick_);
    const bool periodic = !c.tickStopped;
    GtTick g;
    g.cpu = c.id;
    g.ts = now;
    g.context = interrupted;
    g.periodic = periodic;
    g.dependency = c.lastEvalFailed;
    g.spurious =
        c.nohzFull && periodic &&
        (interrupted == TickContext::Polling || (interrupted == TickContext::User && !c.lastEvalFailed));
    gt_.ticks.push_back(g);
    now += cost(pf_.tickHandler);
    // run_local_timers(): 6.x raises TIMER only when a timer is due; 3.x on every tick
    const uint64_t j = jiffies(now);
    bool due = k_.wheel == WheelDesign::Legacy && k_.legacyKernel;
    for (int w : c.wheel)
        due |= wt_[static_cast<size_t>(w)].bucket <= j;
    if (due && !(c.pendingSoftirq & (1u << kVecTimer))) {
        em_.softirqRaise(c.id, now, ctx(c, kHard), kVecTimer);
        c.pendingSoftirq |= 1u << kVecTimer;
    }
    // scheduler_tick(): a CFS task that used its slice gives way to another runnable one
    if (c.curr >= 0 && !tasks_[static_cast<size_t>(c.curr)].rt &&
        now - tasks_[static_cast<size_t>(c.curr)].switchedIn >= kSliceNs) {
        for (int i : c.rq)
            c.needResched |= !tasks_[static_cast<size_t>(i)].rt;
    }
    em_.hrtimerExpireExit(c.id, now, ctx(c, kHard), c.tickPtr);
    if (periodic) {
        while (c.tickExp <= now)
            c.tickExp += tickNs_;
        em_.hrtimerStart(c.id, now, ctx(c, kHard), c.tickPtr, fnTick_, c.tickExp, c.tickExp, kModeAbs, false);
        return;
    }
    // The stopped tick fired for the next event: HRTIMER_NORESTART; re-programming it for the following
    // one is left to the idle loop, which cpu_idle_poll() does not run. P1 makes it run.
    c.tickArmed = false;
    c.tickExp = kNever;
    if (c.nohzFull && c.inIdle && c.idleState == 0 && k_.p1Reevaluate && !k_.p2WithoutStoppedTickFix)
        c.needResched = true;
}

void Engine::sleeperExpiry(Cpu &c, Hrtimer &h, int64_t &now, uint8_t flags)
{
    em_.hrtimerExpireEntry(c.id, now, ctx(c, flags), h.ptr, now, fnWakeup_);
    c.hrtimers.erase(std::find(c.hrtimers.begin(), c.hrtimers.end(), static_cast<int>(&h - hr_.data())));
    h.armed = false;
    Task &t = tasks_[static_cast<size_t>(h.task)];
    GtWakeup w;
    w.cpu = c.id;
    w.pid = t.pid;
    w.rt = t.rt;
    w.hard = h.hard;
    w.softexpires = h.soft;
    w.expiryTs = now;
    gt_.wakeups.push_back(w);
    t.truthWakeup = static_cast<int>(gt_.wakeups.size() - 1);
    now += cost(pf_.hrtimerCb);
    wake(c, h.task, now, flags);
    em_.hrtimerExpireExit(c.id, now, ctx(c, flags), h.ptr);
}

void Engine::tickRestart(Cpu &c, int64_t now)
{
    if (c.tickArmed) em_.hrtimerCancel(c.id, now, ctx(c), c.tickPtr);
    const int64_t g = (now / tickNs_ + 1) * tickNs_;
    em_.hrtimerStart(c.id, now, ctx(c), c.tickPtr, fnTick_, g, g, kModeAbs | kModePinned | kModeHard, false);
    c.tickArmed = true;
    c.tickExp = g;
    c.tickStopped = false;
}

void Engine::programStopped(Cpu &c, int64_t now, int64_t next)
{
    if (next == kNever) {
        if (c.tickArmed) em_.hrtimerCancel(c.id, now, ctx(c), c.tickPtr);
        c.tickArmed = false;
        c.tickExp = kNever;
        return;
    }
    if (c.tickArmed && c.tickExp == next) return;
    em_.hrtimerStart(c.id, now, ctx(c), c.tickPtr, fnTick_, next, next, kModeAbs | kModePinned | kModeHard,
                     c.tickArmed);
    c.tickArmed = true;
    c.tickExp = next;
}

void Engine::tickStopIdle(Cpu &c, int64_t &now)
{
    if (anyNohzFull_ && c.id == k_.timekeeper) return; // the timekeeper keeps its tick (can_stop_idle_tick)
    const int64_t next = nextEvent(c);
    if (!c.tickStopped) {
        if (next != kNever && next - now < tickNs_) return; // an event within a tick: keep it running
        if (!c.baseIdle && !k_.legacyKernel) {
            em_.timerBaseIdle(c.id, now, ctx(c), true);
            c.baseIdle = true;
        }
        stopTick(c, now);
    }
    programStopped(c, now, next);
}

// A successful tick_nohz_stop_tick(): the trace event, the CPU's state and its cost.
void Engine::stopTick(Cpu &c, int64_t &now)
{
    em_.tickStop(c.id, now, ctx(c), true, 0);
    c.tickStopped = true;
    c.lastEvalFailed = false;
    now += cost(pf_.tickStop);
}

// tick_nohz_full_update_tick() at IRQ exit on a nohz_full CPU outside idle.
void Engine::fullUpdate(Cpu &c, int64_t &now)
{
    const uint32_t d = depMask(c);
    if (d) {
        em_.tickStop(c.id, now, ctx(c), false, lowestBit(d));
        c.lastEvalFailed = true;
        if (c.tickStopped) tickRestart(c, now);
        return;
    }
    const int64_t next = nextEvent(c);
    if (!c.tickStopped) {
        if (next != kNever && next - now < tickNs_) return;
        stopTick(c, now);
    }
    programStopped(c, now, next);
}

void Engine::idleLoopEnter(Cpu &c, int64_t &now)
{
    c.inIdle = true;
    c.needResched = false;
    now += cost(pf_.idleEntry / 2);
    if (k_.idle == IdleMode::Poll) {
        if (k_.legacyKernel) {    // NOLINT(bugprone-branch-clone): two kernels' reasons, kept apart
            tickStopIdle(c, now); // <= 4.16: stopped up front in tick_nohz_idle_enter()
        } else if (c.nohzFull && k_.p2StopTickOnPoll) {
            tickStopIdle(c, now); // P2: nohz_full CPUs stop the tick on polling idle entry
        } else if (k_.pollRestartsTick && c.tickStopped) {
            tickRestart(c, now); // mainline: tick_nohz_idle_restart_tick() before cpu_idle_poll()
        }
        em_.cpuIdle(c.id, now, ctx(c), 0);
        c.idleState = 0;
    } else {
        // 4.17+: the governor stops the tick when it expects a long idle; 3.x stopped it up front
        const int64_t next = nextEvent(c);
        // cpuidle_idle_call(): a stopped tick is re-programmed for the next event either way
        if (k_.legacyKernel || c.tickStopped || next == kNever || next - now > 2 * tickNs_)
            tickStopIdle(c, now);
        now += cost(pf_.idleEntry / 2);
        em_.cpuIdle(c.id, now, ctx(c), 1);
        c.idleState = 1;
    }
}

void Engine::idleExit(Cpu &c, int64_t &now)
{
    now += cost(pf_.idleExit / 2);
    if (c.baseIdle) {
        em_.timerBaseIdle(c.id, now, ctx(c), false);
        c.baseIdle = false;
    }
    const int next = pickNext(c);
    if (c.tickStopped) {
        if (!c.nohzFull || k_.legacyKernel) {
            tickRestart(c, now);
        } else { // a5183862e76f: a nohz_full CPU keeps the tick stopped unless a dependency needs it
            uint32_t d = depMask(c);
            if (next >= 0 && tasks_[static_cast<size_t>(next)].spec &&
                tasks_[static_cast<size_t>(next)].spec->posixCpuTimer)
                d |= static_cast<uint32_t>(TickDependency::PosixTimer);
            if (d) {
                em_.tickStop(c.id, now, ctx(c), false, lowestBit(d));
                c.lastEvalFailed = true;
                tickRestart(c, now);
            } else {
                programStopped(c, now, nextEvent(c));
            }
        }
    }
    now += cost(pf_.idleExit / 2);
    if (next < 0) { // woken for nothing to run (P1): the idle loop runs again
        idleLoopEnter(c, now);
        return;
    }
    c.inIdle = false;
    schedule(c, now, false);
}

void Engine::runSoftirqs(Cpu &c, int64_t &now)
{
    if (c.pendingSoftirq & (1u << kVecTimer)) {
        c.pendingSoftirq = static_cast<uint16_t>(c.pendingSoftirq & ~(1u << kVecTimer));
        runTimerSoftirq(c, now);
    }
    c.pendingSoftirq = 0;
}

void Engine::fireWheel(Cpu &c, int64_t &now, int idx, uint64_t j, uint64_t baseclk)
{
    WheelTimer &w = wt_[static_cast<size_t>(idx)];
    em_.timerExpireEntry(c.id, now, ctx(c, kFlagSoftirq), w.ptr, w.fn, j, baseclk);
    if (w.truth >= 0) {
        gt_.timers[static_cast<size_t>(w.truth)].fireTs = now;
        gt_.timers[static_cast<size_t>(w.truth)].fireJiffies = j;
    }
    c.wheel.erase(std::find(c.wheel.begin(), c.wheel.end(), idx));
    w.armed = false;
    now += cost(pf_.timerCb);
    em_.timerExpireExit(c.id, now, ctx(c, kFlagSoftirq), w.ptr);
    if (w.periodic >= 0) {
        const WheelTimerSpec &s = sc_.wheelTimers[static_cast<size_t>(w.periodic)];
        if (s.periodNs > 0)
            enqueueWheel(c, now, idx, j + static_cast<uint64_t>(s.periodNs / tickNs_), true, kFlagSoftirq,
                         -1);
    }
}

void Engine::runTimerSoftirq(Cpu &c, int64_t &now)
{
    c.inSoftirq = true;
    const int64_t entry = now;
    em_.softirqEntry(c.id, now, ctx(c, kFlagSoftirq), kVecTimer);
    now += cost(pf_.softirq / 2);
    const uint64_t j = jiffies(now);
    std::vector<int> due;
    for (int w : c.wheel) {
        if (wt_[static_cast<size_t>(w)].bucket <= j) due.push_back(w);
    }
    std::sort(due.begin(), due.end(), [&](int a, int b) {
        return wt_[static_cast<size_t>(a)].bucket != wt_[static_cast<size_t>(b)].bucket
                   ? wt_[static_cast<size_t>(a)].bucket < wt_[static_cast<size_t>(b)].bucket
                   : a < b;
    });
    uint64_t walked = 0;
    uint32_t fired = static_cast<uint32_t>(due.size());
    if (k_.wheel == WheelDesign::Legacy) {
        // __run_timers(): one jiffy per iteration from base->timer_jiffies, a cascade every 256, with the
        // base lock held and interrupts off (the CPU is busy for all of it).
        auto walk = [&](uint64_t from, uint64_t to) { // jiffies (from, to]
            if (to <= from) return;
            const uint64_t steps = to - from;
            const uint64_t cascades = to / 256 - from / 256;
            now += cost(static_cast<int64_t>(steps) * pf_.jiffyStep +
                        static_cast<int64_t>(cascades) * pf_.cascade);
        };
        uint64_t pos = std::min(c.baseClk, j);
        walked = j + 1 - pos;
        for (int w : due) {
            const uint64_t b = std::max(wt_[static_cast<size_t>(w)].bucket, pos);
            walk(pos, b);
            pos = b;
            fireWheel(c, now, w, j, pos);
        }
        walk(pos, j + 1);
    } else {
        for (int w : due)
            fireWheel(c, now, w, j, std::max(wt_[static_cast<size_t>(w)].bucket, c.baseClk));
    }
    c.baseClk = j + 1;
    now += cost(pf_.softirq / 2);
    em_.softirqExit(c.id, now, ctx(c, kFlagSoftirq), kVecTimer);
    c.inSoftirq = false;
    gt_.softirqs.push_back({c.id, entry, now, walked, fired});
}

bool Engine::enqueueWheel(Cpu &c, int64_t now, int idx, uint64_t expires, bool emit, uint8_t flags,
                          int source)
{
    WheelTimer &w = wt_[static_cast<size_t>(idx)];
    uint64_t prevNext = UINT64_MAX;
    for (int i : c.wheel)
        prevNext = std::min(prevNext, wt_[static_cast<size_t>(i)].bucket);
    const uint64_t j = jiffies(now);
    unsigned lvl = 0;
    if (k_.wheel == WheelDesign::Forwarding) {
        // 4.8+: levels of 64 buckets, each 8x coarser; expiry rounded up to the level's granularity.
        c.baseClk = std::max(c.baseClk, j); // an idle base is forwarded on enqueue
        const uint64_t delta = expires > c.baseClk ? expires - c.baseClk : 0;
        while (lvl < 8 && delta >= (uint64_t{63} << (3 * lvl)))
            ++lvl;
        const unsigned shift = 3 * lvl;
        w.bucket = ((expires >> shift) + 1) << shift;
    } else {
        w.bucket = expires;
    }
    w.expires = expires;
    w.armed = true;
    c.wheel.push_back(idx);
    GtTimer g;
    g.cpu = c.id;
    g.source = source;
    g.startTs = emit ? now : -1;
    g.expires = expires;
    g.bucket = w.bucket;
    g.intendedNs = jiffiesToNs(w.bucket);
    gt_.timers.push_back(g);
    w.truth = static_cast<int>(gt_.timers.size() - 1);
    if (!emit) return false;
    em_.timerStart(c.id, now, ctx(c, flags), w.ptr, w.fn, expires, j, w.bucket,
                   static_cast<uint32_t>(c.id) | kTimerPinned | (lvl << 22));
    // trigger_dyntick_cpu(): a new first timer on a nohz_full CPU whose tick is stopped kicks it
    return c.nohzFull && c.tickStopped && w.bucket < prevNext;
}

} // namespace tickscope::sim
