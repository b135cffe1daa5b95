// SPDX-License-Identifier: GPL-3.0-or-later
#include "Column.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace tickscope::detail {

namespace {
// The biggest columns ask for transparent huge pages: in a VM with shadow paging the first touch of
// every 4 KiB page exits to the hypervisor, and that, not decoding, dominated a multi-million-event
// load. The cost is at most one partly used 2 MiB page per growing column, handed back by trim().
constexpr size_t kHugeFrom = 8u << 20;
#ifndef MADV_POPULATE_WRITE
constexpr int MADV_POPULATE_WRITE = 23; // Linux 5.14; older kernels answer EINVAL and fault lazily
#endif
size_t pageRound(size_t bytes)
{
    static const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    return (bytes + page - 1) / page * page;
}
// Mappings are kept for reuse when freed, up to a few written megabytes in all: in a VM with shadow paging
// the first write to each page of a fresh mapping exits to the hypervisor (5.6-8 us a page measured here,
// against 0.1 us for a page written before), and mmap, populate and munmap are a system call each, some of
// them with a TLB flush on every CPU the process ran on. The simulator's runs (a what-if panel re-runs it
// at every change) make a few hundred columns of a few pages each, and some reserved from an estimate,
// and free them again. A kept mapping holds its written pages, so the cache is small; it is zeroed up to
// where it was written before it is handed out again, so a column sees what a fresh mapping gives. A
// mapping serves a column of the same length: small ones are rounded up to a power of two so that columns
// of similar sizes share them (address space only: pages are populated as values arrive).
constexpr size_t kRoundUpTo = 1u << 20;   // mapping length rounded to a power of two up to here
constexpr size_t kKeepUpTo = 64u << 20;   // mapping length kept (address space: its written pages count)
constexpr size_t kKeepDirty = 512u << 10; // written bytes of one kept mapping: a big load's parts are not
constexpr size_t kKeptBytes = 16u << 20;  // written bytes held by kept mappings, all together
constexpr size_t kKeptMappings = 1024;    // and how many (one never written holds no bytes)
struct Kept
{
    void *p;
    size_t len;
    size_t dirty;
    bool guarded; // inaccessible until handed out again
};
// A kept mapping would let a column's data used after the column was freed read on without a fault. With
// the guard on, a kept mapping can be neither read nor written until it serves a column again, so such a
// use faults as it would on an unmapped one. On in sanitizer builds (the fuzz targets) and with
// TICKSCOPE_GUARD_FREED_COLUMNS set; two system calls more per kept mapping.
bool guardByDefault()
{
#if defined(__SANITIZE_ADDRESS__)
    return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return true;
#endif
#endif
    return std::getenv("TICKSCOPE_GUARD_FREED_COLUMNS") != nullptr;
}
std::atomic<bool> gGuard{guardByDefault()};
struct KeptMappings
{
    std::mutex mutex;
    std::vector<Kept> list; // most recently freed last
    size_t dirty = 0;
};
KeptMappings &kept()
{
    static auto *k = new KeptMappings; // never destroyed: a column may be freed after static destructors ran
    return *k;
}

size_t mapLength(size_t bytes)
{
    const size_t len = pageRound(bytes);
    if (len > kRoundUpTo) return len;
    size_t pow = pageRound(1);
    while (pow < len)
        pow *= 2;
    return pow;
}

thread_local unsigned gDepth = 0;        // ColumnReleaseBatch objects alive on this thread
thread_local std::vector<iovec> gRanges; // what they will hand back
std::atomic<size_t> gCalls{0}, gRangeCount{0};

// One process_madvise(MADV_DONTNEED) over all ranges, or false when the kernel does not take it (6.1 lets
// only a few other advices through it, and it is missing before 5.10): then madvise does each range.
bool releaseTogether(std::vector<iovec> &ranges)
{
#if defined(SYS_pidfd_open) && defined(SYS_process_madvise)
    // (this process's own: a child forked later would name its parent with the same descriptor)
    static const pid_t self = ::getpid();
    static const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, static_cast<long>(self), 0UL));
    static std::atomic<bool> works{true};
    if (pidfd < 0 || ::getpid() != self || !works.load(std::memory_order_relaxed)) return false;
    static const size_t maxIov = static_cast<size_t>(std::max(1L, ::sysconf(_SC_IOV_MAX)));
    size_t done = 0;
    while (done < ranges.size()) {
        const size_t n = std::min(maxIov, ranges.size() - done);
        size_t want = 0;
        for (size_t k = done; k < done + n; ++k)
            want += ranges[k].iov_len;
        gCalls.fetch_add(1, std::memory_order_relaxed);
        const long got = ::syscall(SYS_process_madvise, static_cast<long>(pidfd), ranges.data() + done,
                                   static_cast<unsigned long>(n), static_cast<long>(MADV_DONTNEED), 0UL);
        if (got < 0 && done == 0) {
            // the kernel does not take it at all (an unmapped range, ENOMEM, is this batch's alone)
            if (errno == EINVAL || errno == ENOSYS || errno == EPERM || errno == EBADF)
                works.store(false, std::memory_order_relaxed);
            return false;
        }
        if (got < 0 || static_cast<size_t>(got) != want) { // the rest one by one
            size_t skip = got < 0 ? 0 : static_cast<size_t>(got);
            for (size_t k = done; k < ranges.size(); ++k) {
                if (skip >= ranges[k].iov_len) {
                    skip -= ranges[k].iov_len;
                    continue;
                }
                ::madvise(static_cast<char *>(ranges[k].iov_base) + skip, ranges[k].iov_len - skip,
                          MADV_DONTNEED);
                skip = 0;
            }
            return true;
        }
        done += n;
    }
    return true;
#else
    (void)ranges;
    return false;
#endif
}
} // namespace

void *columnMap(size_t bytes, bool huge, bool reuse)
{
    const size_t len = mapLength(bytes);
    if (reuse && len <= kKeepUpTo) {
        Kept k{nullptr, 0, 0, false};
        {
            KeptMappings &all = kept();
            const std::lock_guard<std::mutex> lock(all.mutex);
            for (size_t i = all.list.size(); i-- > 0;) {
                if (all.list[i].len != len) continue;
                k = all.list[i];
                all.list.erase(all.list.begin() + static_cast<std::ptrdiff_t>(i));
                all.dirty -= k.dirty;
                break;
            }
        }
        if (k.p) {
            if (k.guarded && ::mprotect(k.p, k.len, PROT_READ | PROT_WRITE) != 0) throw std::bad_alloc();
            std::memset(k.p, 0, k.dirty);
            return k.p;
        }
    }
    void *p =
        ::mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    if (huge && len >= kHugeFrom) ::madvise(p, len, MADV_HUGEPAGE);
    return p;
}

// Guarded, a released head can no longer be read: a reader left behind faults instead of reading zeros.
// (A check, not a need: when the kernel refuses, out of mappings, the head stays readable.)
static void guardHead(void *from, size_t bytes)
{
    if (gGuard.load(std::memory_order_relaxed)) ::mprotect(from, bytes, PROT_NONE);
}

void *columnRemap(void *p, size_t oldBytes, size_t newBytes, bool huge, size_t releasedBytes)
{
    // A guarded head is a mapping of its own to the kernel (other protections), and mremap moves one
    // mapping only: the head is opened for the move and guarded again at the new address.
    const bool guarded = releasedBytes && gGuard.load(std::memory_order_relaxed);
#if defined(__SANITIZE_THREAD__)
    // ThreadSanitizer does not see mremap: its shadow of the address a column moves to keeps the
    // accesses of whatever lived there before, and reports races that are not. Copy instead (the values
    // still held: the head reads as zeros in the new mapping as it did in the old one).
    void *q = columnMap(newBytes, huge, false);
    const size_t keep = std::min(oldBytes, newBytes);
    if (keep > releasedBytes)
        std::memcpy(static_cast<char *>(q) + releasedBytes, static_cast<char *>(p) + releasedBytes,
                    keep - releasedBytes);
    columnUnmap(p, oldBytes, SIZE_MAX);
#else
    if (guarded && ::mprotect(p, releasedBytes, PROT_READ | PROT_WRITE) != 0) throw std::bad_alloc();
    void *q = ::mremap(p, mapLength(oldBytes), mapLength(newBytes), MREMAP_MAYMOVE);
    if (q == MAP_FAILED) throw std::bad_alloc();
#endif
    if (guarded) guardHead(q, releasedBytes);
    if (huge && newBytes >= kHugeFrom) ::madvise(q, pageRound(newBytes), MADV_HUGEPAGE);
    return q;
}

void columnUnmap(void *p, size_t bytes, size_t dirtyBytes)
{
    const size_t len = mapLength(bytes);
    if (len <= kKeepUpTo && dirtyBytes <= kKeepDirty) {
        const size_t dirty = std::min(pageRound(dirtyBytes), len);
        const bool guarded = gGuard.load(std::memory_order_relaxed) && ::mprotect(p, len, PROT_NONE) == 0;
        KeptMappings &all = kept();
        const std::lock_guard<std::mutex> lock(all.mutex);
        if (all.dirty + dirty <= kKeptBytes && all.list.size() < kKeptMappings) {
            all.list.push_back({p, len, dirty, guarded});
            all.dirty += dirty;
            return;
        }
    }
    ::munmap(p, len);
}

bool columnGuardKept(bool on)
{
    return gGuard.exchange(on);
}

size_t columnDropKept()
{
    KeptMappings &all = kept();
    const std::lock_guard<std::mutex> lock(all.mutex);
    for (const Kept &k : all.list)
        ::munmap(k.p, k.len);
    all.list.clear();
    return std::exchange(all.dirty, 0);
}

size_t columnTrim(void *p, size_t usedBytes, size_t mappedBytes)
{
    if (!p) return 0;
    const size_t keep = pageRound(usedBytes);
    const size_t len = pageRound(mappedBytes);
    if (len > keep) ::madvise(static_cast<char *>(p) + keep, len - keep, MADV_DONTNEED);
    return keep;
}

size_t columnPageFloor(size_t bytes)
{
    return bytes / pageRound(1) * pageRound(1);
}

size_t columnReleaseHead(void *p, size_t releasedBytes, size_t bytes)
{
    const size_t whole = columnPageFloor(bytes);
    if (!p || whole <= releasedBytes) return releasedBytes;
    char *from = static_cast<char *>(p) + releasedBytes;
    if (gDepth) {
        gRanges.push_back({from, whole - releasedBytes});
    } else {
        ::madvise(from, whole - releasedBytes, MADV_DONTNEED);
        guardHead(from, whole - releasedBytes);
    }
    return whole;
}

size_t columnPopulate(void *p, size_t populatedBytes, size_t needBytes, size_t capBytes)
{
    // Stretches double from one page up to 64 KiB: a small column (one of thousands of CPUs with a few
    // events each) touches a page, not 64 KiB.
    constexpr size_t kStep = size_t{64} * 1024;
    const size_t from = populatedBytes;
    const size_t step = std::clamp(from, pageRound(1), kStep);
    size_t to = std::max(pageRound(needBytes), from + step);
    to = std::min(to, pageRound(capBytes));
    if (to > from) ::madvise(static_cast<char *>(p) + from, to - from, MADV_POPULATE_WRITE);
    return std::max(to, needBytes);
}

size_t columnPopulateAhead(void *p, size_t populatedBytes, size_t needBytes, size_t aheadBytes,
                           size_t capBytes)
{
    // From the end of the stretch the last call populated to `aheadBytes` past the page of the value
    // written now.
    const size_t page = pageRound(1);
    const size_t from = populatedBytes / page * page;
    const size_t to = std::min(pageRound(needBytes) + pageRound(aheadBytes), pageRound(capBytes));
    if (to > from) ::madvise(static_cast<char *>(p) + from, to - from, MADV_POPULATE_WRITE);
    return std::max(to, needBytes);
}

} // namespace tickscope::detail

namespace tickscope {

ColumnReleaseBatch::ColumnReleaseBatch()
{
    ++detail::gDepth;
}

ColumnReleaseBatch::~ColumnReleaseBatch()
{
    if (--detail::gDepth) return; // an outer batch hands back at its end
    std::vector<iovec> &ranges = detail::gRanges;
    if (ranges.empty()) return;
    detail::gRangeCount.fetch_add(ranges.size(), std::memory_order_relaxed);
    if (!detail::releaseTogether(ranges)) {
        for (const iovec &r : ranges) {
            detail::gCalls.fetch_add(1, std::memory_order_relaxed);
            ::madvise(r.iov_base, r.iov_len, MADV_DONTNEED);
        }
    }
    for (const iovec &r : ranges)
        detail::guardHead(r.iov_base, r.iov_len);
    ranges.clear();
}

size_t ColumnReleaseBatch::calls()
{
    return detail::gCalls.load(std::memory_order_relaxed);
}

size_t ColumnReleaseBatch::ranges()
{
    return detail::gRangeCount.load(std::memory_order_relaxed);
}

} // namespace tickscope
