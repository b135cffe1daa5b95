// SPDX-License-Identifier: GPL-3.0-or-later
// Ring-buffer pages as the kernel writes them (the layout tracefs describes in events/header_page and
// header_event): a page is <u64 timestamp><u64 commit><data>, where commit counts the data bytes and
// every record starts with a 32-bit header of type_len (5 bits) and time_delta (27 bits). Records of
// up to 28 words say their length in type_len; longer ones put it in the next word (type_len 0). A gap
// of 2^27 ns or more between two events is bridged by a time-extend record (type_len 30). The page after
// lost events says so in the flag bits of commit, and may store how many after its data.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace tickscope {

class RingPageWriter
{
public:
    // sink receives each finished page, pageSize bytes (unused data bytes are zero).
    RingPageWriter(uint32_t pageSize, std::function<void(const uint8_t *page, size_t size)> sink);

    // Appends one record (its payload: common fields and the event's own); ts in ns, never below the
    // previous record's. Returns false when the record can never fit a page.
    bool add(int64_t ts, const uint8_t *payload, uint32_t size);
    // Events were lost before the next record: it begins a page flagged RB_MISSED_EVENTS, with the count
    // stored after its data (RB_MISSED_STORED) when count > 0 and the page has room for it.
    void lost(uint64_t count);
    void flush(); // hands over a partly filled page
    uint64_t pages() const { return pages_; }

    static constexpr uint32_t kHeader = 16; // u64 timestamp, u64 commit (64-bit kernels)

private:
    void start(int64_t ts);

    uint32_t pageSize_;
    std::function<void(const uint8_t *, size_t)> sink_;
    std::vector<uint8_t> page_;
    uint32_t used_ = 0; // data bytes in page_
    int64_t last_ = 0;
    bool open_ = false;
    bool missed_ = false; // lost() before the next page
    uint64_t missedCount_ = 0;
    bool pageMissed_ = false; // the open page's flag and count
    uint64_t pageCount_ = 0;
    uint32_t reserve_ = 0; // the open page's bytes kept for the stored count (8 or 0)
    uint64_t pages_ = 0;
};

} // namespace tickscope
