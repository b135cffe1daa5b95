// SPDX-License-Identifier: GPL-3.0-or-later
// Follows the tick hrtimer on one CPU for CpuPass: learns its pointer from the first start or expiry with
// a tick callback name, records each expiry with the context CpuPass computed, decides from the event
// after its hrtimer_expire_exit whether it re-armed itself (mode ABS: a periodic tick) or not (a nohz
// wakeup of the stopped tick), drops pre-f2e388a019e4 hrtimer_cancel noise (a cancel immediately followed,
// same ts and pointer, by the expiry or by a start without was_armed), tracks the tick dependency in
// force, and drives the tick lane.
#pragma once

#include <algorithm>

#include "CpuAnalysis.h"
#include "EventRoles.h"

#include "model/CpuEvents.h"
#include "model/StringPool.h"

namespace tickscope {

class TickTracker
{
public:
    TickTracker(const EventRoles &roles, const StringPool &strings, CpuAnalysis &out)
        : roles_(roles), strings_(strings), out_(out)
    {
    }

    // First for every event: settles the decisions deferred to "the next event". Returns true when this
    // event is the periodic re-arm of the tick that just expired (not an arm for the tick lane).
    bool beforeEvent(const CpuEvents::Cursor &c, Role role, int64_t ts)
    {
        if (pendingCancel_.active) resolveCancel(c, role, ts);
        return rearmTick_ != npos && resolveRearm(c, role);
    }

    bool known() const { return out_.tickTimer != 0; }
    bool isTick(uint64_t ptr) const { return out_.tickTimer && ptr == out_.tickTimer; }
    // Flags a tick (or a local timer interrupt) gets from the tick lane and the dependency in force.
    uint8_t flags() const;

    void onStart(size_t i, const HrtimerStartP &p, bool rearm);
    void onCancel(size_t i, int64_t ts, uint64_t ptr);
    // Learns the tick hrtimer from an expiry; true when the expiry is the tick's.
    bool isTickExpiry(const HrtimerExpireEntryP &p);
    void onExpiry(size_t i, TickContext ctx, bool wokeFromIdle);
    void onExpiryExit(uint64_t ptr);
    void onTickStop(size_t i, const TickStopP &p, bool inTask);
    void onIdleExitToTask(size_t i); // low-res fallback: no tick hrtimer to tell when it restarts

    void begin(size_t i) { out_.tickLane.reset(i); }
    // The first tick record whose periodic flag is still to be decided (ticks.size() when none).
    size_t firstUndecidedTick() const
    {
        return std::min({openTick_ == npos ? out_.ticks.size() : openTick_,
                         rearmTick_ == npos ? out_.ticks.size() : rearmTick_, out_.ticks.size()});
    }
    void gap(size_t gapStart, size_t resume);
    void finish();

private:
    static constexpr size_t npos = static_cast<size_t>(-1);
    struct PendingCancel
    {
        bool active = false;
        size_t index = 0;
        int64_t ts = 0;
        uint64_t ptr = 0;
    };

    void learn(uint64_t ptr, uint32_t function);
    bool resolveRearm(const CpuEvents::Cursor &c, Role role);
    void resolveCancel(const CpuEvents::Cursor &c, Role role, int64_t ts);

    const EventRoles &roles_;
    const StringPool &strings_;
    CpuAnalysis &out_;
    uint32_t depMask_ = 0; // tick dependency in force: the last tick_stop evaluation failed
    size_t openTick_ = npos;
    size_t rearmTick_ = npos;
    PendingCancel pendingCancel_;
};

} // namespace tickscope
