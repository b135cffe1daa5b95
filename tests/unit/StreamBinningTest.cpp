// SPDX-License-Identifier: GPL-3.0-or-later
// `report --stream`'s distributions past their bound on exact values: binned percentiles are the floors
// of the log-linear buckets their values fall in (within 1/128), on every fixture and in DistributionFold.
#include "StreamTestUtil.h"
#include "TestUtil.h"
#include "report/CpuFold.h"
#include "stream/StreamReport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <random>
#include <tuple>

using namespace tickscope;
using namespace tickscope::test;
namespace fs = std::filesystem;

// With its default bound on the values kept, the stream's report is the whole report's on every fixture but
// for the percentiles of the distributions it binned (marked "binned"), each the floor of the bucket its
// value falls in: at most the exact value and within 1/128 of it.
TEST(Stream, DefaultReportIsTheLoadedOneButForBinnedPercentilesOnEveryFixture)
{
    using nlohmann::json;
    size_t binned = 0;
    std::function<void(const json &, const json &, const std::string &)> same = [&](const json &x,
                                                                                    const json &y,
                                                                                    const std::string &at) {
        if (x.is_object() && y.is_object()) {
            const bool inBuckets = y.value("binned", false);
            binned += inBuckets;
            for (const auto &[k, v] : y.items()) {
                if (k == "binned") {
                    EXPECT_FALSE(x.value("binned", false)) << at;
                    continue;
                }
                ASSERT_TRUE(x.contains(k)) << at << "/" << k << " only in the stream's report";
                if (inBuckets && (k == "p50" || k == "p90" || k == "p99")) {
                    const auto p = x[k].get<int64_t>(), q = v.get<int64_t>();
                    EXPECT_LE(q, p) << at << "/" << k;
                    EXPECT_LE(static_cast<double>(p - q),
                              std::max(1.0, std::abs(static_cast<double>(p)) / 128.0))
                        << at << "/" << k;
                } else {
                    same(x[k], v, at + "/" + k);
                }
            }
            for (const auto &[k, v] : x.items())
                EXPECT_TRUE(y.contains(k) || k == "binned") << at << "/" << k << " missing from the stream's";
        } else if (x.is_array() && y.is_array()) {
            ASSERT_EQ(x.size(), y.size()) << at;
            for (size_t i = 0; i < x.size(); ++i)
                same(x[i], y[i], at + "[" + std::to_string(i) + "]");
        } else {
            EXPECT_EQ(x, y) << at;
        }
    };
    const StreamOptions defaults;
    for (const std::string &path : datFixtures()) {
        for (const auto &loaded : loadAll(path)) {
            if (!loaded->functions.empty())
                continue; // refused (Stream.ReportIsTheLoadedReportOnEveryFixture)
            const std::string name = fs::path(path).filename().string() + " '" + loaded->meta.instance + "'";
            const std::string whole = loadedJson(*loaded);
            const std::string streamed = streamedJson(path, *loaded, defaults.sliceNs, defaults.exactValues);
            if (streamLeavesLanesUninferred(whole, streamed)) continue;
            same(json::parse(whole), json::parse(streamed), name);
        }
    }
    EXPECT_GT(binned, 10u) << "no fixture has a distribution past the default bound: the test tells nothing";
}

TEST(Stream, PercentilesPastTheExactBoundAreWithinTheirBucket)
{
    // rt-hrtimer-k32.dat has thousands of wakeups per CPU: bound the exact values at 100
    const std::string path = dataPath("rt-hrtimer-k32.dat");
    const auto loaded = loadTrace(path);
    const TickReport whole = TickReport::make(*loaded, TickAnalysis::run(*loaded), {});
    StreamOptions so;
    so.exactValues = 100;
    const TickReport streamed = streamReport(path, so).report;
    EXPECT_EQ(streamed.binnedValues, 100u);
    ASSERT_EQ(whole.cpus.size(), streamed.cpus.size());
    size_t binned = 0;
    auto check = [&](const Distribution &x, const Distribution &y, const std::string &what) {
        EXPECT_EQ(x.count, y.count) << what;
        EXPECT_EQ(x.min, y.min) << what;
        EXPECT_EQ(x.max, y.max) << what;
        EXPECT_EQ(y.binned, y.count > 100) << what;
        if (!y.binned) {
            EXPECT_EQ(std::make_tuple(x.p50, x.p90, x.p99), std::make_tuple(y.p50, y.p90, y.p99)) << what;
            return;
        }
        ++binned;
        for (auto [p, q] : {std::pair{x.p50, y.p50}, {x.p90, y.p90}, {x.p99, y.p99}}) {
            // the bucket's floor: at most the value, and within 1/128 of it
            EXPECT_LE(q, p) << what;
            EXPECT_LE(static_cast<double>(p - q), std::max(1.0, std::abs(static_cast<double>(p)) / 128.0))
                << what;
        }
    };
    for (size_t c = 0; c < whole.cpus.size(); ++c) {
        const WakeupReport &x = whole.cpus[c].wakeup, &y = streamed.cpus[c].wakeup;
        const std::string cpu = "CPU " + std::to_string(c);
        check(x.latency, y.latency, cpu + " latency");
        check(x.lateness, y.lateness, cpu + " lateness");
        check(x.latencyRt, y.latencyRt, cpu + " RT latency");
        check(whole.cpus[c].tickLateness, streamed.cpus[c].tickLateness, cpu + " tick lateness");
        EXPECT_EQ(x.count, y.count) << cpu;
        EXPECT_EQ(x.histogram, y.histogram) << cpu;
    }
    EXPECT_GT(binned, 3u);
}

TEST(Stream, DistributionFoldBucketsKeepOrderAndBound)
{
    std::mt19937 rng(11);
    std::vector<int32_t> values;
    for (int k = 0; k < 20000; ++k) {
        const int shift = static_cast<int>(rng() % 31);
        const auto v = static_cast<int32_t>(rng() >> (32 - shift - 1) >> 1);
        values.push_back(rng() % 5 == 0 ? -v : v);
    }
    values.push_back(INT32_MAX);
    values.push_back(INT32_MIN + 1);
    values.push_back(0);
    for (int32_t v : values) {
        const size_t b = DistributionFold::bucketOf(v);
        const int64_t floor = DistributionFold::bucketFloor(b);
        ASSERT_LE(floor, v) << v;
        ASSERT_LE(static_cast<double>(v - floor), std::max(1.0, std::abs(static_cast<double>(v)) / 128.0))
            << v;
        ASSERT_EQ(DistributionFold::bucketOf(static_cast<int32_t>(floor)), b) << v;
    }
    std::vector<int32_t> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    for (size_t k = 1; k < sorted.size(); ++k)
        ASSERT_LE(DistributionFold::bucketOf(sorted[k - 1]), DistributionFold::bucketOf(sorted[k]));
    // exact while within its bound: the nearest rank, as a whole report computes it
    DistributionFold exact(SIZE_MAX), bounded(1000);
    for (int32_t v : values) {
        exact.add(v);
        bounded.add(v);
    }
    std::vector<int32_t> copy = values;
    const Distribution want = Distribution::of(copy), got = exact.result(), approx = bounded.result();
    EXPECT_EQ(std::make_tuple(want.count, want.min, want.p50, want.p90, want.p99, want.max),
              std::make_tuple(got.count, got.min, got.p50, got.p90, got.p99, got.max));
    EXPECT_FALSE(got.binned);
    EXPECT_TRUE(approx.binned);
    EXPECT_EQ(std::make_tuple(want.count, want.min, want.max),
              std::make_tuple(approx.count, approx.min, approx.max));
    for (auto [p, q] : {std::pair{want.p50, approx.p50}, {want.p90, approx.p90}, {want.p99, approx.p99}}) {
        EXPECT_LE(q, p);
        EXPECT_LE(static_cast<double>(p - q), std::max(1.0, std::abs(static_cast<double>(p)) / 128.0));
    }
}

TEST(Stream, BinnedDistributionsHoldTheBucketsTheirValuesFallIn)
{
    // Latencies of one CPU span a few powers of two: their buckets, a power of two at a time, take a few
    // KiB, where all 52 of them took 53 KiB per binned distribution (thousands of CPUs: hundreds of MB).
    DistributionFold d(100);
    std::mt19937 rng(5);
    std::vector<int32_t> values;
    for (int k = 0; k < 50000; ++k)
        values.push_back(static_cast<int32_t>(2000 + rng() % 30000)); // 2^10 .. 2^15
    for (int32_t v : values)
        d.add(v);
    EXPECT_TRUE(d.binned());
    EXPECT_LT(d.bytes(), 6u * 1024) << "5 powers of two of 128 buckets, and the table of 52";
    const Distribution got = d.result(), want = Distribution::of(values);
    for (auto [p, q] : {std::pair{want.p50, got.p50}, {want.p90, got.p90}, {want.p99, got.p99}}) {
        EXPECT_LE(q, p);
        EXPECT_LE(static_cast<double>(p - q), static_cast<double>(p) / 128.0);
    }
}
