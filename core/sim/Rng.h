// SPDX-License-Identifier: GPL-3.0-or-later
// xoshiro256** seeded through splitmix64: small, fast, and the same sequence on every platform.
#pragma once

#include <cstdint>

namespace tickscope::sim {

class Rng
{
public:
    explicit Rng(uint64_t seed)
    {
        for (auto &w : s_) {
            seed += 0x9e3779b97f4a7c15ull;
            uint64_t z = seed;
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
            w = z ^ (z >> 31);
        }
    }
    uint64_t next()
    {
        const uint64_t r = rotl(s_[1] * 5, 7) * 9;
        const uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return r;
    }
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; } // [0, 1)
    int64_t range(int64_t lo, int64_t hi)                                   // [lo, hi]
    {
        if (hi <= lo) return lo;
        const auto span =
            static_cast<unsigned __int128>(static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo)) + 1;
        return lo + static_cast<int64_t>((next() * span) >> 64); // Lemire's multiply-shift, no division
    }

private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    uint64_t s_[4];
};

} // namespace tickscope::sim
