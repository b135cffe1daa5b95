// SPDX-License-Identifier: GPL-3.0-or-later
#include "WakeupLatency.h"

#include "util/Parallel.h"

#include <algorithm>
#include <span>
#include <unordered_set>
#include <vector>

namespace tickscope {

namespace {

constexpr size_t kMaxScanSwitches = 1u << 14; // how far after a wakeup its switch-in is looked for
// and at most this long after it: a later switch-in most likely belongs to a later wakeup (the task was
// already running when this one came), so the latency is reported unknown rather than wrong.
constexpr int64_t kMaxLatencyNs = kMaxWakeupLatencyNs;

// A CPU's switch records with their events' times and kinds; in a trace read in parts the first record
// still read may have lost its event (`live`: its time and kind kept aside).
struct SwitchTimes
{
    const Trace &trace;
    const CpuEvents &ev;
    const SwitchRecords &sw;
    const LiveSwitch *live = nullptr;
    int64_t ts(size_t k) const { return live && k == live->record ? live->ts : ev.ts(sw[k].index); }
    bool shown(size_t k) const
    {
        return live && k == live->record ? live->shown
                                         : trace.kind(ev.type(sw[k].index)) == EventKind::SchedSwitch;
    }
};

// The first switch with ts >= t at or after `hint` (hints only move forward: wakeups come in time order).
size_t seekSwitch(const SwitchTimes &st, size_t hint, int64_t t)
{
    return gallop(st.sw.size(), hint, [&](size_t k) { return st.ts(k) < t; });
}

// The first switch-in of pid from switch `k` on: its ts, and whether the trace showed it (a pid change
// without sched_switch says the task ran by then, not when it was switched in). ts -1: none within the
// limits.
struct SwitchIn
{
    int64_t ts = -1;
    bool shown = false;
    int cpu = -1;
};
SwitchIn findSwitchIn(const SwitchTimes &st, size_t k, int32_t pid, int64_t from)
{
    const size_t end = std::min(st.sw.size(), k + kMaxScanSwitches);
    for (; k < end; ++k) {
        if (st.sw[k].nextPid != pid) continue;
        const int64_t ts = st.ts(k);
        if (ts - from > kMaxLatencyNs) return {};
        return {ts, st.shown(k), -1};
    }
    return {};
}

// Every CPU's lost-event ranges as one sorted list of disjoint spans: a woken task may have been switched
// in on any CPU, so a switch-in lost anywhere may be the one that ended the wait. A CPU whose data opens
// with lost events (a buffer overwritten) counts as dark from the start of time to its first event.
class LostAnywhere
{
public:
    // Only the ranges that end after `after` (the earliest wakeup to be measured) are kept.
    LostAnywhere(const Trace &trace, int64_t after)
    {
        for (int c = 0; c < trace.cpuCount(); ++c) {
            const CpuEvents &ev = trace.cpu(c);
            auto it = std::upper_bound(ev.lost.begin(), ev.lost.end(), after,
                                       [](int64_t t, const LostRange &r) { return t < r.to; });
            for (; it != ev.lost.end(); ++it)
                if (const auto span = ev.darkSpan(static_cast<size_t>(it - ev.lost.begin())))
                    spans_.push_back(*span);
        }
        std::sort(spans_.begin(), spans_.end());
        size_t out = 0; // merge the overlapping ones: their ends then ascend with their starts
        for (const auto &sp : spans_) {
            if (out > 0 && sp.first < spans_[out - 1].second)
                spans_[out - 1].second = std::max(spans_[out - 1].second, sp.second);
            else
                spans_[out++] = sp;
        }
        spans_.resize(out);
    }
    // Some CPU lost events between times a and b (a span ends after a and begins before b).
    bool between(int64_t a, int64_t b) const
    {
        auto it =
            std::upper_bound(spans_.begin(), spans_.end(), a,
                             [](int64_t t, const std::pair<int64_t, int64_t> &sp) { return t < sp.second; });
        return it != spans_.end() && it->first < b;
    }

private:
    std::vector<std::pair<int64_t, int64_t>> spans_;
};

// The CPUs each task was switched in on, from their switch records (a stream's from the first one still
// read): a woken task can only be running, or be switched in, on those. Searching only them keeps the cost
// of a wakeup from growing with the number of CPUs (on a 128-CPU server's trace, one search per CPU per
// wakeup was most of the step's time, each a cache miss into another CPU's records).
class SwitchedInOn
{
public:
    SwitchedInOn(const std::vector<CpuAnalysis> &cpus, const std::vector<int> &switching,
                 const std::vector<LiveSwitch> *live, int threads)
    {
        std::vector<std::vector<int32_t>> pids(switching.size());
        parallelFor(switching.size(), threads, [&](size_t j) {
            const auto c = static_cast<size_t>(switching[j]);
            const SwitchRecords &sw = cpus[c].timers.switches;
            std::unordered_set<int32_t> seen;
            int32_t last = INT32_MIN;
            for (size_t k = live ? (*live)[c].record : 0; k < sw.size(); ++k) {
                if (sw[k].nextPid == last) continue;
                last = sw[k].nextPid;
                seen.insert(last);
            }
            pids[j].assign(seen.begin(), seen.end());
        });
        for (size_t j = 0; j < switching.size(); ++j)
            for (const int32_t pid : pids[j])
                pairs_.push_back({pid, switching[j]});
        std::sort(pairs_.begin(), pairs_.end()); // by pid, then in ascending CPU order as `switching`
    }
    // The CPUs pid was switched in on, ascending.
    std::span<const std::pair<int32_t, int>> of(int32_t pid) const
    {
        const auto [lo, hi] =
            std::equal_range(pairs_.begin(), pairs_.end(), std::pair<int32_t, int>{pid, 0},
                             [](const auto &a, const auto &b) { return a.first < b.first; });
        return {lo, hi};
    }

private:
    std::vector<std::pair<int32_t, int>> pairs_;
};

} // namespace

WakeTarget wokenBy(const Trace &trace, const CpuEvents &ev, const HrtimerWakeup &w)
{
    CpuEvents::OffsetWalker walk(ev);
    return wokenBy(trace, ev, w, walk);
}

namespace {

// Where wokenBy's scan after the naming event stops: the expiry's end (for a soft expiry, its own task's
// next expiry event), else at most this many events after the naming one.
constexpr size_t kMaxInside = kWokenByEvents;
bool endsExpiry(EventKind k, const CpuEvents &ev, size_t i, bool soft, int32_t expiring)
{
    return (k == EventKind::HrtimerExpireExit || k == EventKind::HrtimerExpireEntry) &&
           (!soft || ev.pid(i) == expiring);
}

} // namespace

bool wokenByFinal(const Trace &trace, const CpuEvents &ev, const HrtimerWakeup &w)
{
    if (!(w.flags & WakeupFlag::TaskKnown)) return true;
    const size_t named = size_t{w.index} + w.wakeOffset;
    if (ev.size() >= named + kMaxInside) return true;
    const bool soft = w.flags & WakeupFlag::Soft;
    const int32_t expiring = soft ? ev.pid(w.index) : -1;
    for (size_t i = named + 1; i < ev.size(); ++i)
        if (endsExpiry(trace.kind(ev.type(i)), ev, i, soft, expiring)) return true;
    return false;
}

WakeTarget wokenBy(const Trace &trace, const CpuEvents &ev, const HrtimerWakeup &w,
                   CpuEvents::OffsetWalker &walk)
{
    WakeTarget t;
    if (!(w.flags & WakeupFlag::TaskKnown)) return t;
    const size_t named = size_t{w.index} + w.wakeOffset;
    const auto p = walk.payload<SchedWakeP>(named);
    t.onWake(p.pid, p.prio, p.targetCpu, trace.kind(ev.type(named)) == EventKind::SchedWakeup);
    // A soft expiry's task can be preempted (PREEMPT_RT) and other tasks' expiries run before its exit;
    // a hard one ends at the next expiry event.
    const bool soft = w.flags & WakeupFlag::Soft;
    const int32_t expiring = soft ? ev.pid(w.index) : -1;
    const size_t end = std::min(ev.size(), named + kMaxInside);
    for (size_t i = named + 1; i < end; ++i) {
        const EventKind k = trace.kind(ev.type(i));
        if (endsExpiry(k, ev, i, soft, expiring)) return t;
        if (k == EventKind::SchedWakeup) {
            const auto q = walk.payload<SchedWakeP>(i);
            t.onWake(q.pid, q.prio, q.targetCpu, true);
        } else if (k == EventKind::SchedMigrateTask) {
            const auto q = walk.payload<SchedMigrateP>(i);
            t.onMigrate(q.pid, q.destCpu);
        }
    }
    return t;
}

namespace {

// The latency of CPU k's wakeups [from, to).
// lost: every CPU's gaps; dark: the earliest time after which some CPU lost events that its next page, not
// read yet, will tell (INT64_MAX: none).
void measureCpu(const Trace &trace, std::vector<CpuAnalysis> &cpus, size_t k, size_t from, size_t to,
                const std::vector<int> &switching, const SwitchedInOn &on,
                const std::vector<LiveSwitch> *live, const LostAnywhere &lost, int64_t dark)
{
    const int n = trace.cpuCount();
    CpuAnalysis &a = cpus[k];
    // Per-CPU search hints below are n long: a CPU without wakeups must not pay n (a text trace
    // naming CPU 7000 has 7001 CPUs, nearly all empty, and n x n hints were 0.8 GB of zeroing).
    if (from >= to) return;
    const CpuEvents &own = trace.cpu(a.cpu);
    auto first = [&](int c) { return live ? (*live)[static_cast<size_t>(c)].record : 0; };
    auto times = [&](int c) {
        return SwitchTimes{trace, trace.cpu(c), cpus[static_cast<size_t>(c)].timers.switches,
                           live ? &(*live)[static_cast<size_t>(c)] : nullptr};
    };
    std::vector<size_t> hint(static_cast<size_t>(n), 0);
    for (int c : switching)
        hint[static_cast<size_t>(c)] = first(c);
    auto find = [&](int c, const HrtimerWakeup &w, int32_t pid, int64_t t0) {
        const SwitchTimes st = times(c);
        size_t &h = hint[static_cast<size_t>(c)];
        h = c == a.cpu ? firstRecordNear(st.sw, w.index, h) : seekSwitch(st, h, t0); // (w's index grows)
        SwitchIn s = findSwitchIn(st, h, pid, t0);
        s.cpu = c;
        return s;
    };
    std::vector<size_t> atT0 = hint;
    // Whether pid is the current task of some CPU at the wakeup w (at t0), per the last switch-in before
    // it: on w's CPU in event order; elsewhere before t0 (a text trace's microseconds: a switch-in
    // elsewhere in the wakeup's microsecond followed it, as the wakeup shows the task asleep).
    auto runningAt = [&](int32_t pid, const HrtimerWakeup &w, int64_t t0) {
        for (const auto &[p, c] : on.of(pid)) {
            const SwitchTimes st = times(c);
            size_t &h = atT0[static_cast<size_t>(c)];
            h = c == a.cpu ? firstRecordNear(st.sw, w.index, h) : seekSwitch(st, h, t0);
            if (h > 0 && st.sw[h - 1].nextPid == pid) return true;
        }
        return false;
    };
    CpuEvents::OffsetWalker walk(own); // the wakeups are in event order
    for (size_t j = from; j < to; ++j) {
        HrtimerWakeup &w = a.timers.wakeups[j];
        const WakeTarget target = wokenBy(trace, own, w, walk);
        if (target.pid <= 0) continue;
        const int64_t t0 = own.ts(w.index);
        // Woken while still running (it had not scheduled out yet): no switch-in follows this
        // wakeup, and the next one belongs to a later sleep. Its latency is unknown, not huge.
        if (runningAt(target.pid, w, t0)) continue;
        const int to = target.cpu >= 0 && target.cpu < n ? target.cpu : a.cpu;
        SwitchIn first = find(to, w, target.pid, t0);
        if (first.ts < 0) { // migrated before it ran: the earliest switch-in elsewhere
            for (const auto &[p, c] : on.of(target.pid)) {
                if (c == to) continue;
                const SwitchIn s = find(c, w, target.pid, t0);
                if (s.ts >= 0 && (first.ts < 0 || s.ts < first.ts)) first = s;
            }
        }
        if (first.ts < 0) continue;
        // Some CPU lost events between the wakeup and that switch-in: the switch-in that ended the wait
        // may be among them (on the target CPU, or on another one the task was pulled to), and the one
        // found belong to a later wakeup. Unknown, not long. (A stream that has not read the page after a
        // gap yet knows it began.)
        if (dark < first.ts || lost.between(t0, first.ts)) continue;
        // A switch-in the trace shows gives the latency; the task's first event after a switch the
        // trace does not show only bounds it from above.
        w.latencyNs = saturateNsBetween(t0, first.ts);
        if (!first.shown) w.flags |= WakeupFlag::LatencyBound;
    }
}

// The CPUs with any switch: the only ones a woken task can be switched in on or running on.
std::vector<int> switchingCpus(const std::vector<CpuAnalysis> &cpus)
{
    std::vector<int> switching;
    for (const CpuAnalysis &c : cpus)
        if (!c.timers.switches.empty()) switching.push_back(c.cpu);
    return switching;
}

} // namespace

void measureWakeupLatency(const Trace &trace, std::vector<CpuAnalysis> &cpus, int threads, size_t partWakeups)
{
    const std::vector<int> switching = switchingCpus(cpus);
    const SwitchedInOn on(cpus, switching, nullptr, threads);
    const LostAnywhere lost(trace, INT64_MIN);
    // Each wakeup is measured on its own (the search hints only save time), so a busy CPU's wakeups are
    // cut into pieces, spread over every core.
    const size_t part = partWakeups ? partWakeups : size_t{1} << 15;
    struct Piece
    {
        size_t k, from, to;
    };
    std::vector<Piece> pieces;
    for (size_t k = 0; k < cpus.size(); ++k)
        for (size_t j = 0; j < cpus[k].timers.wakeups.size(); j += part)
            pieces.push_back({k, j, std::min(j + part, cpus[k].timers.wakeups.size())});
    parallelFor(pieces.size(), threads, [&](size_t p) {
        measureCpu(trace, cpus, pieces[p].k, pieces[p].from, pieces[p].to, switching, on, nullptr, lost,
                   INT64_MAX);
    });
}

void measureWakeupLatency(const Trace &trace, std::vector<CpuAnalysis> &cpus, int threads,
                          const std::vector<std::pair<size_t, size_t>> &ranges,
                          const std::vector<LiveSwitch> &live, int64_t darkFrom)
{
    const std::vector<int> switching = switchingCpus(cpus);
    int64_t earliest = INT64_MAX; // the earliest wakeup measured: gaps that ended before it do not matter
    for (size_t k = 0; k < cpus.size(); ++k) {
        if (ranges[k].first < ranges[k].second)
            earliest =
                std::min(earliest, trace.cpu(cpus[k].cpu).ts(cpus[k].timers.wakeups[ranges[k].first].index));
    }
    if (earliest == INT64_MAX) return;
    const LostAnywhere lost(trace, earliest);
    const SwitchedInOn on(cpus, switching, &live, threads);
    parallelFor(cpus.size(), threads, [&](size_t k) {
        measureCpu(trace, cpus, k, ranges[k].first, ranges[k].second, switching, on, &live, lost, darkFrom);
    });
}

} // namespace tickscope
