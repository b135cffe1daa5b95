// SPDX-License-Identifier: GPL-3.0-or-later
// The building blocks of the tick analysis on their own: the change lane (bitmap + codes) against a plain
// array, the tick lane's restart / stop inference, state codes and CPU lists.
#include "analysis/ChangeLane.h"
#include "analysis/CpuList.h"
#include "analysis/StateCode.h"
#include "analysis/TickAnalysis.h"
#include "analysis/TickLane.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace tickscope {
namespace {

TEST(AnalysisChangeLane, MatchesAPlainArrayOnRandomChanges)
{
    std::mt19937 rng(7);
    for (size_t n :
         {size_t{1}, size_t{63}, size_t{64}, size_t{511}, size_t{512}, size_t{513}, size_t{5000}}) {
        for (int density : {1, 5, 60, -1}) {
            // -1: a lane of events that arrive in parts, reset to none and grown by its changes
            const bool grown = density < 0;
            density = grown ? 5 : density;
            ChangeLane lane;
            lane.reset(grown ? 0 : n);
            std::vector<int> truth(n, -1); // code in force at each event, -1 before the first change
            std::vector<size_t> where;
            std::vector<uint8_t> codes;
            for (size_t i = 0; i < n; ++i) {
                if (static_cast<int>(rng() % 100) >= density && i != 0) continue;
                const auto code = static_cast<uint8_t>(rng() % 250);
                lane.set(i, code);
                if (rng() % 4 == 0) { // a second change at the same event replaces the first
                    const auto again = static_cast<uint8_t>(rng() % 250);
                    lane.set(i, again);
                    codes.push_back(again);
                } else {
                    codes.push_back(code);
                }
                where.push_back(i);
            }
            lane.finish(n);
            for (size_t k = 0, c = 0; c < n; ++c) {
                while (k < where.size() && where[k] <= c)
                    ++k;
                truth[c] = k ? codes[k - 1] : -1;
            }
            ASSERT_EQ(lane.changes(), codes.size());
            for (size_t i = 0; i < n; ++i) {
                ASSERT_EQ(static_cast<int>(lane.codeAt(i, 255)), truth[i] < 0 ? 255 : truth[i])
                    << n << " " << i;
            }
            for (size_t k = 0; k < where.size(); ++k)
                ASSERT_EQ(lane.indexOf(k), where[k]);
            // forEach from the middle starts at the change in force there
            const size_t from = n / 2;
            const size_t to = n - 1;
            std::vector<size_t> seen;
            lane.forEach(from, to, [&](size_t i, uint8_t code) {
                seen.push_back(i);
                EXPECT_EQ(static_cast<int>(code), truth[i]);
            });
            std::vector<size_t> expect;
            for (size_t k = 0; k < where.size(); ++k) {
                const bool inForce = where[k] <= from && (k + 1 == where.size() || where[k + 1] > from);
                if (inForce || (where[k] > from && where[k] <= to)) expect.push_back(where[k]);
            }
            EXPECT_EQ(seen, expect);
            // countFrom: the changes in [a, b], past the end clipped
            for (int q = 0; q < 50; ++q) {
                const size_t a = rng() % (n + 2), b = a + rng() % (n + 70);
                const auto inRange = static_cast<size_t>(
                    std::count_if(where.begin(), where.end(), [&](size_t w) { return w >= a && w <= b; }));
                ASSERT_EQ(lane.countFrom(a, b), inRange) << n << " [" << a << ", " << b << "]";
            }
        }
    }
}

TEST(AnalysisChangeLane, AStreamedLaneAnswersForItsEventsStillHeldAfterItsHeadIsHandedBack)
{
    // A stream hands back the bitmap's head as its readers move on; the ranks built at the end count the
    // changes that were in it, so the changes still held keep their numbers (the head is not read: the
    // guard every unit test runs with faults a read of it).
    std::mt19937 rng(11);
    constexpr size_t n = 600000, step = 50000;
    ChangeLane whole, streamed;
    whole.reset(n);
    streamed.reset(0);
    size_t changes = 0;
    for (size_t i = 0; i < n; ++i) {
        if (i % step == 0 && i > step) streamed.releaseBefore(i - step, changes > 100 ? changes - 100 : 0);
        if (rng() % 16 != 0) continue;
        const auto code = static_cast<uint8_t>(rng() % 250);
        whole.set(i, code);
        streamed.set(i, code);
        ++changes;
    }
    whole.finish(n);
    streamed.finish(n);
    ASSERT_EQ(streamed.changes(), whole.changes());
    ASSERT_GT(streamed.firstLiveCode(), 0u) << "codes were handed back";
    for (size_t i = n - step; i < n; ++i) {
        ASSERT_EQ(streamed.changeAt(i), whole.changeAt(i)) << i;
        ASSERT_EQ(streamed.codeAt(i), whole.codeAt(i)) << i;
    }
}

TEST(AnalysisChangeLane, RelabelAndBytes)
{
    ChangeLane lane;
    lane.reset(100000);
    lane.set(0, 1);
    lane.set(10, 2);
    lane.set(99999, 3);
    lane.relabel(1, 7);
    lane.finish(100000);
    EXPECT_EQ(lane.codeAt(9), 1);
    EXPECT_EQ(lane.codeAt(10), 7);
    EXPECT_EQ(lane.codeAt(99998), 7);
    EXPECT_EQ(lane.codeAt(99999), 3);
    EXPECT_EQ(lane.lastIndex(), 99999u);
    // a bit per event plus a byte per change, not an interval struct per change
    EXPECT_LT(lane.bytes(), 100000 / 8 + 1000);
}

TEST(AnalysisStateCode, PacksStateAndDetail)
{
    const uint8_t c = StateCode::task(TaskState::Idle, 3);
    EXPECT_EQ(StateCode::taskState(c), TaskState::Idle);
    EXPECT_EQ(StateCode::detail(c), 3u);
    EXPECT_EQ(StateCode::detail(StateCode::task(TaskState::Idle, 1000)), StateCode::kDetailUnknown);
    EXPECT_EQ(StateCode::irqState(StateCode::irq(IrqState::SoftIrq, 9)), IrqState::SoftIrq);
    EXPECT_EQ(softirqName(1), "TIMER");
    EXPECT_EQ(tickContextName(TickContext::Polling), "polling");
}

std::vector<TickState> states(const TickLane &lane)
{
    std::vector<TickState> s;
    for (const auto &c : lane.changes())
        s.push_back(c.state);
    return s;
}

TEST(AnalysisTickLane, StopThenRestartSequenceC)
{
    TickLane lane;
    lane.reset(0);
    lane.onExpiry();
    lane.onExpiryResolved(1, true); // periodic: running since the start
    lane.onTickStop(10);
    lane.onArm(11); // the stopped tick programmed to its next event: not a restart
    EXPECT_EQ(lane.state(), TickState::Stopped);
    lane.onCancel(20);
    lane.onArm(21); // cancel + arm: tick_nohz_restart()
    EXPECT_EQ(lane.state(), TickState::Running);
    lane.onExpiry();
    lane.onExpiryResolved(30, true);
    ASSERT_EQ(lane.changes().size(), 3u);
    EXPECT_EQ(lane.changes()[0].state, TickState::Running);
    EXPECT_EQ(lane.changes()[1].index, 10u);
    EXPECT_EQ(lane.changes()[2].index, 21u);
}

TEST(AnalysisTickLane, ExpiryWithoutRearmRevertsAProvisionalRestart)
{
    TickLane lane;
    lane.reset(0);
    lane.onTickStop(5);
    lane.onArm(6);
    lane.onCancel(7); // the stop's KTIME_MAX cancel is consumed by onArm above: this one is real
    lane.onArm(8);
    EXPECT_EQ(lane.state(), TickState::Running);
    lane.onExpiry();
    lane.onExpiryResolved(9, false); // a nohz wakeup: it was a re-program, the tick stayed stopped
    EXPECT_EQ(lane.state(), TickState::Stopped);
    EXPECT_EQ(states(lane), (std::vector<TickState>{TickState::Unknown, TickState::Stopped}));
}

TEST(AnalysisTickLane, PeriodicExpiryWhileStoppedDatesTheRestartAtTheLastArm)
{
    TickLane lane;
    lane.reset(0);
    lane.onTickStop(5);
    lane.onArm(6);
    lane.onArm(40); // restart without a traced cancel (the timer was not armed)
    EXPECT_EQ(lane.state(), TickState::Stopped);
    lane.onExpiry();
    lane.onExpiryResolved(50, true);
    ASSERT_EQ(lane.changes().back().state, TickState::Running);
    EXPECT_EQ(lane.changes().back().index, 40u);
}

TEST(AnalysisTickLane, UnknownStartResolvedByTheFirstExpiryAndGapsStayUnknown)
{
    TickLane lane;
    lane.reset(0);
    lane.onExpiry();
    lane.onExpiryResolved(3, false); // stopped since the trace started
    EXPECT_EQ(states(lane), (std::vector<TickState>{TickState::Stopped}));
    lane.gap(9, 10);
    lane.onExpiry();
    lane.onExpiryResolved(12, true);
    EXPECT_EQ(states(lane),
              (std::vector<TickState>{TickState::Stopped, TickState::Unknown, TickState::Running}));
    EXPECT_EQ(lane.changes()[1].index, 9u);
    EXPECT_EQ(lane.changes()[2].index, 10u);
}

TEST(AnalysisTickLane, StopWhileStoppedSplitsAtTheMissedRestart)
{
    TickLane lane;
    lane.reset(0);
    lane.onTickStop(2);
    lane.onArm(3);
    lane.onArm(7);
    lane.onTickStop(9); // only running -> stopped is traced: it was restarted at 7
    EXPECT_EQ(states(lane), (std::vector<TickState>{TickState::Unknown, TickState::Stopped,
                                                    TickState::Running, TickState::Stopped}));
    EXPECT_EQ(lane.changes()[2].index, 7u);
}

TEST(AnalysisCpuList, ParsesAndFormats)
{
    EXPECT_EQ(parseCpuList("1"), (std::vector<int>{1}));
    EXPECT_EQ(parseCpuList("3,0-2,2"), (std::vector<int>{0, 1, 2, 3}));
    for (const char *bad : {"", "a", "1,", ",1", "3-1", "1-", "-1", "1,,2", "99999999"})
        EXPECT_FALSE(parseCpuList(bad)) << bad;
    EXPECT_EQ(formatCpuList({0, 1, 2, 5, 7, 8}), "0-2,5,7-8");
    EXPECT_EQ(formatCpuList({}), "");
}

TEST(AnalysisCpuList, IsolcpusValues)
{
    EXPECT_EQ(isolcpusList("2-5"), (std::vector<int>{2, 3, 4, 5}));
    EXPECT_EQ(isolcpusList("nohz,domain,managed_irq,8-9,12"), (std::vector<int>{8, 9, 12}));
    EXPECT_EQ(isolcpusList("domain,1"), (std::vector<int>{1}));
    EXPECT_EQ(isolcpusList("managed_irq,"), std::vector<int>{});
    EXPECT_FALSE(isolcpusList("nohz,x"));
    EXPECT_FALSE(isolcpusList("2-"));
}

} // namespace
} // namespace tickscope
