// SPDX-License-Identifier: GPL-3.0-or-later
#include "UnknownStretches.h"

#include "CrossCpuModes.h"

#include <algorithm>

namespace tickscope {

void UnknownStretches::open(size_t at, int32_t pid, bool scheduled, int32_t prev)
{
    const bool head = scheduled && prev == -1;
    if (head && (scheduledOpens_.empty() || scheduledOpens_.back() != at))
        scheduledOpens_.push_back(static_cast<uint32_t>(at));
    const auto change = static_cast<uint32_t>(out_.task.changes() - 1);
    // A stretch closed at the event this one begins at (the trace began in it, and its first event
    // switched it out) has no time of its own: the change there is this stretch's.
    if (!closed_.empty() && closed_.back().m.switchIndex == at && closed_.back().m.change == change)
        closed_.back().m.changeEnd = change;
    open_.active = true;
    open_.prev = prev;
    open_.m = {static_cast<uint32_t>(at),
               pid,
               change,
               0,
               static_cast<uint32_t>(out_.ticks.size()),
               0,
               static_cast<uint32_t>(out_.localTimerTicks.size()),
               0,
               PendingMode::kHead};
    open_.m.scheduled = scheduled;
    open_.m.head = head;
    // (a number of its own: two stretches may begin at one task-lane change, which the second replaces)
    open_.m.root = prev >= 0 ? closed_[static_cast<size_t>(prev)].m.root : nextRoot_++;
}

int32_t UnknownStretches::close()
{
    if (!open_.active) return -1;
    open_.active = false;
    PendingMode m = open_.m;
    m.changeEnd = static_cast<uint32_t>(out_.task.changes());
    m.tickEnd = static_cast<uint32_t>(out_.ticks.size());
    m.localTickEnd = static_cast<uint32_t>(out_.localTimerTicks.size());
    closed_.push_back({m, open_.prev, false});
    return static_cast<int32_t>(closed_.size() - 1);
}

void UnknownStretches::resolve(TaskState mode)
{
    if (!open_.active) return;
    const int32_t index = close();
    resolveChain(index, mode);
}

void UnknownStretches::resolveChain(int32_t index, TaskState mode)
{
    for (int32_t k = index; k >= 0 && !closed_[static_cast<size_t>(k)].resolved;) {
        Stretch &s = closed_[static_cast<size_t>(k)];
        apply(out_, s.m, mode);
        s.resolved = true;
        ++resolvedCount_;
        k = s.prev;
    }
}

void UnknownStretches::apply(CpuAnalysis &out_, const PendingMode &m, TaskState mode)
{
    const uint8_t code = StateCode::task(mode);
    out_.setChainMode(m.root, code);
    // (the codes a stream handed back read as lost: nothing reads them again)
    for (size_t c = std::max<size_t>(m.change, out_.task.firstLiveCode()); c < m.changeEnd; ++c) {
        // the mode-unknown changes only, not a lost-events stretch (detail kDetailLost) inside the range
        if (out_.task.code(c) == StateCode::task(TaskState::Unknown)) out_.task.relabel(c, code);
    }
    const TickContext ctx = mode == TaskState::User ? TickContext::User : TickContext::Kernel;
    // (ticks handed back by the stream are left alone: it was told of the ones it folded)
    const size_t end = std::min<size_t>(m.tickEnd, out_.ticks.size());
    for (size_t t = std::max<size_t>(m.tick, out_.ticks.firstLive()); t < end; ++t) {
        if (out_.ticks[t].context == TickContext::Unknown) out_.ticks[t].context = ctx;
    }
    // the local timer candidates are dropped when a tick hrtimer shows up: indices may be stale
    const size_t localEnd = std::min<size_t>(m.localTickEnd, out_.localTimerTicks.size());
    for (size_t t = std::max<size_t>(m.localTick, out_.localTimerTicks.firstLive()); t < localEnd; ++t) {
        if (out_.localTimerTicks[t].context == TickContext::Unknown) out_.localTimerTicks[t].context = ctx;
    }
    if (out_.relabelled) out_.relabelled(m, mode);
}

const PendingMode *UnknownStretches::unresolvedOf(size_t tick, bool local) const
{
    const auto first = [local](const PendingMode &m) { return local ? m.localTick : m.tick; };
    if (open_.active && tick >= first(open_.m)) return &open_.m;
    // closed in task-lane order: their tick ranges ascend and do not overlap
    auto it = std::upper_bound(closed_.begin(), closed_.end(), tick,
                               [&](size_t t, const Stretch &s) { return t < first(s.m); });
    if (it == closed_.begin()) return nullptr;
    --it;
    const uint32_t end = local ? it->m.localTickEnd : it->m.tickEnd;
    return !it->resolved && tick < end ? &it->m : nullptr;
}

uint32_t UnknownStretches::chainAt(size_t change) const
{
    if (open_.active && change >= open_.m.change) return open_.m.root;
    const Stretch *s =
        stretchHolding(closed_, change, [](const Stretch &x) -> const PendingMode & { return x.m; });
    return s && !s->resolved ? s->m.root : SwitchOutCandidate::kNoChain;
}

void UnknownStretches::compact(TaskModeTable &tasks)
{
    // (once the list has doubled since the last time, and something may go: a pass over it per doubling)
    if (closed_.size() < scanAt_ || (resolvedCount_ == 0 && floor_.changes == 0)) return;
    std::vector<uint8_t> continued(closed_.size(), 0);
    for (const Stretch &s : closed_)
        if (s.prev >= 0) continued[static_cast<size_t>(s.prev)] = 1;
    if (open_.prev >= 0) continued[static_cast<size_t>(open_.prev)] = 1;
    // (a stretch no task links to any more is continued by nothing: its task came back after showing its
    // mode or sleeping elsewhere, or left it in a known mode)
    std::vector<uint8_t> linked(closed_.size(), 0);
    tasks.forEach([&](const TaskModeTable::Task &t) {
        if (t.unknownStretch >= 0) linked[static_cast<size_t>(t.unknownStretch)] = 1;
    });
    const auto below = [this](const PendingMode &m) {
        return m.changeEnd <= floor_.changes && m.tickEnd <= floor_.ticks &&
               m.localTickEnd <= floor_.localTicks;
    };
    std::vector<int32_t> to(closed_.size(), kForgotten);
    size_t n = 0;
    for (size_t k = 0; k < closed_.size(); ++k) {
        const Stretch &s = closed_[k];
        if (s.resolved) continue;
        // a follower in the middle of its chain (its successor links to its predecessor instead), or at its
        // end for good
        if (s.prev >= 0 && (continued[k] || !linked[k]) && below(s.m)) {
            to[k] = to[static_cast<size_t>(s.prev)];
            continue;
        }
        to[k] = static_cast<int32_t>(n);
        closed_[n++] = closed_[k];
    }
    closed_.resize(n);
    closed_.shrink_to_fit();
    resolvedCount_ = 0;
    scanAt_ = std::max<size_t>(1024, 2 * n); // (each pass also renumbers every task's link)
    // (a link always names an unresolved stretch: one is resolved only with the stretches that follow it)
    const auto remap = [&](int32_t k) { return k < 0 ? k : to[static_cast<size_t>(k)]; };
    for (Stretch &s : closed_)
        s.prev = remap(s.prev);
    open_.prev = remap(open_.prev);
    tasks.forEach([&](TaskModeTable::Task &t) { t.unknownStretch = remap(t.unknownStretch); });
}

void UnknownStretches::finish()
{
    close();
    // Stretches that began with a sched_switch go to CrossCpuModes, linked to the one they continue (an
    // unresolved stretch's predecessor is unresolved too: a resolution walks back through the chain).
    std::vector<int32_t> pendingIndex(closed_.size(), PendingMode::kLost);
    for (size_t k = 0; k < closed_.size(); ++k) {
        const Stretch &s = closed_[k];
        if (s.resolved || !s.m.scheduled) continue;
        PendingMode m = s.m;
        m.prev = s.prev == kForgotten || s.prev == PendingMode::kLost ? PendingMode::kLost
                 : s.prev < 0                                         ? PendingMode::kHead
                              : pendingIndex[static_cast<size_t>(s.prev)];
        pendingIndex[k] = static_cast<int32_t>(out_.pendingModes.size());
        out_.pendingModes.push_back(m);
    }
    closed_ = {};
}

} // namespace tickscope
