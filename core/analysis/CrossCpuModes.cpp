// SPDX-License-Identifier: GPL-3.0-or-later
#include "CrossCpuModes.h"

#include "UnknownStretches.h"

#include "util/Heap.h"

#include <algorithm>

namespace tickscope {

std::vector<SwitchOutCandidate>::const_iterator SwitchOutCandidateList::locate(uint32_t at) const
{
    return std::lower_bound(v_.begin(), v_.end(), at,
                            [](const SwitchOutCandidate &x, uint32_t a) { return x.at < a; });
}

void SwitchOutCandidateList::set(const SwitchOutCandidate &c)
{
    if (v_.empty() || v_.back().at < c.at) { // the sweep's order
        v_.push_back(c);
        return;
    }
    const auto it = v_.begin() + (locate(c.at) - v_.cbegin());
    if (it != v_.end() && it->at == c.at) {
        erased_ -= it->cpu == kErased;
        *it = c;
    } else {
        v_.insert(it, c);
    }
}

const SwitchOutCandidate *SwitchOutCandidateList::find(uint32_t at) const
{
    const auto it = locate(at);
    return it != v_.end() && it->at == at && it->cpu != kErased ? &*it : nullptr;
}

bool SwitchOutCandidateList::erase(uint32_t at)
{
    const auto it = v_.begin() + (locate(at) - v_.cbegin());
    if (it == v_.end() || it->at != at || it->cpu == kErased) return false;
    it->cpu = kErased;
    if (++erased_ * 2 > v_.size()) {
        const auto gone = [](const SwitchOutCandidate &x) { return x.cpu == kErased; };
        v_.erase(std::remove_if(v_.begin(), v_.end(), gone), v_.end());
        v_.shrink_to_fit();
        erased_ = 0;
    }
    return true;
}

void SwitchOutSweep::Latest::note(const Entry &x)
{
    auto before = [](const Entry &a, const Entry &b) { return a.ts != b.ts ? a.ts > b.ts : a.cpu < b.cpu; };
    if (n > 0 && e[0].cpu == x.cpu) { // x replaces its CPU's earlier one
        e[0] = e[1];
        --n;
    } else if (n > 1 && e[1].cpu == x.cpu) {
        --n;
    }
    if (n == 0 || before(x, e[0])) { // x first, the former first second
        e[1] = e[0];
        e[0] = x;
        n = std::min(n + 1, 2u);
    } else if (n == 1 || before(x, e[1])) { // a tie x loses to the first only
        e[1] = x;
        n = 2;
    }
}

void SwitchOutSweep::through(const Trace &trace, const EventRoles &roles,
                             const std::vector<CpuAnalysis> &cpus,
                             const std::vector<std::vector<uint32_t>> &opens, int64_t t,
                             const ChainAt &chainAt, SwitchOutCandidates &out)
{
    cpus_.resize(cpus.size());
    for (size_t c = 0; c < cpus.size(); ++c)
        if (!cpus_[c].payloads) cpus_[c].payloads.emplace(trace.cpu(cpus[c].cpu));
    out.resize(cpus.size());
    // The next item of each CPU: a switch before an opening of the same time (a switch-out on another CPU
    // at the very time of the switch-in is before it: the task cannot run on both; a text trace's
    // microseconds often tie; the ones on the opening's own CPU are not candidates), else event order.
    struct Head
    {
        int64_t ts;
        int open; // 0: a switch, 1: an opening
        size_t cpu;
        bool operator>(const Head &o) const
        {
            return ts != o.ts ? ts > o.ts : open != o.open ? open > o.open : cpu > o.cpu;
        }
    };
    auto head = [&](size_t c, Head &h) {
        const CpuEvents &ev = trace.cpu(cpus[c].cpu);
        const Cpu &s = cpus_[c];
        const SwitchRecords &sw = cpus[c].timers.switches;
        const bool hasO = s.open < opens[c].size() && ev.ts(opens[c][s.open]) <= t;
        const bool hasS = s.sw < sw.size() && ev.ts(sw[s.sw].index) <= t;
        if (!hasO && !hasS) return false;
        const int64_t to = hasO ? ev.ts(opens[c][s.open]) : INT64_MAX;
        const int64_t ts = hasS ? ev.ts(sw[s.sw].index) : INT64_MAX;
        h = ts <= to ? Head{ts, 0, c} : Head{to, 1, c};
        return true;
    };
    std::vector<Head> heads; // a min-heap (std::greater<>)
    for (size_t c = 0; c < cpus.size(); ++c) {
        Head h;
        if (head(c, h)) heads.push_back(h);
    }
    std::make_heap(heads.begin(), heads.end(), std::greater<>());
    while (!heads.empty()) {
        const Head h = heads.front();
        const size_t c = h.cpu;
        const int cpu = cpus[c].cpu;
        const CpuEvents &ev = trace.cpu(cpu);
        Cpu &s = cpus_[c];
        if (h.open == 1) {
            const uint32_t at = opens[c][s.open++];
            const int32_t pid = s.payloads->payload<SchedSwitchP>(at).nextPid; // the task switched in
            SwitchOutCandidate best;
            best.ts = h.ts;
            best.at = at;
            if (const auto it = byPid_.find(pid); it != byPid_.end()) {
                for (unsigned k = 0; k < it->second.n; ++k) { // the better first: the first not on `cpu`
                    const Entry &e = it->second.e[k];
                    if (e.cpu == cpu) continue;
                    best.cpu = e.cpu;
                    best.chain = e.chain;
                    best.code = e.code;
                    best.runnable = e.runnable;
                    break;
                }
            }
            out[c].set(best);
        } else {
            const SwitchRec r = cpus[c].timers.switches[s.sw++];
            if (roles.role(ev.type(r.index)) == Role::SchedSwitch) {
                const auto p = s.payloads->payload<SchedSwitchP>(r.index);
                // the task-lane change in force at the event before the switch
                const ChangeLane &lane = cpus[c].task;
                if (r.index > 0 && s.scanFrom < r.index) s.readLane(lane, r.index - 1);
                const size_t change = r.index > 0 ? s.lastChange : SIZE_MAX;
                const uint8_t code = change != SIZE_MAX ? lane.code(change) : uint8_t{0};
                const bool runnable = (p.prevState & 0xff) == 0;
                // (a task left in a stretch of unknown mode resumes in that stretch's chain's mode)
                const uint32_t chain =
                    runnable && change != SIZE_MAX && code == StateCode::task(TaskState::Unknown)
                        ? chainAt(c, change)
                        : SwitchOutCandidate::kNoChain;
                byPid_[p.prevPid].note({cpu, ev.ts(r.index), chain, code, runnable});
            }
        }
        Head next;
        if (head(c, next)) {
            replaceTop(heads, next);
        } else {
            popTop(heads);
        }
    }
}

void SwitchOutSweep::readLaneThrough(size_t c, const CpuAnalysis &cpu, size_t through)
{
    if (c >= cpus_.size() || through == SIZE_MAX) return;
    Cpu &s = cpus_[c];
    if (s.sw < cpu.timers.switches.size() || s.scanFrom > through) return;
    s.readLane(cpu.task, through);
}

void SwitchOutSweep::Cpu::readLane(const ChangeLane &lane, size_t through)
{
    // only how many: a popcount per word, not a step per change (a busy CPU has one at nearly every event)
    if (const size_t n = lane.countFrom(scanFrom, through)) {
        change += n;
        lastChange = change - 1;
    }
    scanFrom = through + 1;
}

size_t CrossCpuModes::resolve(const Trace &trace, const EventRoles &roles, std::vector<CpuAnalysis> &cpus)
{
    std::vector<std::vector<uint32_t>> opens(cpus.size());
    for (size_t c = 0; c < cpus.size(); ++c)
        for (const PendingMode &m : cpus[c].pendingModes)
            if (m.prev == PendingMode::kHead) opens[c].push_back(m.switchIndex);
    const auto chainAt = [&](size_t c, size_t change) { return pendingChainAt(cpus[c], change); };
    SwitchOutCandidates candidates;
    SwitchOutSweep().through(trace, roles, cpus, opens, INT64_MAX, chainAt, candidates);
    return resolve(cpus, candidates);
}

uint32_t CrossCpuModes::pendingChainAt(const CpuAnalysis &cpu, size_t change)
{
    const PendingMode *m = stretchHolding(cpu.pendingModes, change,
                                          [](const PendingMode &x) -> const PendingMode & { return x; });
    return m ? m->root : SwitchOutCandidate::kNoChain;
}

size_t CrossCpuModes::resolve(std::vector<CpuAnalysis> &cpus, const SwitchOutCandidates &candidates)
{
    struct Head
    {
        int64_t ts;
        int cpu;
        size_t k;                      // index in that CPU's pendingModes
        const SwitchOutCandidate *own; // its candidate (nullptr: none)
    };
    std::vector<Head> heads;
    for (const CpuAnalysis &c : cpus) {
        const auto &mine = candidates[static_cast<size_t>(c.cpu)];
        for (size_t k = 0; k < c.pendingModes.size(); ++k) {
            if (c.pendingModes[k].prev != PendingMode::kHead) continue;
            const SwitchOutCandidate *own = mine.find(c.pendingModes[k].switchIndex);
            heads.push_back({own ? own->ts : INT64_MIN, c.cpu, k, own}); // every head has its own
        }
    }
    std::stable_sort(heads.begin(), heads.end(), [](const Head &a, const Head &b) { return a.ts < b.ts; });
    // Each head's mode from the CPU its task left: a chain left there in unknown mode has its mode by now
    // if it will ever have one (its head came earlier, or its own CPU told it). Heads of one time may read
    // one another's chains (a text trace's microseconds: a task switched in and out on one CPU and in on
    // another within one), so such a group is taken again while any of its chains learns its mode.
    auto resolveHead = [&](const Head &h) {
        if (!h.own || h.own->cpu < 0) return false;
        const SwitchOutCandidate &s = *h.own;
        TaskState mode = TaskState::Kernel; // a task sleeps in the kernel
        if (s.runnable) {                   // in the mode it was preempted in
            uint8_t code = s.code;
            if (code == StateCode::task(TaskState::Unknown) && s.chain != SwitchOutCandidate::kNoChain)
                code = cpus[static_cast<size_t>(s.cpu)].chainMode(s.chain);
            mode = StateCode::taskState(code);
        }
        if (mode != TaskState::User && mode != TaskState::Kernel) return false;
        CpuAnalysis &a = cpus[static_cast<size_t>(h.cpu)];
        a.setChainMode(a.pendingModes[h.k].root, StateCode::task(mode));
        return true;
    };
    std::vector<uint8_t> done;
    for (size_t i = 0, j; i < heads.size(); i = j) {
        for (j = i + 1; j < heads.size() && heads[j].ts == heads[i].ts && heads[i].own;)
            ++j;
        done.assign(j - i, 0);
        for (bool more = true; more;) {
            more = false;
            for (size_t k = i; k < j; ++k)
                if (!done[k - i] && resolveHead(heads[k])) done[k - i] = 1, more = true;
        }
    }
    // Then every stretch of a resolved chain (a stretch whose link was lost keeps its mode unknown).
    size_t resolved = 0;
    for (CpuAnalysis &a : cpus) {
        std::vector<uint8_t> lost(a.pendingModes.size(), 0);
        for (size_t k = 0; k < a.pendingModes.size(); ++k) {
            const PendingMode &m = a.pendingModes[k];
            lost[k] = m.prev == PendingMode::kLost || (m.prev >= 0 && lost[static_cast<size_t>(m.prev)]);
            const TaskState mode = StateCode::taskState(a.chainMode(m.root));
            if (lost[k] || (mode != TaskState::User && mode != TaskState::Kernel)) continue;
            UnknownStretches::apply(a, m, mode);
            ++resolved;
        }
    }
    for (CpuAnalysis &c : cpus)
        c.pendingModes = {};
    return resolved;
}

} // namespace tickscope
