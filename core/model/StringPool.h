// Interned strings: event names, comms, symbols, irq names, print texts. Id 0 is the empty string. Views
// stay valid for the pool's lifetime (chunked storage).
//
// Also the pointer values events name (hrtimer=, timer=): a trace names few timers many times (the tick
// hrtimer of a CPU is in three of every five events of a busy nohz_full trace), so each value is kept
// once and an event stores its 4-byte id instead of 8 bytes. Pointer id 0 is the null pointer.
#pragma once

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
    uint32_t internPointer(uint64_t value)
    {
        Slot &slot = pointerCache_[(value >> 4 ^ value >> 12) % kPointerSlots];
        if (slot.id && slot.value == value) return slot.id;
        const uint32_t id = pool_.internPointer(value);
        if (id) slot = {value, id};
        return id;
    }

private:
    StringPool &pool_;
    std::unordered_map<std::string_view, uint32_t> cache_; // keys point into the pool
    // The pointers seen last, by a hash of their value (timers are 8-byte aligned, most 64).
    static constexpr size_t kPointerSlots = 256;
    struct Slot
    {
        uint64_t value = 0;
        uint32_t id = 0; // 0: empty
    };
    std::vector<Slot> pointerCache_ = std::vector<Slot>(kPointerSlots);
};

} // namespace tickscope
