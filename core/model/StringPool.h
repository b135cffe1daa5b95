// SPDX-License-Identifier: GPL-3.0-or-later
// Interned strings: event names, comms, symbols, irq names, print texts. Id 0 is the empty string. Views
// stay valid for the pool's lifetime (chunked storage).
//
// Also the pointer values events name (hrtimer=, timer=): a trace names few timers many times (the tick
// hrtimer of a CPU is in three of every five events of a busy nohz_full trace), so each value is kept
// once and an event stores its 4-byte id instead of 8 bytes. Pointer id 0 is the null pointer.
#pragma once

#include "util/PtrMap.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tickscope {

class StringPool
{
public:
    StringPool();
    StringPool(const StringPool &) = delete;
    StringPool &operator=(const StringPool &) = delete;

    // Thread-safe. `stable`, when given, receives the pool's own copy of s.
    uint32_t intern(std::string_view s, std::string_view *stable = nullptr);
    // Thread-safe. Stores bytes under a new id without looking for an equal one (a generic event's record:
    // nearly every one differs, and a lookup table would double their cost).
    uint32_t keep(std::string_view bytes);
    // Not synchronised with intern(): read once loading has finished, or ids you interned yourself.
    std::string_view str(uint32_t id) const { return id < views_.size() ? views_[id] : std::string_view{}; }
    // Returns 0 when absent (and s is not empty). Thread-safe.
    uint32_t find(std::string_view s) const;
    size_t size() const { return views_.size(); }
    size_t memoryBytes() const;

    // Thread-safe. The same value gets the same id.
    uint32_t internPointer(uint64_t value);
    // Not synchronised with internPointer(): read once loading has finished. 0 for an unknown id.
    uint64_t pointer(uint32_t id) const { return id < pointers_.size() ? pointers_[id] : 0; }
    size_t pointerCount() const { return pointers_.size(); }

private:
    std::string_view store(std::string_view s);

    mutable std::mutex mutex_;
    std::vector<std::unique_ptr<char[]>> chunks_;
    char *cur_ = nullptr; // the chunk being filled
    size_t curUsed_ = 0;
    size_t curSize_ = 0;
    std::vector<std::string_view> views_;
    std::unordered_map<std::string_view, uint32_t> ids_;
    std::vector<uint64_t> pointers_;
    std::unordered_map<uint64_t, uint32_t> pointerIds_;
};

// A per-thread cache in front of a StringPool, so that hot paths rarely take its lock.
class LocalInterner
{
public:
    explicit LocalInterner(StringPool &pool) : pool_(pool) {}
    uint32_t intern(std::string_view s);
    uint32_t keep(std::string_view bytes) { return pool_.keep(bytes); } // not cached: each is new
    uint32_t internPointer(uint64_t value)
    {
        if (value == 0) return 0; // (the pool's id of the null pointer)
        if (const uint32_t *id = pointers_.find(value)) return *id;
        const uint32_t id = pool_.internPointer(value);
        if (id && pointers_.size() < kMaxPointers) *pointers_.at(value) = id;
        return id;
    }

private:
    StringPool &pool_;
    std::unordered_map<std::string_view, uint32_t> cache_; // keys point into the pool
    // Every pointer this thread has interned, with its id. A trace names few timers per CPU but more than
    // a small cache holds (a server's sleeping tasks each have their own hrtimer: 1,433 on a 6 s capture of
    // a stress-ng nanosleep load), and a miss takes the pool's lock. Past kMaxPointers new ones are not
    // kept (each then takes the lock), so a trace of millions of pointers costs no copy per thread.
    static constexpr size_t kMaxPointers = size_t{1} << 17;
    PtrMap<uint32_t> pointers_{256};
};

} // namespace tickscope
