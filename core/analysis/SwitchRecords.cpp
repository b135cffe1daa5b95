#include "SwitchRecords.h"

#include <algorithm>

namespace tickscope {

namespace {

constexpr size_t kSlots1 = size_t{1} << 8, kSlots2 = size_t{1} << 16;

size_t placeOf(int32_t pid, size_t mask)
{
    return (static_cast<uint32_t>(pid) * 0x9E3779B1u >> 7) & mask;
}

template <class From, class To> void copyLive(const Column<From> &from, Column<To> &to, auto value)
{
    to.reserve(std::max(from.capacity(), from.size() + 1));
    const size_t first = from.firstLive(); // (0 outside a stream)
    to.startReleased(first);
    for (size_t k = first; k < from.size(); ++k)
        to.push_back(value(from[k]));
}

} // namespace

void SwitchRecords::reserve(size_t n)
{
    index_.reserve(n);
    if (width_ == 1)
        slot8_.reserve(n);
    else if (width_ == 2)
        slot16_.reserve(n);
    else
        pid32_.reserve(n);
}

uint32_t SwitchRecords::slotOf(int32_t pid)
{
    if (table_.empty()) table_.assign(64, {0, 0});
    size_t mask = table_.size() - 1;
    for (size_t at = placeOf(pid, mask);; at = (at + 1) & mask) {
        auto &[key, slot] = table_[at];
        if (slot == 0) {                                  // not in the list yet
            if ((pids_.size() + 1) * 2 > table_.size()) { // at most half full: rebuilt twice as big
                std::vector<std::pair<int32_t, uint32_t>> old;
                old.swap(table_);
                table_.assign(old.size() * 2, {0, 0});
                mask = table_.size() - 1;
                for (const auto &[k, s] : old) {
                    if (s == 0) continue;
                    size_t p = placeOf(k, mask);
                    while (table_[p].second != 0)
                        p = (p + 1) & mask;
                    table_[p] = {k, s};
                }
                return slotOf(pid);
            }
            pids_.push_back(pid);
            key = pid;
            slot = static_cast<uint32_t>(pids_.size());
            return slot - 1;
        }
        if (key == pid) return slot - 1;
    }
}

void SwitchRecords::widen()
{
    if (width_ == 1) {
        copyLive(slot8_, slot16_, [](uint8_t s) { return uint16_t{s}; });
        slot8_ = Column<uint8_t>();
        width_ = 2;
        return;
    }
    copyLive(slot16_, pid32_, [this](uint16_t s) { return pids_[s]; });
    slot16_ = Column<uint16_t>();
    pids_ = {};
    table_ = {};
    width_ = 4;
}

void SwitchRecords::push_back(SwitchRec r)
{
    if (width_ < 4) {
        const uint32_t slot = slotOf(r.nextPid);
        if (slot >= (width_ == 1 ? kSlots1 : kSlots2)) widen();
        if (width_ == 1) slot8_.push_back(static_cast<uint8_t>(slot));
        if (width_ == 2) slot16_.push_back(static_cast<uint16_t>(slot));
    }
    if (width_ == 4) pid32_.push_back(r.nextPid);
    index_.push_back(r.index);
}

void SwitchRecords::releaseBefore(size_t n)
{
    index_.releaseBefore(n);
    slot8_.releaseBefore(n);
    slot16_.releaseBefore(n);
    pid32_.releaseBefore(n);
}

size_t SwitchRecords::liveBytes() const
{
    return index_.liveBytes() + slot8_.liveBytes() + slot16_.liveBytes() + pid32_.liveBytes() +
           pids_.capacity() * sizeof(int32_t) + table_.capacity() * sizeof(table_[0]);
}

size_t SwitchRecords::bytes() const
{
    return index_.bytes() + slot8_.bytes() + slot16_.bytes() + pid32_.bytes() +
           pids_.capacity() * sizeof(int32_t) + table_.capacity() * sizeof(table_[0]);
}

} // namespace tickscope
