// SPDX-License-Identifier: GPL-3.0-or-later
#include "GroundTruth.h"

#include "analysis/TimerListPairing.h"
#include "util/JsonWriter.h"

#include <algorithm>
#include <cstdio>

namespace tickscope::sim {

namespace {
template <class T> void copyColumn(Column<T> &to, const Column<T> &from)
{
    to.clear();
    to.appendAll(from.data(), from.size());
}
} // namespace

GroundTruth &GroundTruth::operator=(const GroundTruth &o)
{
    if (this == &o) return *this;
    copyColumn(ticks, o.ticks);
    copyColumn(timers, o.timers);
    copyColumn(wakeups, o.wakeups);
    copyColumn(softirqs, o.softirqs);
    cyclic = o.cyclic;
    markerFrom = o.markerFrom;
    markerTo = o.markerTo;
    events = o.events;
    seconds = o.seconds;
    return *this;
}

std::vector<GroundTruth::CpuSummary> GroundTruth::summary(int cpus, int64_t from, int64_t to) const
{
    std::vector<CpuSummary> s(static_cast<size_t>(cpus));
    for (const GtTick &t : ticks) {
        if (t.ts < from || t.ts > to) continue;
        CpuSummary &c = s[static_cast<size_t>(t.cpu)];
        if (!t.periodic) {
            ++c.nohzWakeups;
            continue;
        }
        ++c.ticks;
        switch (t.context) {
        case TickContext::User:
            ++c.user;
            break;
        case TickContext::Kernel:
            ++c.kernel;
            break;
        case TickContext::Irq:
            ++c.irq;
            break;
        case TickContext::Idle:
            ++c.idle;
            break;
        case TickContext::Polling:
            ++c.polling;
            break;
        case TickContext::Unknown:
            break;
        }
        c.spurious += t.spurious;
    }
    for (const GtTimer &t : timers) {
        if (t.startTs < 0 || t.startTs < from || t.startTs > to) continue;
        CpuSummary &c = s[static_cast<size_t>(t.cpu)];
        ++c.timers;
        if (t.fireTs < 0) {
            ++c.lost;
            continue;
        }
        ++c.fired;
        const int64_t late = static_cast<int64_t>(t.fireJiffies) - static_cast<int64_t>(t.bucket);
        c.maxLateJiffies = std::max(c.maxLateJiffies, late);
        if (late > kTimerLateJiffies) ++c.late;
    }
    for (const GtSoftirq &q : softirqs) {
        if (q.entryTs < from || q.entryTs > to) continue;
        CpuSummary &c = s[static_cast<size_t>(q.cpu)];
        c.maxSoftirqNs = std::max(c.maxSoftirqNs, q.exitTs - q.entryTs);
        c.catchups += q.jiffiesWalked > 1 && q.exitTs - q.entryTs >= 50000;
    }
    return s;
}

std::string formatGroundTruthText(const GroundTruth &gt, int cpus, int64_t from, int64_t to)
{
    std::string out = "\nGround truth (as simulated)\n";
    out += "CPU   ticks    user  kernel     irq    idle polling  spurious  nohz wakeups   timers  fired  "
           "never fired  late  max late j  walk softirqs >=50us  max softirq µs\n";
    const auto s = gt.summary(cpus, from, to);
    char buf[512];
    for (int c = 0; c < cpus; ++c) {
        const auto &x = s[static_cast<size_t>(c)];
        std::snprintf(buf, sizeof buf,
                      "%3d  %6llu  %6llu  %6llu  %6llu  %6llu  %6llu  %8llu  %12llu  %7llu  %5llu  %11llu  "
                      "%4llu  %10lld  "
                      "%18llu  %14.1f\n",
                      c, (unsigned long long)x.ticks, (unsigned long long)x.user,
                      (unsigned long long)x.kernel, (unsigned long long)x.irq, (unsigned long long)x.idle,
                      (unsigned long long)x.polling, (unsigned long long)x.spurious,
                      (unsigned long long)x.nohzWakeups, (unsigned long long)x.timers,
                      (unsigned long long)x.fired, (unsigned long long)x.lost, (unsigned long long)x.late,
                      (long long)x.maxLateJiffies, (unsigned long long)x.catchups, x.maxSoftirqNs / 1000.0);
        out += buf;
    }
    for (const CyclicResult &r : gt.cyclic) {
        std::snprintf(buf, sizeof buf,
                      "cyclictest %s (pid %d, CPU %d) I:%lld C:%llu Min:%lld Avg:%lld Max:%lld µs\n",
                      r.name.c_str(), r.pid, r.cpu, (long long)(r.intervalNs / 1000),
                      (unsigned long long)r.cycles, (long long)(r.cycles ? r.minNs / 1000 : 0),
                      (long long)(r.avgNs() / 1000), (long long)(r.maxNs / 1000));
        out += buf;
    }
    std::snprintf(buf, sizeof buf, "simulated %llu events in %.3f s (%.1f M events/s)\n",
                  (unsigned long long)gt.events, gt.seconds,
                  gt.seconds > 0 ? gt.events / gt.seconds / 1e6 : 0.0);
    out += buf;
    return out;
}

std::string formatGroundTruthJson(const GroundTruth &gt, int cpus, int64_t from, int64_t to)
{
    JsonWriter j;
    j.beginObject();
    j.beginArray("cpus");
    const auto s = gt.summary(cpus, from, to);
    for (int c = 0; c < cpus; ++c) {
        const auto &x = s[static_cast<size_t>(c)];
        j.beginObject();
        j.value("cpu", c);
        j.beginObject("ticks");
        j.value("total", x.ticks).value("user", x.user).value("kernel", x.kernel).value("irq", x.irq);
        j.value("idle", x.idle).value("polling", x.polling).value("spurious", x.spurious);
        j.endObject();
        j.value("nohz_wakeups", x.nohzWakeups);
        j.beginObject("timers");
        j.value("started", x.timers)
            .value("fired", x.fired)
            .value("never_fired", x.lost)
            .value("late", x.late);
        j.value("max_late_jiffies", x.maxLateJiffies);
        j.endObject();
        j.value("catchups", x.catchups).value("max_timer_softirq_ns", x.maxSoftirqNs);
        j.endObject();
    }
    j.endArray();
    j.beginArray("cyclictest");
    for (const CyclicResult &r : gt.cyclic) {
        j.beginObject();
        j.value("name", r.name)
            .value("cpu", r.cpu)
            .value("interval_ns", r.intervalNs)
            .value("cycles", r.cycles);
        j.value("min_ns", r.cycles ? r.minNs : int64_t{0})
            .value("avg_ns", r.avgNs())
            .value("max_ns", r.maxNs);
        j.endObject();
    }
    j.endArray();
    j.value("events", gt.events).value("seconds", gt.seconds);
    j.endObject();
    return j.str();
}

} // namespace tickscope::sim
