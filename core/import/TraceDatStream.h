// SPDX-License-Identifier: GPL-3.0-or-later
// A trace.dat read a slice of time at a time, for an analysis that keeps only a window of the events:
// every CPU's pages are decoded in time lockstep into the same Trace (event indices stay those of the
// whole file), so that the caller can take the new events after each step and release the old ones.
// The events, lost ranges and task names come out as loadTrace gives them.
#pragma once

#include "Loader.h"

#include <memory>
#include <string>
#include <vector>

namespace tickscope {

class TraceDatStream
{
public:
    // Reads the file's layout, formats and names, and reserves every CPU's columns; decodes no page yet.
    // One buffer instance: options.instance, else the only one with events. Throws LoadError (naming the
    // file) for a text trace, a file only libtracecmd reads, and all that loadTrace refuses.
    TraceDatStream(const std::string &path, const LoadOptions &options);
    ~TraceDatStream();
    TraceDatStream(const TraceDatStream &) = delete;
    TraceDatStream &operator=(const TraceDatStream &) = delete;

    Trace &trace();
    // The earliest header time of a page not decoded yet, over all CPUs (INT64_MAX: all are).
    int64_t nextPageTs();
    // Per CPU (by CPU number, cpuCount() long): the time after which it lost events that the pages decoded
    // so far do not show yet (the page after them is next); INT64_MIN: its data opens with lost events, not
    // read yet; INT64_MAX: none.
    std::vector<int64_t> lostBeforeNextPages();
    // Decodes, on every CPU, the pages whose header time is at or before t, then brings the task table
    // up to date. Returns false once every CPU's data has ended.
    bool decodeThrough(int64_t t);
    // Whether the events decoded so far hold function_graph calls (funcgraph_exit records; the calls need
    // the whole trace: finish() makes them only if no event was handed back).
    bool functionGraphSeen() const;
    // After the last step: the warnings loadTrace would give. Throws LoadError when a CPU's events went
    // back in time (a loaded trace sorts them; a stream has handed the earlier ones on already).
    void finish();

private:
    struct Impl;
    std::unique_ptr<Impl> d_;
};

} // namespace tickscope
