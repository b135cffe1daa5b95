#include "Findings.h"

#include "TickReport.h"

#include "stats/TraceStats.h"
#include "util/JsonWriter.h"

#include <algorithm>
#include <bit>
#include <cinttypes>
#include <cstdio>

namespace tickscope {

namespace {

std::string fmt(const char *f, auto... args)
{
    char buf[512];
    std::snprintf(buf, sizeof buf, f, args...);
    return buf;
}

std::string us(int64_t ns)
{
    return fmt("%.1f µs", static_cast<double>(ns) / 1e3);
}

// What each tick dependency means, for the failed-stop findings.
constexpr std::array<const char *, 6> kDependencyMeaning{"a POSIX CPU timer is armed on the CPU",
                                                         "a perf event needs the tick",
                                                         "more than one task is runnable on the CPU",
                                                         "the sched clock is not stable",
                                                         "RCU needs the CPU to report",
                                                         "an expedited RCU grace period is running"};

// The kernel release's (major, minor), or (0, 0) when the trace does not say.
std::pair<int, int> releaseVersion(const Trace &trace)
{
    int major = 0, minor = 0;
    if (std::sscanf(trace.meta.kernelRelease.c_str(), "%d.%d", &major, &minor) != 2) return {0, 0};
    return {major, minor};
}

bool preemptRt(const Trace &trace)
{
    return trace.meta.uname.find("PREEMPT_RT") != std::string::npos ||
           trace.meta.kernelRelease.find("-rt") != std::string::npos;
}

// Notes an instance at `ts` (in time order) of finding f, whose count already includes it.
void push(Finding &f, int64_t ts, size_t keep)
{
    if (f.count == 1) f.first = ts;
    f.last = ts;
    if (f.at.size() < keep) f.at.push_back(ts);
}

// Time the task lane spent polling idle inside [from, to].
int64_t pollingNs(const CpuEvents &ev, const ChangeLane &lane, int64_t from, int64_t to)
{
    int64_t total = 0, start = 0;
    bool polling = false;
    lane.forEach([&](size_t i, uint8_t code) {
        const int64_t ts = ev.ts(i);
        if (polling) total += std::max<int64_t>(0, std::min(ts, to) - std::max(start, from));
        polling = StateCode::taskState(code) == TaskState::Poll;
        start = ts;
    });
    if (polling && ev.size())
        total += std::max<int64_t>(0, std::min(ev.ts(ev.size() - 1), to) - std::max(start, from));
    return total;
}

void spuriousFindings(const Trace &trace, const TickAnalysis &analysis, const TickReport &r,
                      const CpuAnalysis &c, size_t keep, std::vector<Finding> &out)
{
    const CpuEvents &ev = trace.cpu(c.cpu);
    Finding user{FindingKind::SpuriousUser, c.cpu}, poll{FindingKind::SpuriousPolling, c.cpu};
    uint64_t afterPoll = 0;
    size_t lastExit = ChangeLane::npos;
    uint64_t exits = 0; // distinct polling-idle exits followed by a spurious user tick
    for (const TickRecord &t : c.ticks) {
        const int64_t ts = ev.ts(t.index);
        if (ts < r.from || ts > r.to || !t.periodic() || !(t.flags & TickFlag::Spurious)) continue;
        if (t.context != TickContext::User) {
            ++poll.count;
            push(poll, ts, keep);
            continue;
        }
        ++user.count;
        push(user, ts, keep);
        const size_t ch = c.task.changeAt(t.index);
        if (ch == ChangeLane::npos) continue;
        // the idle stretch the task came back from: the last Poll/Idle change before this one
        size_t k = ch;
        int limit = 16;
        while (k != ChangeLane::npos && k > 0 && limit-- > 0) {
            const TaskState s = StateCode::taskState(c.task.code(k));
            if (s == TaskState::Poll || s == TaskState::Idle) break;
            --k;
        }
        if (StateCode::taskState(c.task.code(k)) == TaskState::Poll) {
            ++afterPoll;
            if (k != lastExit) ++exits;
            lastExit = k;
        }
    }
    const bool nohzFull = analysis.isNohzFull(c.cpu);
    if (user.count) {
        user.what = fmt("%" PRIu64 " spurious tick%s in user mode", user.count, user.count == 1 ? "" : "s");
        if (afterPoll * 10 >= user.count * 8) {
            user.pattern = exits * 10 >= afterPoll * 8
                               ? fmt("one per wakeup from polling idle (%" PRIu64
                                     " of them came after %" PRIu64 " polling-idle exits)",
                                     afterPoll, exits)
                               : fmt("after wakeups from polling idle (%" PRIu64 " of %" PRIu64 ")",
                                     afterPoll, user.count);
            if (nohzFull && analysis.polling == PollingKind::IdlePoll)
                user.cause = "Known cause: the idle=poll tick restart on nohz_full: the polling idle loop "
                             "restarts the tick and never stops it, so each return to the task brings one "
                             "tick in user mode before the nohz_full path stops it again.";
        } else {
            const double s = static_cast<double>(r.to - r.from) / 1e9;
            user.pattern = fmt("spread over the window, %.0f per second", s > 0 ? user.count / s : 0.0);
        }
        out.push_back(std::move(user));
    }
    if (poll.count) {
        poll.what =
            fmt("%" PRIu64 " spurious tick%s while polling idle", poll.count, poll.count == 1 ? "" : "s");
        const double s = static_cast<double>(pollingNs(ev, c.task, r.from, r.to)) / 1e9;
        poll.pattern = fmt("the tick keeps running in polling idle: %.0f per second of it (%.3f s polling)",
                           s > 0 ? static_cast<double>(poll.count) / s : 0.0, s);
        if (analysis.polling == PollingKind::IdlePoll)
            poll.cause = "Known cause: with idle=poll the idle loop polls with the tick running (it never "
                         "stops it), so a nohz_full CPU waiting for work ticks at HZ.";
        out.push_back(std::move(poll));
    }
}

void stopFindings(const Trace &trace, const TickReport &r, const CpuAnalysis &c, size_t keep,
                  std::vector<Finding> &out)
{
    const CpuEvents &ev = trace.cpu(c.cpu);
    std::array<Finding, 7> byDep;
    for (const FailedStop &f : c.failedStops) {
        const int64_t ts = ev.ts(f.index);
        if (ts < r.from || ts > r.to) continue;
        const int bit = f.dependency ? std::countr_zero(f.dependency) : 32; // as the report counts them
        Finding &x = byDep[std::min<size_t>(static_cast<size_t>(bit), 6)];
        ++x.count;
        push(x, ts, keep);
    }
    for (size_t b = 0; b < byDep.size(); ++b) {
        Finding &x = byDep[b];
        if (!x.count) continue;
        x.kind = FindingKind::FailedStops;
        x.cpu = c.cpu;
        x.dependency = b < kDependencyNames.size() ? kDependencyNames[b] : "other";
        x.what =
            fmt("%" PRIu64 " failed tick stop%s: %s", x.count, x.count == 1 ? "" : "s", x.dependency.c_str());
        x.pattern = b < kDependencyMeaning.size()
                        ? std::string("the tick stays on while ") + kDependencyMeaning[b]
                        : "a reason this kernel gave as text";
        out.push_back(std::move(x));
    }
}

void timerFindings(const Trace &trace, const TickReport &r, const CpuAnalysis &c, const FindingOptions &o,
                   std::vector<Finding> &out)
{
    const size_t keep = o.instances;
    const CpuEvents &ev = trace.cpu(c.cpu);
    const auto window = ev.indexRange(r.from, r.to);
    auto in = [&](uint32_t i) { return i >= window.first && i < window.second; };
    Finding cu{FindingKind::CatchupSoftirq, c.cpu};
    int64_t maxIdle = 0, behind = -1;
    for (const TimerSoftirq &s : c.timers.timerSoftirqs) {
        if (!in(s.entry) || !s.catchup) continue;
        ++cu.count;
        push(cu, ev.ts(s.entry), keep);
        cu.worstNs = std::max(cu.worstNs, s.durationNs);
        maxIdle = std::max(maxIdle, s.idleNs);
        behind = std::max({behind, s.jiffiesBehind, s.jiffiesSincePrev});
    }
    if (cu.count) {
        cu.what = fmt("%" PRIu64 " catch-up TIMER softirq%s, the longest %s", cu.count,
                      cu.count == 1 ? "" : "s", us(cu.worstNs).c_str());
        cu.pattern = maxIdle > 0
                         ? fmt("after up to %s s without a tick", formatSeconds(maxIdle).c_str())
                         : std::string("no tickless stretch before it in the trace (it may have begun "
                                       "before the trace did)");
        if (behind > 1) cu.pattern += fmt("; the wheel up to %" PRId64 " jiffies behind", behind);
        const auto [major, minor] = releaseVersion(trace);
        if (major > 0 && (major < 4 || (major == 4 && minor < 8)))
            cu.cause = "Known cause: the timer wheel before 4.8 walks every jiffy it missed during a "
                       "tickless idle, one by one, in the first TIMER softirq after it (the legacy wheel "
                       "catch-up); this kernel is older than 4.8.";
        out.push_back(std::move(cu));
    }

    Finding late{FindingKind::LateWakeup, c.cpu}, burst{FindingKind::WakeupBurst, c.cpu};
    uint64_t lateRt = 0, nonRt = 0, nonRtHard = 0, maxBurst = 0;
    const bool rt = preemptRt(trace);
    const auto &w = c.timers.wakeups;
    for (size_t k = 0; k < w.size(); ++k) {
        const HrtimerWakeup &x = w[k];
        if (!in(x.index)) continue;
        const bool isRt = (x.flags & WakeupFlag::PrioKnown) && (x.flags & WakeupFlag::Rt);
        if (rt && (x.flags & WakeupFlag::PrioKnown) && !isRt) {
            ++nonRt;
            nonRtHard +=
                (x.flags & (WakeupFlag::ContextKnown | WakeupFlag::Soft)) == WakeupFlag::ContextKnown;
        }
        if ((x.flags & WakeupFlag::TaskKnown) && x.latencyNs != kUnknownNs && x.latencyNs >= o.lateWakeupNs) {
            ++late.count;
            lateRt += isRt;
            push(late, ev.ts(x.index), keep);
            late.worstNs = std::max<int64_t>(late.worstNs, x.latencyNs);
        }
    }
    for (const WakeupBatch &b : c.timers.batches) {
        if (!in(b.first)) continue;
        ++burst.count;
        push(burst, ev.ts(b.first), keep);
        maxBurst = std::max<uint64_t>(maxBurst, b.count);
    }
    // Claimed when at least a tenth of the non-RT wakeups ran in hard interrupt context: a few at the
    // edges of lost or unpaired interrupt records are not the pattern.
    const std::string hardCause =
        rt && nonRtHard && nonRtHard * 10 >= nonRt
            ? fmt("Known cause: on PREEMPT_RT the sleepers of non-RT tasks should expire in soft interrupt "
                  "context (v5.4 on); here %" PRIu64 " of %" PRIu64 " non-RT wakeups ran in hard interrupt "
                  "context, where they delay the RT tasks.",
                  nonRtHard, nonRt)
            : std::string();
    if (late.count) {
        late.what = fmt("%" PRIu64 " hrtimer wakeup%s with latency ≥ %s (worst %s)", late.count,
                        late.count == 1 ? "" : "s", us(o.lateWakeupNs).c_str(), us(late.worstNs).c_str());
        late.pattern = fmt("%" PRIu64 " woke RT tasks, %" PRIu64 " others", lateRt, late.count - lateRt);
        late.cause = hardCause;
        out.push_back(std::move(late));
    }
    if (burst.count) {
        burst.what =
            fmt("%" PRIu64 " timer interrupt%s woke two or more sleepers at once (at most %" PRIu64 ")",
                burst.count, burst.count == 1 ? "" : "s", maxBurst);
        burst.pattern = "the wakeups of one interrupt run one after the other: the last waits for all";
        if (late.count == 0) burst.cause = hardCause;
        out.push_back(std::move(burst));
    }
}

void lostFindings(const Trace &trace, const TickReport &r, int cpu, size_t keep, std::vector<Finding> &out)
{
    Finding f{FindingKind::LostEvents, cpu};
    uint64_t events = 0;
    for (const LostRange &l : trace.cpu(cpu).lost) {
        if (l.to < r.from || l.from > r.to) continue;
        ++f.count;
        events += l.count;
        push(f, l.from, keep);
    }
    if (!f.count) return;
    f.what = fmt("%" PRIu64 " lost-event range%s", f.count, f.count == 1 ? "" : "s");
    f.pattern = events ? fmt("%" PRIu64 " events lost: counts near them are incomplete", events)
                       : std::string("the number lost is not known: counts near them are incomplete");
    out.push_back(std::move(f));
}

} // namespace

std::string_view findingKindName(FindingKind k)
{
    switch (k) {
    case FindingKind::LostEvents:
        return "lost_events";
    case FindingKind::SpuriousUser:
        return "spurious_user";
    case FindingKind::CatchupSoftirq:
        return "catchup_softirq";
    case FindingKind::LateWakeup:
        return "late_wakeup";
    case FindingKind::SpuriousPolling:
        return "spurious_polling";
    case FindingKind::FailedStops:
        return "failed_stops";
    case FindingKind::WakeupBurst:
        return "wakeup_burst";
    }
    return "?";
}

std::vector<Finding> findFindings(const Trace &trace, const TickAnalysis &analysis, const TickReport &report,
                                  const FindingOptions &options)
{
    std::vector<Finding> out;
    for (const CpuReport &cr : report.cpus) {
        if (cr.cpu < 0 || static_cast<size_t>(cr.cpu) >= analysis.cpus.size()) continue;
        const CpuAnalysis &c = analysis.cpus[static_cast<size_t>(cr.cpu)];
        lostFindings(trace, report, cr.cpu, options.instances, out);
        spuriousFindings(trace, analysis, report, c, options.instances, out);
        stopFindings(trace, report, c, options.instances, out);
        timerFindings(trace, report, c, options, out);
    }
    std::stable_sort(out.begin(), out.end(), [](const Finding &a, const Finding &b) {
        if (a.kind != b.kind) return a.kind < b.kind;
        if (a.count != b.count) return a.count > b.count;
        return a.cpu < b.cpu;
    });
    return out;
}

void appendFindingsText(std::string &out, const std::vector<Finding> &findings)
{
    out += "\nfindings (worst first):\n";
    if (findings.empty()) out += "  none\n";
    for (size_t i = 0; i < findings.size(); ++i) {
        const Finding &f = findings[i];
        out += fmt("%2zu. CPU %d: %s", i + 1, f.cpu, f.what.c_str());
        if (f.count) out += fmt(", first at %s s", formatSeconds(f.first).c_str());
        out += "\n";
        if (!f.pattern.empty()) out += "    " + f.pattern + "\n";
        if (!f.cause.empty()) out += "    " + f.cause + "\n";
    }
}

void findingsJson(JsonWriter &j, const std::vector<Finding> &findings)
{
    j.beginArray("findings");
    for (const Finding &f : findings) {
        j.beginObject().value("kind", findingKindName(f.kind)).value("cpu", f.cpu).value("count", f.count);
        j.value("what", f.what).value("pattern", f.pattern).value("cause", f.cause);
        if (!f.dependency.empty()) j.value("dependency", f.dependency);
        if (f.worstNs) j.value("worst_ns", f.worstNs);
        if (f.count) j.value("first_ns", f.first).value("last_ns", f.last);
        j.endObject();
    }
    j.endArray();
}

} // namespace tickscope
