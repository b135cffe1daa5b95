// SPDX-License-Identifier: GPL-3.0-or-later
#include "FindingText.h"

#include "TickReport.h"

#include "model/Trace.h"
#include "stats/TraceStats.h"
#include "util/Text.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace tickscope::findingtext {

namespace {

std::string us(int64_t ns)
{
    return usText(ns) + " µs";
}

// What each tick dependency means, for the failed-stop findings.
constexpr std::array<const char *, 6> kDependencyMeaning{"a POSIX CPU timer is armed on the CPU",
                                                         "a perf event needs the tick",
                                                         "more than one task is runnable on the CPU",
                                                         "the sched clock is not stable",
                                                         "RCU needs the CPU to report",
                                                         "an expedited RCU grace period is running"};

} // namespace

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

void note(Finding &f, int64_t ts, size_t keep)
{
    if (f.count == 1 || ts < f.first) f.first = ts;
    if (f.count == 1 || ts > f.last) f.last = ts;
    if (f.at.size() < keep) f.at.push_back(ts);
}

void lost(Finding &f, uint64_t events)
{
    f.what = textf("%" PRIu64 " lost-event range%s", f.count, f.count == 1 ? "" : "s");
    f.pattern = events ? textf("%" PRIu64 " events lost: counts near them are incomplete", events)
                       : std::string("the number lost is not known: counts near them are incomplete");
}

void spuriousUser(Finding &f, uint64_t afterPoll, uint64_t exits, double windowSeconds, bool nohzFull,
                  PollingKind polling)
{
    f.what = textf("%" PRIu64 " spurious tick%s in user mode", f.count, f.count == 1 ? "" : "s");
    if (afterPoll * 10 >= f.count * 8) {
        f.pattern =
            exits * 10 >= afterPoll * 8
                ? textf("one per wakeup from polling idle (%" PRIu64 " of them came after %" PRIu64
                        " polling-idle exits)",
                        afterPoll, exits)
                : textf("after wakeups from polling idle (%" PRIu64 " of %" PRIu64 ")", afterPoll, f.count);
        if (nohzFull && polling == PollingKind::IdlePoll)
            f.cause = "Known cause: the idle=poll tick restart on nohz_full: the polling idle loop "
                      "restarts the tick and never stops it, so each return to the task brings one "
                      "tick in user mode before the nohz_full path stops it again.";
    } else {
        f.pattern = textf("spread over the window, %.0f per second",
                          windowSeconds > 0 ? static_cast<double>(f.count) / windowSeconds : 0.0);
    }
}

void spuriousPolling(Finding &f, double s, PollingKind polling)
{
    f.what = textf("%" PRIu64 " spurious tick%s while polling idle", f.count, f.count == 1 ? "" : "s");
    f.pattern = textf("the tick keeps running in polling idle: %.0f per second of it (%.3f s polling)",
                      s > 0 ? static_cast<double>(f.count) / s : 0.0, s);
    if (polling == PollingKind::IdlePoll)
        f.cause = "Known cause: with idle=poll the idle loop polls with the tick running (it never "
                  "stops it), so a nohz_full CPU waiting for work ticks at HZ.";
}

void failedStops(Finding &f, size_t b, int cpu)
{
    f.kind = FindingKind::FailedStops;
    f.cpu = cpu;
    f.dependency = b < kDependencyNames.size() ? kDependencyNames[b] : "other";
    f.what =
        textf("%" PRIu64 " failed tick stop%s: %s", f.count, f.count == 1 ? "" : "s", f.dependency.c_str());
    f.pattern = b < kDependencyMeaning.size()
                    ? std::string("the tick stays on while ") + kDependencyMeaning[b]
                    : "a reason this kernel gave as text";
}

void catchup(Finding &f, int64_t maxIdle, int64_t behind, std::pair<int, int> release)
{
    f.what = textf("%" PRIu64 " catch-up TIMER softirq%s, the longest %s", f.count, f.count == 1 ? "" : "s",
                   us(f.worstNs).c_str());
    f.pattern = maxIdle > 0 ? textf("after up to %s s without a tick", formatSeconds(maxIdle).c_str())
                            : std::string("no tickless stretch before it in the trace (it may have begun "
                                          "before the trace did)");
    if (behind > 1) f.pattern += textf("; the wheel up to %" PRId64 " jiffies behind", behind);
    const auto [major, minor] = release;
    if (major > 0 && (major < 4 || (major == 4 && minor < 8)))
        f.cause = "Known cause: the timer wheel before 4.8 walks every jiffy it missed during a "
                  "tickless idle, one by one, in the first TIMER softirq after it (the legacy wheel "
                  "catch-up); this kernel is older than 4.8.";
}

std::string hardCause(bool rt, uint64_t nonRtHard, uint64_t nonRt)
{
    // Claimed when at least a tenth of the non-RT wakeups ran in hard interrupt context: a few at the
    // edges of lost or unpaired interrupt records are not the pattern.
    return rt && nonRtHard && nonRtHard * 10 >= nonRt
               ? textf("Known cause: on PREEMPT_RT the sleepers of "
                       "non-RT tasks should expire in soft interrupt "
                       "context (v5.4 on); here %" PRIu64 " of %" PRIu64
                       " non-RT wakeups ran in hard interrupt "
                       "context, where they delay the RT tasks.",
                       nonRtHard, nonRt)
               : std::string();
}

void lateWakeups(Finding &f, int64_t lateWakeupNs, uint64_t lateRt, const std::string &cause)
{
    f.what = textf("%" PRIu64 " hrtimer wakeup%s with latency ≥ %s (worst %s)", f.count,
                   f.count == 1 ? "" : "s", us(lateWakeupNs).c_str(), us(f.worstNs).c_str());
    const uint64_t others = f.count - lateRt;
    f.pattern =
        textf("%" PRIu64 " woke %s, %" PRIu64 " woke %s", lateRt, lateRt == 1 ? "an RT task" : "RT tasks",
              others, others == 1 ? "another task" : "other tasks");
    f.cause = cause;
}

void bursts(Finding &f, uint64_t maxBurst, const std::string &cause, bool anyLate)
{
    f.what = textf("%" PRIu64 " timer interrupt%s woke two or more sleepers at once (at most %" PRIu64 ")",
                   f.count, f.count == 1 ? "" : "s", maxBurst);
    f.pattern = "the wakeups of one interrupt run one after the other: the last waits for all";
    if (!anyLate) f.cause = cause;
}

} // namespace tickscope::findingtext
