// SPDX-License-Identifier: GPL-3.0-or-later
// Appends simulated events straight into a tickscope::Trace, through the same event types and packed
// payloads the importers produce (EventKind.h), so that every analysis and view reads them unchanged.
#pragma once

#include "model/Trace.h"

#include <cstdint>
#include <string_view>

namespace tickscope::sim {

// common_flags bits, as the kernel's trace_entry sets them
constexpr uint8_t kFlagIrqsOff = 0x01;
constexpr uint8_t kFlagNeedResched = 0x04;
constexpr uint8_t kFlagHardirq = 0x08;
constexpr uint8_t kFlagSoftirq = 0x10;

// enum hrtimer_mode
constexpr uint8_t kModeAbs = 0, kModeRel = 1, kModePinned = 2, kModeHard = 8;

class TraceEmitter
{
public:
    explicit TraceEmitter(Trace &trace);

    // Context of the next events of a CPU: pid and common_flags / preempt count.
    struct Ctx
    {
        int32_t pid = 0;
        uint8_t flags = 0;
        uint8_t preempt = 0;
    };

    void hrtimerStart(int cpu, int64_t ts, const Ctx &c, uint64_t timer, uint32_t fn, int64_t expires,
                      int64_t soft, uint8_t mode, bool wasArmed);
    void hrtimerCancel(int cpu, int64_t ts, const Ctx &c, uint64_t timer)
    {
        ptr(cpu, ts, c, hrCancel_, timer);
    }
    void hrtimerExpireEntry(int cpu, int64_t ts, const Ctx &c, uint64_t timer, int64_t now, uint32_t fn);
    void hrtimerExpireExit(int cpu, int64_t ts, const Ctx &c, uint64_t timer)
    {
        ptr(cpu, ts, c, hrExit_, timer);
    }
    void timerStart(int cpu, int64_t ts, const Ctx &c, uint64_t timer, uint32_t fn, uint64_t expires,
                    uint64_t now, uint64_t bucket, uint32_t flags);
    void timerExpireEntry(int cpu, int64_t ts, const Ctx &c, uint64_t timer, uint32_t fn, uint64_t now,
                          uint64_t baseclk);
    void timerExpireExit(int cpu, int64_t ts, const Ctx &c, uint64_t timer)
    {
        ptr(cpu, ts, c, tExit_, timer);
    }
    void timerBaseIdle(int cpu, int64_t ts, const Ctx &c, bool idle);
    void tickStop(int cpu, int64_t ts, const Ctx &c, bool success, uint32_t dependency);
    void cpuIdle(int cpu, int64_t ts, const Ctx &c, uint32_t state);
    void softirq(int cpu, int64_t ts, const Ctx &c, uint16_t type, uint8_t vec);
    void softirqRaise(int cpu, int64_t ts, const Ctx &c, uint8_t vec) { softirq(cpu, ts, c, sRaise_, vec); }
    void softirqEntry(int cpu, int64_t ts, const Ctx &c, uint8_t vec) { softirq(cpu, ts, c, sEntry_, vec); }
    void softirqExit(int cpu, int64_t ts, const Ctx &c, uint8_t vec) { softirq(cpu, ts, c, sExit_, vec); }
    void irqEntry(int cpu, int64_t ts, const Ctx &c, int32_t irq, uint32_t name);
    void irqExit(int cpu, int64_t ts, const Ctx &c, int32_t irq);
    void localTimer(int cpu, int64_t ts, const Ctx &c, bool entry);
    void irqWork(int cpu, int64_t ts, const Ctx &c, bool entry);
    void schedSwitch(int cpu, int64_t ts, const Ctx &c, int32_t prevPid, int16_t prevPrio, uint16_t prevState,
                     int32_t nextPid, int16_t nextPrio);
    void schedWake(int cpu, int64_t ts, const Ctx &c, bool waking, int32_t pid, int16_t prio, int16_t target);
    void user(int cpu, int64_t ts, const Ctx &c, bool enter);
    void sys(int cpu, int64_t ts, const Ctx &c, bool enter, int32_t id);
    void print(int cpu, int64_t ts, const Ctx &c, std::string_view text);

    uint32_t intern(std::string_view s) { return trace_.strings.intern(s); }
    uint64_t events() const { return events_; }

private:
    void put(int cpu, int64_t ts, const Ctx &c, uint16_t type, const void *p, uint8_t size)
    {
        trace_.cpu(cpu).append(ts, type, c.flags, c.preempt, c.pid, p, size);
        ++events_;
    }
    void ptr(int cpu, int64_t ts, const Ctx &c, uint16_t type, uint64_t p);

    uint32_t pointerId(uint64_t timer) { return pointers_.internPointer(timer); }

    Trace &trace_;
    LocalInterner pointers_; // the simulator runs on one thread
    uint64_t events_ = 0;
    uint16_t hrStart_, hrCancel_, hrEntry_, hrExit_, tStart_, tEntry_, tExit_, baseIdle_, tickStop_, cpuIdle_;
    uint16_t sRaise_, sEntry_, sExit_, irqEntry_, irqExit_, ltEntry_, ltExit_, iwEntry_, iwExit_;
    uint16_t switch_, waking_, wakeup_, userEnter_, userExit_, sysEnter_, sysExit_, print_;
};

} // namespace tickscope::sim
