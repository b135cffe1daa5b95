#include "EventFormat.h"

#include <cinttypes>
#include <cstdio>

namespace tickscope {

namespace {

template <class... A> std::string fmt(const char *f, A... a)
{
    char buf[256];
    std::snprintf(buf, sizeof buf, f, a...);
    return buf;
}

std::string hex(uint64_t v)
{
    return fmt("0x%" PRIx64, v);
}

} // namespace

std::string formatPrevState(uint32_t state)
{
    static const char kLetters[] = "SDTtXZPI";
    std::string s;
    for (int b = 0; b < 8; ++b) {
        if (state & (1u << b)) {
            if (!s.empty()) s += '|';
            s += kLetters[b];
        }
    }
    if (s.empty()) s = "R";
    if (state & 0x100) s += '+';
    return s;
}

std::string formatEventFields(const Trace &t, int cpu, size_t i)
{
    const CpuEvents &ev = t.cpu(cpu);
    const auto str = [&](uint32_t id) { return std::string(t.strings.str(id)); };
    switch (t.kind(ev.type(i))) {
    case EventKind::HrtimerStart: {
        const auto p = ev.payload<HrtimerStartP>(i);
        return "hrtimer=" + hex(p.timer) + " function=" + str(p.function) + fmt(" expires=%" PRId64 " softexpires=%" PRId64, p.expires, p.softexpires) +
               (p.mode != kModeUnknown ? fmt(" mode=0x%x", p.mode) : std::string()) + (p.wasArmed >= 0 ? fmt(" was_armed=%d", p.wasArmed) : std::string());
    }
    case EventKind::HrtimerExpireEntry: {
        const auto p = ev.payload<HrtimerExpireEntryP>(i);
        return "hrtimer=" + hex(p.timer) + " function=" + str(p.function) + fmt(" now=%" PRId64, p.now);
    }
    case EventKind::HrtimerCancel:
    case EventKind::HrtimerExpireExit: return "hrtimer=" + hex(ev.payload<PtrP>(i).ptr);
    case EventKind::TimerExpireExit:
    case EventKind::TimerCancel:
    case EventKind::TimerInit: return "timer=" + hex(ev.payload<PtrP>(i).ptr);
    case EventKind::HrtimerInit: {
        const auto p = ev.payload<HrtimerInitP>(i);
        return "hrtimer=" + hex(p.timer) + fmt(" clockid=%d mode=0x%x", p.clockid, p.mode);
    }
    case EventKind::TimerStart: {
        const auto p = ev.payload<TimerStartP>(i);
        return "timer=" + hex(p.timer) + " function=" + str(p.function) +
               fmt(" expires=%" PRIu64 " now=%" PRIu64 " bucket_expiry=%" PRIu64 " flags=0x%x", p.expires, p.now, p.bucketExpiry, p.flags);
    }
    case EventKind::TimerExpireEntry: {
        const auto p = ev.payload<TimerExpireEntryP>(i);
        return "timer=" + hex(p.timer) + " function=" + str(p.function) + fmt(" now=%" PRIu64 " baseclk=%" PRIu64, p.now, p.baseclk);
    }
    case EventKind::TimerBaseIdle: {
        const auto p = ev.payload<TimerBaseIdleP>(i);
        return fmt("is_idle=%d cpu=%u", p.isIdle, p.cpu);
    }
    case EventKind::TickStop: {
        const auto p = ev.payload<TickStopP>(i);
        return fmt("success=%d dependency=", p.success) + std::string(tickDependencyName(p.dependency)) +
               (p.reason ? " reason=" + str(p.reason) : std::string());
    }
    case EventKind::CpuIdle: {
        const auto p = ev.payload<CpuIdleP>(i);
        return fmt("state=%u cpu_id=%u", p.state, p.cpu);
    }
    case EventKind::CpuIdleMiss: {
        const auto p = ev.payload<CpuIdleMissP>(i);
        return fmt("cpu_id=%u state=%u below=%d", p.cpu, p.state, p.below);
    }
    case EventKind::SoftirqRaise:
    case EventKind::SoftirqEntry:
    case EventKind::SoftirqExit: return fmt("vec=%u", ev.payload<SoftirqP>(i).vec);
    case EventKind::IrqHandlerEntry: {
        const auto p = ev.payload<IrqEntryP>(i);
        return fmt("irq=%d name=", p.irq) + str(p.name);
    }
    case EventKind::IrqHandlerExit: {
        const auto p = ev.payload<IrqExitP>(i);
        return fmt("irq=%d ret=%d", p.irq, p.ret);
    }
    case EventKind::LocalTimerEntry:
    case EventKind::LocalTimerExit:
    case EventKind::VectorEntry:
    case EventKind::VectorExit: return fmt("vector=%d", ev.payload<VectorP>(i).vector);
    case EventKind::SchedSwitch: {
        const auto p = ev.payload<SchedSwitchP>(i);
        const int64_t ts = ev.ts(i);
        return "prev_comm=" + str(t.tasks.comm(p.prevPid, ts)) + fmt(" prev_pid=%d prev_prio=%d prev_state=", p.prevPid, p.prevPrio) +
               formatPrevState(p.prevState) + " ==> next_comm=" + str(t.tasks.comm(p.nextPid, ts)) +
               fmt(" next_pid=%d next_prio=%d", p.nextPid, p.nextPrio);
    }
    case EventKind::SchedWaking:
    case EventKind::SchedWakeup:
    case EventKind::SchedWakeupNew: {
        const auto p = ev.payload<SchedWakeP>(i);
        return "comm=" + str(t.tasks.comm(p.pid, ev.ts(i))) + fmt(" pid=%d prio=%d target_cpu=%03d", p.pid, p.prio, p.targetCpu);
    }
    case EventKind::SchedMigrateTask: {
        const auto p = ev.payload<SchedMigrateP>(i);
        return fmt("pid=%d prio=%d orig_cpu=%d dest_cpu=%d", p.pid, p.prio, p.origCpu, p.destCpu);
    }
    case EventKind::SchedWakeIdleNoIpi: return fmt("cpu=%d", ev.payload<CpuP>(i).cpu);
    case EventKind::UserEnter:
    case EventKind::UserExit: return {};
    case EventKind::SysEnter:
    case EventKind::SysExit: return fmt("NR %d", ev.payload<SyscallP>(i).id);
    case EventKind::Print:
    case EventKind::Generic: return str(ev.payload<TextP>(i).text);
    case EventKind::IpiSendCpu: {
        const auto p = ev.payload<IpiSendCpuP>(i);
        return fmt("cpu=%u callsite=", p.cpu) + str(p.callsite) + " callback=" + str(p.callback);
    }
    case EventKind::Count: break;
    }
    return {};
}

} // namespace tickscope
