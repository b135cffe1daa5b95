// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI's settings of the C library's allocator, set first thing in main (and by the benchmarks that
// measure what the GUI does).
#pragma once

namespace tickscope {

// Memory the load, the analysis and the panels free stays with the process and is reused by the next
// allocations (glibc otherwise unmaps big blocks and trims the heap): the first touch of a fresh page
// costs more than the work done in it on VMs, and this cut the CPU time of opening a 5.7 M-event trace
// by 10-20 %. The GUI keeps its trace for its lifetime, so little is ever handed back anyway.
void keepFreedMemory();

} // namespace tickscope
