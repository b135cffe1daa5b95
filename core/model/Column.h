// SPDX-License-Identifier: GPL-3.0-or-later
// A growable array of trivially copyable T in its own anonymous mapping: reserving an upper bound costs
// address space only, growth is an mremap (no copy, no transient double footprint), transparent huge
// pages cut page faults on multi-million-event loads, and trim() hands back the untouched tail.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

namespace tickscope {

namespace detail {
// reuse: a kept mapping of a freed column may serve (zeroed; its pages are already there).
void *columnMap(size_t bytes, bool huge, bool reuse);
// releasedBytes: the head handed back (columnReleaseHead), guarded if the guard is on.
void *columnRemap(void *p, size_t oldBytes, size_t newBytes, bool huge, size_t releasedBytes);
// dirtyBytes: how far values may have been written (the mapping may be kept for reuse, zeroed that far).
void columnUnmap(void *p, size_t bytes, size_t dirtyBytes);
size_t columnDropKept(); // unmaps the kept mappings; returns the written bytes they held
// Makes memory handed back from now on inaccessible (a use after free faults); returns the setting before:
// the mappings kept for reuse until they serve a column again, and the heads a stream's columns hand back
// (releaseBefore) for good, where a reader left behind would otherwise read zeros. Turn it off only once
// no column with a head released while it was on is left. On by default in sanitizer builds and with
// TICKSCOPE_GUARD_FREED_COLUMNS in the environment.
bool columnGuardKept(bool on);

size_t columnTrim(void *p, size_t usedBytes, size_t mappedBytes);      // returns the bytes kept
size_t columnReleaseHead(void *p, size_t releasedBytes, size_t bytes); // returns the bytes now released
size_t columnPopulate(void *p, size_t populatedBytes, size_t needBytes, size_t capBytes);
size_t columnPopulateAhead(void *p, size_t populatedBytes, size_t needBytes, size_t aheadBytes,
                           size_t capBytes);
size_t columnPageFloor(size_t bytes); // whole pages
} // namespace detail

// While one lives on a thread, the heads Column::releaseBefore hands back on that thread are gathered and
// handed back when it ends, in one process_madvise call where the kernel takes MADV_DONTNEED through it
// for the calling process (recent kernels: 6.18 does; 6.1 takes only a few other advices), else one
// madvise per range. Each hand-back flushes the TLB of every CPU the process's threads ran on, an
// interprocessor interrupt that costs tens of microseconds in a VM: a stream releasing a few columns per
// CPU per step made tens of thousands. No column may grow, move or be freed while one lives (the ranges
// are addresses).
class ColumnReleaseBatch
{
public:
    ColumnReleaseBatch();
    ~ColumnReleaseBatch();
    ColumnReleaseBatch(const ColumnReleaseBatch &) = delete;
    ColumnReleaseBatch &operator=(const ColumnReleaseBatch &) = delete;

    // How many system calls the batches of this process made, and how many ranges they handed back.
    static size_t calls();
    static size_t ranges();
};

template <class T> class Column
{
    static_assert(std::is_trivially_copyable_v<T>);

public:
    Column() = default;
    ~Column() { release(); }
    Column(const Column &) = delete;
    Column &operator=(const Column &) = delete;
    Column(Column &&o) noexcept { swap(o); }
    Column &operator=(Column &&o) noexcept
    {
        if (this != &o) {
            release();
            swap(o);
        }
        return *this;
    }

    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const T *data() const { return data_; }
    T *data() { return data_; }
    const T &operator[](size_t i) const { return data_[i]; }
    T &operator[](size_t i) { return data_[i]; }
    const T &back() const { return data_[size_ - 1]; }
    T &back() { return data_[size_ - 1]; }
    const T &front() const { return data_[0]; }
    const T *begin() const { return data_; }
    const T *end() const { return data_ + size_; }
    T *begin() { return data_; }
    T *end() { return data_ + size_; }
    void clear() { size_ = 0; }
    // Grows (zero-filled) or shrinks to n values.
    void resize(size_t n)
    {
        if (n > cap_) grow(std::max(n, cap_ * 2));
        if (n * sizeof(T) > populated_) populate(n * sizeof(T));
        if (n > size_) std::memset(static_cast<void *>(data_ + size_), 0, (n - size_) * sizeof(T));
        size_ = n;
    }

    // huge: back the column with transparent huge pages (worth it for the biggest columns only: each
    // growing column keeps one partly used 2 MiB page while loading).
    void reserve(size_t n, bool huge = false)
    {
        huge_ = huge_ || huge;
        if (n > cap_) grow(n);
    }
    void push_back(const T &v)
    {
        if (size_ == cap_) grow(cap_ ? cap_ * 2 : 4096);
        if ((size_ + 1) * sizeof(T) > populated_)
            populate((size_ + 1) * sizeof(T)); // (a value may cross a page)
        data_[size_++] = v;
    }
    // Appends n raw bytes (Column<uint8_t> only).
    void append(const void *p, size_t n)
    {
        static_assert(sizeof(T) == 1);
        if (size_ + n > cap_) grow(std::max(cap_ * 2, size_ + n + 4096));
        if (size_ + n > populated_) populate(size_ + n);
        std::memcpy(data_ + size_, p, n);
        size_ += n;
    }
    // Appends count values.
    void appendAll(const T *p, size_t count)
    {
        if (size_ + count > cap_) grow(std::max(cap_ * 2, size_ + count + 4096));
        if ((size_ + count) * sizeof(T) > populated_) populate((size_ + count) * sizeof(T));
        if (count) std::memcpy(data_ + size_, p, count * sizeof(T));
        size_ += count;
    }
    // Returns the memory of the values before n to the system (whole pages); they read as zeros after.
    void releaseBefore(size_t n)
    {
        released_ = detail::columnReleaseHead(data_, released_, std::min(n, size_) * sizeof(T));
    }
    // What firstLive() would be after releaseBefore(n) (whole pages go: the values before it, at least the
    // ones handed back already).
    size_t releasedBy(size_t n) const
    {
        const size_t bytes = detail::columnPageFloor(std::min(n, size_) * sizeof(T));
        return std::max(firstLive(), std::min(size_, (bytes + sizeof(T) - 1) / sizeof(T)));
    }
    // An empty column taking over from one whose first n values were handed back (releaseBefore): it
    // starts at n values, those read as zeros, and the whole pages they fill are neither written nor
    // populated (a stream that widens a column late copies the live values only).
    void startReleased(size_t n)
    {
        if (n > cap_) grow(n);
        size_ = n;
        released_ = populated_ = detail::columnReleaseHead(data_, 0, n * sizeof(T)); // (nothing written)
    }
    // Fills this empty column with `from`'s values, each through `convert` (a column widened to a bigger
    // type): as lazy and as huge as `from`, and a stream's head that `from` handed back stays handed back
    // (only the values still held are copied).
    template <class U, class Convert> void takeConverted(const Column<U> &from, Convert convert)
    {
        setLazy(from.lazy(), from.aheadBytes());
        reserve(std::max(from.capacity(), from.size() + 1), from.huge());
        const size_t first = from.firstLive(); // (0 outside a stream)
        startReleased(first);
        for (size_t k = first; k < from.size(); ++k)
            push_back(convert(from[k]));
    }
    // Returns the mapping's untouched tail to the system (after loading).
    void trim()
    {
        // (the pages handed back are not written any more: a kept mapping is zeroed only as far as this)
        populated_ = std::min(populated_, detail::columnTrim(data_, size_ * sizeof(T), cap_ * sizeof(T)));
    }
    size_t bytes() const { return size_ * sizeof(T); }
    // The first element releaseBefore left whole (the ones before read as zeros, or partly so).
    size_t firstLive() const { return std::min(size_, (released_ + sizeof(T) - 1) / sizeof(T)); }
    // Bytes not handed back by releaseBefore (clear() keeps the released head: none are then live).
    size_t liveBytes() const { return size_ * sizeof(T) - std::min(released_, size_ * sizeof(T)); }
    size_t capacity() const { return cap_; }
    bool huge() const { return huge_; }
    bool lazy() const { return lazy_; }
    size_t aheadBytes() const { return ahead_; }
    // Lazy: a column whose front moves on and whose head is released (one per CPU in a stream) keeps no
    // 64 KiB stretch populated ahead, only `aheadBytes` (0: pages are faulted in one by one as values are
    // written; a page or two ahead makes it one call per few pages, which a VM takes far faster).
    void setLazy(bool lazy, size_t aheadBytes = 0)
    {
        lazy_ = lazy;
        ahead_ = aheadBytes;
    }

private:
    // Faults the next stretch in with one call: on a VM a page fault per 4 KiB page costs more
    // than the decoding of the events in it.
    void populate(size_t needBytes)
    {
        if (lazy_) {
            populated_ =
                ahead_ ? detail::columnPopulateAhead(data_, populated_, needBytes, ahead_, cap_ * sizeof(T))
                       : needBytes; // faulted in as written
            return;
        }
        populated_ = detail::columnPopulate(data_, populated_, needBytes, cap_ * sizeof(T));
    }
    void grow(size_t n)
    {
        const size_t bytes = n * sizeof(T);
        void *p = data_ ? detail::columnRemap(data_, cap_ * sizeof(T), bytes, huge_, released_)
                        : detail::columnMap(bytes, huge_, !lazy_);
        data_ = static_cast<T *>(p);
        cap_ = n;
    }
    void release()
    {
        if (data_) detail::columnUnmap(data_, cap_ * sizeof(T), released_ || lazy_ ? SIZE_MAX : populated_);
        data_ = nullptr;
        size_ = cap_ = populated_ = released_ = 0;
    }
    void swap(Column &o) noexcept
    {
        std::swap(data_, o.data_);
        std::swap(size_, o.size_);
        std::swap(cap_, o.cap_);
        std::swap(populated_, o.populated_);
        std::swap(huge_, o.huge_);
        std::swap(released_, o.released_);
        std::swap(lazy_, o.lazy_);
        std::swap(ahead_, o.ahead_);
    }

    T *data_ = nullptr;
    size_t size_ = 0;
    size_t cap_ = 0;
    size_t populated_ = 0; // bytes known to be backed by memory
    size_t released_ = 0;  // bytes at the start handed back (releaseBefore)
    bool lazy_ = false;
    size_t ahead_ = 0; // lazy: bytes populated ahead of the last value written
    bool huge_ = false;
};

} // namespace tickscope
