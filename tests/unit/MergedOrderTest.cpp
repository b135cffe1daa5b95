// SPDX-License-Identifier: GPL-3.0-or-later
// The merged time order of all CPUs and the event filter, on generated traces whose answer is known
// independently: a std::sort of every (ts, cpu, index), and a plain count of the matching events.
#include "ReferenceOrder.h"
#include "TestUtil.h"
#include "model/EventFilter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <random>
#include <tuple>

using namespace tickscope;

namespace {

// cpus CPUs, events per CPU drawn at random; many equal timestamps across CPUs (coarse clock) so that the
// tie order matters; two types; pids 100..104 with names.
// Timestamps from `base` on in steps of 0, 1 or 2 times `step` ns; every `emptyEvery`th CPU without events.
void fill(Trace &t, int cpus, size_t maxPerCpu, uint32_t seed, int64_t base = 1000, int64_t step = 10,
          int emptyEvery = 0)
{
    t.setCpuCount(cpus);
    const uint16_t a = t.addType("sched", "sched_switch");
    const uint16_t b = t.addType("power", "cpu_idle");
    TaskTable::Recorder rec;
    for (int32_t pid = 100; pid < 105; ++pid)
        rec.noteInitial(pid, t.strings.intern(pid % 2 ? "worker" : "stress-ng"));
    t.tasks.merge(std::move(rec.entries));
    t.tasks.finalize();
    std::mt19937 rng(seed);
    const std::array<uint8_t, 64> zero{};
    for (int c = 0; c < cpus; ++c) {
        const size_t n = emptyEvery && c % emptyEvery == 0 ? 0 : rng() % (maxPerCpu + 1);
        int64_t ts = base + static_cast<int64_t>(rng() % 50) * step;
        for (size_t i = 0; i < n; ++i) {
            ts += static_cast<int64_t>(rng() % 3) * step;
            const uint16_t ty = rng() % 3 ? a : b;
            t.cpu(c).append(ts, ty, 0, 0, 100 + static_cast<int32_t>(rng() % 5), zero.data(),
                            t.typeSizes()[ty]);
        }
        t.cpu(c).finishLoading();
    }
}

std::vector<EventPos> sorted(const Trace &t)
{
    std::vector<std::tuple<int64_t, int, size_t>> all;
    for (int c = 0; c < t.cpuCount(); ++c) {
        for (size_t i = 0; i < t.cpu(c).size(); ++i)
            all.emplace_back(t.cpu(c).ts(i), c, i);
    }
    std::sort(all.begin(), all.end());
    std::vector<EventPos> out;
    for (auto &[ts, c, i] : all)
        out.push_back({c, i});
    return out;
}

void checkOrder(int cpus, size_t perCpu, uint32_t seed, int64_t base = 1000, int64_t step = 10)
{
    Trace t;
    fill(t, cpus, perCpu, seed, base, step);
    const auto m = MergedOrder::build(t);
    ASSERT_TRUE(m);
    const std::vector<EventPos> expect = sorted(t);
    ASSERT_EQ(m->size(), expect.size());
    for (size_t row = 0; row < expect.size(); ++row) {
        ASSERT_EQ(m->at(row), expect[row]) << "row " << row << " of " << cpus << " CPUs";
        ASSERT_EQ(MergedCursor::rowOf(t, expect[row]), row);
    }
    // the first row at a time: every row before it is earlier, it is not
    for (int64_t time : {int64_t{0}, int64_t{1500}, int64_t{5000}, int64_t{1} << 40}) {
        const size_t r = MergedCursor::rowAtTime(t, time);
        if (r > 0) {
            EXPECT_LT(t.cpu(expect[r - 1].cpu).ts(expect[r - 1].index), time);
        }
        if (r < expect.size()) {
            EXPECT_GE(t.cpu(expect[r].cpu).ts(expect[r].index), time);
        }
    }
    EXPECT_LE(static_cast<double>(m->bytes()),
              1.3 * static_cast<double>(expect.size()) * (cpus > 256 ? 2 : 1) + 4096.0 * cpus);
    // Without the order: a cursor placed at any row reads the same rows on from there.
    ASSERT_TRUE(MergedCursor::usable(t));
    std::vector<size_t> starts; // about 400 rows, the last ones and one past the end among them
    for (size_t row = 0; row < expect.size(); row += std::max<size_t>(1, expect.size() / 400))
        starts.push_back(row);
    for (size_t back = 1; back <= std::min<size_t>(3, expect.size()); ++back)
        starts.push_back(expect.size() - back);
    starts.push_back(expect.size());
    for (const size_t row : starts) {
        MergedCursor c(t, row);
        for (size_t k = row; k < std::min(expect.size(), row + 40); ++k, c.next()) {
            ASSERT_TRUE(c.valid()) << "row " << k << " from " << row << " of " << cpus << " CPUs";
            ASSERT_EQ(c.row(), k);
            ASSERT_EQ(c.pos(), expect[k]) << "row " << k << " from " << row << " of " << cpus << " CPUs";
        }
        if (row + 40 >= expect.size()) {
            EXPECT_FALSE(c.valid()) << "past the last row, from " << row;
        }
    }
    MergedCursor all(t, 0);
    for (size_t k = 0; k < expect.size(); ++k, all.next())
        ASSERT_EQ(all.pos(), expect[k]) << "row " << k << " of a walk from the first";
    EXPECT_FALSE(all.valid());
}

} // namespace

TEST(MergedOrder, EqualsASortOfAllEvents)
{
    checkOrder(1, 3000, 1);
    checkOrder(2, 5000, 2);
    checkOrder(7, 2000, 3);
    checkOrder(64, 300, 4);
}

// Timestamps past 32 bits (each CPU's column keeps their high halves apart), steps of seconds that cross
// them, and times near the largest one.
TEST(MergedOrder, FarAndWideTimestamps)
{
    checkOrder(5, 2000, 11, int64_t{1} << 40, int64_t{3} << 30);
    checkOrder(3, 1000, 12, INT64_MAX - (int64_t{1} << 36), int64_t{1} << 24);
}

TEST(MergedOrder, MoreThan256Cpus)
{
    checkOrder(300, 40, 5);
}

TEST(MergedOrder, CancelStopsTheBuild)
{
    Trace t;
    fill(t, 2, 3000000, 6);
    std::atomic<bool> cancel{true};
    EXPECT_FALSE(MergedOrder::build(t, &cancel));
}

TEST(EventFilter, KeepsWhatAPlainCountFinds)
{
    Trace t;
    fill(t, 4, 4000, 7);
    const auto m = MergedOrder::build(t);
    ASSERT_TRUE(m);
    const int cpuFilter = 2;
    for (auto [cpu, task, event] : {std::tuple{-1, "", "cpu_idle"}, std::tuple{cpuFilter, "", ""},
                                    std::tuple{-1, "work", ""}, std::tuple{cpuFilter, "102", "sched_switch"},
                                    std::tuple{-1, "nobody", ""}, std::tuple{-1, "", "idle"}}) {
        const EventFilter f = EventFilter::make(t, cpu, task, event);
        const auto rows = filterRows(t, *m, f, nullptr);
        ASSERT_TRUE(rows);
        size_t expect = 0;
        for (int c = 0; c < t.cpuCount(); ++c) {
            for (size_t i = 0; i < t.cpu(c).size(); ++i) {
                const int32_t pid = t.cpu(c).pid(i);
                const std::string &name = t.types()[t.cpu(c).type(i)].name;
                const bool ok =
                    (cpu < 0 || c == cpu) && (!*event || name.find(event) != std::string::npos) &&
                    (!*task ||
                     (std::string(task) == "102" ? pid == 102 : std::string(task) == "work" && pid % 2));
                expect += ok;
            }
        }
        EXPECT_EQ(rows->size(), expect) << cpu << " '" << task << "' '" << event << "'";
        EXPECT_TRUE(std::is_sorted(rows->begin(), rows->end()));
        for (uint32_t r : *rows) {
            const EventPos e = m->at(r);
            ASSERT_TRUE(f.matches(e.cpu, t.cpu(e.cpu).type(e.index), t.cpu(e.cpu).pid(e.index)));
        }
    }
}

// Without the order: the events a filter keeps are the order's rows it keeps (several chunks of rows, on
// one thread and on two), and a search over them finds what one over those rows finds.
TEST(EventFilter, KeepsTheSameEventsWithoutTheOrder)
{
    Trace t;
    fill(t, 5, 160000, 13);
    const auto m = MergedOrder::build(t);
    ASSERT_TRUE(m);
    ASSERT_GT(m->size(), size_t{1} << 18); // two chunks or more
    for (auto [cpu, task, event] :
         {std::tuple{-1, "", "cpu_idle"}, std::tuple{3, "", ""}, std::tuple{-1, "work", ""},
          std::tuple{1, "102", "sched_switch"}, std::tuple{-1, "nobody", ""}}) {
        const EventFilter f = EventFilter::make(t, cpu, task, event);
        const auto rows = filterRows(t, *m, f, nullptr);
        ASSERT_TRUE(rows);
        for (const int threads : {1, 2}) {
            const auto kept = filterEvents(t, f, nullptr, threads);
            ASSERT_TRUE(kept);
            ASSERT_EQ(kept->size(), rows->size()) << cpu << " '" << task << "' '" << event << "'";
            for (size_t k = 0; k < kept->size(); ++k)
                ASSERT_EQ(posOf((*kept)[k]), m->at((*rows)[k])) << "kept row " << k;
        }
        if (rows->empty()) continue;
        const auto kept = filterEvents(t, f, nullptr);
        const auto n = static_cast<int64_t>(rows->size());
        for (const auto &[from, forward] : {std::pair{int64_t{0}, true}, std::pair{n / 2, true},
                                            std::pair{n - 1, false}, std::pair{n / 2, false}})
            EXPECT_EQ(findRow(t, *kept, from, forward, "stress-ng:104", nullptr),
                      findRow(t, *m, &*rows, from, forward, "stress-ng:104", nullptr))
                << from << (forward ? " forward" : " back");
    }
    std::atomic<bool> cancel{true};
    EXPECT_FALSE(filterEvents(t, EventFilter::make(t, 1, "", ""), &cancel));

    // 300 CPUs, every seventh empty, in chunks
    Trace wide;
    fill(wide, 300, 2600, 14, 1000, 10, 7);
    ASSERT_GT(wide.eventCount(), size_t{1} << 18);
    const auto wm = MergedOrder::build(wide);
    for (const int cpu : {-1, 1, 299}) {
        const EventFilter f = EventFilter::make(wide, cpu, "stress", "");
        const auto rows = filterRows(wide, *wm, f, nullptr);
        const auto kept = filterEvents(wide, f, nullptr, 2);
        ASSERT_TRUE(rows && kept);
        ASSERT_EQ(kept->size(), rows->size()) << "CPU " << cpu;
        for (size_t k = 0; k < kept->size(); ++k)
            ASSERT_EQ(posOf((*kept)[k]), wm->at((*rows)[k])) << "CPU " << cpu << ", kept row " << k;
    }
}

TEST(EventFilter, FindsTextForwardAndBack)
{
    Trace t;
    fill(t, 3, 2000, 8);
    const auto m = MergedOrder::build(t);
    ASSERT_TRUE(m);
    // the rows whose task is "stress-ng", by a plain walk
    std::vector<int64_t> expect;
    for (size_t r = 0; r < m->size(); ++r) {
        const EventPos e = m->at(r);
        if (t.cpu(e.cpu).pid(e.index) % 2 == 0) expect.push_back(static_cast<int64_t>(r));
    }
    ASSERT_GT(expect.size(), 3u);
    EXPECT_EQ(findRow(t, *m, nullptr, 0, true, "STRESS-NG:", nullptr), expect[0]);
    EXPECT_EQ(findRow(t, *m, nullptr, expect[1] + 1, true, "stress-ng:", nullptr), expect[2]);
    EXPECT_EQ(findRow(t, *m, nullptr, expect[2] - 1, false, "stress-ng:", nullptr), expect[1]);
    EXPECT_EQ(findRow(t, *m, nullptr, 0, true, "no such text", nullptr), -1);
    // the same without the order
    EXPECT_EQ(findRow(t, 0, true, "STRESS-NG:", nullptr), expect[0]);
    EXPECT_EQ(findRow(t, expect[1] + 1, true, "stress-ng:", nullptr), expect[2]);
    EXPECT_EQ(findRow(t, expect[2] - 1, false, "stress-ng:", nullptr), expect[1]);
    EXPECT_EQ(findRow(t, expect[2], false, "stress-ng:", nullptr), expect[2]);
    EXPECT_EQ(findRow(t, 0, true, "no such text", nullptr), -1);
}

TEST(EventFilter, FindsWithoutTheOrderManyChunksAway)
{
    Trace t;
    fill(t, 5, 120000, 10);
    const auto m = MergedOrder::build(t);
    ASSERT_TRUE(m);
    std::vector<int64_t> hits; // a rare text, by a plain walk of the order
    for (size_t r = 0; r < m->size(); ++r)
        if (searchText(t, m->at(r)).find("stress-ng:102 cpu_idle") != std::string::npos)
            hits.push_back(static_cast<int64_t>(r));
    ASSERT_GE(hits.size(), 4u);
    const int64_t first = hits[hits.size() / 3], second = hits[hits.size() / 3 + 1];
    const auto n = static_cast<int64_t>(m->size());
    ASSERT_GT(n, 4 * (1 << 16)); // several of its chunks
    const std::string_view needle = "STRESS-NG:102 cpu_idle";
    EXPECT_EQ(findRow(t, 0, true, needle, nullptr), hits.front());
    EXPECT_EQ(findRow(t, first + 1, true, needle, nullptr), second);
    EXPECT_EQ(findRow(t, second - 1, false, needle, nullptr), first);
    EXPECT_EQ(findRow(t, n - 1, false, needle, nullptr), hits.back());
    EXPECT_EQ(findRow(t, hits.front() - 1, false, needle, nullptr), -1);
    EXPECT_EQ(findRow(t, hits.back() + 1, true, needle, nullptr), -1);
    std::atomic<bool> cancel{true};
    EXPECT_EQ(findRow(t, 0, true, needle, &cancel), -1);
}

TEST(EventFilter, FindsAMatchManyChunksAway)
{
    Trace t;
    fill(t, 2, 200000, 9);
    const auto m = MergedOrder::build(t);
    ASSERT_TRUE(m);
    // the listed rows: every row that does not match, and two that do, far into the list
    auto matches = [&](size_t r) {
        return searchText(t, m->at(r)).find("stress-ng:102 cpu_idle") != std::string::npos;
    };
    std::vector<uint32_t> rows, hits;
    for (size_t r = 0; r < m->size(); ++r)
        (matches(r) ? hits : rows).push_back(static_cast<uint32_t>(r));
    ASSERT_GT(rows.size(), 60000u);
    ASSERT_GE(hits.size(), 2u);
    const uint32_t first = hits[hits.size() / 3], second = hits[hits.size() * 2 / 3];
    rows.push_back(first);
    rows.push_back(second);
    std::sort(rows.begin(), rows.end());
    const auto at = [&](uint32_t r) { return std::lower_bound(rows.begin(), rows.end(), r) - rows.begin(); };
    ASSERT_GT(at(first), 3 * (1 << 14)); // several chunks from the start
    const auto n = static_cast<int64_t>(rows.size());
    EXPECT_EQ(findRow(t, *m, &rows, 0, true, "STRESS-NG:102 cpu_idle", nullptr), at(first));
    EXPECT_EQ(findRow(t, *m, &rows, at(first) + 1, true, "stress-ng:102 cpu_idle", nullptr), at(second));
    EXPECT_EQ(findRow(t, *m, &rows, n - 1, false, "stress-ng:102 cpu_idle", nullptr), at(second));
    EXPECT_EQ(findRow(t, *m, &rows, at(second) - 1, false, "stress-ng:102 cpu_idle", nullptr), at(first));
    EXPECT_EQ(findRow(t, *m, &rows, at(first) - 1, false, "stress-ng:102 cpu_idle", nullptr), -1);
    std::atomic<bool> cancel{true};
    EXPECT_EQ(findRow(t, *m, &rows, 0, true, "stress-ng:102 cpu_idle", &cancel), -1);
}

// Set while the filter runs (from another thread, as a newer filter of the event table does), not before
// it starts: filterEvents() stops and gives nullopt instead of the rows.
TEST(EventFilter, CancelWhileFilteringStops)
{
    Trace t;
    fill(t, 2, 3000000, 6);
    const EventFilter f = EventFilter::make(t, 1, "", "");
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_TRUE(filterEvents(t, f, nullptr, 1));
    struct Stopped
    {
    };
    EXPECT_TRUE(test::stopsWhenCancelledWhileRunning<Stopped>(
        [&](const std::atomic<bool> *cancel) {
            if (!filterEvents(t, f, cancel, 1)) throw Stopped{};
        },
        std::chrono::steady_clock::now() - t0));
}
