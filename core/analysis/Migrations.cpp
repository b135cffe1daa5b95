#include "Migrations.h"

#include "util/Parallel.h"

#include <queue>

namespace tickscope {

void MigrationSweep::through(const Trace &trace, const EventRoles &roles, int64_t t,
                             std::vector<std::vector<uint32_t>> &out, int threads)
{
    const size_t n = static_cast<size_t>(trace.cpuCount());
    cpus_.resize(n);
    out.resize(n);
    // Each CPU's sched_switch events up to t, found on all threads (a look at every event's kind).
    std::vector<std::vector<uint32_t>> sw(n);
    parallelFor(n, threads, [&](size_t c) {
        const CpuEvents &ev = trace.cpu(static_cast<int>(c));
        size_t &i = cpus_[c].next;
        for (; i < ev.size() && ev.ts(i) <= t; ++i)
            if (roles.role(ev.type(i)) == Role::SchedSwitch) sw[c].push_back(static_cast<uint32_t>(i));
    });
    struct Head
    {
        int64_t ts;
        size_t cpu;
        size_t k; // in sw[cpu]
        bool operator>(const Head &o) const { return ts != o.ts ? ts > o.ts : cpu > o.cpu; }
    };
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
    auto push = [&](size_t c, size_t k) {
        if (k < sw[c].size()) heads.push({trace.cpu(static_cast<int>(c)).ts(sw[c][k]), c, k});
    };
    for (size_t c = 0; c < n; ++c)
        push(c, 0);
    // The switches of one time together: a switch-out at the very time of a switch-in is not before it.
    std::vector<Head> group;
    while (!heads.empty()) {
        group.clear();
        const int64_t ts = heads.top().ts;
        while (!heads.empty() && heads.top().ts == ts) {
            const Head h = heads.top();
            heads.pop();
            group.push_back(h);
            push(h.cpu, h.k + 1);
        }
        for (size_t g = 0; g < group.size(); ++g) { // (CPU by CPU, each in event order)
            const Head &h = group[g];
            const CpuEvents &ev = trace.cpu(static_cast<int>(h.cpu));
            const auto p = ev.payload<SchedSwitchP>(sw[h.cpu][h.k]);
            if (p.nextPid == 0) continue;
            // switched out on this CPU earlier at this very time: it comes back to the CPU it left
            bool here = false;
            for (size_t e = g; e-- > 0 && group[e].cpu == h.cpu && !here;)
                here = ev.payload<SchedSwitchP>(sw[h.cpu][group[e].k]).prevPid == p.nextPid;
            const auto it = lastOut_.find(p.nextPid);
            if (!here && it != lastOut_.end() && it->second.cpu != static_cast<int32_t>(h.cpu))
                out[h.cpu].push_back(sw[h.cpu][h.k]);
        }
        for (const Head &h : group) {
            const auto p = trace.cpu(static_cast<int>(h.cpu)).payload<SchedSwitchP>(sw[h.cpu][h.k]);
            if (p.prevPid == 0) continue;
            Out &o = lastOut_[p.prevPid];
            const bool earlier = o.ts < ts || o.cpu < 0;
            // of two at one time the lower CPU's (the group comes CPU by CPU); on one CPU the later event's
            if (earlier || o.cpu == static_cast<int32_t>(h.cpu)) o = {ts, static_cast<int32_t>(h.cpu)};
        }
    }
}

} // namespace tickscope
