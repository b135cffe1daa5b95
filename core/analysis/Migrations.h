// SPDX-License-Identifier: GPL-3.0-or-later
// Which switch-ins bring a task back to a CPU after it last left another one. A CPU's pass remembers
// the user/kernel mode each task left it in and resumes the task in that mode; when the task has run on
// another CPU since (and perhaps slept there inside a syscall, or gone back to user mode), that memory is
// stale, so the pass treats the task's mode as unknown instead (CrossCpuModes then takes it from the CPU
// the task last left). Found by one sweep over every CPU's sched_switch events in time order, which a
// trace read in parts runs step by step before its passes take the events.
#pragma once

#include "EventRoles.h"

#include "model/Trace.h"

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace tickscope {

// A switch-in of a task whose latest switch-out was on another CPU, or that may have run unseen since.
struct Migration
{
    uint32_t index; // the switch-in's event index
    // The time of the task's latest switch-out after which its mode may differ from before: a sleep, or
    // one ending a run in which it showed its mode or may have changed it (a syscall, context tracking or
    // user page fault event, or lost events). When its switch-out on the other CPU was lost, the time of
    // this switch-in. INT64_MIN: none.
    int64_t changed = INT64_MIN;
    // Its mode may have changed where no event shows it: it was switched in on another CPU since its latest
    // switch-out (that CPU lost the switch-out), or some CPU lost events while it was away (it may have run
    // there). Nothing from before tells its mode then: neither this CPU's memory nor the CPU it last left.
    bool unseen = false;
    bool operator==(const Migration &) const = default;
};
using Migrations = std::vector<std::vector<Migration>>; // per CPU, ascending index

class MigrationSweep
{
public:
    // Events of all CPUs looked through and merged at a time: bounds the switches held (24 bytes each).
    static constexpr size_t kSliceEvents = size_t{1} << 20;
    // Events looked through by one thread at a time.
    static constexpr size_t kPartEvents = size_t{1} << 16;
    explicit MigrationSweep(size_t sliceEvents = kSliceEvents, size_t partEvents = kPartEvents)
        : slice_(sliceEvents ? sliceEvents : 1), part_(partEvents ? partEvents : 1)
    {
    }

    // Takes every CPU's sched_switch events up to time t (all CPUs' events up to t are in; later ones are
    // left for the next call) and appends to out[c] CPU c's switch-ins, ascending, of a task whose latest
    // switch-out before was on another CPU (of two at one time, the lower CPU's), or that may have run
    // unseen since its latest switch-out (Migration::unseen). A switch-out at the very
    // time of the switch-in is before it if on another CPU (the task cannot run on two at once; a text
    // trace's microseconds often tie), after it if later on the same CPU.
    // The events are looked through on `threads` threads in parts (so one busy CPU's are spread over all
    // threads), a slice of time of about sliceEvents events of all CPUs at a time.
    // darkFrom: a CPU lost events after this time whose range is not in its CpuEvents::lost yet (a stream
    // that has not read the page after them; INT64_MAX: none).
    void through(const Trace &trace, const EventRoles &roles, int64_t t, Migrations &out, int threads = 1,
                 int64_t darkFrom = INT64_MAX);
    // Events of CPU c looked at so far (the ones before may be released).
    size_t scanned(size_t c) const { return c < cpus_.size() ? cpus_[c].next : 0; }
    // Called on the sweeping thread after each slice: every switch-in of CPU c's events before scanned(c)
    // has been appended to out[c] by then (the callback may move them out: the sweep only appends), and a
    // pass may take those events while the sweep goes on.
    void afterEachSlice(std::function<void()> f) { afterSlice_ = std::move(f); }

private:
    struct Switch
    {
        int64_t ts;
        int32_t prevPid, nextPid;
        uint32_t index;
        // prevPid's mode may differ after: it went to sleep, or a syscall, context tracking or user page
        // fault event or lost events came on this CPU since the switch before
        bool changes;
    };
    struct Cpu
    {
        size_t next = 0;                   // the next event to look at
        size_t end = 0;                    // of the slice
        size_t firstPart = 0, endPart = 0; // its parts of the slice
        bool showed = false;               // such an event since its last switch looked at
        size_t lost = 0;                   // CpuEvents::lost ranges taken for gaps
        std::vector<size_t> gaps;          // of the slice: the first events after lost events, ascending
        size_t lostFrom = 0;               // CpuEvents::lost ranges taken for gapsByFrom_
    };
    // Up to part_ events of one CPU, looked through by one thread: their switches, in event order.
    struct Part
    {
        size_t cpu, first, end;
        std::vector<Switch> switches;
        bool tail = false; // such an event after its last switch (or in it, if none)
    };
    struct Out
    {
        int64_t ts = INT64_MIN;
        int32_t cpu = -1;
        int64_t changed = INT64_MIN;    // Migration::changed
        int32_t inCpu = -1;             // of its latest switch-in
        uint64_t inSeq = 0, outSeq = 0; // the order of its latest switch-in and switch-out (0: none)
    };
    // The events of every CPU from next to end: their switches, then merged by time.
    void scan(const Trace &trace, const EventRoles &roles, int threads);
    void merge(Migrations &out);
    void takeGaps(const Trace &trace, int64_t sliceEnd); // into gapsByFrom_
    // A task's switch-outs in one group of switches of one time, per CPU: for a switch-in of the group,
    // whether the task was switched out on its CPU earlier in the group, or on another CPU (then before it).
    struct GroupOut
    {
        int32_t pid;
        uint32_t cpu;
        size_t first;           // the earliest of them in the group
        bool changes;           // any of them Switch::changes
        uint32_t cpus, changed; // of this pid's entries: how many, and how many changes
        bool operator<(const GroupOut &o) const { return pid != o.pid ? pid < o.pid : cpu < o.cpu; }
    };
    std::vector<GroupOut> groupOuts_; // of the group being merged, by (pid, CPU)

    size_t slice_, part_;
    std::vector<Cpu> cpus_;
    std::vector<Part> parts_; // of the slice, CPU by CPU (kept from slice to slice: their switch arrays)
    // The lost ranges of every CPU that began before the slice's end (its last time), by their beginning
    // (INT64_MIN for one that opens a CPU's data); the merge takes them as it passes their beginning: the
    // latest end of one begun so far.
    std::vector<std::pair<int64_t, int64_t>> gapsByFrom_;
    size_t gapsTaken_ = 0;
    int64_t latestGapEnd_ = INT64_MIN;
    int64_t darkFrom_ = INT64_MAX;
    std::unordered_map<int32_t, Out> lastOut_; // by pid (and its latest switch-in)
    uint64_t seq_ = 0;                         // switches noted in lastOut_
    std::function<void()> afterSlice_;
};

} // namespace tickscope
