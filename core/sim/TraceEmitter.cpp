// SPDX-License-Identifier: GPL-3.0-or-later
#include "TraceEmitter.h"

#include "model/EventKinds.h"

namespace tickscope::sim {

namespace {

// The simulator emits the built-in kinds under the names their table entries give.
uint16_t typeOf(Trace &t, EventKind k)
{
    const KindSpec &s = kinds::spec(k);
    return t.addType(s.system, s.name());
}

} // namespace

TraceEmitter::TraceEmitter(Trace &t) : trace_(t), pointers_(t.strings)
{
    using K = EventKind;
    hrStart_ = typeOf(t, K::HrtimerStart);
    hrCancel_ = typeOf(t, K::HrtimerCancel);
    hrEntry_ = typeOf(t, K::HrtimerExpireEntry);
    hrExit_ = typeOf(t, K::HrtimerExpireExit);
    tStart_ = typeOf(t, K::TimerStart);
    tEntry_ = typeOf(t, K::TimerExpireEntry);
    tExit_ = typeOf(t, K::TimerExpireExit);
    baseIdle_ = typeOf(t, K::TimerBaseIdle);
    tickStop_ = typeOf(t, K::TickStop);
    cpuIdle_ = typeOf(t, K::CpuIdle);
    sRaise_ = typeOf(t, K::SoftirqRaise);
    sEntry_ = typeOf(t, K::SoftirqEntry);
    sExit_ = typeOf(t, K::SoftirqExit);
    irqEntry_ = typeOf(t, K::IrqHandlerEntry);
    irqExit_ = typeOf(t, K::IrqHandlerExit);
    ltEntry_ = typeOf(t, K::LocalTimerEntry);
    ltExit_ = typeOf(t, K::LocalTimerExit);
    // VectorEntry/Exit are matched by pattern: the irq_work vector is named here
    iwEntry_ = t.addType(kinds::spec(K::VectorEntry).system, "irq_work_entry");
    iwExit_ = t.addType(kinds::spec(K::VectorExit).system, "irq_work_exit");
    switch_ = typeOf(t, K::SchedSwitch);
    waking_ = typeOf(t, K::SchedWaking);
    wakeup_ = typeOf(t, K::SchedWakeup);
    userEnter_ = typeOf(t, K::UserEnter);
    userExit_ = typeOf(t, K::UserExit);
    sysEnter_ = typeOf(t, K::SysEnter);
    sysExit_ = typeOf(t, K::SysExit);
    print_ = typeOf(t, K::Print);
}

void TraceEmitter::ptr(int cpu, int64_t ts, const Ctx &c, uint16_t type, uint64_t p)
{
    const PtrP v{pointerId(p)};
    put(cpu, ts, c, type, &v, sizeof v);
}

void TraceEmitter::hrtimerStart(int cpu, int64_t ts, const Ctx &c, uint64_t timer, uint32_t fn,
                                int64_t expires, int64_t soft, uint8_t mode, bool wasArmed)
{
    const HrtimerStartP v{pointerId(timer), fn, expires, soft, mode, static_cast<int8_t>(wasArmed ? 1 : 0)};
    put(cpu, ts, c, hrStart_, &v, sizeof v);
}

void TraceEmitter::hrtimerExpireEntry(int cpu, int64_t ts, const Ctx &c, uint64_t timer, int64_t now,
                                      uint32_t fn)
{
    const HrtimerExpireEntryP v{pointerId(timer), now, fn};
    put(cpu, ts, c, hrEntry_, &v, sizeof v);
}

void TraceEmitter::timerStart(int cpu, int64_t ts, const Ctx &c, uint64_t timer, uint32_t fn,
                              uint64_t expires, uint64_t now, uint64_t bucket, uint32_t flags)
{
    const TimerStartP v{pointerId(timer), fn, expires, now, bucket, flags};
    put(cpu, ts, c, tStart_, &v, sizeof v);
}

void TraceEmitter::timerExpireEntry(int cpu, int64_t ts, const Ctx &c, uint64_t timer, uint32_t fn,
                                    uint64_t now, uint64_t baseclk)
{
    const TimerExpireEntryP v{pointerId(timer), fn, now, baseclk};
    put(cpu, ts, c, tEntry_, &v, sizeof v);
}

void TraceEmitter::timerBaseIdle(int cpu, int64_t ts, const Ctx &c, bool idle)
{
    const TimerBaseIdleP v{static_cast<uint8_t>(idle), static_cast<uint32_t>(cpu)};
    put(cpu, ts, c, baseIdle_, &v, sizeof v);
}

void TraceEmitter::tickStop(int cpu, int64_t ts, const Ctx &c, bool success, uint32_t dependency)
{
    const TickStopP v{success ? 1 : 0, dependency, 0};
    put(cpu, ts, c, tickStop_, &v, sizeof v);
}

void TraceEmitter::cpuIdle(int cpu, int64_t ts, const Ctx &c, uint32_t state)
{
    const CpuIdleP v{state, static_cast<uint32_t>(cpu)};
    put(cpu, ts, c, cpuIdle_, &v, sizeof v);
}

void TraceEmitter::softirq(int cpu, int64_t ts, const Ctx &c, uint16_t type, uint8_t vec)
{
    const SoftirqP v{vec};
    put(cpu, ts, c, type, &v, sizeof v);
}

void TraceEmitter::irqEntry(int cpu, int64_t ts, const Ctx &c, int32_t irq, uint32_t name)
{
    const IrqEntryP v{irq, name};
    put(cpu, ts, c, irqEntry_, &v, sizeof v);
}

void TraceEmitter::irqExit(int cpu, int64_t ts, const Ctx &c, int32_t irq)
{
    const IrqExitP v{irq, 1};
    put(cpu, ts, c, irqExit_, &v, sizeof v);
}

void TraceEmitter::localTimer(int cpu, int64_t ts, const Ctx &c, bool entry)
{
    const VectorP v{236};
    put(cpu, ts, c, entry ? ltEntry_ : ltExit_, &v, sizeof v);
}

void TraceEmitter::irqWork(int cpu, int64_t ts, const Ctx &c, bool entry)
{
    const VectorP v{246};
    put(cpu, ts, c, entry ? iwEntry_ : iwExit_, &v, sizeof v);
}

void TraceEmitter::schedSwitch(int cpu, int64_t ts, const Ctx &c, int32_t prevPid, int16_t prevPrio,
                               uint16_t prevState, int32_t nextPid, int16_t nextPrio)
{
    const SchedSwitchP v{prevPid, nextPid, prevPrio, nextPrio, prevState};
    put(cpu, ts, c, switch_, &v, sizeof v);
}

void TraceEmitter::schedWake(int cpu, int64_t ts, const Ctx &c, bool waking, int32_t pid, int16_t prio,
                             int16_t target)
{
    const SchedWakeP v{pid, prio, target};
    put(cpu, ts, c, waking ? waking_ : wakeup_, &v, sizeof v);
}

void TraceEmitter::user(int cpu, int64_t ts, const Ctx &c, bool enter)
{
    put(cpu, ts, c, enter ? userEnter_ : userExit_, nullptr, 0);
}

void TraceEmitter::sys(int cpu, int64_t ts, const Ctx &c, bool enter, int32_t id)
{
    const SyscallP v{id};
    put(cpu, ts, c, enter ? sysEnter_ : sysExit_, &v, sizeof v);
}

void TraceEmitter::print(int cpu, int64_t ts, const Ctx &c, std::string_view text)
{
    const TextP v{trace_.strings.intern(text)};
    put(cpu, ts, c, print_, &v, sizeof v);
}

} // namespace tickscope::sim
