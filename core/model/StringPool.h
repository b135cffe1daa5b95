// Interned strings: event names, comms, symbols, irq names, print texts.
// Id 0 is the empty string. Views stay valid for the pool's lifetime (chunked storage).
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

private:
    std::string_view store(std::string_view s);

    mutable std::mutex mutex_;
    std::vector<std::unique_ptr<char[]>> chunks_;
    char *cur_ = nullptr; // the chunk being filled
    size_t curUsed_ = 0;
    size_t curSize_ = 0;
    std::vector<std::string_view> views_;
    std::unordered_map<std::string_view, uint32_t> ids_;
};

// A per-thread cache in front of a StringPool, so that hot paths rarely take its lock.
class LocalInterner
{
public:
    explicit LocalInterner(StringPool &pool) : pool_(pool) {}
    uint32_t intern(std::string_view s);

private:
    StringPool &pool_;
    std::unordered_map<std::string_view, uint32_t> cache_; // keys point into the pool
};

} // namespace tickscope
