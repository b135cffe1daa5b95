// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the two trace.dat import paths (the page decoder's and libtracecmd's): threads,
// progress, per-instance decode state, instance choice, phase timing. Internal to core/import.
#pragma once

#include "DatLayout.h"
#include "Loader.h"
#include "RecordDecoder.h"
#include "util/Parallel.h"
#include "util/PhaseClock.h"

#include <algorithm>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace tickscope {

class TraceDatHandle;

// Per-CPU (or per-part) progress, reported as one fraction under a lock (the callback is never re-entered).
class Progress
{
public:
    Progress(const LoadOptions &o, int cpus) : options_(o), done_(static_cast<size_t>(cpus), 0.0) {}
    void set(int cpu, double fraction);
    // Progress in `slots` parts instead of one per CPU (set(slot, fraction)); before any set().
    void resize(int slots) { done_.assign(static_cast<size_t>(std::max(slots, 0)), 0.0); }

private:
    const LoadOptions &options_;
    std::mutex mutex_;
    std::vector<double> done_;
};

// The time from `from` to `to` in ns, as a double and without an int64 difference: two timestamps of a
// damaged file can lie further apart than int64 holds (-4.6e18 and 5.5e18 were seen).
inline double nsBetween(int64_t from, int64_t to)
{
    return static_cast<double>(to) - static_cast<double>(from);
}

inline int hardwareThreads(const LoadOptions &o)
{
    return defaultThreads(o.threads);
}

// The trace clock in use from the saved trace_clock file ("[local] global counter ..." -> "local").
std::string selectedTraceClock(std::string_view traceClockFile);

// What the threads decoding one instance share.
struct DecodeState
{
    Trace &trace;
    const EventLayouts &layouts;
    Progress progress;
    std::vector<std::string> cpuWarnings;
    std::mutex mutex;
    size_t unknown = 0;

    DecodeState(Trace &t, const EventLayouts &l, const LoadOptions &o)
        : trace(t), layouts(l), progress(o, t.cpuCount()), cpuWarnings(static_cast<size_t>(t.cpuCount()))
    {
    }
    void finishThread(RecordDecoder &dec);
    void finish();
};

// The instances to load: options.instance, else every one with events (from the layout when given,
// else from libtracecmd's handle). With requireOne, several is a LoadError naming them.
std::vector<std::string> chooseInstances(const std::string &path, TraceDatHandle *file,
                                         const DatLayout *layout, const LoadOptions &options,
                                         bool requireOne);

} // namespace tickscope
