// SPDX-License-Identifier: GPL-3.0-or-later
#include "Allocator.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace tickscope {

void keepFreedMemory()
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 512 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

} // namespace tickscope
