// `report --stream` against `report` on small hand-written traces, each built around one way the pass
// revises a record after the stream could have folded it: a task's mode found long after its task-lane
// codes were released, tick-lane changes revised long after they began, a switch-in at a wakeup's very
// time.
#include "StreamTestUtil.h"
#include "TextTraceBuilder.h"

#include <gtest/gtest.h>

#include <string>

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
