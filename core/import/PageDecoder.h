// The fast path: one CPU's ring-buffer pages, read straight from the mapped file (decompressing v7
// chunks), walked with libtraceevent's kbuffer and decoded by a RecordDecoder.
#pragma once

#include "DatLayout.h"
#include "Loader.h"

#include <functional>
#include <string>

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
    bool oldFormat = false; // tep_is_old_format()
};

// Appends the CPU's events to out. Returns a warning when the data ends early (truncated/corrupt).
std::string decodeCpuPages(const PageSource &src, RecordDecoder &dec, CpuEvents &out,
                           const std::function<void(double)> &progress, const LoadOptions &options);

// Only checks that every page of the CPU is sound (pageIsSound): the check the libtracecmd path
// needs before libtracecmd reads the same pages. sound: false when a page is not. Returns the
// truncated warning or "".
std::string checkCpuPages(const PageSource &src, const LoadOptions &options, bool &sound);

} // namespace tickscope
