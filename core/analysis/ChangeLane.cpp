// SPDX-License-Identifier: GPL-3.0-or-later
#include "ChangeLane.h"

#include <algorithm>

namespace tickscope {

namespace {
constexpr unsigned kBlockWords = 8; // 512 events per rank entry
}

void ChangeLane::reset(size_t events)
{
    events_ = events;
    last_ = npos;
    bits_ = Column<uint64_t>();
    bits_.resize((events + 63) / 64);
    rank_.clear();
    codes_ = Column<uint8_t>();
    releasedChanges_ = 0;
}

void ChangeLane::set(size_t i, uint8_t code)
{
    if (i == last_) {
        codes_[codes_.size() - 1] = code;
        return;
    }
    // Streamed (a lane whose events arrive in parts): grown by a fixed step, not doubled, since resize
    // touches what it adds and the head behind the reader is handed back (doubling kept a tail as long as
    // all the events so far in memory).
    if ((i >> 6) >= bits_.size()) bits_.resize((i >> 6) + 1 + 1024);
    if (i >= events_) events_ = i + 1;
    bits_[i >> 6] |= uint64_t{1} << (i & 63);
    codes_.push_back(code);
    last_ = i;
}

void ChangeLane::releaseBefore(size_t i, size_t change)
{
    // (the words going are counted first, for the ranks of the words after)
    for (size_t w = bits_.firstLive(), to = bits_.releasedBy(i >> 6); w < to; ++w)
        releasedChanges_ += static_cast<size_t>(std::popcount(bits_[w]));
    bits_.releaseBefore(i >> 6);
    codes_.releaseBefore(change);
}

void ChangeLane::finish(size_t events)
{
    events_ = events;
    bits_.resize((events + 63) / 64);
    rank_.assign(bits_.size() / kBlockWords + 1, 0);
    // A streamed lane's handed-back head is not read: its changes were counted as it went (a query of
    // its events is an error; the ranks of its blocks stay 0).
    auto n = static_cast<uint32_t>(releasedChanges_);
    for (size_t w = bits_.firstLive(); w < bits_.size(); ++w) {
        if (w % kBlockWords == 0) rank_[w / kBlockWords] = n;
        n += static_cast<uint32_t>(std::popcount(bits_[w]));
    }
    if (bits_.size() % kBlockWords == 0) rank_.back() = n;
    codes_.trim();
}

size_t ChangeLane::changeAt(size_t i) const
{
    if (codes_.empty()) return npos;
    if (i >= events_) i = events_ - 1;
    const size_t word = i >> 6;
    size_t n = rank_[word / kBlockWords];
    for (size_t w = word - word % kBlockWords; w < word; ++w)
        n += static_cast<size_t>(std::popcount(bits_[w]));
    const unsigned bit = i & 63;
    const uint64_t mask = bit == 63 ? ~uint64_t{0} : (uint64_t{1} << (bit + 1)) - 1;
    n += static_cast<size_t>(std::popcount(bits_[word] & mask));
    return n == 0 ? npos : n - 1;
}

size_t ChangeLane::indexOf(size_t change) const
{
    // The last block whose rank is <= change holds it.
    const auto it = std::upper_bound(rank_.begin(), rank_.end(), static_cast<uint32_t>(change));
    const size_t block = static_cast<size_t>(it - rank_.begin()) - 1;
    size_t left = change - rank_[block];
    for (size_t w = block * kBlockWords; w < bits_.size(); ++w) {
        uint64_t word = bits_[w];
        const auto count = static_cast<size_t>(std::popcount(word));
        if (left >= count) {
            left -= count;
            continue;
        }
        for (; left; --left)
            word &= word - 1; // drop the lowest set bits
        return w * 64 + static_cast<size_t>(std::countr_zero(word));
    }
    return npos;
}

void ChangeLane::releaseCodes(size_t i, size_t change, uint8_t gone)
{
    gone_ = gone;
    releaseBefore(i, change);
}

size_t ChangeLane::bytes() const
{
    return bits_.bytes() + rank_.size() * sizeof(uint32_t) + codes_.bytes();
}

} // namespace tickscope
