// SPDX-License-Identifier: GPL-3.0-or-later
// Resolves the task stretches whose user/kernel mode one CPU's pass could not know: a task switched in
// that last ran on another CPU (a migration) and revealed nothing (no syscall, no context tracking event)
// before it left again. The CPU it last left knows: the latest sched_switch with prev_pid == pid before
// the switch-in, on any other CPU. A sleeping task resumes in the kernel; a runnable one (preempted) in
// the mode that CPU's task lane shows right before the switch. A stretch that continues an earlier one
// on its own CPU (switched out runnable, unknown) gets that one's mode: a chain of stretches takes the mode
// of its first (head). Heads are taken in time order so that chains across CPUs resolve.
//
// The switch-out each stretch resolves from (its candidate) is found by one sweep over every CPU's
// switches in time order (SwitchOutSweep), which a trace read in parts runs as its events arrive.
#pragma once

#include "CpuAnalysis.h"
#include "EventRoles.h"

#include "model/Trace.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

namespace tickscope {

// The latest switch-out of a task on another CPU before a stretch began.
struct SwitchOutCandidate
{
    static constexpr uint32_t kNoChain = UINT32_MAX;
    int64_t ts = 0;   // of the switch-in that began the stretch
    int32_t cpu = -1; // -1: none
    // With code Unknown: the chain of stretches on that CPU (PendingMode::root) the task was in when it
    // left, whose mode it resumes in once known; kNoChain: none (no task-lane change before the switch, or
    // a stretch that will not learn its mode).
    uint32_t chain = kNoChain;
    uint32_t at = 0;  // the switch-in's event index on its own CPU (the key)
    uint8_t code = 0; // the task-lane code in force right before the switch-out, when the sweep passed it
    bool runnable = false; // switched out preempted or yielding (prev_state 0)
};

// One CPU's candidates by the event index of their switch-in. A stream keeps the candidate of every
// switch-in whose mode its CPU never learned until the end: 24 bytes each in a vector the sweep appends
// to in event order (a hash map node and its bucket took ~75).
class SwitchOutCandidateList
{
public:
    // Adds or replaces the candidate of switch-in `c.at`.
    void set(const SwitchOutCandidate &c);
    const SwitchOutCandidate *find(uint32_t at) const;
    // Drops the candidate of switch-in `at`; false when there was none.
    bool erase(uint32_t at);
    size_t size() const { return v_.size() - erased_; }

private:
    static constexpr int32_t kErased = -2;
    std::vector<SwitchOutCandidate>::const_iterator locate(uint32_t at) const;
    std::vector<SwitchOutCandidate> v_; // ascending `at`; erased ones marked, compacted when half
    size_t erased_ = 0;
};
using SwitchOutCandidates = std::vector<SwitchOutCandidateList>;

// Every CPU's switches (CpuTimers::switches) and the switch-ins that began stretches, taken in time order
// up to a time: each switch-in gets the latest switch-out of its task on any other CPU at or before its
// time (of two equally late, the lower-numbered CPU's; on one CPU the later event's).
class SwitchOutSweep
{
public:
    // opens[c]: the event indices of CPU c's stretch-opening switch-ins, ascending (appended as they come);
    // each gets a candidate (cpu -1 when none), with the switch-in's time.
    // chainAt(c, change): the chain (PendingMode::root) of CPU c's stretch of unknown mode, not resolved
    // yet, that holds task-lane change `change` (kNoChain: none); asked of each switch-out in that mode.
    using ChainAt = std::function<uint32_t(size_t c, size_t change)>;
    void through(const Trace &trace, const EventRoles &roles, const std::vector<CpuAnalysis> &cpus,
                 const std::vector<std::vector<uint32_t>> &opens, int64_t t, const ChainAt &chainAt,
                 SwitchOutCandidates &out);
    // How far CPU c's switches have been taken (a trace read in parts may release the ones before).
    size_t switchesTaken(size_t c) const { return c < cpus_.size() ? cpus_[c].sw : 0; }
    size_t opensTaken(size_t c) const { return c < cpus_.size() ? cpus_[c].open : 0; }
    // CPU c has taken every switch record it has and its task lane will not change at or before event
    // `through`: its next switch comes later, so the lane is read up to there now (a caller releasing the
    // lane's bitmap behind laneScanned need not keep it from the CPU's last switch on).
    void readLaneThrough(size_t c, const CpuAnalysis &cpu, size_t through);
    // The task-lane changes of CPU c read so far: the codes from the last of them on are still read.
    size_t laneChangesSeen(size_t c) const { return c < cpus_.size() ? cpus_[c].change : 0; }
    size_t laneScanned(size_t c) const
    {
        return c < cpus_.size() ? cpus_[c].scanFrom : 0;
    } // task-lane events

private:
    struct Entry
    {
        int cpu;
        int64_t ts;
        uint32_t chain; // SwitchOutCandidate::chain
        uint8_t code;
        bool runnable;
    };
    struct Cpu
    {
        size_t sw = 0, open = 0;         // next switch record, next opening
        size_t change = 0, scanFrom = 0; // task-lane cursor: changes seen, where to look for the next
        size_t lastChange = SIZE_MAX;    // the last change seen
        // The payloads of the switches and openings, each found from the one before (a few events back)
        // rather than from its 64-event block's start.
        std::optional<CpuEvents::OffsetWalker> payloads;
        void readLane(const ChangeLane &lane, size_t through); // the changes up to event `through`
    };
    // A task's two best switch-outs on two different CPUs, the later first (of equal times the lower
    // CPU's). A switch-in on CPU X takes the first not on X; a third CPU's is never better than both,
    // and the sweep's later switch-outs only come before it. (One per CPU the task ran on had each
    // switch look through up to every CPU's: with thousands of CPUs and one task on all of them, most of
    // the analysis time.)
    struct Latest
    {
        std::array<Entry, 2> e{};
        unsigned n = 0;
        void note(const Entry &x); // x is the latest: the sweep goes in time order
    };
    std::vector<Cpu> cpus_;
    std::unordered_map<int32_t, Latest> byPid_;
};

class CrossCpuModes
{
public:
    // Relabels the lanes and ticks of every CPU's pendingModes, then empties them. Returns how many
    // stretches were resolved. The first form finds the candidates itself (from the switch arrays, before
    // they are freed); the second is given them: one per chain head (PendingMode::head).
    // The chains are taken in the time order of their heads, so that a chain whose task left another
    // CPU in a chain of unknown mode there takes that chain's mode once it has one.
    static size_t resolve(const Trace &trace, const EventRoles &roles, std::vector<CpuAnalysis> &cpus);
    static size_t resolve(std::vector<CpuAnalysis> &cpus, const SwitchOutCandidates &candidates);
    // The chain of the CPU's pending stretch that holds task-lane change `change` (kNoChain: none), for
    // SwitchOutSweep once the passes are finished.
    static uint32_t pendingChainAt(const CpuAnalysis &cpu, size_t change);
};

} // namespace tickscope
