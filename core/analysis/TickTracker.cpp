// SPDX-License-Identifier: GPL-3.0-or-later
#include "TickTracker.h"

namespace tickscope {

namespace {

constexpr uint32_t kUnknownDependency = 0x80000000u; // a failed stop whose old string reason is not known
constexpr int64_t kSameTsNs = 1000;                  // "same ts" for cancel noise: text traces print µs
constexpr uint8_t kModeAbs = 0;

} // namespace

uint8_t TickTracker::flags() const
{
    return static_cast<uint8_t>((out_.tickLane.state() == TickState::Stopped ? TickFlag::LaneStopped : 0) |
                                (depMask_ ? TickFlag::DependencyInForce : 0));
}

void TickTracker::learn(uint64_t ptr, uint32_t function)
{
    out_.tickTimer = ptr;
    out_.tickFunction = function;
    out_.localTimerTicks = {}; // this CPU has a tick hrtimer: its local timer interrupts are not the tick
}

void TickTracker::onStart(size_t i, const HrtimerStartP &p, bool rearm)
{
    ++out_.evidence.hrtimerStarts;
    if (!out_.tickTimer && roles_.isTickFunction(p.function)) learn(p.timer, p.function);
    if (isTick(p.timer) && !rearm) out_.tickLane.onArm(i);
}

void TickTracker::onCancel(size_t i, int64_t ts, uint64_t ptr)
{
    if (isTick(ptr)) pendingCancel_ = {true, i, ts, ptr}; // decided at the next event
}

bool TickTracker::isTickExpiry(const HrtimerExpireEntryP &p)
{
    if (!out_.tickTimer && roles_.isTickFunction(p.function)) learn(p.timer, p.function);
    return isTick(p.timer);
}

void TickTracker::onExpiry(size_t i, TickContext ctx, bool wokeFromIdle)
{
    const auto f = static_cast<uint8_t>(flags() | (wokeFromIdle ? TickFlag::WokeFromIdle : 0));
    out_.ticks.push_back({static_cast<uint32_t>(i), ctx, f});
    openTick_ = out_.ticks.size() - 1;
    out_.tickLane.onExpiry();
}

void TickTracker::onExpiryExit(uint64_t ptr)
{
    if (openTick_ != npos && isTick(ptr)) {
        rearmTick_ = openTick_; // the next event tells whether it re-armed
        openTick_ = npos;
    }
}

bool TickTracker::resolveRearm(const CpuEvents::Cursor &c, Role role)
{
    const size_t t = rearmTick_;
    rearmTick_ = npos;
    bool rearmed = false;
    if (role == Role::HrtimerStart) {
        const auto p = c.payload<HrtimerStartP>();
        // __run_hrtimer() re-enqueues a timer whose callback returned HRTIMER_RESTART with mode ABS, right
        // after hrtimer_expire_exit; a stopped tick's callback returns HRTIMER_NORESTART.
        rearmed = isTick(p.timer) && (p.mode == kModeAbs || p.mode == kModeUnknown);
    }
    TickRecord &r = out_.ticks[t];
    r.flags |= TickFlag::Resolved | (rearmed ? TickFlag::Periodic : 0);
    out_.tickLane.onExpiryResolved(r.index, rearmed);
    return rearmed;
}

void TickTracker::resolveCancel(const CpuEvents::Cursor &c, Role role, int64_t ts)
{
    const PendingCancel pc = pendingCancel_;
    pendingCancel_.active = false;
    bool noise = false;
    if (ts - pc.ts <= kSameTsNs) {
        // Before f2e388a019e4 an expiry, and a start of an armed timer, were preceded by a cancel of it.
        if (role == Role::HrtimerExpireEntry) noise = c.payload<HrtimerExpireEntryP>().timer == pc.ptr;
        if (role == Role::HrtimerStart) {
            const auto p = c.payload<HrtimerStartP>();
            noise = p.timer == pc.ptr && p.wasArmed < 0; // kernels with was_armed have no such noise
        }
    }
    if (noise)
        ++out_.evidence.cancelNoise;
    else
        out_.tickLane.onCancel(pc.index);
}

void TickTracker::onTickStop(size_t i, const TickStopP &p, bool inTask)
{
    if (p.success) {
        ++(inTask ? out_.evidence.stopsInTask : out_.evidence.stopsInIdle);
        out_.tickLane.onTickStop(i);
        depMask_ = 0;
        return;
    }
    ++out_.evidence.failedStops;
    uint32_t mask = p.dependency;
    if (!mask && p.reason) mask = dependencyFromReason(strings_.str(p.reason));
    out_.failedStops.push_back({static_cast<uint32_t>(i), mask, p.reason});
    depMask_ = mask ? mask : kUnknownDependency;
}

void TickTracker::onIdleExitToTask(size_t i)
{
    if (!out_.tickTimer) out_.tickLane.onIdleExitWithoutTimer(i); // idle exit restarts a stopped tick
}

void TickTracker::gap(size_t gapStart, size_t resume)
{
    out_.tickLane.gap(gapStart, resume);
    pendingCancel_ = {};
    openTick_ = rearmTick_ = npos; // an open tick stays unresolved: decided from the tick lane
    depMask_ = 0;
}

void TickTracker::finish()
{
    if (pendingCancel_.active) out_.tickLane.onCancel(pendingCancel_.index);
    pendingCancel_ = {};
    out_.tickLane.shrink();
    out_.ticks.trim();
    out_.localTimerTicks.trim();
    out_.failedStops.shrink_to_fit();
}

} // namespace tickscope
