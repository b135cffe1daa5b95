// SPDX-License-Identifier: GPL-3.0-or-later
// The user/kernel mode of the task each tick interrupted, on hand-written ftrace text traces: from context
// tracking, inferred from syscalls and sleeps without it, stretches of unknown mode and their chains,
// and tasks that come back to a CPU from another one.
#include "AnalysisTextTrace.h"
#include "StreamTestUtil.h"

#include <gtest/gtest.h>

#include <vector>

namespace tickscope {
namespace {

using namespace test;

TEST(AnalysisTextTrace, ContextTrackingDecidesUserAndKernel)
{
    TextTrace t;
    t.ev(1, 1.000000, "app-100", "user_enter: ");
    t.ev(1, 1.004000, "app-100", "user_exit: ");
    t.tick(1, 1.004001, "app-100", P1); // user_exit right before the IRQ entry: from user mode
    t.ev(1, 1.004010, "app-100", "user_enter: ");
    t.ev(1, 1.007000, "app-100", "user_exit: ");
    t.ev(1, 1.007001, "app-100", "sys_enter: NR 0 (0, 0, 0, 0, 0, 0)");
    t.tick(1, 1.008000, "app-100", P1);                 // in the syscall
    t.ev(1, 1.009000, "app-100", "sys_exit: NR 0 = 0"); // not user yet: user_enter says when
    t.tick(1, 1.009500, "app-100", P1);
    t.ev(1, 1.009600, "app-100", "user_enter: ");
    t.sw(1, 1.011000, "app", 100, "R+", "kworker/1:1", 50);
    t.tick(1, 1.012000, "kworker/1:1-50", P1); // kernel thread
    const Result r = analyse(t);
    EXPECT_EQ(r.contexts(1), (std::vector<TC>{TC::User, TC::Kernel, TC::Kernel, TC::Kernel}));
    EXPECT_TRUE(r.a.isNohzFull(1));
    EXPECT_EQ(r.a.nohzFullWhy[1], "context_tracking events");
    EXPECT_EQ(r.task(1, 1.004000), TaskState::Kernel);
    EXPECT_EQ(r.task(1, 1.009600), TaskState::User);
    EXPECT_TRUE(r.cpu(1).ticks[0].flags & TickFlag::Spurious); // user tick, nohz_full, no dependency
}

TEST(AnalysisTextTrace, UserKernelInferenceWithoutContextTracking)
{
    TextTrace t;
    t.ev(0, 1.000000, "app-100", "sys_exit: NR 0 = 0");
    t.sw(0, 1.001000, "app", 100, "R+", "kworker/0:1", 50); // preempted in user mode
    t.tick(0, 1.002000, "kworker/0:1-50", P0);
    t.sw(0, 1.003000, "kworker/0:1", 50, "I", "app", 100);
    t.tick(0, 1.004000, "app-100", P0);                     // resumed in user mode without any sys_exit
    t.sw(0, 1.004500, "app", 100, "R+", "kworker/0:1", 50); // preempted again before revealing anything
    t.sw(0, 1.004600, "kworker/0:1", 50, "I", "app", 100);
    t.ev(0, 1.005000, "app-100", "sys_enter: NR 230 (0, 0, 0, 0, 0, 0)");
    t.sw(0, 1.005100, "app", 100, "S", "swapper/0", 0);
    t.sw(0, 1.005900, "swapper/0", 0, "R", "app", 100);
    t.tick(0, 1.006000, "app-100", P0); // woken in the kernel, before its sys_exit
    t.ev(0, 1.006100, "app-100", "sys_exit: NR 230 = 0");
    t.ev(0, 1.007000, "app-100", "page_fault_user: address=0x1000 ip=0x2000 error_code=0x4");
    t.tick(0, 1.007001, "app-100", P0); // in the fault
    t.ev(0, 1.007100, "app-100", "sys_enter: NR 1 (0, 0, 0, 0, 0, 0)");
    // CPU 1: a task already running when the trace starts: unknown until its first syscall event
    t.tick(1, 1.000000, "hog-300", P1);
    t.tick(1, 1.004000, "hog-300", P1);
    t.ev(1, 1.005000, "hog-300", "sys_enter: NR 1 (0, 0, 0, 0, 0, 0)");
    t.tick(1, 1.006000, "hog-300", P1);
    t.ev(1, 1.007000, "hog-300", "sys_exit: NR 1 = 0");
    t.tick(1, 1.008000, "hog-300", P1);
    const Result r = analyse(t);
    EXPECT_EQ(r.contexts(0), (std::vector<TC>{TC::Kernel, TC::User, TC::Kernel, TC::Kernel}));
    EXPECT_EQ(r.contexts(1), (std::vector<TC>{TC::User, TC::User, TC::Kernel, TC::User}));
    EXPECT_FALSE(r.a.isNohzFull(0));
    EXPECT_FALSE(r.a.isNohzFull(1));
    for (const CpuAnalysis &c : r.a.cpus) {
        for (const TickRecord &k : c.ticks)
            EXPECT_FALSE(k.flags & TickFlag::Spurious); // not nohz_full
    }
}

TEST(AnalysisTextTrace, TwoStretchesBegunAtOneEventKeepTheirOwnTaskLane)
{
    // The CPU's first event switches "a" (runnable, mode unknown) out for "b" (mode unknown): a's stretch
    // (the trace began in it) and b's begin at that one event, and b's task-lane change is the only one
    // there. a comes back and enters a syscall, which tells its earlier stretch was user mode too; that
    // must not relabel b's time, whose mode nothing shows (it stays Unknown, with b's tick).
    TextTrace t;
    t.sw(0, 1.000000, "a", 100, "R+", "b", 200);
    t.tick(0, 1.001000, "b-200", P0);
    t.sw(0, 1.002000, "b", 200, "R+", "a", 100);
    t.tick(0, 1.003000, "a-100", P0);
    t.ev(0, 1.004000, "a-100", "sys_enter: NR 1 (0, 0, 0, 0, 0, 0)");
    t.sw(0, 1.005000, "a", 100, "S", "swapper/0", 0);
    const Result r = analyse(t);
    EXPECT_EQ(r.task(0, 1.0005), TaskState::Unknown) << "b's time";
    EXPECT_EQ(r.task(0, 1.0025), TaskState::User) << "a's time";
    EXPECT_EQ(r.contexts(0), (std::vector<TC>{TC::Unknown, TC::User}));
}

TEST(AnalysisTextTrace, ATaskLeftInAStretchOfUnknownModeResumesInThatStretchsMode)
{
    // t sleeps on CPU 2 (in the kernel), is switched in on CPU 0 (its mode unknown there: it ran elsewhere),
    // preempted, and switched in on CPU 1. CPU 0's stretch takes Kernel from CPU 2's sleep; CPU 1's takes
    // the mode t was preempted in on CPU 0, which is that stretch's once known: Kernel too, so the ticks
    // on both are Kernel.
    TextTrace t;
    t.sw(2, 1.000000, "t", 100, "S", "swapper/2", 0);
    t.sw(0, 1.001000, "swapper/0", 0, "R", "t", 100);
    t.tick(0, 1.002000, "t-100", P0);
    t.sw(0, 1.003000, "t", 100, "R+", "swapper/0", 0);
    t.sw(1, 1.004000, "swapper/1", 0, "R", "t", 100);
    t.tick(1, 1.005000, "t-100", P1);
    t.sw(1, 1.006000, "t", 100, "R+", "swapper/1", 0);
    const Result r = analyse(t);
    EXPECT_EQ(r.contexts(0), (std::vector<TC>{TC::Kernel}));
    EXPECT_EQ(r.contexts(1), (std::vector<TC>{TC::Kernel})) << "the mode of the stretch t left CPU 0 in";
    EXPECT_EQ(r.task(1, 1.0045), TaskState::Kernel);
}

TEST(AnalysisTextTrace, AModeSeenOnACpuIsStaleOnceTheTaskLeftAnotherCpu)
{
    // t leaves CPU 0 preempted in user mode, then enters a syscall on CPU 1 and sleeps there; it wakes on
    // CPU 0, inside that syscall until its sys_exit. CPU 0's memory (user) is stale: the tick before the
    // sys_exit is a kernel one (it was counted user). u leaves CPU 0 sleeping (kernel), returns to user
    // mode on CPU 1 and is preempted there, and comes back to CPU 0 in user mode (it was counted kernel).
    TextTrace t;
    t.sw(0, 1.000000, "swapper/0", 0, "R", "t", 100);
    t.ev(0, 1.000500, "t-100", "sys_exit: NR 1 = 1");
    t.tick(0, 1.001000, "t-100", P0);
    t.sw(0, 1.002000, "t", 100, "R+", "u", 200);
    t.ev(0, 1.002500, "u-200", "sys_enter: NR 7 (0, 0, 0, 0, 0, 0)");
    t.sw(0, 1.003000, "u", 200, "S", "swapper/0", 0);
    t.sw(1, 1.003000, "swapper/1", 0, "R", "t", 100);
    t.ev(1, 1.003500, "t-100", "sys_enter: NR 7 (0, 0, 0, 0, 0, 0)");
    t.sw(1, 1.004000, "t", 100, "S", "u", 200);
    t.ev(1, 1.004500, "u-200", "sys_exit: NR 7 = 0");
    t.sw(1, 1.005000, "u", 200, "R+", "swapper/1", 0);
    t.sw(0, 1.005500, "swapper/0", 0, "R", "t", 100);
    t.tick(0, 1.006000, "t-100", P0);
    t.ev(0, 1.007000, "t-100", "sys_exit: NR 7 = 0");
    t.tick(0, 1.008000, "t-100", P0);
    t.sw(0, 1.009000, "t", 100, "R+", "u", 200);
    t.tick(0, 1.010000, "u-200", P0);
    t.sw(0, 1.011000, "u", 200, "R+", "swapper/0", 0);
    const Result r = analyse(t);
    EXPECT_EQ(r.contexts(0), (std::vector<TC>{TC::User, TC::Kernel, TC::User, TC::User}));
    EXPECT_EQ(r.task(0, 1.006), TaskState::Kernel) << "t back on CPU 0, inside its syscall";
    EXPECT_EQ(r.task(0, 1.010), TaskState::User) << "u back on CPU 0, preempted in user mode on CPU 1";
}

TEST(AnalysisTextTrace, ATaskThatSleptInAUserPageFaultOnAnotherCpuIsNotTakenForKernel)
{
    // t leaves CPU 0 preempted in user mode, takes a user page fault on CPU 1 and sleeps in it (D), and
    // wakes on CPU 0: the fault returns to user mode, as its sys_enter then shows. A sleep elsewhere is not
    // taken for the kernel before the task's own events have spoken (it was, for a first version of the
    // sweep's sleep flag, found by a helper's review).
    TextTrace t;
    t.sw(0, 1.000000, "swapper/0", 0, "R", "t", 100);
    t.ev(0, 1.000500, "t-100", "sys_exit: NR 1 = 1");
    t.sw(0, 1.001000, "t", 100, "R+", "swapper/0", 0);
    t.sw(1, 1.002000, "swapper/1", 0, "R", "t", 100);
    t.ev(1, 1.002500, "t-100", "page_fault_user: address=0x1000 ip=0x2000 error_code=0x4");
    t.sw(1, 1.003000, "t", 100, "D", "swapper/1", 0);
    t.sw(0, 1.004000, "swapper/0", 0, "R", "t", 100);
    t.tick(0, 1.005000, "t-100", P0);
    t.ev(0, 1.006000, "t-100", "sys_enter: NR 7 (0, 0, 0, 0, 0, 0)");
    t.tick(0, 1.007000, "t-100", P0);
    t.sw(0, 1.008000, "t", 100, "R+", "swapper/0", 0);
    const Result r = analyse(t);
    EXPECT_EQ(r.contexts(0), (std::vector<TC>{TC::User, TC::Kernel}));
}

TEST(AnalysisTextTrace, AStretchOfUnknownModeIsNotContinuedOnceItsTaskShowedItsModeElsewhere)
{
    // t's mode is never seen on CPU 0 before it is preempted there; on CPU 1 it enters a syscall (it was in
    // user mode) and is preempted inside it; back on CPU 0 its sys_exit shows it was in the kernel then,
    // which says nothing of its first time on CPU 0: that tick stays unknown (it was made a kernel one when
    // the stretch t came back in continued the one it left). Had t shown nothing on CPU 1, the chain
    // would go on (Stream.ModesFoundLongAfterTheirTaskLaneChangesWereReleased).
    TextTrace t;
    t.sw(0, 1.000000, "swapper/0", 0, "R", "t", 100);
    t.tick(0, 1.001000, "t-100", P0);
    t.sw(0, 1.002000, "t", 100, "R+", "swapper/0", 0);
    t.sw(1, 1.003000, "swapper/1", 0, "R", "t", 100);
    t.ev(1, 1.003500, "t-100", "sys_enter: NR 7 (0, 0, 0, 0, 0, 0)");
    t.sw(1, 1.004000, "t", 100, "R+", "swapper/1", 0);
    t.sw(0, 1.005000, "swapper/0", 0, "R", "t", 100);
    t.tick(0, 1.006000, "t-100", P0);
    t.ev(0, 1.007000, "t-100", "sys_exit: NR 7 = 0");
    t.tick(0, 1.008000, "t-100", P0);
    t.sw(0, 1.009000, "t", 100, "R+", "swapper/0", 0);
    const Result r = analyse(t);
    EXPECT_EQ(r.contexts(0), (std::vector<TC>{TC::Unknown, TC::Kernel, TC::User}));
}

TEST(AnalysisTextTrace, ATaskSwitchedOutAndBackInAtOneTimeHasNotMigrated)
{
    // t sleeps on CPU 1, wakes on CPU 0 (a migration) and shows user mode; at one microsecond CPU 0
    // switches it out for k and back in: it never left CPU 0, so its mode stays user (a text trace's
    // times are microseconds: two switches at one time are common).
    TextTrace t;
    t.sw(1, 1.000000, "t", 100, "S", "swapper/1", 0);
    t.sw(0, 1.000010, "swapper/0", 0, "R", "t", 100);
    t.ev(0, 1.000020, "t-100", "sys_exit: NR 7 = 0");
    t.sw(0, 1.000030, "t", 100, "R+", "k", 200);
    t.sw(0, 1.000030, "k", 200, "R+", "t", 100);
    t.tick(0, 1.000040, "t-100", P0);
    t.sw(0, 1.000100, "t", 100, "R+", "swapper/0", 0);
    const Result r = analyse(t);
    EXPECT_EQ(r.contexts(0), (std::vector<TC>{TC::User}));
}

TEST(AnalysisTextTrace, ATaskPassedOnWithinOneMicrosecondResumesInTheModeItLeftIn)
{
    // t is preempted in user mode on CPU 2; at one microsecond CPU 1 switches it in and preempts it, and
    // CPU 0 switches it in: CPU 0's stretch reads CPU 1's, whose mode comes from CPU 2, at its own time.
    TextTrace t;
    t.ev(2, 0.999000, "t-100", "sys_exit: NR 0 = 0");
    t.sw(2, 1.000000, "t", 100, "R+", "swapper/2", 0);
    t.sw(1, 1.002000, "a", 200, "S", "t", 100);
    t.sw(1, 1.002000, "t", 100, "R+", "b", 300);
    t.sw(0, 1.002000, "swapper/0", 0, "R", "t", 100);
    t.tick(0, 1.003000, "t-100", P0);
    t.tick(0, 1.007000, "t-100", P0);
    const Result r = analyse(t);
    EXPECT_EQ(r.contexts(0), (std::vector<TC>{TC::User, TC::User}));
    const DatOfText d = datOfText(*t.load(), "passed-on.dat");
    EXPECT_EQ(loadedJson(*d.loaded), streamedJson(d.path, *d.loaded, 1000, SIZE_MAX));
}

// A CPU whose data opens with lost events (a buffer overwritten, or read late) may have run any task before
// its first event: a task preempted in user mode on CPU 0 and back there before CPU 1's data begins is of
// unknown mode, as is one back after it; without that gap it resumes in user mode. `report --stream` says
// the same before it has read CPU 1's first page.
TEST(AnalysisTextTrace, ATaskAwayWhileAnotherCpusDataHadNotBegunIsOfUnknownMode)
{
    for (const bool opening : {false, true}) {
        TextTrace t;
        t.ev(0, 1.000000, "app-100", "sys_exit: NR 1 = 0");
        t.sw(0, 1.000100, "app", 100, "R+", "cat", 200);
        t.sw(0, 1.000500, "cat", 200, "S", "app", 100);
        t.tick(0, 1.001000, "app-100", P0);
        t.sw(0, 1.001100, "app", 100, "R+", "cat", 200);
        t.sw(0, 1.001500, "cat", 200, "S", "app", 100);
        t.tick(0, 1.002000, "app-100", P0);
        if (opening) t.lost(1, 50);
        t.ev(1, 1.001700, "<idle>-0", "sched_waking: comm=x pid=9 prio=120 target_cpu=001");
        for (double ts = 1.003; ts < 1.3; ts += 0.001) // (pages of both CPUs after that)
            t.ev(0, ts, "app-100", "sched_waking: comm=x pid=9 prio=120 target_cpu=000")
                .ev(1, ts, "<idle>-0", "sched_waking: comm=x pid=9 prio=120 target_cpu=001");
        const Result r = analyse(t);
        const TC want = opening ? TC::Unknown : TC::User;
        EXPECT_EQ(r.contexts(0), (std::vector<TC>{want, want})) << opening;
        const DatOfText d = datOfText(*t.load(), "opening.dat");
        ASSERT_EQ(d.loaded->cpu(1).lost.size(), opening ? 1u : 0u);
        const std::string whole = loadedJson(*d.loaded);
        for (int64_t slice : {100'000, 1'000'000})
            EXPECT_EQ(whole, streamedJson(d.path, *d.loaded, slice, SIZE_MAX)) << opening << " " << slice;
    }
}

// A text trace's LOST line between two events of one microsecond: the task showed user mode just before
// it, but the events lost may have changed that, so the ticks after it are of unknown mode. Loaded from
// the text, written as trace.dat and read back (the gap at the same place between the two), and streamed.
TEST(AnalysisTextTrace, EventsLostBetweenTwoEventsOfOneMicrosecondLeaveTheModeUnknown)
{
    for (const bool lost : {false, true}) {
        TextTrace t;
        t.ev(0, 1.000000, "x-300", "sys_exit: NR 0 = 0");
        t.ev(0, 1.001000, "x-300", "sys_enter: NR 0 (0, 0, 0, 0, 0, 0)");
        t.ev(0, 1.001000, "x-300", "sys_exit: NR 0 = 0");
        if (lost) t.lost(0, 1000);
        t.ev(0, 1.001000, "x-300", "sched_waking: comm=w pid=99 prio=120 target_cpu=000");
        t.tick(0, 1.002000, "x-300", P0);
        t.tick(0, 1.006000, "x-300", P0);
        const Result r = analyse(t);
        const TC want = lost ? TC::Unknown : TC::User;
        EXPECT_EQ(r.contexts(0), (std::vector<TC>{want, want})) << lost;
        const DatOfText d = datOfText(*t.load(), "lost-in-one-us.dat");
        const CpuEvents &ev = d.loaded->cpu(0);
        ASSERT_EQ(ev.lost.size(), lost ? 1u : 0u);
        if (lost) {
            EXPECT_EQ(ev.lost[0].from, ev.lost[0].to);
            EXPECT_EQ(ev.firstAfterLost(0), 3u) << "between the sys_exit and the sched_waking";
        }
        const std::string whole = loadedJson(*d.loaded);
        const auto unnamed = [](std::string json) { // (the file's name aside)
            const size_t at = json.find("\"file\"");
            return json.erase(at, json.find('\n', at) - at);
        };
        EXPECT_EQ(unnamed(whole), unnamed(loadedJson(*t.load()))) << lost;
        for (int64_t slice : {1'000, 1'000'000})
            EXPECT_EQ(whole, streamedJson(d.path, *d.loaded, slice, SIZE_MAX)) << lost << " " << slice;
    }
}

} // namespace
} // namespace tickscope
