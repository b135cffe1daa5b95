// SPDX-License-Identifier: GPL-3.0-or-later
// The decoder's own reader of ring-buffer pages against libtraceevent's kbuffer, which trace-cmd reads
// them with: the same records, timestamps and sizes on pages made of every kind of record, in both byte
// orders and both word sizes, and on random bytes wherever pageIsSound() lets a page through.
#include "import/RingPage.h"
#include "import/InputChecks.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <tuple>
#include <vector>
extern "C" { // kbuffer.h has no C++ guard
#include <traceevent/kbuffer.h>
}

using namespace tickscope;

namespace {

constexpr uint32_t kPage = 4096;

using Records = std::vector<std::tuple<uint64_t, long, uint32_t>>; // ts, offset in the page, size

Records byKbuffer(uint8_t *page, int longSize, bool big)
{
    kbuffer *kb = kbuffer_alloc(longSize == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
                                big ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
    Records r;
    kbuffer_load_subbuffer(kb, page);
    unsigned long long ts = 0;
    for (void *d = kbuffer_read_event(kb, &ts); d; d = kbuffer_next_event(kb, &ts))
        r.emplace_back(ts, static_cast<uint8_t *>(d) - page, static_cast<uint32_t>(kbuffer_event_size(kb)));
    kbuffer_free(kb);
    return r;
}

Records byRingPage(const uint8_t *page, int longSize, bool big)
{
    Records r;
    RingPageRecords p(page, longSize, big);
    while (p.next())
        r.emplace_back(p.ts(), p.data() - page, p.size());
    return r;
}

class PageWriter
{
public:
    PageWriter(std::vector<uint8_t> &page, int longSize, bool big) : p_(page), longSize_(longSize), big_(big)
    {
        at_ = longSize == 8 ? 16 : 12;
    }
    void u32(uint32_t v)
    {
        if (big_) v = __builtin_bswap32(v);
        std::memcpy(p_.data() + at_, &v, 4);
        at_ += 4;
    }
    void header(uint32_t typeLen, uint32_t delta)
    {
        u32(big_ ? typeLen << 27 | delta : delta << 5 | typeLen);
    }
    size_t room() const { return kPage - at_; }
    // The page's timestamp and commit word (with the lost-events flags, count stored after the data).
    void finish(uint64_t ts, bool missed, uint64_t lost)
    {
        const uint32_t start = longSize_ == 8 ? 16 : 12;
        uint64_t commit = (at_ - start) | (missed ? 1ull << 31 : 0) | (lost ? 1ull << 30 : 0);
        put(0, ts, 8);
        put(8, commit, longSize_);
        if (lost) put(at_, lost, longSize_);
    }

private:
    void put(size_t at, uint64_t v, int n)
    {
        for (int k = 0; k < n; ++k)
            p_[at + static_cast<size_t>(k)] = static_cast<uint8_t>(v >> (8 * (big_ ? n - 1 - k : k)));
    }
    std::vector<uint8_t> &p_;
    int longSize_;
    bool big_;
    size_t at_;
};

// A page of random records of every kind: short and long data records, time extends, absolute stamps,
// padding; deltas up to the 27 bits.
std::vector<uint8_t> randomPage(std::mt19937_64 &rng, int longSize, bool big)
{
    std::vector<uint8_t> page(kPage + kPageSlack, 0);
    PageWriter w(page, longSize, big);
    auto pick = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
    const uint32_t records = pick(120);
    for (uint32_t k = 0; k < records && w.room() > 64 + 16; ++k) {
        const uint32_t delta = pick(4) == 0 ? pick(1u << 27) : pick(5000);
        switch (pick(10)) {
        case 0:
            w.header(30, delta); // time extend
            w.u32(pick(1u << 20));
            break;
        case 1:
            w.header(31, delta); // absolute stamp
            w.u32(pick(1u << 30));
            break;
        case 2: { // padding over a few words
            const uint32_t words = 1 + pick(3);
            w.header(29, delta);
            w.u32(words * 4);
            for (uint32_t j = 1; j < words; ++j)
                w.u32(0);
            break;
        }
        case 3: { // a long record: its length (with the length word) in the next word
            const uint32_t bytes = 4 * (1 + pick(14));
            w.header(0, delta);
            w.u32(bytes + 4);
            for (uint32_t j = 0; j < bytes / 4; ++j)
                w.u32(static_cast<uint32_t>(rng()));
            break;
        }
        default: { // a short record of 1..28 words
            const uint32_t words = 1 + pick(std::min<uint32_t>(28, 12));
            w.header(words, delta);
            for (uint32_t j = 0; j < words; ++j)
                w.u32(static_cast<uint32_t>(rng()));
            break;
        }
        }
    }
    // the top bits set on some pages: an absolute stamp takes them from the page
    const uint64_t ts = (pick(3) == 0 ? 0xf8ull << 56 : 0) | (rng() >> 8);
    const bool missed = pick(4) == 0;
    w.finish(ts, missed, missed && pick(2) ? 1 + pick(1000) : 0);
    return page;
}

} // namespace

TEST(Import, RingPageReadsEveryKindOfRecordAsKbufferDoes)
{
    std::mt19937_64 rng(20261206);
    size_t records = 0;
    for (int longSize : {8, 4}) {
        for (bool big : {false, true}) {
            for (int n = 0; n < 2000; ++n) {
                std::vector<uint8_t> page = randomPage(rng, longSize, big);
                ASSERT_TRUE(pageIsSound(page.data(), kPage, longSize, big, false)) << "page " << n;
                const Records want = byKbuffer(page.data(), longSize, big);
                ASSERT_EQ(byRingPage(page.data(), longSize, big), want)
                    << "page " << n << ", long " << longSize << (big ? ", big-endian" : "");
                records += want.size();
            }
        }
    }
    EXPECT_GT(records, 100000u);
}

TEST(Import, RingPageReadsDamagedPagesAsKbufferDoes)
{
    // Random bytes, and good pages with a few bytes changed: wherever pageIsSound() passes one on, the
    // two read the same records.
    std::mt19937_64 rng(61);
    size_t sound = 0;
    for (int n = 0; n < 20000; ++n) {
        const int longSize = n % 2 ? 4 : 8;
        const bool big = n % 3 == 0;
        std::vector<uint8_t> page = randomPage(rng, longSize, big);
        if (n % 5 == 0) {
            for (size_t k = 8; k < kPage; ++k)
                page[k] = static_cast<uint8_t>(rng());
            page[8 + (big ? longSize - 1 : 0)] = static_cast<uint8_t>(rng() % 64); // a commit that fits
            if (big)
                page[8 + longSize - 2] = static_cast<uint8_t>(rng() % 16);
            else
                page[9] = static_cast<uint8_t>(rng() % 16);
        } else {
            for (int k = 0; k < 1 + n % 4; ++k)
                page[8 + rng() % (kPage - 8)] = static_cast<uint8_t>(rng());
        }
        if (!pageIsSound(page.data(), kPage, longSize, big, false)) continue;
        ++sound;
        ASSERT_EQ(byRingPage(page.data(), longSize, big), byKbuffer(page.data(), longSize, big))
            << "page " << n;
    }
    EXPECT_GT(sound, 1000u);
}
