// SPDX-License-Identifier: GPL-3.0-or-later
// SwitchOutSweep against a brute-force search: random switches of a few tasks over many CPUs, many at
// the same microsecond, so that the latest switch-out is often on the very CPU asking, or tied.
#include "TextTraceBuilder.h"

#include "analysis/CpuPass.h"
#include "analysis/CrossCpuModes.h"
#include "analysis/EventRoles.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

namespace tickscope {
namespace {

class Switches : public test::TextTraceBuilder<Switches>
{
};

std::string taskName(int pid)
{
    return pid ? "t" + std::to_string(pid) : "swapper";
}

TEST(SwitchOutSweep, FindsTheLatestSwitchOutOfTheTaskOnAnotherCpu)
{
    constexpr int kCpus = 40, kTasks = 5;
    std::mt19937 rng(17);
    Switches b;
    std::vector<int> curr(kCpus, 0);
    double ts = 100.0;
    for (int k = 0; k < 6000; ++k) {
        const int cpu = static_cast<int>(rng() % kCpus);
        if (rng() % 3 == 0) ts += 1e-6; // two in three at the previous switch's microsecond
        const int to = static_cast<int>(rng() % (kTasks + 1));
        if (to == curr[static_cast<size_t>(cpu)]) continue;
        const char *state = rng() % 2 ? "R+" : "S";
        b.sw(cpu, ts, taskName(curr[static_cast<size_t>(cpu)]), curr[static_cast<size_t>(cpu)], state,
             taskName(to), to);
        curr[static_cast<size_t>(cpu)] = to;
    }
    const auto trace = b.load();
    ASSERT_EQ(trace->cpuCount(), kCpus);
    const EventRoles roles(*trace);
    std::vector<CpuAnalysis> cpus(kCpus);
    std::vector<std::vector<uint32_t>> opens(kCpus);
    for (int c = 0; c < kCpus; ++c) {
        CpuPass(*trace, roles, c, cpus[static_cast<size_t>(c)]).run();
        const CpuEvents &ev = trace->cpu(c);
        for (size_t i = 0; i < ev.size(); ++i)
            if (roles.role(ev.type(i)) == Role::SchedSwitch)
                opens[static_cast<size_t>(c)].push_back(uint32_t(i));
    }
    SwitchOutCandidates got;
    const auto noChain = [](size_t, size_t) { return SwitchOutCandidate::kNoChain; };
    SwitchOutSweep().through(*trace, roles, cpus, opens, INT64_MAX, noChain, got);

    size_t found = 0, sameCpuLatest = 0;
    for (int c = 0; c < kCpus; ++c) {
        const CpuEvents &ev = trace->cpu(c);
        for (const uint32_t at : opens[static_cast<size_t>(c)]) {
            const int32_t pid = ev.payload<SchedSwitchP>(at).nextPid;
            const int64_t in = ev.ts(at);
            // brute force: the switch-outs of pid on other CPUs at or before the switch-in's time (the task
            // cannot run on two CPUs at once: one at its very time came first), latest first, of equal
            // times the lower CPU's, on one CPU the later event
            int bestCpu = -1;
            int64_t bestTs = INT64_MIN, ownTs = INT64_MIN;
            bool runnable = false;
            for (int d = 0; d < kCpus; ++d) {
                const CpuEvents &od = trace->cpu(d);
                for (size_t j = 0; j < od.size() && od.ts(j) <= in; ++j) {
                    const auto p = od.payload<SchedSwitchP>(j);
                    if (p.prevPid != pid) continue;
                    if (d == c) {
                        if (od.ts(j) < in) ownTs = od.ts(j);
                        continue;
                    }
                    if (od.ts(j) > bestTs || (od.ts(j) == bestTs && d <= bestCpu)) {
                        bestTs = od.ts(j);
                        bestCpu = d;
                        runnable = (p.prevState & 0xff) == 0;
                    }
                }
            }
            const std::string what = "CPU " + std::to_string(c) + " event " + std::to_string(at);
            const SwitchOutCandidate *it = got[static_cast<size_t>(c)].find(at);
            ASSERT_NE(it, nullptr) << what;
            EXPECT_EQ(it->ts, in) << what;
            EXPECT_EQ(it->cpu, bestCpu) << what;
            if (bestCpu >= 0) {
                EXPECT_EQ(it->runnable, runnable) << what;
            }
            found += bestCpu >= 0;
            sameCpuLatest += bestCpu >= 0 && ownTs >= bestTs;
        }
    }
    // the cases that matter happened: most switch-ins have a candidate, and many have their task's latest
    // switch-out on their own CPU (which must be passed over)
    EXPECT_GT(found, 3000u);
    EXPECT_GT(sameCpuLatest, 100u);
}

TEST(SwitchOutSweep, CandidateListFindsSetsAndErasesLikeAMap)
{
    // Against std::map on a random mix: mostly appended in order (the sweep), some out of order and
    // replaced, and erased ones (a stream forgets the candidates of relabelled stretches).
    SwitchOutCandidateList list;
    std::map<uint32_t, int64_t> ref;
    uint32_t state = 12345;
    auto next = [&] { return state = state * 1103515245u + 12345u; };
    uint32_t at = 0;
    for (int k = 0; k < 20000; ++k) {
        const uint32_t r = next() >> 8;
        SwitchOutCandidate c;
        c.ts = k;
        c.cpu = static_cast<int32_t>(r % 7);
        if (r % 10 < 6) {
            c.at = at += 1 + r % 5;
        } else if (r % 10 < 8) {
            c.at = at ? r % at : 0;
        } else {
            const uint32_t gone = at ? r % (at + 1) : 0;
            EXPECT_EQ(list.erase(gone), ref.erase(gone) == 1) << k;
            continue;
        }
        list.set(c);
        ref[c.at] = c.ts;
    }
    EXPECT_EQ(list.size(), ref.size());
    for (uint32_t a = 0; a <= at + 1; ++a) {
        const SwitchOutCandidate *c = list.find(a);
        const auto it = ref.find(a);
        ASSERT_EQ(c != nullptr, it != ref.end()) << a;
        if (c) {
            EXPECT_EQ(c->ts, it->second) << a;
        }
    }
}

} // namespace
} // namespace tickscope
