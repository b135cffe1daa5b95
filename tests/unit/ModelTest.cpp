// SPDX-License-Identifier: GPL-3.0-or-later
// The columnar model: timestamps across 2^32 ns epochs, payload offsets across blocks, sorting,
// interning from several threads, the task table.
#include "TestUtil.h"

#include "import/Loader.h"
#include "model/EventFilter.h"
#include "model/Trace.h"
#include "util/JsonWriter.h"
#include "util/ProcessStats.h"

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <set>
#include <thread>
#include <unistd.h>

using namespace tickscope;

namespace {

struct Fixture
{
    Trace trace;
    uint16_t sw, idle, ue, sys;
    Fixture()
    {
        trace.setCpuCount(1);
        sw = trace.addType("sched", "sched_switch");
        idle = trace.addType("power", "cpu_idle");
        ue = trace.addType("context_tracking", "user_exit");
        sys = trace.addType("raw_syscalls", "sys_enter");
    }
};

} // namespace

TEST(Model, KindsFromNames)
{
    EXPECT_EQ(kindForEvent("timer", "hrtimer_start"), EventKind::HrtimerStart);
    EXPECT_EQ(kindForEvent("", "hrtimer_setup"), EventKind::HrtimerInit);
    EXPECT_EQ(kindForEvent("irq_vectors", "local_timer_entry"), EventKind::LocalTimerEntry);
    EXPECT_EQ(kindForEvent("irq_vectors", "call_function_single_exit"), EventKind::VectorExit);
    EXPECT_EQ(kindForEvent("", "reschedule_entry"), EventKind::VectorEntry);
    EXPECT_EQ(kindForEvent("foo", "bar_entry"), EventKind::Generic);
    EXPECT_EQ(kindForEvent("ftrace", "print"), EventKind::Print);
    EXPECT_EQ(tickDependencyName(0x4), "SCHED");
    EXPECT_EQ(tickDependencyName(0x6), "PERF_EVENTS"); // first set bit, as the kernel prints it
    EXPECT_EQ(tickDependencyFromName("RCU_EXP"), 0x20u);
}

// A block's clock (one epoch search per block, not per event) reads every event's ts, in blocks inside one
// epoch, across one boundary, and across many (a CPU with an event every few seconds).
TEST(Model, BlockClockReadsEveryTimestamp)
{
    Fixture f;
    CpuEvents &ev = f.trace.cpu(0);
    std::vector<int64_t> ts;
    int64_t t = 1'000;
    std::mt19937_64 rng(7);
    for (int i = 0; i < 1000; ++i) {
        // stretches of dense events (a boundary inside a block at most) and of events seconds apart
        t += (i / 200) % 2 ? static_cast<int64_t>(rng() % 6'000'000'000)
                           : static_cast<int64_t>(rng() % 50'000'000);
        ts.push_back(t);
        CpuIdleP p{static_cast<uint32_t>(i), 0};
        ASSERT_TRUE(ev.append(t, f.idle, 0, 0, 0, &p, sizeof p));
    }
    size_t crossings = 0;
    for (size_t b = 0; b << CpuEvents::kBlockShift < ts.size(); ++b) {
        const CpuEvents::BlockClock clock(ev, b);
        const size_t from = b << CpuEvents::kBlockShift, to = std::min(ts.size(), from + 64);
        crossings = std::max(crossings, static_cast<size_t>((ts[to - 1] >> 32) - (ts[from] >> 32)));
        for (size_t i = from; i < to; ++i)
            ASSERT_EQ(clock.ts(i), ts[i]) << i;
    }
    EXPECT_GT(crossings, 2u); // (some block spans several epoch boundaries)
}

TEST(Model, TimestampsAcrossEpochsAndPayloadsAcrossBlocks)
{
    Fixture f;
    CpuEvents &ev = f.trace.cpu(0);
    std::mt19937_64 rng(42);
    std::vector<int64_t> ts;
    std::vector<uint16_t> types;
    int64_t t = (int64_t{1} << 32) - 5000; // start just below an epoch boundary
    for (int i = 0; i < 5000; ++i) {
        t += static_cast<int64_t>(rng() % 3'000'000); // crosses several 2^32 ns boundaries
        if (i == 2500) t += int64_t{20} << 32;        // a long silent gap
        const uint16_t ty = std::array<uint16_t, 4>{f.sw, f.idle, f.ue, f.sys}[rng() % 4];
        ts.push_back(t);
        types.push_back(ty);
        if (ty == f.sw) {
            SchedSwitchP p{i, i + 1, 120, 99, 0x100};
            ASSERT_TRUE(ev.append(t, ty, 1, 2, i, &p, sizeof p));
        } else if (ty == f.idle) {
            CpuIdleP p{static_cast<uint32_t>(i), 0};
            ASSERT_TRUE(ev.append(t, ty, 0, 0, 0, &p, sizeof p));
        } else if (ty == f.sys) {
            SyscallP p{i};
            ASSERT_TRUE(ev.append(t, ty, 0, 0, i, &p, sizeof p));
        } else {
            ASSERT_TRUE(ev.append(t, ty, 0, 0, i, nullptr, 0));
        }
    }
    ASSERT_EQ(ev.size(), ts.size());
    for (size_t i = 0; i < ts.size(); ++i) {
        ASSERT_EQ(ev.ts(i), ts[i]) << i;
        ASSERT_EQ(ev.type(i), types[i]);
        if (types[i] == f.sw) {
            const auto p = ev.payload<SchedSwitchP>(i);
            ASSERT_EQ(p.prevPid, static_cast<int32_t>(i));
            ASSERT_EQ(p.nextPrio, 99);
        } else if (types[i] == f.idle) {
            ASSERT_EQ(ev.payload<CpuIdleP>(i).state, i);
        } else if (types[i] == f.sys) {
            ASSERT_EQ(ev.payload<SyscallP>(i).id, static_cast<int32_t>(i));
        }
    }
    size_t n = 0;
    for (CpuEvents::Cursor c(ev, 0); c.valid(); c.next(), ++n) {
        ASSERT_EQ(c.ts(), ts[c.index()]);
        ASSERT_EQ(c.payloadOffset(), ev.payloadOffset(c.index()));
    }
    EXPECT_EQ(n, ts.size());
    for (size_t b = 0; b << CpuEvents::kBlockShift < ts.size(); ++b) {
        const CpuEvents::BlockClock clock(ev, b);
        for (size_t i = b << CpuEvents::kBlockShift;
             i < std::min(ts.size(), (b + 1) << CpuEvents::kBlockShift); ++i)
            ASSERT_EQ(clock.ts(i), ts[i]) << i;
    }
    // Offsets of increasing indices with skips short and long (inside a block, across blocks, to a
    // block's first event), and every index from one walker.
    for (size_t stride :
         {size_t{1}, size_t{3}, size_t{63}, size_t{64}, size_t{65}, size_t{200}, size_t{997}}) {
        CpuEvents::OffsetWalker walk(ev);
        for (size_t i = stride / 2; i < ev.size(); i += stride)
            ASSERT_EQ(walk.offset(i), ev.payloadOffset(i)) << "stride " << stride << " index " << i;
    }
    for (size_t probe : {size_t{0}, size_t{1}, size_t{2499}, size_t{2500}, size_t{4999}}) {
        EXPECT_EQ(ev.lowerBound(ts[probe]), probe);
        EXPECT_EQ(ev.lowerBound(ts[probe] + 1), probe + 1);
    }
    EXPECT_EQ(ev.lowerBound(INT64_MAX), ev.size());
    EXPECT_EQ(ev.lowerBound(0), 0u);

    // The same events in parts cut anywhere (inside blocks, across epochs and the long gap), joined in
    // order: the same events, payload offsets, pids and walkers; a lost range opening a part is a gap
    // after the previous part's last event.
    CpuEvents joined(&f.trace.typeSizes());
    size_t from = 0;
    for (size_t cut : {size_t{0}, size_t{1}, size_t{70}, size_t{100}, size_t{2500}, size_t{2501},
                       size_t{4096}, size_t{5000}}) {
        CpuEvents part(&f.trace.typeSizes());
        for (size_t i = from; i < cut; ++i)
            part.append(ev.ts(i), ev.type(i), ev.flags(i), ev.preempt(i), ev.pid(i), ev.payloadBytes(i),
                        f.trace.typeSizes()[ev.type(i)]);
        // a range that is not at the part's first event stays as it is; one that opens the part (marked
        // from == INT64_MIN by the decoder of a part after the first) is joined
        // (the first event after each: an index in the part)
        if (cut == 2500) part.lost.push_back({ev.ts(1000), ev.ts(1001), 3, false, 1001 - 100});
        if (cut == 2501) part.lost.push_back({INT64_MIN, ev.ts(2500), 7, false, 0});
        joined.appendEvents(part);
        from = cut;
    }
    ASSERT_EQ(joined.size(), ev.size());
    for (size_t i = 0; i < ev.size(); ++i) {
        ASSERT_EQ(joined.ts(i), ev.ts(i)) << i;
        ASSERT_EQ(joined.type(i), ev.type(i));
        ASSERT_EQ(joined.pid(i), ev.pid(i)) << i;
        ASSERT_EQ(joined.payloadOffset(i), ev.payloadOffset(i)) << i;
    }
    EXPECT_EQ(joined.runCount(), ev.runCount());
    EXPECT_TRUE(joined.sorted());
    size_t m = 0;
    for (CpuEvents::Cursor c(joined, 0); c.valid(); c.next(), ++m)
        ASSERT_EQ(c.ts(), ts[c.index()]);
    EXPECT_EQ(m, ts.size());
    ASSERT_EQ(joined.lost.size(), 2u);
    EXPECT_EQ(joined.lost[0].from, ev.ts(1000));
    EXPECT_EQ(joined.firstAfterLost(0), 1001u);
    EXPECT_EQ(joined.lost[1].from, ev.ts(2499)); // opened the part that starts at event 2500
    EXPECT_EQ(joined.lost[1].to, ev.ts(2500));
    EXPECT_EQ(joined.firstAfterLost(1), 2500u);
}

// A lost range knows the first event after it by index: times cannot place a gap between two events of
// one microsecond. Sorting events that came out of order keeps it before the same events.
TEST(Model, ALostRangeStaysBeforeTheSameEventsWhenSorted)
{
    Fixture f;
    CpuEvents ev(&f.trace.typeSizes());
    for (int64_t t : {10, 20, 5, 20})
        ev.append(t, f.ue, 0, 0, 7, nullptr, 0);
    ev.lost.push_back({20, 20, 4, false, static_cast<uint32_t>(ev.size())}); // (as a text importer says it)
    for (int64_t t : {20, 30})
        ev.append(t, f.ue, 0, 0, 7, nullptr, 0);
    ASSERT_FALSE(ev.sorted());
    ev.sortByTime();
    ASSERT_EQ(ev.size(), 6u);
    EXPECT_EQ(ev.ts(0), 5);
    EXPECT_EQ(ev.firstAfterLost(0), 4u) << "after the two events of 20 before it, before the one after it";
    const auto dark = ev.darkSpan(0);
    ASSERT_TRUE(dark.has_value());
    EXPECT_EQ(*dark, std::make_pair(int64_t{20}, int64_t{20}));
    EXPECT_TRUE(ev.lostBetween(10, 30));
    EXPECT_FALSE(ev.lostBetween(20, 30)) << "a gap at a's or b's very time is not between them";

    // An event stamped late after the gap goes before it with its time; the gap stays before the event
    // that came first after it, not before the late one.
    CpuEvents late(&f.trace.typeSizes());
    for (int64_t t : {10, 20})
        late.append(t, f.ue, 0, 0, 7, nullptr, 0);
    late.lost.push_back({20, 30, 4, false, static_cast<uint32_t>(late.size())});
    for (int64_t t : {30, 15})
        late.append(t, f.ue, 0, 0, 7, nullptr, 0);
    late.sortByTime();
    EXPECT_EQ(late.firstAfterLost(0), 3u) << "10 15 20 | 30";
}

// A busy CPU's pages decoded in parts: a part that ends in a gap (its last pages said events were lost and
// had none after) leaves it open; parts without events add their counts; the next part's first event, or
// the end of its own opening gap, closes it, its count added. Data that begins in such a gap opens with it.
// One still open when the data ends is dropped.
TEST(Model, PartsJoinTheGapsTheyEndAndBeginIn)
{
    Fixture f;
    const auto part = [&](std::initializer_list<int64_t> times, std::vector<LostRange> lost) {
        CpuEvents p(&f.trace.typeSizes());
        for (int64_t t : times)
            EXPECT_TRUE(p.append(t, f.ue, 0, 0, 7, nullptr, 0));
        p.lost = std::move(lost);
        return p;
    };
    constexpr int64_t kOpen = LostRange::kOpenEnd;
    {
        CpuEvents joined(&f.trace.typeSizes());
        joined.appendEvents(part({100, 200}, {{200, kOpen, 5}}));
        joined.appendEvents(part({}, {{INT64_MIN, kOpen, 4}}));
        joined.appendEvents(part({300, 400}, {{INT64_MIN, 300, 2, false, 0}, {300, 400, 9, false, 1}}));
        ASSERT_EQ(joined.lost.size(), 2u);
        EXPECT_EQ(joined.lost[0].from, 200);
        EXPECT_EQ(joined.lost[0].to, 300);
        EXPECT_EQ(joined.lost[0].count, 11u);
        EXPECT_EQ(joined.firstAfterLost(0), 2u);
        EXPECT_FALSE(joined.opensData(0));
        EXPECT_EQ(joined.lost[1].from, 300);
        EXPECT_EQ(joined.lost[1].count, 9u);
        EXPECT_EQ(joined.firstAfterLost(1), 3u);
    }
    { // an uncounted gap makes the sum uncounted; the next part's first event closes it
        CpuEvents joined(&f.trace.typeSizes());
        joined.appendEvents(part({100}, {{100, kOpen, 5}}));
        joined.appendEvents(part({}, {{INT64_MIN, kOpen, 0}}));
        joined.appendEvents(part({300}, {}));
        ASSERT_EQ(joined.lost.size(), 1u);
        EXPECT_EQ(joined.lost[0].from, 100);
        EXPECT_EQ(joined.lost[0].to, 300);
        EXPECT_EQ(joined.lost[0].count, 0u);
    }
    { // data that begins in a gap: it opens the data
        CpuEvents joined(&f.trace.typeSizes());
        joined.appendEvents(part({}, {{INT64_MIN, kOpen, 3}}));
        joined.appendEvents(part({500, 600}, {}));
        ASSERT_EQ(joined.lost.size(), 1u);
        EXPECT_EQ(joined.lost[0].from, 500);
        EXPECT_EQ(joined.lost[0].to, 500);
        EXPECT_TRUE(joined.opensData(0));
    }
    { // a gap the data ends in
        CpuEvents joined(&f.trace.typeSizes());
        joined.appendEvents(part({100}, {{100, kOpen, 5}}));
        joined.appendEvents(part({}, {{INT64_MIN, kOpen, 1}}));
        joined.dropOpenLost();
        EXPECT_TRUE(joined.lost.empty());
    }
}

// Type ids take one byte per event until a CPU sees an id above 255; then two. Either way the same events,
// payload offsets and walkers, and parts of both widths join in any order.
TEST(Model, TypeIdsWidenPastOneByte)
{
    Fixture f;
    std::vector<uint16_t> many;
    for (int k = 0; k < 300; ++k)
        many.push_back(f.trace.addType("test", "kind_" + std::to_string(k)));
    ASSERT_GT(many.back(), 255);
    const auto &sizes = f.trace.typeSizes();
    // events 0..2999 use ids below 256 (generic kinds: no payload, and syscalls with one), 3000.. any id
    auto typeAt = [&](size_t i) {
        if (i % 7 == 0) return f.sys;
        return i < 3000 ? many[i % 200] : many[(i * 37) % many.size()];
    };
    auto fill = [&](CpuEvents &ev, size_t from, size_t to) {
        for (size_t i = from; i < to; ++i) {
            const SyscallP p{static_cast<int32_t>(i)};
            const uint16_t t = typeAt(i);
            ev.append(static_cast<int64_t>(1000 + i * 10), t, 0, 0, static_cast<int32_t>(i / 100), &p,
                      sizes[t]);
        }
    };
    auto check = [&](const CpuEvents &ev, size_t n) {
        ASSERT_EQ(ev.size(), n);
        size_t off = 0;
        for (size_t i = 0; i < n; ++i) {
            ASSERT_EQ(ev.type(i), typeAt(i)) << i;
            ASSERT_EQ(ev.payloadOffset(i), off) << i;
            if (typeAt(i) == f.sys) {
                ASSERT_EQ(ev.payload<SyscallP>(i).id, static_cast<int32_t>(i));
            }
            off += sizes[typeAt(i)];
        }
        for (CpuEvents::Cursor c(ev, 0); c.valid(); c.next())
            ASSERT_EQ(c.payloadOffset(), ev.payloadOffset(c.index()));
        // findType finds what a look at every event finds, in a range inside the events
        for (const uint16_t t : {f.sys, many[5], many[299]}) {
            const size_t end = n - 5;
            for (size_t from = 17;;) {
                size_t j = from;
                while (j < end && ev.type(j) != t)
                    ++j;
                const size_t i = ev.findType(t, from, end);
                ASSERT_EQ(i, j) << "type " << t << " from " << from;
                if (i == end) break;
                from = i + 1;
            }
        }
    };
    auto made = [&](size_t from, size_t to) {
        CpuEvents ev(&sizes);
        fill(ev, from, to);
        return ev;
    };
    const CpuEvents narrow = made(0, 3000);
    check(narrow, 3000);
    const size_t narrowBytes = narrow.memoryBytes();
    check(made(0, 6000), 6000);
    // a narrow CPU pays one byte per event for its type, a widened one two: the same events but for the
    // last one's id (both kinds without payload) differ by one byte per event
    ASSERT_EQ(sizes[many[250]], sizes[many[299]]);
    CpuEvents small = made(0, 3000), big = made(0, 3000);
    small.append(100'000, many[250], 0, 0, 29, nullptr, 0);
    big.append(100'000, many[299], 0, 0, 29, nullptr, 0);
    EXPECT_EQ(big.memoryBytes() - small.memoryBytes(), 3001u);
    EXPECT_EQ(big.type(3000), many[299]);
    EXPECT_EQ(big.type(2999), typeAt(2999));
    // joined: narrow + wide, wide + narrow, narrow + narrow
    CpuEvents narrowAgain = made(0, 3000);
    narrowAgain.appendEvents(made(3000, 6000));
    check(narrowAgain, 6000);
    CpuEvents wideFirst = made(0, 6000);
    CpuEvents more(&sizes);
    for (size_t i = 6000; i < 6100; ++i) {
        const SyscallP p{static_cast<int32_t>(i)};
        more.append(static_cast<int64_t>(1000 + i * 10), f.sys, 0, 0, 1, &p, sizeof p);
    }
    wideFirst.appendEvents(more);
    ASSERT_EQ(wideFirst.size(), 6100u);
    for (size_t i = 6000; i < 6100; ++i)
        ASSERT_EQ(wideFirst.type(i), f.sys);
    CpuEvents two = made(0, 1000);
    two.appendEvents(made(1000, 3000));
    check(two, 3000);
    EXPECT_EQ(two.memoryBytes(), narrowBytes);
}

// A stream's CPU whose first id above 255 comes late: the wide column starts where the narrow one's
// handed-back head ends, lazy as it was, instead of writing two bytes for every event since the trace
// began (8 MB for the 4 M events here, held until the next hand-back).
TEST(Model, AStreamedCpuWidenedLateCopiesOnlyTheEventsItHolds)
{
    Fixture f;
    std::vector<uint16_t> many;
    for (int k = 0; k < 300; ++k)
        many.push_back(f.trace.addType("test", "kind_" + std::to_string(k)));
    const auto &sizes = f.trace.typeSizes();
    const std::array<uint8_t, 64> payload{};
    ASSERT_LE(sizes[many[299]], payload.size());
    constexpr size_t n = 4'000'000, kept = 1000;
    CpuEvents ev(&sizes);
    ev.reserve(n + 10, 0, false, true, 8192);
    for (size_t i = 0; i < n; ++i)
        ev.append(static_cast<int64_t>(1000 + i), many[i % 200], 0, 0, 1, payload.data(),
                  sizes[many[i % 200]]);
    ev.releaseBefore(n - kept);
    const size_t from = ev.releasedBefore();
    ASSERT_GT(from, n - kept - 64);
    const uint64_t before = currentRssBytes();
    ev.append(static_cast<int64_t>(1000 + n), many[299], 0, 0, 1, payload.data(), sizes[many[299]]);
    const uint64_t after = currentRssBytes();
    EXPECT_LT(after, before + 1'000'000) << "RSS " << before << " -> " << after << " bytes";
    for (size_t i = from; i < n; ++i)
        ASSERT_EQ(ev.type(i), many[i % 200]) << i;
    EXPECT_EQ(ev.type(n), many[299]);
    for (size_t i = n + 1; i < n + 10; ++i)
        ev.append(static_cast<int64_t>(1000 + i), many[250], 0, 0, 1, payload.data(), sizes[many[250]]);
    EXPECT_EQ(ev.type(n + 9), many[250]);
    EXPECT_EQ(ev.size(), n + 10);
    EXPECT_EQ(ev.ts(n + 9), static_cast<int64_t>(1000 + n + 9));
}

// A stream's CPU whose task changes every few events: the searches for an event's task (pid, a cursor)
// and the next hand-back looked through the whole column of task runs, handed-back head included, and on
// kernels that give a read of a handed-back page a page of its own that took the memory back: a 100 M-event
// stream's RSS grew by about a byte per event.
TEST(Model, AStreamedCpuDoesNotReadItsHandedBackTaskRuns)
{
    Fixture f;
    const auto &sizes = f.trace.typeSizes();
    const SyscallP p{1};
    constexpr size_t step = 65536, steps = 160; // 10.5 M events, 5.2 M runs: a 42 MB column
    CpuEvents ev(&sizes);
    ev.reserve(step * steps, 0, false, true, 8192);
    uint64_t afterFirst = 0;
    for (size_t k = 0; k < steps; ++k) {
        for (size_t i = k * step; i < (k + 1) * step; ++i)
            ev.append(static_cast<int64_t>(1000 + i), f.sys, 0, 0, static_cast<int32_t>(i / 2 % 1000), &p,
                      sizeof p);
        ev.releaseBefore(ev.size() - 4096);
        for (size_t i = ev.size() - 4096; i < ev.size(); i += 97) {
            ASSERT_EQ(ev.pid(i), static_cast<int32_t>(i / 2 % 1000)) << i;
            ASSERT_EQ(CpuEvents::Cursor(ev, i).pid(), static_cast<int32_t>(i / 2 % 1000)) << i;
        }
        ASSERT_EQ(ev.lowerBound(static_cast<int64_t>(ev.size() - 10 + 1000)), ev.size() - 10);
        if (k == 0) afterFirst = currentRssBytes();
    }
    const uint64_t end = currentRssBytes();
    EXPECT_LT(end, afterFirst + 8'000'000) << "RSS " << afterFirst << " -> " << end << " bytes";
}

TEST(Model, OutOfOrderEventsAreSorted)
{
    Fixture f;
    CpuEvents &ev = f.trace.cpu(0);
    const int64_t times[] = {100, 300, 200, 50, 300, 10'000'000'000};
    for (int i = 0; i < 6; ++i) {
        SyscallP p{i};
        ev.append(times[i], f.sys, 0, 0, i, &p, sizeof p);
    }
    EXPECT_FALSE(ev.sorted());
    ev.sortByTime();
    EXPECT_TRUE(ev.sorted());
    const int expect[] = {3, 0, 2, 1, 4, 5}; // stable: the two 300s keep their order
    for (int i = 0; i < 6; ++i) {
        EXPECT_EQ(ev.payload<SyscallP>(static_cast<size_t>(i)).id, expect[i]);
        EXPECT_EQ(ev.pid(static_cast<size_t>(i)), expect[i]);
    }
}

// The ids four threads get from one pool, each through its own LocalInterner: intern(local, i) for
// i = 0 .. 19999; all four lists are checked to be the same and one is returned.
template <class Intern> std::vector<uint32_t> idsOnFourThreads(StringPool &pool, Intern intern)
{
    std::vector<std::thread> th;
    std::vector<std::vector<uint32_t>> ids(4);
    for (int t = 0; t < 4; ++t) {
        th.emplace_back([&, t] {
            LocalInterner local(pool);
            for (int i = 0; i < 20000; ++i)
                ids[t].push_back(intern(local, i));
        });
    }
    for (auto &x : th)
        x.join();
    for (int t = 1; t < 4; ++t)
        EXPECT_EQ(ids[t], ids[0]);
    return ids[0];
}

TEST(Model, StringPoolIsThreadSafeAndStable)
{
    StringPool pool;
    const std::vector<uint32_t> ids = idsOnFourThreads(
        pool, [](LocalInterner &local, int i) { return local.intern("comm-" + std::to_string(i % 3000)); });
    EXPECT_EQ(pool.size(), 3001u); // plus the empty string
    EXPECT_EQ(pool.str(ids[17]), "comm-17");
    EXPECT_EQ(pool.intern(""), 0u);
    const std::string big(100000, 'x');
    EXPECT_EQ(pool.str(pool.intern(big)), big);
}

// Pointer ids: one per value, the same on every thread, 0 for the null pointer; the per-thread cache
// hands out the pool's ids even when many values share its slots.
TEST(Model, PointerIdsAreOnePerValue)
{
    StringPool pool;
    EXPECT_EQ(pool.internPointer(0), 0u);
    EXPECT_EQ(pool.pointer(0), 0u);
    // 3000 timers 64 bytes apart, then 3000 0x1000 apart: the cache's slots collide
    auto value = [](int i) {
        return 0xffff888100000000ull + static_cast<uint64_t>(i % 3000) * (i < 10000 ? 64 : 0x1000);
    };
    const std::vector<uint32_t> ids =
        idsOnFourThreads(pool, [&](LocalInterner &local, int i) { return local.internPointer(value(i)); });
    std::set<uint64_t> distinct{0};
    for (int i = 0; i < 20000; ++i) {
        distinct.insert(value(i));
        ASSERT_EQ(pool.pointer(ids[static_cast<size_t>(i)]), value(i)) << i;
    }
    EXPECT_EQ(pool.pointerCount(), distinct.size());
    EXPECT_EQ(pool.internPointer(value(12345)), ids[12345]);
    EXPECT_EQ(pool.pointer(999999), 0u); // not an id
}

// A thread's table of the pointers it has interned stops growing at its limit and then keeps taking the
// pool's ids: 400,000 values (past the 131,072 it holds), each asked for twice, then all again.
TEST(Model, PointerIdsStayRightPastTheLocalTablesLimit)
{
    StringPool pool;
    LocalInterner local(pool);
    constexpr uint64_t kValues = 400000;
    auto value = [](uint64_t i) { return 0xffffc90000000000ull + i * 0x40; };
    std::vector<uint32_t> ids(kValues);
    for (uint64_t i = 0; i < kValues; ++i) {
        ids[i] = local.internPointer(value(i));
        ASSERT_EQ(local.internPointer(value(i)), ids[i]) << i;
        ASSERT_EQ(pool.pointer(ids[i]), value(i)) << i;
    }
    for (uint64_t i = 0; i < kValues; ++i)
        ASSERT_EQ(local.internPointer(value(i)), ids[i]) << i;
    EXPECT_EQ(pool.pointerCount(), kValues + 1);
    EXPECT_EQ(local.internPointer(0), 0u);
}

TEST(Model, TaskTableNamesOverTime)
{
    StringPool pool;
    TaskTable tt;
    TaskTable::Recorder a, b;
    a.note(INT64_MIN, 42, pool.intern("bash"));
    a.note(100, 42, pool.intern("bash"));
    b.note(500, 42, pool.intern("cyclictest"));
    b.note(10, 7, pool.intern("kworker/0:1"));
    tt.merge(std::move(a.entries));
    tt.merge(std::move(b.entries));
    tt.finalize();
    EXPECT_EQ(pool.str(tt.comm(42, 0)), "bash");
    EXPECT_EQ(pool.str(tt.comm(42, 499)), "bash");
    EXPECT_EQ(pool.str(tt.comm(42, 500)), "cyclictest");
    EXPECT_EQ(pool.str(tt.comm(7, 0)), "kworker/0:1"); // before the first sighting: the first name
    EXPECT_EQ(tt.comm(8, 0), 0u);
    EXPECT_EQ(tt.taskCount(), 2u);
}

TEST(Model, KernelReleaseFromUname)
{
    EXPECT_EQ(kernelReleaseFromUname("Linux (none) 6.1.0-57-amd64 x86_64"), "6.1.0-57-amd64");
    EXPECT_EQ(kernelReleaseFromUname("Linux vm 6.18.44-fc-v857 x86_64"), "6.18.44-fc-v857");
    EXPECT_EQ(kernelReleaseFromUname("garbage"), "");
}

TEST(Model, JsonWriterEscapesAndNests)
{
    JsonWriter j(0);
    j.beginObject().value("a", "x\"y\n").beginArray("b").value({}, int64_t{1}).value({}, true).endArray();
    j.beginObject("c").endObject().endObject();
    EXPECT_EQ(j.str(), "{\"a\":\"x\\\"y\\n\",\"b\":[1,true],\"c\":{}}\n");
}

// Doubles keep the report's 6 significant digits (whole ones without a fraction, as %g prints them), and
// a string that is not UTF-8 (a task name or an event field is the kernel's bytes) still gives JSON that
// parses: its bad bytes become U+FFFD.
TEST(Model, JsonWriterNumbersAndBytesThatAreNotUtf8)
{
    JsonWriter j(0);
    j.beginArray().value({}, 2.0).value({}, 0.1234567891).value({}, -1.5).value({}, 1e-7).value({}, 250000.4);
    j.value({}, std::nan("")).value({}, "ok \xff\xfe end").value({}, "\xc3\xa9t\xc3\xa9").endArray();
    EXPECT_EQ(
        j.str(),
        "[2,0.123457,-1.5,1e-07,250000,null,\"ok \xef\xbf\xbd\xef\xbf\xbd end\",\"\xc3\xa9t\xc3\xa9\"]");
    JsonWriter k; // indented: a top-level object ends its line
    k.beginObject().value("n", int64_t{-3}).beginArray("e").endArray().endObject();
    EXPECT_EQ(k.take(), "{\n  \"n\": -3,\n  \"e\": []\n}\n");
}

// Every CPU's idle task is pid 0; the kernel names it swapper/CPU, while a trace's task table has one name
// for pid 0 (the first CPU's, or "<idle>"): the views name it by the event's CPU.
TEST(Model, TheIdleTaskIsNamedByItsCpu)
{
    const auto trace = loadTrace(test::dataPath("nohzfull-poll.dat"));
    int found = 0;
    for (int cpu = 0; cpu < trace->cpuCount(); ++cpu) {
        const CpuEvents &ev = trace->cpu(cpu);
        for (size_t i = 0; i < ev.size(); ++i) {
            if (ev.pid(i) != 0) continue;
            EXPECT_EQ(taskComm(*trace, cpu, i), "swapper/" + std::to_string(cpu));
            ++found;
            break;
        }
    }
    EXPECT_EQ(found, trace->cpuCount());
    // and the task filter finds pid 0 by that name
    const EventFilter f = EventFilter::make(*trace, -1, "swapper/1", "");
    EXPECT_TRUE(f.matches(1, 0, 0));
}
