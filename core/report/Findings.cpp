// SPDX-License-Identifier: GPL-3.0-or-later
#include "Findings.h"

#include "FindingText.h"
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

void push(Finding &f, int64_t ts, size_t keep)
{
    findingtext::note(f, ts, keep);
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
        findingtext::spuriousUser(user, afterPoll, exits, static_cast<double>(r.to - r.from) / 1e9, nohzFull,
                                  analysis.polling);
        out.push_back(std::move(user));
    }
    if (poll.count) {
        findingtext::spuriousPolling(poll, static_cast<double>(pollingNs(ev, c.task, r.from, r.to)) / 1e9,
                                     analysis.polling);
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
        findingtext::failedStops(x, b, c.cpu);
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
        findingtext::catchup(cu, maxIdle, behind, findingtext::releaseVersion(trace));
        out.push_back(std::move(cu));
    }

    Finding late{FindingKind::LateWakeup, c.cpu}, burst{FindingKind::WakeupBurst, c.cpu};
    uint64_t lateRt = 0, nonRt = 0, nonRtHard = 0, maxBurst = 0;
    const bool rt = findingtext::preemptRt(trace);
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
    const std::string hardCause = findingtext::hardCause(rt, nonRtHard, nonRt);
    if (late.count) {
        findingtext::lateWakeups(late, o.lateWakeupNs, lateRt, hardCause);
        out.push_back(std::move(late));
    }
    if (burst.count) {
        findingtext::bursts(burst, maxBurst, hardCause, late.count > 0);
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
    findingtext::lost(f, events);
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
    sortFindings(out);
    return out;
}

void sortFindings(std::vector<Finding> &findings)
{
    std::stable_sort(findings.begin(), findings.end(), [](const Finding &a, const Finding &b) {
        if (a.kind != b.kind) return a.kind < b.kind;
        if (a.count != b.count) return a.count > b.count;
        return a.cpu < b.cpu;
    });
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
