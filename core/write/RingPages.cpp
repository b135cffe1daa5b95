// SPDX-License-Identifier: GPL-3.0-or-later
#include "RingPages.h"

#include "model/CpuEvents.h"

#include <cstring>

namespace tickscope {

namespace {
constexpr uint32_t kMaxSmallData = 28 * 4; // the longest record type_len can say
constexpr uint32_t kTimeExtend = 30;
constexpr uint64_t kDeltaLimit = uint64_t{1} << 27;
constexpr uint64_t kMissedEvents = uint64_t{1} << 31; // RB_MISSED_EVENTS in commit
constexpr uint64_t kMissedStored = uint64_t{1} << 30; // RB_MISSED_STORED: the count follows the data

void put32(uint8_t *p, uint32_t v)
{
    std::memcpy(p, &v, 4);
}
} // namespace

RingPageWriter::RingPageWriter(uint32_t pageSize, std::function<void(const uint8_t *, size_t)> sink)
    : pageSize_(pageSize), sink_(std::move(sink)), page_(pageSize, 0)
{
}

void RingPageWriter::start(int64_t ts)
{
    std::memset(page_.data(), 0, page_.size());
    const auto t = static_cast<uint64_t>(ts);
    std::memcpy(page_.data(), &t, 8);
    used_ = 0;
    last_ = ts;
    open_ = true;
    pageMissed_ = missed_;
    pageCount_ = missedCount_;
    reserve_ = missed_ && pageCount_ > 0 ? 8 : 0;
    missed_ = false;
}

void RingPageWriter::lost(uint64_t count)
{
    flush();
    if (!missed_) {
        missed_ = true;
        missedCount_ = count;
        return;
    }
    // (two ranges before one record: one gap, their counts summed unless one is not known)
    missedCount_ = CpuEvents::addLostCounts(missedCount_, count);
}

void RingPageWriter::flush()
{
    if (!open_) return;
    uint64_t commit = used_;
    if (pageMissed_) commit |= kMissedEvents;
    if (reserve_) {
        commit |= kMissedStored;
        std::memcpy(page_.data() + kHeader + used_, &pageCount_, 8);
    }
    std::memcpy(page_.data() + 8, &commit, 8);
    sink_(page_.data(), page_.size());
    ++pages_;
    open_ = false;
}

bool RingPageWriter::add(int64_t ts, const uint8_t *payload, uint32_t size)
{
    const uint32_t padded = (size + 3) & ~3u;
    const bool small = padded > 0 && padded <= kMaxSmallData;
    const uint32_t record = 4 + (small ? 0 : 4) + padded;
    const uint32_t room = pageSize_ - kHeader;
    if (record > room) return false;
    uint64_t delta = open_ && ts > last_ ? static_cast<uint64_t>(ts - last_) : 0;
    const uint32_t extend = delta >= kDeltaLimit ? 8 : 0;
    if (!open_ || used_ + extend + record > room - reserve_) {
        flush();
        start(ts); // the page's own timestamp carries the time: delta 0
        delta = 0;
        if (record > room - reserve_) reserve_ = 0; // no room for the count: lost, how many not said
    }
    uint8_t *p = page_.data() + kHeader + used_;
    if (delta >= kDeltaLimit) {
        put32(p, kTimeExtend | static_cast<uint32_t>((delta & (kDeltaLimit - 1)) << 5));
        put32(p + 4, static_cast<uint32_t>(delta >> 27));
        p += 8;
        used_ += 8;
        delta = 0;
    }
    const uint32_t typeLen = small ? padded / 4 : 0;
    put32(p, typeLen | static_cast<uint32_t>(delta << 5));
    p += 4;
    if (!small) {
        put32(p, padded + 4); // the length word counts itself
        p += 4;
    }
    std::memcpy(p, payload, size);
    used_ += record;
    if (ts > last_) last_ = ts;
    return true;
}

} // namespace tickscope
