// SPDX-License-Identifier: GPL-3.0-or-later
// timer_list pairing on a hand-written text trace whose records share their microsecond.
#include "TextTraceBuilder.h"

#include "analysis/TimerListPairing.h"

#include <gtest/gtest.h>

#include <string>

namespace tickscope {
namespace {

struct TimerText : test::TextTraceBuilder<TimerText>
{
    TimerText &start(int cpu, double ts, const std::string &ptr, long long expires)
    {
        const std::string e = std::to_string(expires);
        return ev(cpu, ts, "app-100",
                  "timer_start: timer=" + ptr + " function=process_timeout expires=" + e +
                      " [timeout=1] bucket_expiry=" + e + " cpu=" + std::to_string(cpu) + " idx=0 flags=",
                  "d..1.");
    }
    TimerText &expire(int cpu, double ts, const std::string &ptr, long long now)
    {
        const std::string n = std::to_string(now);
        return ev(cpu, ts, "<idle>-0",
                  "timer_expire_entry: timer=" + ptr + " function=process_timeout now=" + n + " baseclk=" + n,
                  "..s1.");
    }
};

TEST(TimerListPairing, RecordsOfOneMicrosecondPairInEventOrderOnACpuAndExpiryFirstAcrossCpus)
{
    // A: started on CPU 0, fires on CPU 1 in the microsecond CPU 0 starts it again (which does not fire).
    // B: fires on CPU 1 and is re-armed there in that microsecond, then fires 5 jiffies late.
    const std::string A = "00000000aaaa0000", B = "00000000bbbb0000";
    TimerText t;
    t.start(0, 1.000000, A, 4294900000).start(1, 1.000000, B, 4294900000);
    t.expire(1, 1.004000, A, 4294900000).expire(1, 1.004000, B, 4294900000);
    t.start(1, 1.004000, B, 4294900001).start(0, 1.004000, A, 4294900010);
    t.expire(1, 1.028000, B, 4294900006);
    const auto trace = t.load();
    const std::vector<TimerListCpu> p = pairTimerList(*trace);
    ASSERT_EQ(p.size(), 2u);
    EXPECT_EQ(p[1].started, 2u);
    EXPECT_EQ(p[1].fired, 2u);
    EXPECT_EQ(p[1].late, 1u);
    EXPECT_EQ(p[1].maxLateJiffies, 5);
    EXPECT_EQ(p[1].neverFired, 0u);
    EXPECT_EQ(p[0].started, 2u);
    EXPECT_EQ(p[0].fired, 1u) << "A's first start fired on CPU 1";
    EXPECT_EQ(p[0].neverFired, 1u) << "A's second start";
}

} // namespace
} // namespace tickscope
