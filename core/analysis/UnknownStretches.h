// SPDX-License-Identifier: GPL-3.0-or-later
// The stretches of one CPU's task lane where a task's user/kernel mode is not known yet (no context
// tracking events, and nothing yet inferred): the trace started while it ran, lost events, or it was switched
// in with nothing known about it here. A stretch is relabelled, with its ticks, when the mode shows:
//  - the task's first revealing event (sys_enter: it was in user mode; sys_exit: in the kernel), which
//    also settles the earlier stretches it continues (switched out runnable in that unknown mode, so it
//    resumed in the same one);
//  - a sleeping switch-out with no syscall seen in the stretch: it was in the kernel throughout;
//  - after all passes, CrossCpuModes: the CPU the task last left (pendingModes).
#pragma once

#include "CpuAnalysis.h"
#include "TaskModeTable.h"

#include <cstdint>
#include <vector>

namespace tickscope {

class UnknownStretches
{
public:
    explicit UnknownStretches(CpuAnalysis &out) : out_(out) {}

    // A stretch of `pid` begins with the task-lane change just set at event `at`; `prev` is the stretch it
    // continues (-1 when none; PendingMode::kLost: none, and the CPU its task left cannot tell its mode
    // either, so only its own events here may).
    void open(size_t at, int32_t pid, bool scheduled, int32_t prev);
    bool active() const { return open_.active; }
    int32_t pid() const { return open_.m.pid; }

    // The open stretch ends without its mode known; returns its index, for the next stretch of the task
    // to continue (-1 when none was open).
    int32_t close();
    // The open stretch (and the ones it continues) were in `mode`; closes it.
    void resolve(TaskState mode);
    // A closed stretch and the ones it continues were in `mode`.
    void resolveChain(int32_t index, TaskState mode);
    // Hands the unresolved stretches that began with a sched_switch to CrossCpuModes.
    void finish();
    // Forgets the resolved stretches (one per switch-in of a task whose mode this CPU did not know: a
    // stream would keep them to the end) and the followers below the floor, renumbering the others and
    // the tasks' links to them; once the list has doubled since it last did.
    void compact(TaskModeTable &tasks);
    size_t kept() const { return closed_.size(); }
    // A stream's readers are past these task-lane changes, ticks and local timer ticks (folded, the sweep's
    // switch-outs taken): a stretch wholly before them that continues one and is continued by another
    // (a follower in the middle of its chain), or that no task will continue any more (the last of its
    // chain), has nothing left to relabel that anyone reads, and its chain resolves through its head, so
    // compact() drops it. Without a floor every stretch is kept.
    void setFloor(size_t changes, size_t ticks, size_t localTicks) { floor_ = {changes, ticks, localTicks}; }
    // The chain (PendingMode::root) of the stretch not resolved yet, open or closed, that holds task-lane
    // change `change`; SwitchOutCandidate::kNoChain when none does.
    uint32_t chainAt(size_t change) const;

    // The sched_switch switch-ins that began stretches (event indices, ascending): the ones that can be
    // handed to CrossCpuModes.
    const std::vector<uint32_t> &scheduledOpens() const { return scheduledOpens_; }

    // The stretch, open or closed and not resolved, whose ticks (local: local timer ticks) include `tick`;
    // nullptr when none does (an Unknown tick outside every such stretch stays Unknown).
    const PendingMode *unresolvedOf(size_t tick, bool local) const;

    // Relabels a stretch's unknown task-lane changes and ticks (the ones not handed back), and tells
    // out.relabelled.
    static void apply(CpuAnalysis &out, const PendingMode &m, TaskState mode);

private:
    struct Stretch
    {
        PendingMode m{}; // m.scheduled: began with a sched_switch
        int32_t prev = -1;
        bool resolved = false;
    };
    CpuAnalysis &out_;
    struct Open
    {
        bool active = false;
        int32_t prev = -1;
        PendingMode m{};
    } open_;
    std::vector<Stretch> closed_;
    size_t resolvedCount_ = 0;                // in closed_
    static constexpr int32_t kForgotten = -3; // a link to a resolved stretch compact() dropped
    uint32_t nextRoot_ = 0;                   // chains numbered as they begin
    struct Floor
    {
        size_t changes = 0, ticks = 0, localTicks = 0;
    } floor_;
    size_t scanAt_ = 1024; // compact() looks through the list when this many are kept
    std::vector<uint32_t> scheduledOpens_;
};

} // namespace tickscope
