// SPDX-License-Identifier: GPL-3.0-or-later
#include "Migrations.h"

#include "util/Heap.h"
#include "util/Parallel.h"

#include <algorithm>

namespace tickscope {

void MigrationSweep::through(const Trace &trace, const EventRoles &roles, int64_t t, Migrations &out,
                             int threads, int64_t darkFrom)
{
    darkFrom_ = darkFrom;
    const size_t n = static_cast<size_t>(trace.cpuCount());
    cpus_.resize(n);
    out.resize(n);
    const auto endAt = [&](size_t c, int64_t upTo) {
        const CpuEvents &ev = trace.cpu(static_cast<int>(c));
        return upTo == INT64_MAX ? ev.size() : ev.lowerBound(upTo + 1, cpus_[c].next);
    };
    for (;;) {
        // A slice up to a time that leaves no CPU more than its share of slice_ events (all events of that
        // time on every CPU go in together: a switch-out at the very time of a switch-in is before it or not
        // by its CPU).
        size_t total = 0;
        for (size_t c = 0; c < n; ++c) {
            cpus_[c].end = endAt(c, t);
            total += cpus_[c].end - cpus_[c].next;
        }
        if (total == 0) break;
        int64_t sliceEnd = t;
        if (total > slice_) {
            // The CPUs with fewer events left than their share take all of them; the others split the rest
            // (one busy CPU among many idle ones takes most of the slice, so its parts go to every thread).
            std::vector<size_t> left(n);
            for (size_t c = 0; c < n; ++c)
                left[c] = cpus_[c].end - cpus_[c].next;
            std::sort(left.begin(), left.end());
            size_t budget = slice_, share = 1;
            for (size_t k = 0; k < n; ++k) {
                const size_t others = n - k; // CPUs not placed yet, left[k] the smallest of them
                if (left[k] > budget / others) {
                    share = std::max<size_t>(budget / others, 1);
                    break;
                }
                budget -= left[k];
            }
            int64_t slice = t;
            for (size_t c = 0; c < n; ++c)
                if (cpus_[c].end - cpus_[c].next > share)
                    slice = std::min(slice, trace.cpu(static_cast<int>(c)).ts(cpus_[c].next + share - 1));
            for (size_t c = 0; c < n; ++c)
                cpus_[c].end = endAt(c, slice);
            sliceEnd = slice;
        }
        scan(trace, roles, threads);
        takeGaps(trace, sliceEnd);
        merge(out);
        for (Cpu &cpu : cpus_)
            cpu.next = cpu.end;
        if (afterSlice_) afterSlice_();
    }
    parts_.clear(); // (their switches)
}

void MigrationSweep::scan(const Trace &trace, const EventRoles &roles, int threads)
{
    // The parts of the slice before are taken over, their switch arrays emptied, not freed: no memory
    // newly faulted in per slice (in a VM each page fault costs microseconds).
    size_t parts = 0;
    for (size_t c = 0; c < cpus_.size(); ++c) {
        // Lost events between two of the slice's events (the ranges come in time order; one whose first
        // event after is not in yet waits for a later slice)
        Cpu &cpu = cpus_[c];
        const CpuEvents &ev = trace.cpu(static_cast<int>(c));
        cpu.gaps.clear();
        for (; cpu.lost < ev.lost.size(); ++cpu.lost) {
            if (ev.opensData(cpu.lost)) continue;
            if (cpu.end == cpu.next || ev.lost[cpu.lost].to > ev.ts(cpu.end - 1)) break;
            const size_t g = ev.firstAfterLost(cpu.lost, cpu.next);
            if (g >= cpu.end) break;
            if (g > cpu.next || (g == cpu.next && g > 0)) cpu.gaps.push_back(g);
        }
        cpus_[c].firstPart = parts;
        for (size_t i = cpus_[c].next; i < cpus_[c].end; i += part_) {
            if (parts == parts_.size()) parts_.emplace_back();
            Part &p = parts_[parts++];
            p.cpu = c;
            p.first = i;
            p.end = std::min(i + part_, cpus_[c].end);
            p.switches.clear();
            p.tail = false;
        }
        cpus_[c].endPart = parts;
    }
    parts_.resize(parts);
    // One type id of sched_switch (as in every trace seen): found by a search of the type column, and
    // between two switches, whether the task showed its mode (any of a few types: a search for each).
    const std::vector<uint16_t> types = roles.typesOf(Role::SchedSwitch);
    std::vector<uint16_t> shows;
    for (const Role r : {Role::SysEnter, Role::SysExit, Role::UserEnter, Role::UserExit, Role::PageFaultUser})
        for (const uint16_t type : roles.typesOf(r))
            shows.push_back(type);
    parallelFor(parts_.size(), threads, [&](size_t k) {
        Part &part = parts_[k];
        const CpuEvents &ev = trace.cpu(static_cast<int>(part.cpu));
        CpuEvents::OffsetWalker payloads(ev);
        const std::vector<size_t> &gaps = cpus_[part.cpu].gaps;
        const auto showsIn = [&](size_t from, size_t to) { // in [from, to), or lost events before `to`
            const auto g = std::lower_bound(gaps.begin(), gaps.end(), from);
            if (g != gaps.end() && *g <= to) return true;
            for (const uint16_t type : shows)
                if (ev.findType(type, from, to) < to) return true;
            return false;
        };
        size_t from = part.first; // where the run of the task the next switch switches out began
        const auto take = [&](size_t i) {
            const auto p = payloads.payload<SchedSwitchP>(i);
            part.switches.push_back({ev.ts(i), p.prevPid, p.nextPid, static_cast<uint32_t>(i),
                                     (p.prevState & 0xff) != 0 || showsIn(from, i)});
            from = i + 1;
        };
        if (types.size() == 1) {
            for (size_t i = ev.findType(types[0], part.first, part.end); i < part.end;
                 i = ev.findType(types[0], i + 1, part.end))
                take(i);
        } else {
            for (size_t i = part.first; i < part.end; ++i)
                if (roles.role(ev.type(i)) == Role::SchedSwitch) take(i);
        }
        part.tail = showsIn(from, part.end);
    });
    // A run begun in an earlier part (or slice) ends at the first switch of a later one.
    for (Cpu &cpu : cpus_) {
        for (size_t k = cpu.firstPart; k < cpu.endPart; ++k) {
            Part &part = parts_[k];
            if (part.switches.empty()) {
                cpu.showed |= part.tail;
                continue;
            }
            part.switches.front().changes |= cpu.showed;
            cpu.showed = part.tail;
        }
    }
}

void MigrationSweep::takeGaps(const Trace &trace, int64_t sliceEnd)
{
    gapsByFrom_.erase(gapsByFrom_.begin(), gapsByFrom_.begin() + static_cast<std::ptrdiff_t>(gapsTaken_));
    gapsTaken_ = 0;
    for (size_t c = 0; c < cpus_.size(); ++c) {
        const CpuEvents &ev = trace.cpu(static_cast<int>(c));
        // (a range that opens the CPU's data leaves it dark from the start: taken with the first slice,
        // however late the CPU's first event)
        for (size_t &k = cpus_[c].lostFrom;
             k < ev.lost.size() && (ev.opensData(k) ? INT64_MIN : ev.lost[k].from) <= sliceEnd; ++k)
            if (const auto span = ev.darkSpan(k)) gapsByFrom_.push_back(*span);
    }
    std::sort(gapsByFrom_.begin(), gapsByFrom_.end());
}

void MigrationSweep::merge(Migrations &out)
{
    struct Head
    {
        int64_t ts;
        size_t cpu;
        size_t part, k; // parts_[part].switches[k]
        bool operator>(const Head &o) const { return ts != o.ts ? ts > o.ts : cpu > o.cpu; }
        const Switch &of(const std::vector<Part> &parts) const { return parts[part].switches[k]; }
    };
    std::vector<Head> heads;                                    // a min-heap (std::greater<>)
    auto next = [&](size_t c, size_t part, size_t k, Head &h) { // CPU c's next switch from there on, if any
        for (; part < cpus_[c].endPart; ++part, k = 0)
            if (k < parts_[part].switches.size()) {
                h = {parts_[part].switches[k].ts, c, part, k};
                return true;
            }
        return false;
    };
    for (size_t c = 0; c < cpus_.size(); ++c) {
        Head h;
        if (next(c, cpus_[c].firstPart, 0, h)) heads.push_back(h);
    }
    std::make_heap(heads.begin(), heads.end(), std::greater<>());
    // The switches of one time together: a switch-out at the very time of a switch-in is before it on
    // another CPU, not on the same one unless earlier there.
    std::vector<Head> group;
    while (!heads.empty()) {
        group.clear();
        const int64_t ts = heads.front().ts;
        for (; gapsTaken_ < gapsByFrom_.size() && gapsByFrom_[gapsTaken_].first < ts; ++gapsTaken_)
            latestGapEnd_ = std::max(latestGapEnd_, gapsByFrom_[gapsTaken_].second);
        while (!heads.empty() && heads.front().ts == ts) {
            const Head h = heads.front();
            group.push_back(h);
            Head after;
            if (next(h.cpu, h.part, h.k + 1, after)) {
                replaceTop(heads, after);
            } else {
                popTop(heads);
            }
        }
        // The group's switch-outs by task and CPU (a text trace's microseconds may put thousands of
        // switches in one group: no look through the group per switch-in).
        groupOuts_.clear();
        for (size_t g = 0; g < group.size(); ++g) {
            const Switch &s = group[g].of(parts_);
            if (s.prevPid != 0)
                groupOuts_.push_back({s.prevPid, static_cast<uint32_t>(group[g].cpu), g, s.changes, 0, 0});
        }
        std::sort(groupOuts_.begin(), groupOuts_.end());
        size_t kept = 0; // one entry per (pid, CPU)
        for (const GroupOut &o : groupOuts_) {
            if (kept && groupOuts_[kept - 1].pid == o.pid && groupOuts_[kept - 1].cpu == o.cpu) {
                groupOuts_[kept - 1].first = std::min(groupOuts_[kept - 1].first, o.first);
                groupOuts_[kept - 1].changes |= o.changes;
            } else {
                groupOuts_[kept++] = o;
            }
        }
        groupOuts_.resize(kept);
        for (size_t a = 0, b; a < kept; a = b) { // each pid's totals in all its entries
            uint32_t changed = 0;
            for (b = a; b < kept && groupOuts_[b].pid == groupOuts_[a].pid; ++b)
                changed += groupOuts_[b].changes;
            for (size_t k = a; k < b; ++k) {
                groupOuts_[k].cpus = static_cast<uint32_t>(b - a);
                groupOuts_[k].changed = changed;
            }
        }
        for (size_t g = 0; g < group.size(); ++g) { // (CPU by CPU, each in event order)
            const Head &h = group[g];
            const Switch &s = h.of(parts_);
            if (s.nextPid == 0) continue;
            const auto run = std::lower_bound(groupOuts_.begin(), groupOuts_.end(),
                                              GroupOut{s.nextPid, 0, 0, false, 0, 0}); // the pid's first
            const bool ofPid = run != groupOuts_.end() && run->pid == s.nextPid;
            const auto at = std::lower_bound(
                run, groupOuts_.end(), GroupOut{s.nextPid, static_cast<uint32_t>(h.cpu), 0, false, 0, 0});
            const bool own = ofPid && at != groupOuts_.end() && at->pid == s.nextPid && at->cpu == h.cpu;
            // switched out on this CPU earlier at this very time: it comes back to the CPU it left
            if (own && at->first < g) continue;
            // switched out on another CPU at this very time: before it (it cannot run on two at once; it
            // changed if any of them did)
            const bool there = ofPid && run->cpus > (own ? 1u : 0u);
            const bool changedThere = ofPid && run->changed > (own && at->changes ? 1u : 0u);
            const auto it = lastOut_.find(s.nextPid);
            const int32_t cpu = static_cast<int32_t>(h.cpu);
            if (it != lastOut_.end() || there) {
                // switched in on another CPU since its latest switch-out: that CPU lost the switch-out
                const bool outLost = !there && it->second.inCpu >= 0 && it->second.inCpu != cpu &&
                                     it->second.inSeq > it->second.outSeq;
                // or some CPU lost events since its latest switch-out (at or before it, if the gap ended
                // then)
                const bool wasOut = there || it->second.outSeq > 0;
                const int64_t left = there ? ts : it->second.ts;
                if (outLost || (wasOut && (latestGapEnd_ >= left || darkFrom_ < ts))) {
                    out[h.cpu].push_back({s.index, ts, true});
                    lastOut_[s.nextPid].changed = ts; // (for its later moves: it may have changed unseen)
                    continue;
                }
            }
            const int64_t changed = changedThere ? ts : it != lastOut_.end() ? it->second.changed : INT64_MIN;
            if (there || (it != lastOut_.end() && it->second.cpu >= 0 && it->second.cpu != cpu))
                out[h.cpu].push_back({s.index, changed});
        }
        for (const Head &h : group) {
            const Switch &s = h.of(parts_);
            if (s.nextPid != 0) {
                Out &o = lastOut_[s.nextPid];
                o.inSeq = ++seq_;
                o.inCpu = static_cast<int32_t>(h.cpu);
            }
            if (s.prevPid == 0) continue;
            Out &o = lastOut_[s.prevPid];
            o.outSeq = ++seq_;
            if (s.changes) o.changed = ts;
            const bool earlier = o.ts < ts || o.cpu < 0;
            // of two at one time the lower CPU's (the group comes CPU by CPU); on one CPU the later event's
            if (earlier || o.cpu == static_cast<int32_t>(h.cpu)) {
                o.ts = ts;
                o.cpu = static_cast<int32_t>(h.cpu);
            }
        }
    }
}

} // namespace tickscope
