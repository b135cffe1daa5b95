// SPDX-License-Identifier: GPL-3.0-or-later
// `report --stream` against `report` on small hand-written traces, each built around one way the pass
// revises a record after the stream could have folded it: a task's mode found long after its task-lane
// codes were released, tick-lane changes revised long after they began, a switch-in at a wakeup's very
// time.
#include "AnalysisTextTrace.h"
#include "StreamTestUtil.h"
#include "TextTraceBuilder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>

using namespace tickscope;
using namespace tickscope::test;

namespace {
struct TickText : test::TextTraceBuilder<TickText>
{
    TickText &tick(int cpu, double ts, const std::string &task, const std::string &ptr)
    {
        const auto ns = [&](double d) { return std::to_string(static_cast<long long>((ts + d) * 1e9)); };
        ev(cpu, ts, task, "local_timer_entry: vector=236", "d.h..");
        ev(cpu, ts + 1e-6, task,
           "hrtimer_expire_entry: hrtimer=" + ptr + " function=tick_nohz_handler now=" + ns(0), "d.h..");
        ev(cpu, ts + 2e-6, task, "hrtimer_expire_exit: hrtimer=" + ptr, "d.h..");
        ev(cpu, ts + 3e-6, task,
           "hrtimer_start: hrtimer=" + ptr + " function=tick_nohz_handler expires=" + ns(0.001) +
               " softexpires=" + ns(0.001) + " mode=ABS was_armed=0",
           "d.h..");
        return ev(cpu, ts + 4e-6, task, "local_timer_exit: vector=236", "d.h..");
    }
    // `count` ticks, one every `every` seconds after `from`.
    TickText &ticks(int cpu, double from, int count, const std::string &task, const std::string &ptr,
                    double every = 1e-3)
    {
        for (int k = 1; k <= count; ++k)
            tick(cpu, from + k * every, task, ptr);
        return *this;
    }
    // An arm of the tick hrtimer outside its expiry (tick_nohz_restart(), or a stopped tick re-programmed).
    TickText &arm(int cpu, double ts, const std::string &task, const std::string &ptr,
                  const std::string &expires)
    {
        return ev(cpu, ts, task,
                  "hrtimer_start: hrtimer=" + ptr + " function=tick_nohz_handler expires=" + expires +
                      " softexpires=" + expires + " mode=ABS|PINNED|HARD was_armed=0");
    }
    // `count` syscalls from ts, one every `every` seconds.
    TickText &syscalls(int cpu, double ts, const std::string &task, int count, double every = 40e-6)
    {
        for (int k = 0; k < count; ++k) {
            ev(cpu, ts + k * every, task, "sys_enter: NR 1 (0, 0, 0, 0, 0, 0)");
            ev(cpu, ts + k * every + every / 2, task, "sys_exit: NR 1 = 0");
        }
        return *this;
    }
};

// Streams the trace at 0.1, 1 and 10 ms slices, each expected to give the loaded report; returns the most
// tick records held and chains of pending ticks over the three.
std::pair<uint64_t, uint64_t> expectLoadedReportAtThreeSlices(const DatOfText &d)
{
    uint64_t held = 0, chains = 0;
    for (int64_t slice : {100000, 1000000, 10000000}) {
        StreamResult r;
        EXPECT_EQ(loadedJson(*d.loaded), streamedJson(d.path, *d.loaded, slice, SIZE_MAX, &r))
            << slice << " ns slices";
        held = std::max(held, r.maxHeldTicks);
        chains = std::max(chains, r.maxPendingChains);
    }
    return {held, chains};
}
} // namespace

TEST(Stream, ModesFoundLongAfterTheirTaskLaneChangesWereReleased)
{
    // The stream hands back task-lane codes behind its readers; a task's mode found much later still
    // relabels them and is read through them from another CPU. "app" runs on CPU 0 from the start, mode
    // unknown, is preempted, runs on CPU 1 (a tick there) and leaves it runnable; CPU 0 then takes 10,000
    // task-lane changes of "hog"'s syscalls (its first codes are released) before app comes back and
    // enters a syscall: it was in user mode all along, on CPU 0 and so on CPU 1, whose tick is a user one.
    TickText t;
    const std::string p0 = "00000000aaaa0000", p1 = "00000000bbbb0000";
    t.tick(0, 1.000000, "app-100", p0);
    t.sw(0, 1.001000, "app", 100, "R+", "hog", 200);
    t.syscalls(0, 1.002, "hog-200", 5000, 20e-6);
    t.sw(0, 1.200000, "hog", 200, "R+", "app", 100);
    t.ev(0, 1.201000, "app-100", "sys_enter: NR 1 (0, 0, 0, 0, 0, 0)");
    t.ev(0, 1.202000, "app-100", "sys_exit: NR 1 = 0");
    t.sw(1, 1.050000, "swapper/1", 0, "R", "app", 100);
    t.tick(1, 1.060000, "app-100", p1);
    t.sw(1, 1.070000, "app", 100, "R+", "swapper/1", 0);
    t.tick(1, 1.203000, "swapper/1-0", p1);
    const DatOfText d = datOfText(*t.load(), "late-modes.dat");
    const TickReport &whole = d.whole;
    ASSERT_EQ(whole.cpus.size(), 2u);
    EXPECT_EQ(whole.cpus[1].ticks.user, 1u) << "the batch report resolves CPU 1's tick from CPU 0";
    for (int64_t slice : {100000, 1000000})
        EXPECT_EQ(loadedJson(*d.loaded), streamedJson(d.path, *d.loaded, slice, SIZE_MAX))
            << slice << " ns slices";
}

namespace {
// t runs on CPU 0 (shown in user mode there by a sys_exit, or not), enters a syscall on CPU 1 and is
// switched out of it in `state`; CPU 1 keeps switching for 50 ms, so that t's switch-out there and its
// return to CPU 0 fall in one step or in two; back on CPU 0 t leaves the syscall. A tick on CPU 0 before
// t leaves it, one after its return, one after its sys_exit.
TickText backFromASyscallOnCpu1(bool shownOnCpu0, const char *state)
{
    TickText t;
    const std::string p0 = "00000000aaaa0000";
    t.sw(0, 1.000000, "swapper/0", 0, "R", "t", 100);
    if (shownOnCpu0) t.ev(0, 1.000500, "t-100", "sys_exit: NR 1 = 1");
    t.tick(0, 1.001000, "t-100", p0);
    t.sw(0, 1.002000, "t", 100, "R+", "swapper/0", 0);
    t.sw(1, 1.003000, "swapper/1", 0, "R", "t", 100);
    t.ev(1, 1.003500, "t-100", "sys_enter: NR 7 (0, 0, 0, 0, 0, 0)");
    t.sw(1, 1.004000, "t", 100, state, "k", 200);
    for (int k = 0; k < 500; ++k)
        t.sw(1, 1.0041 + k * 1e-4, k % 2 ? "k2" : "k", k % 2 ? 201 : 200, "R+", k % 2 ? "k" : "k2",
             k % 2 ? 200 : 201);
    t.sw(0, 1.004050, "swapper/0", 0, "R", "t", 100);
    t.tick(0, 1.006000, "t-100", p0);
    t.ev(0, 1.007000, "t-100", "sys_exit: NR 7 = 0");
    t.tick(0, 1.008000, "t-100", p0);
    return t;
}
} // namespace

TEST(Stream, AStretchOfUnknownModeEndsWhenItsTaskShowsItsModeElsewhereAtAnySliceBoundary)
{
    // As AnalysisTextTrace.AStretchOfUnknownModeIsNotContinuedOnceItsTaskShowedItsModeElsewhere, at any step
    // boundary (the run with the syscall begins in an earlier step than the switch that ends it).
    const TickText t = backFromASyscallOnCpu1(false, "R+");
    const DatOfText d = datOfText(*t.load(), "showed-elsewhere.dat");
    ASSERT_EQ(d.whole.cpus.size(), 2u);
    EXPECT_EQ(d.whole.cpus[0].ticks.kernel, 1u);
    EXPECT_EQ(d.whole.cpus[0].ticks.user, 1u);
    EXPECT_EQ(d.whole.cpus[0].ticks.unknown, 1u);
    for (int64_t slice : {1000, 10000, 50000, 100000, 1000000})
        EXPECT_EQ(loadedJson(*d.loaded), streamedJson(d.path, *d.loaded, slice, SIZE_MAX))
            << slice << " ns slices";
}

TEST(Stream, AStretchOpenedByTheLastEventsGetsItsModeFromTheCpuItsTaskLeft)
{
    // u leaves CPU 1 preempted in user mode (after a sys_exit); CPU 0's last page begins at 1.010 s and
    // runs 50 ms past it: u's first switch-in there, at 1.050 s, is taken by the stream's last step only.
    // Its mode comes from CPU 1 (user) as in the loaded report, however late the stretch opened.
    TickText t;
    const std::string p0 = "00000000aaaa0000";
    t.sw(1, 1.000000, "swapper/1", 0, "R", "u", 100);
    t.ev(1, 1.000500, "u-100", "sys_exit: NR 0 = 0");
    t.sw(1, 1.001000, "u", 100, "R+", "swapper/1", 0);
    t.sw(0, 1.010000, "swapper/0", 0, "R", "k", 200);
    t.ev(0, 1.010500, "k-200", "sys_exit: NR 0 = 0");
    t.sw(0, 1.050000, "k", 200, "R+", "u", 100);
    t.tick(0, 1.060000, "u-100", p0);
    const DatOfText d = datOfText(*t.load(), "late-head.dat");
    ASSERT_EQ(d.whole.cpus.size(), 2u);
    EXPECT_EQ(d.whole.cpus[0].ticks.user, 1u) << "u resumes on CPU 0 in the mode it left CPU 1 in";
    for (int64_t slice : {100000, 1000000})
        EXPECT_EQ(loadedJson(*d.loaded), streamedJson(d.path, *d.loaded, slice, SIZE_MAX))
            << slice << " ns slices";
}

TEST(Stream, ATaskBackFromAnotherCpuIsOfUnknownModeAtAnySliceBoundary)
{
    // t leaves CPU 0 in user mode, sleeps in a syscall on CPU 1 and wakes on CPU 0 inside it; CPU 1 keeps
    // switching for 50 ms after, so that the switch-out there and the switch-in on CPU 0 fall in one
    // step or in two. The stream must find the migration before CPU 0's pass takes the switch-in.
    const TickText t = backFromASyscallOnCpu1(true, "S");
    const DatOfText d = datOfText(*t.load(), "migrated.dat");
    ASSERT_EQ(d.whole.cpus.size(), 2u);
    EXPECT_EQ(d.whole.cpus[0].ticks.user, 2u);
    EXPECT_EQ(d.whole.cpus[0].ticks.kernel, 1u) << "the tick inside the syscall t slept in on CPU 1";
    for (int64_t slice : {10000, 50000, 100000, 1000000})
        EXPECT_EQ(loadedJson(*d.loaded), streamedJson(d.path, *d.loaded, slice, SIZE_MAX))
            << slice << " ns slices";
}

TEST(Stream, TimerItemsOfOneMicrosecondPairAsInTheLoadedReportAtAnySliceBoundary)
{
    // Expiries and starts that share their time, on one CPU and across two (AnalysisPieces has the
    // latenesses): each step pairs up to its time in the batch pairing's order.
    const DatOfText d = datOfText(*timerItemsOfOneMicrosecond().load(), "one-microsecond.dat");
    ASSERT_EQ(d.whole.cpus.size(), 2u);
    EXPECT_EQ(d.whole.cpus[0].ticks.total, 3u);
    for (int64_t slice : {1000, 500000, 1000000, 10000000})
        EXPECT_EQ(loadedJson(*d.loaded), streamedJson(d.path, *d.loaded, slice, SIZE_MAX))
            << slice << " ns slices";
}

TEST(Stream, TickLaneChangesRevisedLongAfterTheyBeganGiveTheLoadedReport)
{
    // The tick lane revises its last change when an expiry tells what the tick was doing: the Unknown
    // at the start of CPU 0 becomes Running at its first re-arming expiry 0.2 s (10,000 events) later;
    // on CPU 1 a cancel + arm is taken for a restart (Running) until an expiry 0.2 s later does not
    // re-arm, and the restart is dropped (the tick stayed stopped). The stream folded each change once the
    // pass was two events past it.
    TickText t;
    const std::string p0 = "00000000aaaa0000", p1 = "00000000bbbb0000";
    t.syscalls(0, 1.0, "hog-200", 5000);
    t.tick(0, 1.201, "hog-200", p0);
    t.tick(0, 1.202, "hog-200", p0);
    t.tick(1, 1.0, "app-300", p1);
    t.ev(1, 1.0001, "app-300", "tick_stop: success=1 dependency=NONE");
    t.ev(1, 1.0002, "app-300", "hrtimer_cancel: hrtimer=" + p1);
    t.arm(1, 1.0003, "app-300", p1, "1300000000");
    t.ev(1, 1.0004, "app-300", "hrtimer_cancel: hrtimer=" + p1);
    t.arm(1, 1.0005, "app-300", p1, "1200000000");
    t.syscalls(1, 1.001, "app-300", 5000);
    t.ev(1, 1.2009, "app-300", "local_timer_entry: vector=236", "d.h..");
    t.ev(1, 1.201, "app-300",
         "hrtimer_expire_entry: hrtimer=" + p1 + " function=tick_nohz_handler now=1201000000", "d.h..");
    t.ev(1, 1.2011, "app-300", "hrtimer_expire_exit: hrtimer=" + p1, "d.h..");
    t.ev(1, 1.2012, "app-300", "local_timer_exit: vector=236", "d.h..");
    // then the stopped tick is re-programmed (an arm, no cancel), and an expiry that re-arms 0.2 s later
    // dates the restart back at that arm
    t.arm(1, 1.2015, "app-300", p1, "1450000000");
    t.syscalls(1, 1.202, "app-300", 5000);
    t.tick(1, 1.45, "app-300", p1);
    t.ev(1, 1.5, "app-300", "sys_enter: NR 1 (0, 0, 0, 0, 0, 0)");
    const DatOfText d = datOfText(*t.load(), "late-lane.dat");
    const TickReport &whole = d.whole;
    ASSERT_EQ(whole.cpus.size(), 2u);
    EXPECT_GT(whole.cpus[0].laneKnownNs, 200'000'000) << "CPU 0's tick ran from the start";
    EXPECT_EQ(whole.cpus[1].tickStoppedNs, 201'400'000) << "CPU 1's tick stopped until the arm at 1.2015 s";
    for (int64_t slice : {100000, 1000000, 10000000})
        EXPECT_EQ(loadedJson(*d.loaded), streamedJson(d.path, *d.loaded, slice, SIZE_MAX))
            << slice << " ns slices";
}

TEST(Stream, AWakeupsSwitchInAtItsVeryTimeIsFound)
{
    // Timestamps of a microsecond: the woken task is switched in on CPU 1 at the wakeup's very time, and
    // out again at that time too. While the wakeup waited its 100 ms to be measured, the stream had moved
    // its first switch to read past the switch-in (to the last one at or before the wakeup's time).
    TickText t;
    const std::string w = "00000000cccc0000";
    t.sw(1, 1.0, "swapper/1", 0, "R", "other", 200);
    t.sw(1, 1.05, "other", 200, "S", "swapper/1", 0);
    t.ev(0, 1.0, "app-300",
         "hrtimer_start: hrtimer=" + w +
             " function=hrtimer_wakeup expires=1100000000 softexpires=1100000000 mode=ABS was_armed=0");
    t.ev(0, 1.1, "app-300", "hrtimer_expire_entry: hrtimer=" + w + " function=hrtimer_wakeup now=1100000000",
         "d.h..");
    t.ev(0, 1.1, "app-300", "sched_waking: comm=p pid=100 prio=120 target_cpu=001", "d.h2.");
    t.ev(0, 1.1, "app-300", "hrtimer_expire_exit: hrtimer=" + w, "d.h..");
    t.sw(1, 1.1, "swapper/1", 0, "R", "p", 100);
    t.sw(1, 1.1, "p", 100, "S", "swapper/1", 0);
    t.syscalls(0, 1.1001, "app-300", 5000, 60e-6);
    t.syscalls(1, 1.1002, "swapper/1-0", 100, 3e-3);
    const DatOfText d = datOfText(*t.load(), "same-time-switch-in.dat");
    const TickReport &whole = d.whole;
    ASSERT_EQ(whole.cpus.size(), 2u);
    EXPECT_EQ(whole.cpus[0].wakeup.latency.count, 1u) << "the batch report measures it (0 ns)";
    for (int64_t slice : {100000, 1000000, 10000000})
        EXPECT_EQ(loadedJson(*d.loaded), streamedJson(d.path, *d.loaded, slice, SIZE_MAX))
            << slice << " ns slices";
}

TEST(Stream, TicksOfAnUnknownModeAreFoldedBeforeTheModeShows)
{
    // A task whose user/kernel mode is not known yet holds its ticks' context Unknown until the mode
    // shows. The stream folds them at once, counted by stretch, instead of holding every tick of the CPU
    // until then (a nohz_full CPU running a user loop without syscalls for minutes). CPU 0: "app" comes
    // out of polling idle with its mode unknown, is preempted by "hog" (user mode, its ticks spurious
    // after the same polling exit), comes back, and enters a syscall 1.5 s later: every one of its ticks
    // was a user one. CPU 2: "app2" arrives from CPU 1, where it was preempted in user mode: only the
    // cross-CPU step at the end tells. CPU 3: "app3" ran from the start and never tells.
    TickText t;
    const std::string p0 = "00000000aaaa0000", p1 = "00000000bbbb0000", p2 = "00000000cccc0000",
                      p3 = "00000000dddd0000";
    t.ev(0, 1.0, "swapper/0-0", "cpu_idle: state=0 cpu_id=0", "d....");
    t.ev(0, 1.0005, "swapper/0-0", "cpu_idle: state=4294967295 cpu_id=0", "d....");
    t.sw(0, 1.0006, "swapper/0", 0, "R", "app", 100);
    for (int k = 1; k < 800; ++k)
        t.tick(0, 1.0 + k * 1e-3, "app-100", p0);
    t.sw(0, 1.8002, "app", 100, "R+", "hog", 300);
    t.ev(0, 1.8003, "hog-300", "sys_exit: NR 1 = 0");
    for (int k = 1; k < 10; ++k)
        t.tick(0, 1.8 + k * 1e-3, "hog-300", p0);
    t.sw(0, 1.8102, "hog", 300, "R+", "app", 100);
    for (int k = 11; k < 700; ++k)
        t.tick(0, 1.8 + k * 1e-3, "app-100", p0);
    t.ev(0, 2.5002, "app-100", "sys_enter: NR 1 (0, 0, 0, 0, 0, 0)");
    t.ev(0, 2.5003, "app-100", "sys_exit: NR 1 = 0");

    t.ev(1, 1.0, "app2-200", "sys_exit: NR 1 = 0");
    t.tick(1, 1.001, "app2-200", p1);
    t.sw(1, 1.1, "app2", 200, "R+", "swapper/1", 0);
    t.sw(2, 1.2, "swapper/2", 0, "R", "app2", 200);
    for (int k = 1; k < 1000; ++k)
        t.tick(2, 1.2 + k * 1e-3, "app2-200", p2);

    for (int k = 0; k < 1000; ++k)
        t.tick(3, 1.0 + k * 1e-3, "app3-400", p3);

    std::unique_ptr<Trace> text = t.load();
    text->meta.kernelCmdline = "nohz_full=0-3";
    const DatOfText d = datOfText(*text, "unknown-mode-ticks.dat");
    const TickReport &whole = d.whole;
    ASSERT_EQ(whole.cpus.size(), 4u);
    EXPECT_EQ(whole.cpus[0].ticks.user, 1497u) << "app's ticks and hog's, in user mode";
    EXPECT_EQ(whole.cpus[0].ticks.unknown, 0u);
    EXPECT_EQ(whole.cpus[2].ticks.user, 999u) << "app2's mode comes from CPU 1";
    EXPECT_EQ(whole.cpus[3].ticks.unknown, 1000u);
    bool afterPoll = false;
    for (const Finding &f : whole.findings)
        afterPoll |= f.kind == FindingKind::SpuriousUser && f.cpu == 0 &&
                     f.pattern.find("polling") != std::string::npos;
    EXPECT_TRUE(afterPoll) << "CPU 0's spurious user ticks follow a polling exit";
    const auto [held, chains] = expectLoadedReportAtThreeSlices(d);
    EXPECT_LT(held, 200u) << "ticks held until their mode shows";
    EXPECT_EQ(chains, 3u) << "app's two stretches, app2's, app3's";
}

TEST(Stream, APollingExitSharedByPendingAndKnownTicksIsCountedOnce)
{
    // The idle=poll pattern: every return from polling idle brings a tick in user mode. "app" (its mode
    // unknown until its syscall at the end, preempted each time: one chain of stretches) takes one tick
    // after each of 200 polling exits; after every tenth, "hog" (known user mode) takes one too, after
    // the same exit. The stream folds app's ticks before their mode is known (one chain of stretches,
    // kept as counts and the exits they came after) and hog's at once: the finding still names 220
    // ticks after 200 exits, not 220 after 220.
    TickText t;
    const std::string p0 = "00000000aaaa0000";
    t.ev(0, 0.9, "hog-300", "sys_exit: NR 1 = 0");
    t.sw(0, 0.95, "hog", 300, "R+", "swapper/0", 0);
    for (int k = 0; k < 200; ++k) {
        const double c = 1.0 + k * 2e-3;
        t.ev(0, c, "swapper/0-0", "cpu_idle: state=0 cpu_id=0", "d....");
        t.ev(0, c + 100e-6, "swapper/0-0", "cpu_idle: state=4294967295 cpu_id=0", "d....");
        t.sw(0, c + 110e-6, "swapper/0", 0, "R", "app", 100);
        t.tick(0, c + 500e-6, "app-100", p0);
        if (k % 10 == 0) {
            t.sw(0, c + 600e-6, "app", 100, "R+", "hog", 300);
            t.tick(0, c + 800e-6, "hog-300", p0);
            t.sw(0, c + 900e-6, "hog", 300, "R+", "swapper/0", 0);
        } else {
            t.sw(0, c + 600e-6, "app", 100, "R+", "swapper/0", 0);
        }
    }
    t.sw(0, 1.5, "swapper/0", 0, "R", "app", 100);
    t.ev(0, 1.5001, "app-100", "sys_enter: NR 1 (0, 0, 0, 0, 0, 0)");
    std::unique_ptr<Trace> text = t.load();
    text->meta.kernelCmdline = "nohz_full=0";
    const DatOfText d = datOfText(*text, "poll-exits.dat");
    const Finding *user = nullptr;
    for (const Finding &f : d.whole.findings)
        if (f.kind == FindingKind::SpuriousUser) user = &f;
    ASSERT_NE(user, nullptr);
    EXPECT_EQ(user->count, 220u);
    EXPECT_NE(user->pattern.find("220 of them came after 200 polling-idle exits"), std::string::npos)
        << user->pattern;
    const auto [held, chains] = expectLoadedReportAtThreeSlices(d);
    EXPECT_LT(held, 100u);
    EXPECT_EQ(chains, 1u) << "app's 200 stretches are one chain";
}

TEST(Stream, TwoChainsBeginningAtOneEventKeepTheirOwnModes)
{
    // The CPU's first event switches "a" (runnable, mode unknown) out for "b" (mode unknown): two
    // stretches begin at that one event, and b's task-lane change replaces a's. b enters a syscall
    // later (its ticks: user mode); a, switched back in meanwhile, continues a stretch that did not begin
    // with a switch-in, so no CPU can tell its mode (its ticks stay unknown). The stream keyed the
    // chains by their first task-lane change: a's pending ticks moved with b's.
    TickText t;
    const std::string p0 = "00000000aaaa0000";
    t.sw(0, 1.0, "a", 100, "R+", "b", 200).ticks(0, 1.0, 100, "b-200", p0);
    t.sw(0, 1.1005, "b", 200, "R+", "a", 100).ticks(0, 1.1, 100, "a-100", p0);
    t.sw(0, 1.2005, "a", 100, "R+", "b", 200).syscalls(0, 1.201, "b-200", 1, 2e-3);
    t.tick(0, 1.203, "b-200", p0);
    const DatOfText d = datOfText(*t.load(), "two-chains.dat");
    ASSERT_EQ(d.whole.cpus.size(), 1u);
    EXPECT_EQ(d.whole.cpus[0].ticks.user, 101u) << "b's ticks";
    EXPECT_EQ(d.whole.cpus[0].ticks.unknown, 100u) << "a's ticks";
    EXPECT_EQ(expectLoadedReportAtThreeSlices(d).second, 2u) << "a's chain and b's";
}

TEST(Stream, RelabelledStretchesAndTheirSweepCandidatesGo)
{
    // 2000 short-lived tasks, each switched in once on CPU 0 with nothing known of its mode there (a
    // stretch, and a candidate switch-out from the sweep for the step at the end), then a syscall tells
    // it. Those stretches and their candidates were kept to the end: one per first switch-in of a task
    // on a CPU, for the whole file.
    TickText t;
    for (int k = 0; k < 2000; ++k) {
        const double c = 1.0 + k * 100e-6;
        const std::string name = "w" + std::to_string(k);
        const int pid = 1000 + k;
        t.sw(0, c, "swapper/0", 0, "R", name, pid);
        t.ev(0, c + 10e-6, name + "-" + std::to_string(pid), "sys_enter: NR 1 (0, 0, 0, 0, 0, 0)");
        t.ev(0, c + 20e-6, name + "-" + std::to_string(pid), "sys_exit: NR 1 = 0");
        t.sw(0, c + 50e-6, name, pid, "S", "swapper/0", 0);
    }
    t.sw(1, 1.0, "swapper/1", 0, "R", "other", 99);
    const DatOfText d = datOfText(*t.load(), "many-tasks.dat");
    for (int64_t slice : {100000, 1000000, 10000000}) {
        StreamResult r;
        EXPECT_EQ(loadedJson(*d.loaded), streamedJson(d.path, *d.loaded, slice, SIZE_MAX, &r))
            << slice << " ns slices";
        EXPECT_LT(r.maxCandidates, 200u) << slice << " ns slices";
        EXPECT_LT(r.maxStretches, 1200u) << slice << " ns slices: the resolved ones are forgotten";
    }
}

TEST(Stream, ARelabelledStretchKeepsTheSweepCandidateOfAnotherBegunAtItsEvent)
{
    // The CPU's first event switches "a" out for "b", modes unknown: a's stretch (the trace began in it)
    // and b's (a switch-in, with a candidate switch-out from the sweep: b left CPU 1 runnable in user
    // mode) begin at one event. a comes back and enters a syscall, which relabels its stretches; b's
    // candidate must stay for the step at the end, which tells b's ticks were user ones.
    TickText t;
    const std::string p0 = "00000000aaaa0000";
    t.ev(1, 0.9, "b-200", "sys_exit: NR 1 = 0");
    t.sw(1, 0.95, "b", 200, "R+", "swapper/1", 0);
    t.sw(0, 1.0, "a", 100, "R+", "b", 200).ticks(0, 1.0, 50, "b-200", p0);
    t.sw(0, 1.0505, "b", 200, "R+", "a", 100).syscalls(0, 1.06, "a-100", 1, 2e-3);
    t.ticks(0, 1.07, 50, "a-100", p0);
    const DatOfText d = datOfText(*t.load(), "shared-switch-in.dat");
    ASSERT_EQ(d.whole.cpus.size(), 2u);
    EXPECT_EQ(d.whole.cpus[0].ticks.user, 100u) << "b's ticks from CPU 1, a's from its syscall";
    expectLoadedReportAtThreeSlices(d);
}
