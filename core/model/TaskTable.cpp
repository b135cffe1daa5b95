// SPDX-License-Identifier: GPL-3.0-or-later
#include "TaskTable.h"

#include <algorithm>

namespace tickscope {

void TaskTable::Recorder::note(int64_t ts, int32_t pid, uint32_t comm)
{
    auto [it, inserted] = last_.try_emplace(pid, comm);
    if (!inserted) {
        if (it->second == comm) return;
        it->second = comm;
    }
    entries.push_back({ts, pid, comm});
}

void TaskTable::merge(std::vector<Entry> &&entries)
{
    if (entries_.empty())
        entries_ = std::move(entries);
    else
        entries_.insert(entries_.end(), entries.begin(), entries.end());
}

void TaskTable::finalize()
{
    std::stable_sort(entries_.begin(), entries_.end(), [](const Entry &a, const Entry &b) {
        return a.pid != b.pid ? a.pid < b.pid : a.since < b.since;
    });
    std::vector<Entry> out;
    out.reserve(entries_.size());
    for (const auto &e : entries_) {
        if (!out.empty() && out.back().pid == e.pid && out.back().comm == e.comm) continue;
        out.push_back(e);
    }
    entries_ = std::move(out);
}

uint32_t TaskTable::comm(int32_t pid, int64_t ts) const
{
    auto lo = std::lower_bound(entries_.begin(), entries_.end(), pid,
                               [](const Entry &e, int32_t p) { return e.pid < p; });
    if (lo == entries_.end() || lo->pid != pid) return 0;
    auto hi = std::upper_bound(lo, entries_.end(), pid, [](int32_t p, const Entry &e) { return p < e.pid; });
    auto it = std::upper_bound(lo, hi, ts, [](int64_t t, const Entry &e) { return t < e.since; });
    return it == lo ? lo->comm : std::prev(it)->comm;
}

size_t TaskTable::taskCount() const
{
    size_t n = 0;
    for (size_t i = 0; i < entries_.size(); ++i) {
        if (i == 0 || entries_[i].pid != entries_[i - 1].pid) ++n;
    }
    return n;
}

} // namespace tickscope
