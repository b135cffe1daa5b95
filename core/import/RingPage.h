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

class RingPageRecords
{
public:
    RingPageRecords(const uint8_t *page, int longSize, bool bigEndian)
        : data_(page + (longSize == 8 ? 16 : 12)), big_(bigEndian)
    {
        std::memcpy(&ts_, page, 8);
        if (big_) ts_ = __builtin_bswap64(ts_);
        const uint64_t commit = longSize == 8 ? word8(page + 8) : readU32(page + 8, big_);
        size_ = static_cast<uint32_t>(commit & kCommitMask);
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
            case kPadding:
                ts_ += delta;
                next_ = curr + 4 + readU32(data_ + curr + 4, big_);
                continue;
            case kTimeExtend:
                ts_ += (uint64_t{readU32(data_ + curr + 4, big_)} << 27) + delta;
                next_ = curr + 8;
                continue;
            case kTimeStamp:
                ts_ = ((uint64_t{readU32(data_ + curr + 4, big_)} << 27) + delta) | (ts_ & kTsMsb);
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
    static constexpr uint64_t kCommitMask = (1u << 27) - 1;
    static constexpr uint64_t kTsMsb = 0xf8ull << 56; // an absolute stamp lacks these bits: the page's
    static constexpr uint32_t kPadding = 29, kTimeExtend = 30, kTimeStamp = 31;

    uint64_t word8(const uint8_t *p) const
    {
        uint64_t v;
        std::memcpy(&v, p, 8);
        return big_ ? __builtin_bswap64(v) : v;
    }

    const uint8_t *data_;
    bool big_;
    uint64_t ts_ = 0;
    uint32_t size_ = 0;
    uint32_t index_ = 0, next_ = 0;
};

} // namespace tickscope
