// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimerListPairing.h"

#include "SameTimeOrder.h"

#include <algorithm>
#include <unordered_map>

namespace tickscope {

std::vector<TimerListCpu> pairTimerList(const Trace &trace, int64_t from, int64_t to)
{
    struct Rec
    {
        int64_t ts;
        int cpu;
        uint32_t index;
        EventKind kind;
        bool afterStart; // a start, or after a start of its CPU at its time
    };
    // In time order; at one time, the expiries and cancels of every CPU before the starts (a text trace's
    // microseconds: a timer started on one CPU does not fire elsewhere in that microsecond, but may be
    // re-armed there right after it fired), but a CPU's own records stay in event order.
    std::vector<Rec> recs;
    for (int c = 0; c < trace.cpuCount(); ++c) {
        const CpuEvents &ev = trace.cpu(c);
        AfterAtTime afterStart; // starts go second
        for (size_t i = 0; i < ev.size(); ++i) {
            const EventKind k = trace.kind(ev.type(i));
            if (k != EventKind::TimerStart && k != EventKind::TimerExpireEntry && k != EventKind::TimerCancel)
                continue;
            recs.push_back(
                {ev.ts(i), c, static_cast<uint32_t>(i), k, afterStart(ev.ts(i), k == EventKind::TimerStart)});
        }
    }
    std::sort(recs.begin(), recs.end(), [](const Rec &a, const Rec &b) {
        if (a.ts != b.ts) return a.ts < b.ts;
        if (a.afterStart != b.afterStart) return b.afterStart;
        if (a.cpu != b.cpu) return a.cpu < b.cpu;
        return a.index < b.index;
    });
    struct Open
    {
        int cpu;
        uint64_t bucket;
        bool counted;
    };
    std::unordered_map<uint64_t, Open> open;
    std::vector<TimerListCpu> out(static_cast<size_t>(trace.cpuCount()));
    for (const Rec &r : recs) {
        const CpuEvents &ev = trace.cpu(r.cpu);
        if (r.kind == EventKind::TimerStart) {
            const auto p = ev.payload<TimerStartP>(r.index);
            const bool counted = r.ts >= from && r.ts <= to;
            if (counted) ++out[static_cast<size_t>(r.cpu)].started;
            open[p.timer] = {r.cpu, p.bucketExpiry, counted};
            continue;
        }
        const uint64_t ptr = r.kind == EventKind::TimerCancel ? ev.payload<PtrP>(r.index).ptr
                                                              : ev.payload<TimerExpireEntryP>(r.index).timer;
        const auto it = open.find(ptr);
        if (it == open.end()) continue;
        const Open o = it->second;
        open.erase(it);
        if (!o.counted) continue;
        TimerListCpu &c = out[static_cast<size_t>(o.cpu)];
        if (r.kind == EventKind::TimerCancel) {
            ++c.cancelled;
            continue;
        }
        ++c.fired;
        const int64_t late =
            static_cast<int64_t>(ev.payload<TimerExpireEntryP>(r.index).now) - static_cast<int64_t>(o.bucket);
        c.maxLateJiffies = std::max(c.maxLateJiffies, late);
        if (late > kTimerLateJiffies) ++c.late;
    }
    for (const auto &[ptr, o] : open) {
        if (o.counted) ++out[static_cast<size_t>(o.cpu)].neverFired;
    }
    return out;
}

} // namespace tickscope
