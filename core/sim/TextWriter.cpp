#include "TextWriter.h"

#include "import/Loader.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <queue>
#include <string>

namespace tickscope::sim {
namespace {

std::string modeText(uint8_t m)
{
    std::string s = (m & 1) ? "REL" : "ABS";
    if (m & 2) s += "|PINNED";
    if (m & 4) s += "|SOFT";
    if (m & 8) s += "|HARD";
    return s;
}

std::string stateText(uint16_t st)
{
    static constexpr const char *kLetters = "SDTtXZPI";
    std::string s;
    for (int b = 0; b < 8; ++b) {
        if (st & (1u << b)) s += (s.empty() ? "" : "|") + std::string(1, kLetters[b]);
    }
    if (s.empty()) s = "R";
    if (st & 0x100) s += "+";
    return s;
}

const char *softirqName(unsigned v)
{
    static constexpr const char *kNames[] = {"HI",       "TIMER",   "NET_TX", "NET_RX",  "BLOCK",
                                             "IRQ_POLL", "TASKLET", "SCHED",  "HRTIMER", "RCU"};
    return v < 10 ? kNames[v] : "?";
}

const char *depName(uint32_t m)
{
    static constexpr const char *kNames[] = {"POSIX_TIMER",    "PERF_EVENTS", "SCHED",
                                             "CLOCK_UNSTABLE", "RCU",         "RCU_EXP"};
    for (int b = 0; b < 6; ++b) {
        if (m & (1u << b)) return kNames[b];
    }
    return "NONE";
}

class Writer
{
public:
    Writer(const Trace &t, FILE *f) : t_(t), f_(f) {}

    void event(int cpu, size_t i)
    {
        const CpuEvents &ev = t_.cpu(cpu);
        const int32_t pid = ev.pid(i);
        const int64_t ts = ev.ts(i);
        std::string comm = pid == 0 ? "<idle>" : std::string(t_.strings.str(t_.tasks.comm(pid, ts)));
        if (comm.empty()) comm = "<...>";
        const uint8_t fl = ev.flags(i);
        const char resched = (fl & 0x24) == 0x24 ? 'N' : (fl & 0x04) ? 'n' : (fl & 0x20) ? 'p' : '.';
        const char flags[6] = {
            (fl & 0x01) ? 'd' : '.',
            resched,
            (fl & 0x08)   ? 'h'
            : (fl & 0x10) ? 's'
                          : '.',
            "0123456789abcdef"[ev.preempt(i) & 15] == '0' ? '.' : "0123456789abcdef"[ev.preempt(i) & 15],
            '.',
            0};
        const EventType &type = t_.types()[ev.type(i)];
        std::fprintf(f_, "%16s-%-7d [%03d] %s %5" PRId64 ".%09" PRId64 ": %s: ", comm.c_str(), pid, cpu,
                     flags, ts / 1000000000, ts % 1000000000,
                     type.kind == EventKind::Print ? "tracing_mark_write" : type.name.c_str());
        fields(ev, i, type.kind, ts);
        std::fputc('\n', f_);
    }

private:
    std::string_view str(uint32_t id) const { return t_.strings.str(id); }
    std::string comm(int32_t pid, int64_t ts) const
    {
        const std::string_view c = str(t_.tasks.comm(pid, ts));
        return c.empty() ? "<...>" : std::string(c);
    }

    void fields(const CpuEvents &ev, size_t i, EventKind k, int64_t ts)
    {
        FILE *f = f_;
        switch (k) {
        case EventKind::HrtimerStart: {
            const auto p = ev.payload<HrtimerStartP>(i);
            std::fprintf(f,
                         "hrtimer=%016" PRIx64 " function=%s expires=%" PRId64 " softexpires=%" PRId64
                         " mode=%s was_armed=%d",
                         p.timer, std::string(str(p.function)).c_str(), p.expires, p.softexpires,
                         modeText(p.mode).c_str(), p.wasArmed);
            break;
        }
        case EventKind::HrtimerCancel:
        case EventKind::HrtimerExpireExit:
            std::fprintf(f, "hrtimer=%016" PRIx64, ev.payload<PtrP>(i).ptr);
            break;
        case EventKind::HrtimerExpireEntry: {
            const auto p = ev.payload<HrtimerExpireEntryP>(i);
            std::fprintf(f, "hrtimer=%016" PRIx64 " function=%s now=%" PRId64, p.timer,
                         std::string(str(p.function)).c_str(), p.now);
            break;
        }
        case EventKind::TimerStart: {
            const auto p = ev.payload<TimerStartP>(i);
            std::fprintf(f,
                         "timer=%016" PRIx64 " function=%s expires=%" PRIu64 " [timeout=%" PRId64
                         "] bucket_expiry=%" PRIu64 " cpu=%u idx=%u flags=%s",
                         p.timer, std::string(str(p.function)).c_str(), p.expires,
                         static_cast<int64_t>(p.expires - p.now), p.bucketExpiry, p.flags & 0x3ffff,
                         p.flags >> 22, (p.flags & 0x100000) ? "P" : "");
            break;
        }
        case EventKind::TimerExpireEntry: {
            const auto p = ev.payload<TimerExpireEntryP>(i);
            std::fprintf(f, "timer=%016" PRIx64 " function=%s now=%" PRIu64 " baseclk=%" PRIu64, p.timer,
                         std::string(str(p.function)).c_str(), p.now, p.baseclk);
            break;
        }
        case EventKind::TimerExpireExit:
        case EventKind::TimerCancel:
            std::fprintf(f, "timer=%016" PRIx64, ev.payload<PtrP>(i).ptr);
            break;
        case EventKind::TimerBaseIdle: {
            const auto p = ev.payload<TimerBaseIdleP>(i);
            std::fprintf(f, "is_idle=%u cpu=%u", p.isIdle, p.cpu);
            break;
        }
        case EventKind::TickStop: {
            const auto p = ev.payload<TickStopP>(i);
            std::fprintf(f, "success=%d dependency=%s", p.success, depName(p.dependency));
            break;
        }
        case EventKind::CpuIdle: {
            const auto p = ev.payload<CpuIdleP>(i);
            std::fprintf(f, "state=%u cpu_id=%u", p.state, p.cpu);
            break;
        }
        case EventKind::SoftirqRaise:
        case EventKind::SoftirqEntry:
        case EventKind::SoftirqExit: {
            const unsigned v = ev.payload<SoftirqP>(i).vec;
            std::fprintf(f, "vec=%u [action=%s]", v, softirqName(v));
            break;
        }
        case EventKind::IrqHandlerEntry: {
            const auto p = ev.payload<IrqEntryP>(i);
            std::fprintf(f, "irq=%d name=%s", p.irq, std::string(str(p.name)).c_str());
            break;
        }
        case EventKind::IrqHandlerExit: {
            const auto p = ev.payload<IrqExitP>(i);
            std::fprintf(f, "irq=%d ret=%s", p.irq, p.ret ? "handled" : "unhandled");
            break;
        }
        case EventKind::LocalTimerEntry:
        case EventKind::LocalTimerExit:
        case EventKind::VectorEntry:
        case EventKind::VectorExit:
            std::fprintf(f, "vector=%d", ev.payload<VectorP>(i).vector);
            break;
        case EventKind::SchedSwitch: {
            const auto p = ev.payload<SchedSwitchP>(i);
            std::fprintf(f,
                         "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d "
                         "next_prio=%d",
                         comm(p.prevPid, ts).c_str(), p.prevPid, p.prevPrio, stateText(p.prevState).c_str(),
                         comm(p.nextPid, ts).c_str(), p.nextPid, p.nextPrio);
            break;
        }
        case EventKind::SchedWaking:
        case EventKind::SchedWakeup: {
            const auto p = ev.payload<SchedWakeP>(i);
            std::fprintf(f, "comm=%s pid=%d prio=%d target_cpu=%03d", comm(p.pid, ts).c_str(), p.pid, p.prio,
                         p.targetCpu);
            break;
        }
        case EventKind::SysEnter:
            std::fprintf(f, "NR %d (0, 0, 0, 0, 0, 0)", ev.payload<SyscallP>(i).id);
            break;
        case EventKind::SysExit:
            std::fprintf(f, "NR %d = 0", ev.payload<SyscallP>(i).id);
            break;
        case EventKind::Print:
            std::fprintf(f, "%s", std::string(str(ev.payload<TextP>(i).text)).c_str());
            break;
        default: // user_enter / user_exit print their dummy field
            std::fprintf(f, "dummy=0");
            break;
        }
    }

    const Trace &t_;
    FILE *f_;
};

} // namespace

void writeFtraceText(const Trace &trace, const std::string &path)
{
    FILE *f = std::fopen(path.c_str(), "w");
    if (!f) throw LoadError(path + ": " + std::strerror(errno));
    std::fprintf(f, "# tracer: nop\n#\n# entries-in-buffer/entries-written: %zu/%zu   #P:%d\n#\n",
                 trace.eventCount(), trace.eventCount(), trace.cpuCount());
    // Merge the CPUs by time, as the tracefs `trace` file does.
    struct Head
    {
        int64_t ts;
        int cpu;
        size_t i;
        bool operator>(const Head &o) const { return ts != o.ts ? ts > o.ts : cpu > o.cpu; }
    };
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heap;
    for (int c = 0; c < trace.cpuCount(); ++c) {
        if (!trace.cpu(c).empty()) heap.push({trace.cpu(c).ts(0), c, 0});
    }
    Writer w(trace, f);
    while (!heap.empty()) {
        const Head h = heap.top();
        heap.pop();
        w.event(h.cpu, h.i);
        if (h.i + 1 < trace.cpu(h.cpu).size()) heap.push({trace.cpu(h.cpu).ts(h.i + 1), h.cpu, h.i + 1});
    }
    const bool ok = std::fflush(f) == 0 && !std::ferror(f);
    std::fclose(f);
    if (!ok) throw LoadError(path + ": write failed");
}

} // namespace tickscope::sim
