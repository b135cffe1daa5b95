// SPDX-License-Identifier: GPL-3.0-or-later
// A map keyed by a kernel pointer (an hrtimer's or a timer's address), for lookups at every event that
// names one: open addressing, linear probing, at most half full, keys and values in two flat arrays.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace tickscope {

// Key 0 is "empty" (no timer lives at address 0).
template <class V> class PtrMap
{
public:
    explicit PtrMap(size_t expected, V absent = {}) : absent_(absent)
    {
        size_t n = 64;
        while (n < expected * 2)
            n *= 2;
        keys_.assign(n, 0);
        values_.assign(n, absent_);
    }
    // The value of key, inserted as `absent` when new; null for key 0.
    V *at(uint64_t key)
    {
        if (key == 0) return nullptr;
        if ((used_ + 1) * 2 > keys_.size()) grow();
        const size_t k = slot(key);
        if (keys_[k] == 0) {
            keys_[k] = key;
            values_[k] = absent_;
            ++used_;
        }
        return &values_[k];
    }
    const V *find(uint64_t key) const
    {
        if (key == 0) return nullptr;
        const size_t k = slot(key);
        return keys_[k] == key ? &values_[k] : nullptr;
    }
    V *find(uint64_t key) { return const_cast<V *>(std::as_const(*this).find(key)); }
    template <class F> void forEach(F f) const
    {
        for (size_t k = 0; k < keys_.size(); ++k)
            if (keys_[k]) f(keys_[k], values_[k]);
    }
    size_t size() const { return used_; }

private:
    size_t slot(uint64_t key) const
    {
        const size_t mask = keys_.size() - 1;
        size_t k = static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> 20) & mask;
        while (keys_[k] != 0 && keys_[k] != key)
            k = (k + 1) & mask;
        return k;
    }
    void grow()
    {
        std::vector<uint64_t> keys = std::move(keys_);
        std::vector<V> values = std::move(values_);
        keys_.assign(keys.size() * 2, 0);
        values_.assign(keys.size() * 2, absent_);
        used_ = 0;
        for (size_t k = 0; k < keys.size(); ++k)
            if (keys[k]) *at(keys[k]) = values[k];
    }
    V absent_;
    std::vector<uint64_t> keys_;
    std::vector<V> values_;
    size_t used_ = 0;
};

} // namespace tickscope
