#include "EventKind.h"

#include <array>

namespace tickscope {
namespace {

struct NamedKind
{
    std::string_view system;
    std::string_view name;
    EventKind kind;
};

constexpr std::array kKnown{
    NamedKind{"timer", "hrtimer_start", EventKind::HrtimerStart},
    NamedKind{"timer", "hrtimer_cancel", EventKind::HrtimerCancel},
    NamedKind{"timer", "hrtimer_expire_entry", EventKind::HrtimerExpireEntry},
    NamedKind{"timer", "hrtimer_expire_exit", EventKind::HrtimerExpireExit},
    NamedKind{"timer", "hrtimer_init", EventKind::HrtimerInit},
    NamedKind{"timer", "hrtimer_setup", EventKind::HrtimerInit},
    NamedKind{"timer", "timer_start", EventKind::TimerStart},
    NamedKind{"timer", "timer_expire_entry", EventKind::TimerExpireEntry},
    NamedKind{"timer", "timer_expire_exit", EventKind::TimerExpireExit},
    NamedKind{"timer", "timer_cancel", EventKind::TimerCancel},
    NamedKind{"timer", "timer_init", EventKind::TimerInit},
    NamedKind{"timer", "timer_base_idle", EventKind::TimerBaseIdle},
    NamedKind{"timer", "tick_stop", EventKind::TickStop},
    NamedKind{"power", "cpu_idle", EventKind::CpuIdle},
    NamedKind{"power", "cpu_idle_miss", EventKind::CpuIdleMiss},
    NamedKind{"irq", "softirq_raise", EventKind::SoftirqRaise},
    NamedKind{"irq", "softirq_entry", EventKind::SoftirqEntry},
    NamedKind{"irq", "softirq_exit", EventKind::SoftirqExit},
    NamedKind{"irq", "irq_handler_entry", EventKind::IrqHandlerEntry},
    NamedKind{"irq", "irq_handler_exit", EventKind::IrqHandlerExit},
    NamedKind{"irq_vectors", "local_timer_entry", EventKind::LocalTimerEntry},
    NamedKind{"irq_vectors", "local_timer_exit", EventKind::LocalTimerExit},
    NamedKind{"sched", "sched_switch", EventKind::SchedSwitch},
    NamedKind{"sched", "sched_waking", EventKind::SchedWaking},
    NamedKind{"sched", "sched_wakeup", EventKind::SchedWakeup},
    NamedKind{"sched", "sched_wakeup_new", EventKind::SchedWakeupNew},
    NamedKind{"sched", "sched_migrate_task", EventKind::SchedMigrateTask},
    NamedKind{"sched", "sched_wake_idle_without_ipi", EventKind::SchedWakeIdleNoIpi},
    NamedKind{"context_tracking", "user_enter", EventKind::UserEnter},
    NamedKind{"context_tracking", "user_exit", EventKind::UserExit},
    NamedKind{"raw_syscalls", "sys_enter", EventKind::SysEnter},
    NamedKind{"raw_syscalls", "sys_exit", EventKind::SysExit},
    NamedKind{"ftrace", "print", EventKind::Print},
    NamedKind{"ipi", "ipi_send_cpu", EventKind::IpiSendCpu},
};

// x86 irq_vectors events seen in text traces, where the system is not printed.
constexpr std::array<std::string_view, 11> kVectorStems{
    "reschedule",          "call_function", "call_function_single", "irq_work",
    "thermal_apic",        "error_apic",    "spurious_apic",        "x86_platform_ipi",
    "deferred_error_apic", "threshold_apic", "reboot"};

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

} // namespace

EventKind kindForEvent(std::string_view system, std::string_view name)
{
    for (const auto &k : kKnown) {
        if (k.name == name && (system.empty() || k.system == system)) return k.kind;
    }
    const bool entry = endsWith(name, "_entry");
    const bool exit = endsWith(name, "_exit");
    if (!entry && !exit) return EventKind::Generic;
    if (system == "irq_vectors") return entry ? EventKind::VectorEntry : EventKind::VectorExit;
    if (system.empty()) {
        const std::string_view stem = name.substr(0, name.size() - (entry ? 6 : 5));
        for (auto v : kVectorStems) {
            if (v == stem) return entry ? EventKind::VectorEntry : EventKind::VectorExit;
        }
    }
    return EventKind::Generic;
}

std::string_view kindName(EventKind k)
{
    switch (k) {
    case EventKind::Generic: return "generic";
    case EventKind::VectorEntry: return "vector_entry";
    case EventKind::VectorExit: return "vector_exit";
    case EventKind::Count: return "?";
    default: break;
    }
    for (const auto &n : kKnown) {
        if (n.kind == k) return n.name;
    }
    return "?";
}

uint8_t payloadSize(EventKind k)
{
    switch (k) {
    case EventKind::HrtimerStart: return sizeof(HrtimerStartP);
    case EventKind::HrtimerExpireEntry: return sizeof(HrtimerExpireEntryP);
    case EventKind::HrtimerCancel:
    case EventKind::HrtimerExpireExit:
    case EventKind::TimerExpireExit:
    case EventKind::TimerCancel:
    case EventKind::TimerInit: return sizeof(PtrP);
    case EventKind::HrtimerInit: return sizeof(HrtimerInitP);
    case EventKind::TimerStart: return sizeof(TimerStartP);
    case EventKind::TimerExpireEntry: return sizeof(TimerExpireEntryP);
    case EventKind::TimerBaseIdle: return sizeof(TimerBaseIdleP);
    case EventKind::TickStop: return sizeof(TickStopP);
    case EventKind::CpuIdle: return sizeof(CpuIdleP);
    case EventKind::CpuIdleMiss: return sizeof(CpuIdleMissP);
    case EventKind::SoftirqRaise:
    case EventKind::SoftirqEntry:
    case EventKind::SoftirqExit: return sizeof(SoftirqP);
    case EventKind::IrqHandlerEntry: return sizeof(IrqEntryP);
    case EventKind::IrqHandlerExit: return sizeof(IrqExitP);
    case EventKind::LocalTimerEntry:
    case EventKind::LocalTimerExit:
    case EventKind::VectorEntry:
    case EventKind::VectorExit: return sizeof(VectorP);
    case EventKind::SchedSwitch: return sizeof(SchedSwitchP);
    case EventKind::SchedWaking:
    case EventKind::SchedWakeup:
    case EventKind::SchedWakeupNew: return sizeof(SchedWakeP);
    case EventKind::SchedMigrateTask: return sizeof(SchedMigrateP);
    case EventKind::SchedWakeIdleNoIpi: return sizeof(CpuP);
    case EventKind::UserEnter:
    case EventKind::UserExit: return 0;
    case EventKind::SysEnter:
    case EventKind::SysExit: return sizeof(SyscallP);
    case EventKind::Print:
    case EventKind::Generic: return sizeof(TextP);
    case EventKind::IpiSendCpu: return sizeof(IpiSendCpuP);
    case EventKind::Count: break;
    }
    return 0;
}

namespace {
constexpr std::array<std::string_view, 6> kDepNames{"POSIX_TIMER", "PERF_EVENTS", "SCHED",
                                                    "CLOCK_UNSTABLE", "RCU", "RCU_EXP"};
}

std::string_view tickDependencyName(uint32_t mask)
{
    if (mask == 0) return "NONE";
    for (size_t bit = 0; bit < kDepNames.size(); ++bit) {
        if (mask & (1u << bit)) return kDepNames[bit];
    }
    return "UNKNOWN";
}

uint32_t tickDependencyFromName(std::string_view name)
{
    for (size_t bit = 0; bit < kDepNames.size(); ++bit) {
        if (kDepNames[bit] == name) return 1u << bit;
    }
    return 0;
}

bool isTickDependencyName(std::string_view name)
{
    return name == "NONE" || tickDependencyFromName(name) != 0;
}

} // namespace tickscope
