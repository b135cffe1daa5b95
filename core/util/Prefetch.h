// SPDX-License-Identifier: GPL-3.0-or-later
// Software prefetch: asks the CPU to start loading memory that a later step will read, so that several
// independent cache misses are in flight at once instead of one after the other. The timeline's column
// summaries use it: each column edge reads a dozen arrays at a position only known after a search, and
// at a zoomed-out view every edge lands on lines no earlier edge touched.
#pragma once

#include <cstddef>

namespace tickscope {

inline void prefetch(const void *p)
{
#if defined(__x86_64__) || defined(__i386__)
    // GCC 12 at -O1 and above dropped every __builtin_prefetch of the column summaries (none were left
    // in the object code, and a loop of them in a small test vanished too); an asm statement stays.
    asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char *>(p)));
#else
    __builtin_prefetch(p, 0, 3);
#endif
}

// Every cache line of [p, p + bytes).
inline void prefetchBytes(const void *p, size_t bytes)
{
    constexpr size_t kLine = 64;
    const char *c = static_cast<const char *>(p);
    for (size_t k = 0; k < bytes; k += kLine)
        prefetch(c + k);
    if (bytes) prefetch(c + bytes - 1);
}

} // namespace tickscope
