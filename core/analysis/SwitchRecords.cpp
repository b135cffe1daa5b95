// SPDX-License-Identifier: GPL-3.0-or-later
#include "SwitchRecords.h"

namespace tickscope {

namespace {

constexpr size_t kSlots1 = size_t{1} << 8, kSlots2 = size_t{1} << 16;

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
    const auto [it, added] = slots_.try_emplace(pid, static_cast<uint32_t>(pids_.size()));
    if (added) pids_.push_back(pid);
    return it->second;
}

void SwitchRecords::widen()
{
    if (width_ == 1) {
        slot16_.takeConverted(slot8_, [](uint8_t s) { return uint16_t{s}; });
        slot8_ = Column<uint8_t>();
        width_ = 2;
        return;
    }
    pid32_.takeConverted(slot16_, [this](uint16_t s) { return pids_[s]; });
    slot16_ = Column<uint16_t>();
    pids_ = {};
    slots_ = {};
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

// (the map's nodes at about 32 bytes each with their buckets)
size_t SwitchRecords::liveBytes() const
{
    return index_.liveBytes() + slot8_.liveBytes() + slot16_.liveBytes() + pid32_.liveBytes() +
           pids_.capacity() * sizeof(int32_t) + slots_.size() * 32;
}

size_t SwitchRecords::bytes() const
{
    return index_.bytes() + slot8_.bytes() + slot16_.bytes() + pid32_.bytes() +
           pids_.capacity() * sizeof(int32_t) + slots_.size() * 32;
}

} // namespace tickscope
