// SPDX-License-Identifier: GPL-3.0-or-later
// The data records of one ring-buffer page (the kernel's format since 2.6.31), read as libtraceevent's
// kbuffer reads them: the same timestamps (deltas, time extends, absolute stamps keeping the page's top
// five bits, padding deltas) and the same record bounds. kbuffer reads every word through a function
// pointer and every record through three calls; this is the page decoder's inner loop, and the walk with
// kbuffer took a quarter of a load's time. A test holds the two to the same answers on real and random
// pages. Only for pages pageIsSound() accepted, which keeps every read inside the page and its slack.
#pragma once

#include "DatLayout.h"

#include <cstdint>
#include <cstring>

namespace tickscope {

// The ring-buffer page's format as the kernel writes it: a header of the page's timestamp (8 bytes) and
// its commit word (a long: 4 or 8 bytes), then the records, each behind a 32-bit word of 5 bits of type
// or length and 27 bits of time delta.
namespace ring {
constexpr uint64_t kCommitMask = (1u << 27) - 1; // the commit word's size of the records
constexpr uint64_t kMissingEvents = 1ull << 31;  // events were lost before the page
constexpr uint64_t kMissingStored = 1ull << 30;  // and their count is stored after the records
constexpr uint32_t kTypePadding = 29, kTypeTimeExtend = 30, kTypeTimeStamp = 31;
constexpr uint64_t kTsMsb = 0xf8ull << 56; // an absolute stamp lacks these bits: the page's

// A long (4 or 8 bytes) of the file's byte order at p.
inline uint64_t readLong(const uint8_t *p, int longSize, bool bigEndian)
{
    if (longSize == 4) return readU32(p, bigEndian);
    uint64_t v;
    std::memcpy(&v, p, 8);
    return bigEndian ? __builtin_bswap64(v) : v;
}
} // namespace ring

class RingPageRecords
{
public:
    RingPageRecords(const uint8_t *page, int longSize, bool bigEndian)
        : data_(page + (longSize == 8 ? 16 : 12)), big_(bigEndian)
    {
        ts_ = ring::readLong(page, 8, big_);
        size_ = static_cast<uint32_t>(ring::readLong(page + 8, longSize, big_) & ring::kCommitMask);
    }

    // Moves to the next data record; false past the last.
    bool next()
    {
        while (next_ < size_) {
            const uint32_t curr = next_;
            const uint32_t w = readU32(data_ + curr, big_);
            const uint32_t typeLen = big_ ? w >> 27 : w & 31;
            const uint64_t delta = big_ ? w & ((1u << 27) - 1) : w >> 5;
            switch (typeLen) {
            case ring::kTypePadding:
                ts_ += delta;
                next_ = curr + 4 + readU32(data_ + curr + 4, big_);
                continue;
            case ring::kTypeTimeExtend:
                ts_ += (uint64_t{readU32(data_ + curr + 4, big_)} << 27) + delta;
                next_ = curr + 8;
                continue;
            case ring::kTypeTimeStamp:
                ts_ = ((uint64_t{readU32(data_ + curr + 4, big_)} << 27) + delta) | (ts_ & ring::kTsMsb);
                next_ = curr + 8;
                continue;
            case 0:
                index_ = curr + 8;
                next_ = index_ + ((readU32(data_ + curr + 4, big_) - 4 + 3) & ~3u);
                break;
            default:
                index_ = curr + 4;
                next_ = index_ + typeLen * 4;
                break;
            }
            ts_ += delta;
            return true;
        }
        return false;
    }
    uint64_t ts() const { return ts_; }
    const uint8_t *data() const { return data_ + index_; }
    uint32_t size() const { return next_ - index_; }

private:
    const uint8_t *data_;
    bool big_;
    uint64_t ts_ = 0;
    uint32_t size_ = 0;
    uint32_t index_ = 0, next_ = 0;
};

} // namespace tickscope
