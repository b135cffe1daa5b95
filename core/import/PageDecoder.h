// SPDX-License-Identifier: GPL-3.0-or-later
// The fast path: one CPU's ring-buffer pages, read straight from the mapped file (decompressing v7
// chunks), walked with libtraceevent's kbuffer and decoded by a RecordDecoder.
#pragma once

#include "DatLayout.h"
#include "Loader.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

struct tep_handle;

namespace tickscope {

class CpuEvents;
class RecordDecoder;

struct PageSource
{
    int fd = -1; // read with pread: the pages pass through small buffers, never all resident at once
    uint64_t fileSize = 0;
    const DatLayout *layout = nullptr;
    DatCpuData cpu;
    bool oldFormat = false;                   // tep_is_old_format()
    int64_t from = INT64_MIN, to = INT64_MAX; // decode only the events in [from, to] (absolute ns)
    // Only part `part` of `parts` equal parts of the pages (raw) or compressed chunks: one busy CPU's data
    // decoded on several threads, the parts joined in order afterwards (CpuEvents::appendEvents).
    uint32_t part = 0, parts = 1;
    // CpuPageStream's raw reads (at least a page): a stream keeps one such buffer per CPU.
    uint32_t readBytes = 64u << 10;
    // CpuPageStream: the bytes each of the CPU's event columns populates ahead (CpuEvents::reserve).
    uint32_t populateAhead = 0;
};

// What one CPU's data spans and holds, from a few page headers (no events are decoded): the timestamps
// of its first and last pages, and the bytes of page data in [src.from, src.to] (all of it without a
// window; pages found by binary search over their timestamps in a raw file, the time's share of the
// data in a compressed one). first > last when the CPU has no data.
struct CpuExtent
{
    int64_t first = INT64_MAX, last = INT64_MIN;
    uint64_t bytes = 0;
};
CpuExtent cpuExtent(const PageSource &src);

// Appends the CPU's events to out. Returns a warning when the data ends early (truncated/corrupt).
std::string decodeCpuPages(const PageSource &src, RecordDecoder &dec, CpuEvents &out,
                           const std::function<void(double)> &progress, const LoadOptions &options);

// One CPU's pages decoded a slice of time at a time, in order, into the same CpuEvents (for an analysis
// that keeps only a window of the events): the same events, lost ranges and task names as decodeCpuPages.
class CpuPageStream
{
public:
    CpuPageStream(const PageSource &src, RecordDecoder &dec, CpuEvents &out, const LoadOptions &options);
    ~CpuPageStream();
    // Decodes the pages whose header time is at or before t (whole pages: the last may hold later events).
    // Returns false once the data has ended (then warning() says whether it ended early).
    bool decodeThrough(int64_t t);
    int64_t nextPageTs(); // the next page's header time, INT64_MAX at the end
    // The next page says events were lost before it: the time of the last event taken (where the gap the
    // loader will record begins), INT64_MIN when none was taken yet (the gap opens the CPU's data); else
    // INT64_MAX.
    int64_t lostBeforeNextPage();
    const std::string &warning() const;

private:
    struct Impl;
    std::unique_ptr<Impl> d_;
};

// The pages of one CPU that say events were lost before them (RB_MISSED_EVENTS), by their number among
// the CPU's pages, with the count stored (0: not said), and the number of its first page with an event.
// libtracecmd reports a gap only on a page's first record, which a time extend at the page's start hides:
// its path puts the gaps where these say.
struct PageGaps
{
    uint64_t firstWithEvents = UINT64_MAX;
    std::vector<std::pair<uint64_t, uint64_t>> missed;
};

// Only checks that every page of the CPU is sound (pageIsSound): the check the libtracecmd path
// needs before libtracecmd reads the same pages. sound: false when a page is not. Returns the
// truncated warning or "". gaps: filled for the libtracecmd path.
std::string checkCpuPages(const PageSource &src, const LoadOptions &options, bool &sound,
                          PageGaps *gaps = nullptr);

} // namespace tickscope
