// SPDX-License-Identifier: GPL-3.0-or-later
#include "EventFilter.h"

#include "EventFormat.h"

#include "util/Parallel.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <optional>
#include <stdexcept>

namespace tickscope {

namespace {

bool containsNoCase(std::string_view hay, std::string_view needle)
{
    if (needle.empty()) return true;
    auto eq = [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    };
    return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), eq) != hay.end();
}

bool cancelled(const std::atomic<bool> *cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}

} // namespace

EventFilter EventFilter::make(const Trace &trace, int cpu, std::string_view task, std::string_view event)
{
    EventFilter f;
    if (cpu >= 0) {
        f.cpus.assign(static_cast<size_t>(trace.cpuCount()), false);
        if (cpu < trace.cpuCount()) f.cpus[static_cast<size_t>(cpu)] = true;
    }
    if (!event.empty()) {
        const auto &types = trace.types();
        f.types.assign(types.size(), false);
        bool exact = false;
        for (size_t t = 0; t < types.size(); ++t) {
            if (types[t].name == event) f.types[t] = exact = true;
        }
        if (!exact) {
            for (size_t t = 0; t < types.size(); ++t)
                f.types[t] = containsNoCase(types[t].name, event);
        }
    }
    if (!task.empty()) {
        f.taskGiven = true;
        int32_t pid = 0;
        const auto [end, ec] = std::from_chars(task.data(), task.data() + task.size(), pid);
        if (ec == std::errc() && end == task.data() + task.size()) {
            f.pids.push_back(pid);
        } else {
            for (const TaskTable::Entry &e : trace.tasks.entries()) {
                if (containsNoCase(trace.strings.str(e.comm), task)) f.pids.push_back(e.pid);
            }
            for (int c = 0; c < trace.cpuCount(); ++c) // pid 0 is shown as swapper/CPU (taskComm)
                if (containsNoCase("swapper/" + std::to_string(c), task)) f.pids.push_back(0);
        }
        std::sort(f.pids.begin(), f.pids.end());
        f.pids.erase(std::unique(f.pids.begin(), f.pids.end()), f.pids.end());
    }
    return f;
}

bool EventFilter::matches(int cpu, uint16_t type, int32_t pid) const
{
    if (!cpus.empty() && (cpu >= static_cast<int>(cpus.size()) || !cpus[static_cast<size_t>(cpu)]))
        return false;
    if (!types.empty() && (type >= types.size() || !types[type])) return false;
    if (taskGiven && !std::binary_search(pids.begin(), pids.end(), pid)) return false;
    return true;
}

bool mergedBefore(const Trace &trace, EventPos a, EventPos b)
{
    const int64_t ta = trace.cpu(a.cpu).ts(a.index), tb = trace.cpu(b.cpu).ts(b.index);
    if (ta != tb) return ta < tb;
    return a.cpu != b.cpu ? a.cpu < b.cpu : a.index < b.index;
}

std::optional<std::vector<EventKey>> filterEvents(const Trace &trace, const EventFilter &filter,
                                                  const std::atomic<bool> *cancel, int threads)
{
    // Chunks of merged rows, each read by a cursor placed at its first row, with a Cursor per CPU for the
    // types and tasks (made where the chunk first meets the CPU); the chunks' kept events joined in order.
    for (int c = 0; c < trace.cpuCount(); ++c) // (a kept event is its CPU's index in 32 bits)
        if (trace.cpu(c).size() > UINT32_MAX) throw std::length_error("more than 4G events on one CPU");
    const size_t n = trace.eventCount();
    constexpr size_t kChunk = size_t{1} << 18;
    const size_t chunks = (n + kChunk - 1) / kChunk;
    std::vector<std::vector<EventKey>> kept(chunks);
    std::atomic<bool> stopped{false};
    parallelFor(chunks, chunks > 1 ? defaultThreads(threads) : 1, [&](size_t k) {
        const size_t first = k * kChunk, end = std::min(n, first + kChunk);
        std::vector<std::optional<CpuEvents::Cursor>> cur(static_cast<size_t>(trace.cpuCount()));
        std::vector<EventKey> &out = kept[k];
        MergedCursor m(trace, first);
        for (size_t row = first; row < end && m.valid(); ++row, m.next()) {
            if (((row - first) & 0xffff) == 0 && cancelled(cancel)) {
                stopped = true;
                return;
            }
            const EventPos e = m.pos();
            std::optional<CpuEvents::Cursor> &c = cur[static_cast<size_t>(e.cpu)];
            if (!c) c.emplace(trace.cpu(e.cpu), e.index);
            if (filter.matches(e.cpu, trace.cpu(e.cpu).type(e.index), c->pid())) out.push_back(keyOf(e));
            c->next();
        }
    });
    if (stopped || cancelled(cancel)) return std::nullopt;
    size_t total = 0;
    for (const auto &v : kept)
        total += v.size();
    // Each chunk's events freed once copied: the joined rows' pages are touched as they are filled, so
    // about one copy of the kept events is resident at a time, not two.
    std::vector<EventKey> rows;
    rows.reserve(total);
    for (auto &v : kept) {
        rows.insert(rows.end(), v.begin(), v.end());
        std::vector<EventKey>().swap(v);
    }
    return rows;
}

std::string searchText(const Trace &trace, EventPos e)
{
    const CpuEvents &ev = trace.cpu(e.cpu);
    const int32_t pid = ev.pid(e.index);
    std::string s = taskComm(trace, e.cpu, e.index);
    s += ':';
    s += std::to_string(pid);
    s += ' ';
    s += trace.types()[ev.type(e.index)].name;
    s += ' ';
    s += formatEventFields(trace, e.cpu, e.index);
    return s;
}

namespace {

// The search of findRow over n rows from `from` on (or back): chunks of rows in search order, taken in that
// order by the threads; a chunk after the first one known to match is skipped. scan(lo, hi, forward, stop)
// searches the rows [lo, hi] (the chunk's, ascending) and gives the first match in search order or -1;
// stop() says the chunk's search may end (cancelled, or an earlier chunk matched).
template <class Scan>
int64_t searchChunks(int64_t n, int64_t from, bool forward, int64_t chunk, const std::atomic<bool> *cancel,
                     Scan scan)
{
    if (from < 0 || from >= n) return -1;
    const int64_t span = forward ? n - from : from + 1;
    const auto chunks = static_cast<size_t>((span + chunk - 1) / chunk);
    std::atomic<size_t> best{chunks};
    std::vector<int64_t> found(chunks, -1);
    auto item = [&](size_t k) {
        const int64_t a = static_cast<int64_t>(k) * chunk;
        const int64_t b = std::min(span, a + chunk) - 1; // the chunk's rows a..b from `from`
        const auto stop = [&] { return cancelled(cancel) || best.load(std::memory_order_relaxed) < k; };
        const int64_t r =
            forward ? scan(from + a, from + b, true, stop) : scan(from - b, from - a, false, stop);
        if (r < 0 || cancelled(cancel)) return;
        found[k] = r;
        size_t cur = best.load();
        while (k < cur && !best.compare_exchange_weak(cur, k)) {
        }
    };
    parallelFor(chunks, chunks > 1 ? defaultThreads(0) : 1, item);
    if (cancelled(cancel)) return -1;
    const size_t k = best.load();
    return k < chunks ? found[k] : -1;
}

// findRow over n rows whose events posAt(row) gives at once (a stored list), in chunks of 2^14.
template <class PosAt>
int64_t findListed(const Trace &trace, int64_t n, int64_t from, bool forward, std::string_view needle,
                   const std::atomic<bool> *cancel, PosAt posAt)
{
    return searchChunks(n, from, forward, int64_t{1} << 14, cancel,
                        [&](int64_t lo, int64_t hi, bool fwd, const auto &stop) -> int64_t {
                            for (int64_t j = 0; j <= hi - lo; ++j) {
                                if ((j & 0xfff) == 0 && stop()) return -1;
                                const int64_t r = fwd ? lo + j : hi - j;
                                if (containsNoCase(searchText(trace, posAt(static_cast<size_t>(r))), needle))
                                    return r;
                            }
                            return -1;
                        });
}

} // namespace

int64_t findRow(const Trace &trace, int64_t from, bool forward, std::string_view needle,
                const std::atomic<bool> *cancel)
{
    // Each chunk places a cursor at its first row (a search of every CPU's timestamps) and reads on. A
    // backward chunk is read in pieces from its top down, each piece forward with its last match taken:
    // a match just before `from` is found after a piece, not the chunk.
    constexpr int64_t kPiece = int64_t{1} << 12;
    return searchChunks(static_cast<int64_t>(trace.eventCount()), from, forward, int64_t{1} << 16, cancel,
                        [&](int64_t lo, int64_t hi, bool fwd, const auto &stop) -> int64_t {
                            for (int64_t top = hi; top >= lo; top -= kPiece) {
                                const int64_t first = fwd ? lo : std::max(lo, top - kPiece + 1);
                                const int64_t last = fwd ? hi : top;
                                int64_t match = -1;
                                MergedCursor c(trace, static_cast<size_t>(first));
                                for (int64_t r = first; r <= last && c.valid(); ++r, c.next()) {
                                    if (((r - first) & 0xfff) == 0 && stop()) return -1;
                                    if (!containsNoCase(searchText(trace, c.pos()), needle)) continue;
                                    if (fwd) return r;
                                    match = r;
                                }
                                if (fwd || match >= 0) return match;
                            }
                            return -1;
                        });
}

int64_t findRow(const Trace &trace, const std::vector<EventKey> &rows, int64_t from, bool forward,
                std::string_view needle, const std::atomic<bool> *cancel)
{
    return findListed(trace, static_cast<int64_t>(rows.size()), from, forward, needle, cancel,
                      [&](size_t r) { return posOf(rows[r]); });
}

} // namespace tickscope
