// SPDX-License-Identifier: GPL-3.0-or-later
#include "StringPool.h"

#include <cstring>

namespace tickscope {

namespace {
constexpr size_t kChunk = size_t{64} * 1024;
}

StringPool::StringPool()
{
    views_.emplace_back();
    ids_.emplace(std::string_view{}, 0);
    pointers_.push_back(0);
    pointerIds_.emplace(0, 0);
}

uint32_t StringPool::internPointer(uint64_t value)
{
    std::lock_guard lock(mutex_);
    const auto [it, added] = pointerIds_.emplace(value, static_cast<uint32_t>(pointers_.size()));
    if (added) pointers_.push_back(value);
    return it->second;
}

std::string_view StringPool::store(std::string_view s)
{
    if (s.empty()) return {};
    if (s.size() > kChunk / 4) { // large strings get a block of their own
        chunks_.push_back(std::make_unique<char[]>(s.size()));
        std::memcpy(chunks_.back().get(), s.data(), s.size());
        return {chunks_.back().get(), s.size()};
    }
    if (!cur_ || curUsed_ + s.size() > curSize_) {
        chunks_.push_back(std::make_unique<char[]>(kChunk));
        cur_ = chunks_.back().get();
        curUsed_ = 0;
        curSize_ = kChunk;
    }
    char *dst = cur_ + curUsed_;
    std::memcpy(dst, s.data(), s.size());
    curUsed_ += s.size();
    return {dst, s.size()};
}

uint32_t StringPool::keep(std::string_view bytes)
{
    std::lock_guard lock(mutex_);
    const auto id = static_cast<uint32_t>(views_.size());
    views_.push_back(store(bytes));
    return id;
}

uint32_t StringPool::intern(std::string_view s, std::string_view *stable)
{
    std::lock_guard lock(mutex_);
    if (auto it = ids_.find(s); it != ids_.end()) {
        if (stable) *stable = it->first;
        return it->second;
    }
    const auto id = static_cast<uint32_t>(views_.size());
    const std::string_view v = store(s);
    views_.push_back(v);
    ids_.emplace(v, id);
    if (stable) *stable = v;
    return id;
}

uint32_t StringPool::find(std::string_view s) const
{
    std::lock_guard lock(mutex_);
    auto it = ids_.find(s);
    return it == ids_.end() ? 0 : it->second;
}

size_t StringPool::memoryBytes() const
{
    size_t bytes = views_.capacity() * sizeof(std::string_view) + ids_.size() * 48;
    for (const auto &v : views_)
        bytes += v.size();
    bytes += pointers_.capacity() * sizeof(uint64_t) + pointerIds_.size() * 32;
    return bytes;
}

uint32_t LocalInterner::intern(std::string_view s)
{
    if (auto it = cache_.find(s); it != cache_.end()) return it->second;
    std::string_view stable;
    const uint32_t id = pool_.intern(s, &stable);
    cache_.emplace(stable, id);
    return id;
}

} // namespace tickscope
