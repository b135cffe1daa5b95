// SPDX-License-Identifier: GPL-3.0-or-later
#include "TaskModeTable.h"

#include <array>

namespace tickscope {

namespace {

size_t slotOf(int32_t pid, size_t mask)
{
    const uint32_t h = static_cast<uint32_t>(pid) * 2654435761u; // Fibonacci hashing
    return static_cast<size_t>(h) & mask;
}

} // namespace

TaskModeTable::TaskModeTable() : slots_(64) {}

TaskModeTable::Task &TaskModeTable::get(int32_t pid)
{
    if ((used_ + 1) * 2 > slots_.size()) grow();
    const size_t mask = slots_.size() - 1;
    for (size_t s = slotOf(pid, mask);; s = (s + 1) & mask) {
        Task &t = slots_[s];
        if (t.generation == 0) { // empty slot
            t.pid = pid;
            t.generation = generation_;
            ++used_;
            return t;
        }
        if (t.pid == pid) {
            if (t.generation != generation_) {
                t.generation = generation_;
                t.saved = SavedMode::Unknown;
                t.unknownStretch = -1;
            }
            return t;
        }
    }
}

void TaskModeTable::grow()
{
    std::vector<Task> old(slots_.size() * 2);
    old.swap(slots_);
    const size_t mask = slots_.size() - 1;
    for (const Task &t : old) {
        if (t.generation == 0) continue;
        size_t s = slotOf(t.pid, mask);
        while (slots_[s].generation != 0)
            s = (s + 1) & mask;
        slots_[s] = t;
    }
}

bool isKernelThreadComm(std::string_view comm)
{
    static constexpr std::array<std::string_view, 27> kPrefixes{
        "kworker/",   "ksoftirqd/", "rcu_",     "rcuog/",  "rcuop/",       "rcuos/",     "rcub/",
        "migration/", "ktimers/",   "kthreadd", "cpuhp/",  "idle_inject/", "watchdog/",  "irq/",
        "kcompactd",  "khugepaged", "kswapd",   "kauditd", "oom_reaper",   "khungtaskd", "ksmd",
        "kdevtmpfs",  "jbd2/",      "scsi_eh_", "pr/",     "kblockd",      "writeback"};
    for (std::string_view p : kPrefixes) {
        if (comm.starts_with(p)) return true;
    }
    return false;
}

} // namespace tickscope
