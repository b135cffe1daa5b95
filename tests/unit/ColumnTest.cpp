// SPDX-License-Identifier: GPL-3.0-or-later
// Column, the growable mapping every event column and record list lives in: heads handed back in
// batches, a freed mapping kept and served again as zeros, a streamed column populating only ahead.
#include "model/Column.h"
#include "analysis/SwitchRecords.h"
#include "analysis/TimerRecords.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace tickscope;

namespace {
// The guard on memory handed back (on in every unit test, TICKSCOPE_GUARD_FREED_COLUMNS) set as a test
// needs it, and put back as it was.
class GuardSetting
{
public:
    explicit GuardSetting(bool on) : was_(detail::columnGuardKept(on)) {}
    ~GuardSetting() { detail::columnGuardKept(was_); }
    GuardSetting(const GuardSetting &) = delete;
    GuardSetting &operator=(const GuardSetting &) = delete;

private:
    bool was_;
};

// A read the compiler keeps (for the death tests: it faults on guarded memory).
void readOnce(const uint64_t *p)
{
    (void)*static_cast<const volatile uint64_t *>(p);
}
} // namespace

TEST(Model, ColumnHeadsReleasedInABatchGoTogetherAtItsEnd)
{
    // Eight columns of 16 pages each hand back their first 8 pages inside a batch (a nested one too):
    // nothing goes before the outer batch ends, then every head reads as zeros and the rest is intact,
    // in one process_madvise call where the kernel takes it (else one madvise per range).
    const GuardSetting unguarded(false); // (the heads are read: zeros)
    const size_t perPage = static_cast<size_t>(::sysconf(_SC_PAGESIZE)) / sizeof(uint64_t);
    std::vector<Column<uint64_t>> cols(8);
    for (size_t c = 0; c < cols.size(); ++c) {
        cols[c].reserve(16 * perPage);
        for (size_t i = 0; i < 16 * perPage; ++i)
            cols[c].push_back(c * 1000000 + i + 1);
    }
    const size_t calls = ColumnReleaseBatch::calls(), ranges = ColumnReleaseBatch::ranges();
    {
        const ColumnReleaseBatch batch;
        {
            const ColumnReleaseBatch inner;
            cols[0].releaseBefore(8 * perPage);
        }
        EXPECT_EQ(ColumnReleaseBatch::ranges(), ranges) << "an inner batch leaves the hand-back to the outer";
        EXPECT_EQ(cols[0][0], 1u) << "nothing is handed back before the outer batch ends";
        for (size_t c = 1; c < cols.size(); ++c)
            cols[c].releaseBefore(8 * perPage + 3); // a part page stays
        EXPECT_EQ(ColumnReleaseBatch::calls(), calls);
        EXPECT_EQ(cols[7][0], 7000001u);
    }
    EXPECT_EQ(ColumnReleaseBatch::ranges(), ranges + cols.size());
    EXPECT_GE(ColumnReleaseBatch::calls(), calls + 1);
    EXPECT_LE(ColumnReleaseBatch::calls(), calls + cols.size() + 1); // (+ a refused process_madvise)
    for (size_t c = 0; c < cols.size(); ++c) {
        EXPECT_EQ(cols[c].firstLive(), 8 * perPage) << c;
        EXPECT_EQ(cols[c][0], 0u) << c;
        EXPECT_EQ(cols[c][8 * perPage - 1], 0u) << c;
        for (size_t i = 8 * perPage; i < 16 * perPage; ++i)
            ASSERT_EQ(cols[c][i], c * 1000000 + i + 1) << c << " " << i;
    }
}

TEST(Model, AFreedSmallColumnsMappingServesAgainReadingAsZeros)
{
    // A small column's mapping is kept when the column is freed and serves the next column of that size
    // (the simulator makes and frees hundreds per run): it must read as a fresh mapping does, zeros, also
    // in the pages reserved but not yet written. A lazy (streamed) column neither takes nor leaves one.
    const GuardSetting unguarded(false); // (a head started as released is read: zeros)
    detail::columnDropKept();
    const size_t perPage = static_cast<size_t>(::sysconf(_SC_PAGESIZE)) / sizeof(uint32_t);
    const uint32_t *first = nullptr;
    {
        Column<uint32_t> a;
        a.reserve(8 * perPage);
        for (size_t i = 0; i < 8 * perPage; ++i)
            a.push_back(0xdeadbeef);
        first = a.data();
    }
    Column<uint32_t> b;
    b.reserve(6 * perPage); // rounded up to the same mapping length as a's
    ASSERT_EQ(b.data(), first) << "the freed mapping is kept and handed out again";
    for (size_t i = 0; i < 8 * perPage; ++i)
        ASSERT_EQ(b.data()[i], 0u) << i;
    b.startReleased(3 * perPage);
    b.push_back(7);
    EXPECT_EQ(b[0], 0u);
    EXPECT_EQ(b[3 * perPage], 7u);

    const uint32_t *cAt = nullptr;
    {
        Column<uint32_t> c;
        c.reserve(8 * perPage);
        c.push_back(1); // one page written
        cAt = c.data();
    }
    {
        Column<uint32_t> lazy;
        lazy.setLazy(true);
        lazy.reserve(8 * perPage);
        EXPECT_NE(lazy.data(), cAt) << "a lazy column takes a fresh mapping";
        lazy.push_back(2);
    }
    EXPECT_EQ(detail::columnDropKept(), perPage * sizeof(uint32_t))
        << "c's page is kept, the lazy column's not";

    // A value of 12 bytes that crosses into the next page counts that page as written.
    struct Twelve
    {
        uint32_t a, b, c;
    };
    const size_t first12 = perPage * sizeof(uint32_t) / sizeof(Twelve); // the first to cross the page
    {
        Column<Twelve> e;
        for (size_t i = 0; i <= first12; ++i)
            e.push_back({~0u, ~0u, ~0u});
    }
    Column<uint32_t> f;
    f.reserve(16 * perPage); // e's mapping (4096 values of 12 bytes: 48 KiB, rounded to 64 KiB)
    for (size_t i = 0; i < 16 * perPage; ++i)
        ASSERT_EQ(f.data()[i], 0u) << i;
}

TEST(Model, AGuardedKeptMappingFaultsWhenReadAfterItsColumnIsFreedAndServesAgain)
{
    // A kept mapping would let a column's data used after the column was freed read on without a fault;
    // with the guard on (sanitizer builds, TICKSCOPE_GUARD_FREED_COLUMNS) it faults until it serves the
    // next column of its size, zeroed.
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    detail::columnDropKept();
    const GuardSetting guarded(true);
    const size_t perPage = static_cast<size_t>(::sysconf(_SC_PAGESIZE)) / sizeof(uint32_t);
    const uint32_t *freed = nullptr;
    {
        Column<uint32_t> a;
        a.reserve(2 * perPage);
        for (size_t i = 0; i < 2 * perPage; ++i)
            a.push_back(0xdeadbeef);
        freed = a.data();
    }
    const volatile uint32_t *stale = freed;
    EXPECT_DEATH((void)*stale, "") << "a read of the freed column's data";
    Column<uint32_t> b;
    b.reserve(2 * perPage);
    ASSERT_EQ(b.data(), freed) << "the guarded mapping is kept and handed out again";
    b.push_back(5);
    EXPECT_EQ(b[0], 5u);
    EXPECT_EQ(b.data()[perPage], 0u);
    detail::columnDropKept();
}

TEST(Model, AGuardedReleasedHeadFaultsWhenReadAlsoAfterItsColumnMoves)
{
    // A stream's reader left behind a released head reads zeros unguarded; with the guard on (every unit
    // test) the read faults, after a batch's end, after the column grew to a new address, and in a head
    // that a widened column starts with (startReleased); the values still held read back.
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const GuardSetting guarded(true);
    const size_t perPage = static_cast<size_t>(::sysconf(_SC_PAGESIZE)) / sizeof(uint64_t);
    Column<uint64_t> c;
    c.setLazy(true); // (as a stream's columns: a fresh mapping)
    c.reserve(4 * perPage);
    for (size_t i = 0; i < 4 * perPage; ++i)
        c.push_back(i + 1);
    {
        const ColumnReleaseBatch batch;
        c.releaseBefore(2 * perPage + 1);
        EXPECT_EQ(c[0], 1u) << "nothing is handed back before the batch ends";
    }
    EXPECT_DEATH(readOnce(&c[0]), "") << "a read of the released head";
    EXPECT_DEATH(readOnce(&c[2 * perPage - 1]), "");
    const uint64_t *before = c.data();
    for (size_t i = 4 * perPage; i < 64 * perPage; ++i) // grows past its mapping: mremap moves it
        c.push_back(i + 1);
    for (size_t i = 2 * perPage; i < 64 * perPage; ++i)
        ASSERT_EQ(c[i], i + 1) << i;
    EXPECT_DEATH(readOnce(&c[perPage]), "") << "the head stays guarded at the column's new address"
                                            << (c.data() == before ? " (it did not move)" : "");
    c.releaseBefore(40 * perPage);
    EXPECT_DEATH(readOnce(&c[39 * perPage]), "");
    EXPECT_EQ(c[40 * perPage], 40 * perPage + 1);

    Column<uint64_t> w;
    w.setLazy(true);
    w.reserve(8 * perPage);
    w.startReleased(3 * perPage + 2);
    w.push_back(9);
    EXPECT_EQ(w[3 * perPage + 2], 9u);
    EXPECT_DEATH(readOnce(&w[0]), "") << "a head that started released";
}

TEST(Model, AStreamedColumnPopulatesOnlyItsStretchAheadAndReadsBackAcrossReleases)
{
    const GuardSetting unguarded(false); // (the released head is read at the end: zeros)
    // A lazy column (one CPU's in a stream) with a stretch ahead: writing a value populates the pages up
    // to that stretch past it and no further; without one, only the pages written are. Values read back
    // through writes, head releases and more writes.
    const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    const size_t perPage = page / sizeof(uint64_t);
    const auto resident = [&](const Column<uint64_t> &c, size_t firstPage, size_t pages) {
        std::vector<unsigned char> v(pages);
        const auto *at = reinterpret_cast<const char *>(c.data()) + firstPage * page;
        EXPECT_EQ(::mincore(const_cast<char *>(at), pages * page, v.data()), 0);
        size_t n = 0;
        for (const unsigned char b : v)
            n += b & 1;
        return n;
    };
    Column<uint64_t> ahead, lazy;
    ahead.setLazy(true, 2 * page);
    lazy.setLazy(true);
    ahead.reserve(64 * perPage);
    lazy.reserve(64 * perPage);
    ahead.push_back(1);
    lazy.push_back(1);
    EXPECT_EQ(resident(lazy, 0, 16), 1u) << "a lazy column without a stretch ahead faults in what it writes";
    void *probe = ::mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    const bool populates = ::madvise(probe, page, 23 /* MADV_POPULATE_WRITE, Linux 5.14 */) == 0;
    ::munmap(probe, page);
    if (populates) {
        EXPECT_EQ(resident(ahead, 0, 16), 3u) << "the page written and two ahead";
    }
    for (size_t i = 2; i <= 40 * perPage; ++i)
        ahead.push_back(i);
    if (populates) {
        EXPECT_EQ(resident(ahead, 0, 40), 40u);
        EXPECT_LE(resident(ahead, 40, 24), 3u) << "no more than the stretch ahead past what is written";
    }
    ahead.releaseBefore(20 * perPage + 5);
    for (size_t i = 40 * perPage + 1; i <= 50 * perPage; ++i)
        ahead.push_back(i);
    for (size_t i = 20 * perPage; i < 50 * perPage; ++i)
        ASSERT_EQ(ahead[i], i + 1) << i;
    if (!populates)
        GTEST_SKIP() << "this kernel does not take MADV_POPULATE_WRITE (before 5.14): the "
                        "values read back, but nothing is populated ahead to look at";
    EXPECT_EQ(resident(ahead, 0, 20), 0u) << "the released head stays handed back";
    EXPECT_EQ(resident(ahead, 20, 30), 30u);
    EXPECT_LE(resident(ahead, 50, 14), 3u);
    EXPECT_EQ(ahead[0], 0u); // (a read maps the zero page: after the counts)
}

namespace {

// n switch records over `tasks` distinct pids (large, negative and zero among them; every one once n >=
// tasks), in an order that returns to earlier tasks.
std::vector<SwitchRec> someSwitches(size_t n, int32_t tasks)
{
    std::vector<SwitchRec> v;
    for (size_t k = 0; k < n; ++k) {
        const auto t = static_cast<int32_t>((k * 7919) % static_cast<size_t>(tasks));
        v.push_back({static_cast<uint32_t>(3 * k + 1), t % 3 == 0 ? -t : t * 4099});
    }
    return v;
}

} // namespace

TEST(Model, SwitchRecordsKeepEveryPidThroughEachWidth)
{
    // Up to 256 tasks on a CPU take one byte per record, up to 65,536 two, more the pid itself; a CPU
    // that crosses a limit mid-way keeps every record it had.
    for (const auto &[tasks, width] : {std::pair{200, 1}, {256, 1}, {257, 2}, {65536, 2}, {65537, 4}}) {
        const std::vector<SwitchRec> v = someSwitches(200000, tasks);
        SwitchRecords r;
        r.reserve(v.size());
        for (const SwitchRec &s : v)
            r.push_back(s);
        ASSERT_EQ(r.size(), v.size());
        EXPECT_EQ(r.width(), width) << tasks << " tasks";
        for (size_t k = 0; k < v.size(); ++k)
            ASSERT_EQ(std::make_pair(r[k].index, r[k].nextPid), std::make_pair(v[k].index, v[k].nextPid))
                << tasks << " tasks, record " << k;
    }
}

TEST(Model, SwitchRecordsWidenedInAStreamKeepTheirHeadHandedBack)
{
    // A stream hands back the records it is done with; a CPU that meets its 257th task afterwards copies
    // only the ones still held into the wider column (the head stays handed back, the rest reads right).
    const size_t perPage = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    std::vector<SwitchRec> v = someSwitches(16 * perPage, 200), more = someSwitches(24 * perPage, 300);
    for (SwitchRec &s : more)
        s.index += v.back().index;
    v.insert(v.end(), more.begin(), more.end());
    SwitchRecords r;
    r.reserve(v.size());
    size_t k = 0;
    for (; k < 16 * perPage; ++k)
        r.push_back(v[k]);
    ASSERT_EQ(r.width(), 1);
    const size_t before = r.liveBytes();
    r.releaseBefore(8 * perPage);
    EXPECT_LE(r.liveBytes() + 8 * perPage * (sizeof(uint32_t) + 1), before + 64);
    for (; k < v.size(); ++k)
        r.push_back(v[k]);
    ASSERT_EQ(r.width(), 2);
    for (size_t j = 8 * perPage; j < v.size(); ++j)
        ASSERT_EQ(r[j].nextPid, v[j].nextPid) << j;
    EXPECT_LT(r.liveBytes(), v.size() * (sizeof(uint32_t) + 2)) << "the handed-back head was copied back";
}

TEST(Model, SoftLatenessKeepsEveryValueBySlotThenByRecord)
{
    // A wakeup keeps its soft lateness as a slot of the CPU's slack values (soft - hard); past 255 values
    // they are kept by record. Two threads settle interleaved records at once, as the pairing's do, and
    // each record must read back its own soft lateness exactly, saturated values included.
    constexpr uint32_t kRecords = 4000;
    constexpr int64_t kSlacks = 400; // distinct soft - hard values: 255 slots, the rest by record
    auto valuesOf = [](uint32_t k) {
        if (k == 1) return std::make_pair(INT32_MIN + 1, INT32_MAX); // the widest difference: 33 bits
        const int32_t hard = k % 7 == 0 ? INT32_MAX : static_cast<int32_t>(k * 37 % 100000) - 50000;
        const int32_t soft = saturateNs(int64_t{hard} + (k % kSlacks) * 1000);
        return std::make_pair(hard, soft);
    };
    SoftLateness s;
    std::vector<HrtimerWakeup> w(kRecords);
    auto settle = [&](uint32_t first) {
        for (uint32_t k = first; k < kRecords; k += 2) {
            const auto [hard, soft] = valuesOf(k);
            w[k].index = 10 * k;
            w[k].latenessNs = hard;
            w[k].softSlot = s.slot(w[k].index, hard, soft);
        }
    };
    std::thread other(settle, 1);
    settle(0);
    other.join();
    s.finish();
    EXPECT_EQ(s.values(), 255u);
    size_t byRecord = 0;
    for (uint32_t k = 0; k < kRecords; ++k) {
        ASSERT_EQ(s.of(w[k]), valuesOf(k).second) << "record " << k;
        byRecord += w[k].softSlot == SoftLateness::kByRecord;
    }
    EXPECT_GT(byRecord, 0u);
    EXPECT_LT(byRecord, size_t{kRecords});
    EXPECT_EQ(s.records(), byRecord);

    // A record settled again keeps its last value, wherever it was kept.
    for (const uint32_t k : {uint32_t{2}, kRecords - 2}) {
        const auto [hard, soft] = valuesOf(k);
        w[k].softSlot = s.slot(w[k].index, hard, soft - 1);
    }
    s.finish();
    EXPECT_EQ(s.of(w[2]), valuesOf(2).second - 1);
    EXPECT_EQ(s.of(w[kRecords - 2]), valuesOf(kRecords - 2).second - 1);
    EXPECT_EQ(w[kRecords - 2].softSlot, SoftLateness::kByRecord);
    byRecord = 0;
    for (uint32_t k = 0; k < kRecords; ++k)
        byRecord += w[k].softSlot == SoftLateness::kByRecord;
    EXPECT_EQ(s.records(), byRecord) << "a record settled twice is kept once";

    HrtimerWakeup unknown;
    unknown.index = 7;
    EXPECT_EQ(s.of(unknown), kUnknownNs) << "a wakeup whose lateness is unknown has no soft lateness";

    // A stream hands back the records before an event: the ones after still read right.
    s.releaseBefore(10 * (kRecords / 2));
    for (uint32_t k = kRecords / 2; k < kRecords - 2; ++k)
        ASSERT_EQ(s.of(w[k]), valuesOf(k).second) << "record " << k;
    size_t after = 0;
    for (uint32_t k = kRecords / 2; k < kRecords; ++k)
        after += w[k].softSlot == SoftLateness::kByRecord;
    EXPECT_EQ(s.records(), after) << "the records before were not handed back";
}
