// SPDX-License-Identifier: GPL-3.0-or-later
// The tick analysis on small hand-written ftrace text traces (tracefs `trace` format, loaded through the
// text importer from a temp file), one per edge case: a trace that starts inside an IRQ and inside idle,
// lost events mid-trace, pre-f2e388a019e4 hrtimer_cancel noise, the old string tick_stop, the IRQ before
// and after the idle-exit record, a low-res kernel (no tick hrtimer), the tick callback names of each
// kernel version, the capture's metadata (the user/kernel mode: AnalysisTaskModeTest.cpp).
#include "AnalysisTextTrace.h"

#include "analysis/TickAnalysis.h"
#include "import/Loader.h"
#include "report/TickReport.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace tickscope {
namespace {

using namespace test;

TEST(AnalysisTextTrace, StartsInsideAnIrqAndInsideIdle)
{
    TextTrace t;
    // CPU 0: the first events are the end of a tick interrupt of a task whose mode is not known yet.
    t.ev(0, 100.000010, "app-100",
         "hrtimer_expire_entry: hrtimer=" + P0 + " function=tick_nohz_handler now=99000000000", "d.h..");
    t.ev(0, 100.000012, "app-100", "hrtimer_expire_exit: hrtimer=" + P0, "d.h..");
    t.ev(0, 100.000013, "app-100",
         "hrtimer_start: hrtimer=" + P0 +
             " function=tick_nohz_handler expires=99004000000 softexpires=99004000000 mode=ABS was_armed=0",
         "d.h..");
    t.ev(0, 100.000015, "app-100", "local_timer_exit: vector=236", "d.h..");
    t.ev(0, 100.001000, "app-100", "sys_enter: NR 1 (1, 2, 3, 4, 5, 6)");
    t.ev(0, 100.001010, "app-100", "sys_exit: NR 1 = 1");
    t.tick(0, 100.004000, "app-100", P0);
    // CPU 1: inside a cpuidle state, with a tick interrupt nested in it, then the idle exit.
    t.tick(1, 100.000020, kIdle, P1);
    t.ev(1, 100.000030, kIdle, "cpu_idle: state=4294967295 cpu_id=1", "d....");
    t.sw(1, 100.000040, "swapper/1", 0, "R", "app2", 200);
    t.ev(1, 100.000050, "app2-200", "sys_exit: NR 0 = 0");
    const Result r = analyse(t);

    EXPECT_EQ(r.irq(0, 100.000010), IrqState::HardIrq); // relabelled: the trace began inside the interrupt
    EXPECT_EQ(r.irq(0, 100.000015), IrqState::None);
    EXPECT_EQ(r.cpu(0).evidence.unmatchedExits, 1u);
    // The task's mode, unknown at first, is revealed by its sys_enter: the first tick interrupted user mode.
    EXPECT_EQ(r.contexts(0), (std::vector<TC>{TC::User, TC::User}));
    EXPECT_EQ(r.task(0, 100.000010), TaskState::User);
    for (const TickRecord &k : r.cpu(0).ticks)
        EXPECT_TRUE(k.periodic());

    EXPECT_EQ(r.task(1, 100.000020), TaskState::Idle); // the first exit shows it was in a cpuidle state
    EXPECT_EQ(r.taskDetail(1, 100.000020), StateCode::kDetailUnknown);
    EXPECT_EQ(r.task(1, 100.000030), TaskState::IdleTask);
    EXPECT_EQ(r.task(1, 100.000040), TaskState::Kernel); // woken in the kernel: sys_exit follows
    EXPECT_EQ(r.contexts(1), (std::vector<TC>{TC::Idle}));
}

TEST(AnalysisTextTrace, LostEventsResetTheStateMachine)
{
    TextTrace t;
    t.ev(0, 200.000100, "app-100", "sys_exit: NR 0 = 0");
    t.tick(0, 200.004000, "app-100", P0); // user
    t.ev(0, 200.005000, "app-100", "sys_enter: NR 0 (0, 0, 0, 0, 0, 0)");
    t.ev(0, 200.005500, "app-100", "softirq_entry: vec=1 [action=TIMER]", "..s..");
    // the last event before the gap switches to a task that ran in user mode on CPU 1: its stretch is
    // resolved across CPUs, but the gap stays unknown
    t.sw(0, 200.005600, "app", 100, "R+", "app2", 200);
    t.ev(1, 200.001000, "app2-200", "sys_exit: NR 0 = 0");
    t.sw(1, 200.002000, "app2", 200, "R+", "swapper/1", 0);
    t.lost(0, 50);
    // After the gap: the end of an interrupt, then the task (mode unknown) enters a syscall.
    t.ev(0, 200.009990, "app-100", "hrtimer_expire_exit: hrtimer=00000000eeee0000", "d.h..");
    t.ev(0, 200.010000, "app-100", "local_timer_exit: vector=236", "d.h..");
    t.ev(0, 200.010100, "app-100", "sys_enter: NR 1 (0, 0, 0, 0, 0, 0)");
    t.tick(0, 200.012000, "app-100", P0); // in the syscall: kernel
    t.ev(0, 200.013000, "app-100", "sys_exit: NR 1 = 0");
    const Result r = analyse(t);
    const CpuAnalysis &c = r.cpu(0);

    ASSERT_EQ(r.trace->cpu(0).lost.size(), 1u);
    EXPECT_EQ(c.evidence.gaps, 1u);
    EXPECT_EQ(r.irq(0, 200.005500), IrqState::SoftIrq);
    // the last event before the gap begins an unknown stretch on both lanes
    EXPECT_EQ(r.task(0, 200.005600), TaskState::Unknown);
    EXPECT_EQ(StateCode::detail(r.cpu(0).task.codeAt(r.at(0, 200.005600))), StateCode::kDetailLost);
    EXPECT_EQ(r.irq(0, 200.005600), IrqState::Unknown);
    EXPECT_EQ(r.irq(0, 200.009990), IrqState::HardIrq); // began inside the interrupt
    EXPECT_EQ(r.irq(0, 200.010000), IrqState::None);
    EXPECT_EQ(c.evidence.unmatchedExits, 1u);
    EXPECT_EQ(r.task(0, 200.009990), TaskState::User); // resolved by the sys_enter after the gap
    EXPECT_EQ(r.contexts(0), (std::vector<TC>{TC::User, TC::Kernel}));
    // tick lane: running, unknown over the gap, running again (the expiry after the gap re-armed)
    const auto &lane = c.tickLane.changes();
    ASSERT_EQ(lane.size(), 3u);
    EXPECT_EQ(lane[0].state, TickState::Running);
    EXPECT_EQ(lane[1].state, TickState::Unknown);
    EXPECT_EQ(lane[2].state, TickState::Running);
    EXPECT_EQ(r.trace->cpu(0).ts(lane[2].index), 200009990000);
}

TEST(AnalysisTextTrace, PreF2e388a019e4CancelNoiseIsIgnored)
{
    // A kernel before f2e388a019e4: no was_armed, and every expiry / start of an armed timer is preceded by
    // an hrtimer_cancel of it with the same timestamp.
    const std::string fn = "tick_sched_timer";
    const std::string abs = " mode=ABS";
    const std::string hard = " mode=ABS|PINNED|HARD";
    auto noise = [&](TextTrace &t, double ts, const char *task) {
        t.ev(0, ts, task, "hrtimer_cancel: hrtimer=" + P0, "d....");
    };
    TextTrace t;
    t.ev(0, 300.000000, kIdle, "local_timer_entry: vector=236", "d.h..");
    noise(t, 300.000001, kIdle);
    t.ev(0, 300.000001, kIdle,
         "hrtimer_expire_entry: hrtimer=" + P0 + " function=" + fn + " now=299970000000", "d.h..");
    t.ev(0, 300.000002, kIdle, "hrtimer_expire_exit: hrtimer=" + P0, "d.h..");
    t.arm(0, 300.000003, kIdle, P0, fn, abs); // periodic re-arm
    t.ev(0, 300.000004, kIdle, "local_timer_exit: vector=236", "d.h..");
    t.ev(0, 300.000010, kIdle, "tick_stop: success=1 dependency=NONE", "d....");
    noise(t, 300.000011, kIdle);
    t.arm(0, 300.000011, kIdle, P0, fn, hard); // the stopped tick programmed to the next event
    t.ev(0, 300.000012, kIdle, "cpu_idle: state=1 cpu_id=0", "d....");
    t.ev(0, 300.001000, kIdle, "cpu_idle: state=4294967295 cpu_id=0", "d....");
    noise(t, 300.001001, kIdle);
    t.arm(0, 300.001001, kIdle, P0, fn, hard); // re-programmed while stopped
    t.ev(0, 300.001002, kIdle, "cpu_idle: state=1 cpu_id=0", "d....");
    t.ev(0, 300.020000, kIdle, "local_timer_entry: vector=236", "d.h..");
    noise(t, 300.020001, kIdle);
    t.ev(0, 300.020001, kIdle,
         "hrtimer_expire_entry: hrtimer=" + P0 + " function=" + fn + " now=299990000000", "d.h..");
    t.ev(0, 300.020002, kIdle, "hrtimer_expire_exit: hrtimer=" + P0, "d.h..");
    t.ev(0, 300.020003, kIdle, "local_timer_exit: vector=236", "d.h..");
    t.ev(0, 300.020010, kIdle, "cpu_idle: state=4294967295 cpu_id=0", "d....");
    t.ev(0, 300.020020, kIdle, "hrtimer_cancel: hrtimer=" + P0, "d...."); // real: tick_nohz_restart()
    t.arm(0, 300.020025, kIdle, P0, fn, hard);
    t.sw(0, 300.020030, "swapper/0", 0, "R", "app", 100);
    t.ev(0, 300.024000, "app-100", "local_timer_entry: vector=236", "d.h..");
    noise(t, 300.024001, "app-100");
    t.ev(0, 300.024001, "app-100",
         "hrtimer_expire_entry: hrtimer=" + P0 + " function=" + fn + " now=299994000000", "d.h..");
    t.ev(0, 300.024002, "app-100", "hrtimer_expire_exit: hrtimer=" + P0, "d.h..");
    t.arm(0, 300.024003, "app-100", P0, fn, abs);
    t.ev(0, 300.024004, "app-100", "local_timer_exit: vector=236", "d.h..");
    t.sw(0, 300.030000, "app", 100, "S", "swapper/0", 0);
    t.ev(0, 300.030010, kIdle, "tick_stop: success=1 dependency=NONE", "d....");
    noise(t, 300.030011, kIdle);
    t.arm(0, 300.030011, kIdle, P0, fn, hard);
    t.ev(0, 300.030020, kIdle, "cpu_idle: state=1 cpu_id=0", "d....");
    t.ev(0, 300.031000, kIdle, "cpu_idle: state=4294967295 cpu_id=0", "d....");
    noise(t, 300.031001, kIdle);
    t.arm(0, 300.031001, kIdle, P0, fn, hard); // re-programmed while stopped, and the trace ends
    t.ev(0, 300.031002, kIdle, "cpu_idle: state=1 cpu_id=0", "d....");
    const Result r = analyse(t);
    const CpuAnalysis &c = r.cpu(0);

    EXPECT_EQ(c.evidence.cancelNoise, 6u); // the first one comes before the tick hrtimer is known
    ASSERT_EQ(c.ticks.size(), 3u);
    EXPECT_TRUE(c.ticks[0].periodic());
    EXPECT_FALSE(c.ticks[1].periodic()); // the stopped tick's expiry: a nohz wakeup
    EXPECT_TRUE(c.ticks[2].periodic());
    const auto &lane = c.tickLane.changes();
    ASSERT_EQ(lane.size(), 4u);
    const CpuEvents &ev = r.trace->cpu(0);
    const std::vector<std::pair<TickState, int64_t>> expect{{TickState::Running, 300000000000},
                                                            {TickState::Stopped, 300000010000},
                                                            {TickState::Running, 300020025000},
                                                            {TickState::Stopped, 300030010000}};
    for (size_t k = 0; k < lane.size(); ++k) {
        EXPECT_EQ(lane[k].state, expect[k].first) << k;
        EXPECT_EQ(ev.ts(lane[k].index), expect[k].second) << k;
    }
    EXPECT_EQ(c.tickLane.state(),
              TickState::Stopped); // a noise cancel would have made the last arm a restart
}

TEST(AnalysisTextTrace, OldStringTickStopReasons)
{
    // 3.10-4.5: tick_stop carried a string; hrtimer_start had no mode.
    const std::string fn = "tick_sched_timer";
    TextTrace t;
    t.ev(1, 400.000000, "app-100", "sys_exit: NR 0 = 0");
    t.tick(1, 400.001000, "app-100", P1, fn, true, "");
    t.ev(1, 400.001010, "app-100", "tick_stop: success=no msg=more than 1 task in runqueue", "d....");
    t.tick(1, 400.005000, "app-100", P1, fn, true, "");
    t.ev(1, 400.005010, "app-100", "tick_stop: success=no msg=posix timers running", "d....");
    t.tick(1, 400.009000, "app-100", P1, fn, true, "");
    t.ev(1, 400.009010, "app-100", "tick_stop: success=yes msg= ", "d....");
    t.arm(1, 400.009011, "app-100", P1, fn, "");
    t.ev(1, 400.011000, "app-100", "sys_enter: NR 1 (0, 0, 0, 0, 0, 0)");
    t.ev(1, 400.011100, "app-100", "hrtimer_cancel: hrtimer=" + P1, "d....");
    t.arm(1, 400.011200, "app-100", P1, fn, "");
    t.ev(1, 400.011300, "app-100", "sys_exit: NR 1 = 0");
    t.tick(1, 400.013000, "app-100", P1, fn, true, "");
    const Result r = analyse(t);
    const CpuAnalysis &c = r.cpu(1);

    ASSERT_EQ(c.failedStops.size(), 2u);
    EXPECT_EQ(c.failedStops[0].dependency, static_cast<uint32_t>(TickDependency::Sched));
    EXPECT_EQ(c.failedStops[1].dependency, static_cast<uint32_t>(TickDependency::PosixTimer));
    EXPECT_EQ(r.trace->strings.str(c.failedStops[0].reason).substr(0, 28), "more than 1 task in runqueue");
    EXPECT_EQ(r.a.nohzFullSource, NohzFullSource::Inferred);
    EXPECT_TRUE(r.a.isNohzFull(1)); // only nohz_full CPUs evaluate full-dynticks stops
    ASSERT_EQ(c.ticks.size(), 4u);
    // ticks 2 and 3 are explained by a dependency; 1 and 4 fire in user mode with none in force
    const std::vector<bool> spurious{true, false, false, true};
    for (size_t k = 0; k < 4; ++k) {
        EXPECT_EQ(c.ticks[k].context, TC::User) << k;
        EXPECT_TRUE(c.ticks[k].periodic()) << k;
        EXPECT_EQ((c.ticks[k].flags & TickFlag::Spurious) != 0, spurious[k]) << k;
    }
    const TickReport rep = TickReport::make(*r.trace, r.a, {});
    const CpuReport &cr = rep.cpus[1];
    EXPECT_EQ(cr.failures[0], 1u); // POSIX_TIMER
    EXPECT_EQ(cr.failures[2], 1u); // SCHED
    EXPECT_EQ(cr.ticks.spurious, 2u);
    EXPECT_EQ(cr.ticks.user, 4u);
    EXPECT_EQ(cr.tickStoppedNs, 400011200000 - 400009010000);
}

TEST(AnalysisTextTrace, IrqBeforeAndAfterTheIdleExitRecord)
{
    TextTrace t;
    t.sw(0, 499.999990, "app", 100, "S", "swapper/0", 0);
    t.ev(0, 500.000000, kIdle, "cpu_idle: state=1 cpu_id=0", "d....");
    t.tick(0, 500.004000, kIdle, P0); // sti;hlt: the IRQ runs before the exit record
    t.ev(0, 500.004010, kIdle, "cpu_idle: state=4294967295 cpu_id=0", "d....");
    t.ev(0, 500.004020, kIdle, "cpu_idle: state=2 cpu_id=0", "d....");
    t.ev(0, 500.008000, kIdle, "cpu_idle: state=4294967295 cpu_id=0", "d...."); // the exit record first
    t.tick(0, 500.008001, kIdle, P0);                                           // then the IRQ
    t.ev(0, 500.008020, kIdle, "cpu_idle: state=0 cpu_id=0", "d....");
    t.tick(0, 500.012000, kIdle, P0); // nested in the polling state
    t.ev(0, 500.012010, kIdle, "cpu_idle: state=4294967295 cpu_id=0", "d....");
    t.ev(0, 500.012020, kIdle, "sched_waking: comm=app pid=100 prio=120 target_cpu=000", "d....");
    t.tick(0, 500.016000, kIdle, P0); // the idle task outside cpuidle
    t.sw(0, 500.016100, "swapper/0", 0, "R", "app", 100);
    const Result r = analyse(t);
    const CpuAnalysis &c = r.cpu(0);

    EXPECT_EQ(r.contexts(0), (std::vector<TC>{TC::Idle, TC::Idle, TC::Polling, TC::Idle}));
    const std::vector<bool> woke{true, true, false, false};
    for (size_t k = 0; k < 4; ++k)
        EXPECT_EQ((c.ticks[k].flags & TickFlag::WokeFromIdle) != 0, woke[k]) << k;
    // the first IRQ is nested in the idle(1) interval; the second follows the end of idle(2)
    EXPECT_EQ(r.task(0, 500.004000), TaskState::Idle);
    EXPECT_EQ(r.taskDetail(0, 500.004000), 1u);
    EXPECT_EQ(r.irq(0, 500.004000), IrqState::HardIrq);
    EXPECT_EQ(r.task(0, 500.004020), TaskState::Idle);
    EXPECT_EQ(r.taskDetail(0, 500.004020), 2u);
    EXPECT_EQ(r.task(0, 500.008001), TaskState::IdleTask);
    EXPECT_EQ(r.irq(0, 500.008001), IrqState::HardIrq);
    EXPECT_EQ(r.task(0, 500.012000), TaskState::Poll);
    EXPECT_EQ(r.irq(0, 500.012004), IrqState::None);
    EXPECT_EQ(r.task(0, 500.012004), TaskState::Poll); // the IRQ did not end the polling interval
    EXPECT_EQ(r.a.polling, PollingKind::CpuidlePoll);  // state 0 beside deeper states
}

TEST(AnalysisTextTrace, IdlePollIsToldApartFromTheCpuidlePollState)
{
    TextTrace t;
    t.sw(0, 10.0, "app", 100, "S", "swapper/0", 0);
    t.ev(0, 10.000010, kIdle, "cpu_idle: state=0 cpu_id=0", "d....");
    t.tick(0, 10.004000, kIdle, P0);
    t.tick(0, 10.008000, kIdle, P0);
    t.ev(0, 10.009000, kIdle, "cpu_idle: state=4294967295 cpu_id=0", "d....");
    t.sw(0, 10.009010, "swapper/0", 0, "R", "app", 100);
    const Result poll = analyse(t);
    EXPECT_EQ(poll.a.polling, PollingKind::IdlePoll);
    EXPECT_EQ(poll.contexts(0), (std::vector<TC>{TC::Polling, TC::Polling}));
    // not nohz_full: ticks while polling are counted, but not spurious
    for (const TickRecord &k : poll.cpu(0).ticks)
        EXPECT_FALSE(k.flags & TickFlag::Spurious);
    AnalysisOptions o;
    o.nohzFullGiven = true;
    o.nohzFull = {0};
    const Result full = analyse(t, o);
    EXPECT_EQ(full.a.nohzFullSource, NohzFullSource::Option);
    for (const TickRecord &k : full.cpu(0).ticks)
        EXPECT_TRUE(k.flags & TickFlag::Spurious);

    // the cpuidle POLL state leaves on its time limit for a deeper state
    t.ev(0, 10.010000, "app-100", "sys_enter: NR 0 (0, 0, 0, 0, 0, 0)");
    t.sw(0, 10.010010, "app", 100, "S", "swapper/0", 0);
    t.ev(0, 10.010020, kIdle, "cpu_idle: state=0 cpu_id=0", "d....");
    t.ev(0, 10.010220, kIdle, "cpu_idle: state=4294967295 cpu_id=0", "d....");
    t.ev(0, 10.010230, kIdle, "cpu_idle: state=1 cpu_id=0", "d....");
    const Result cpuidle = analyse(t);
    EXPECT_EQ(cpuidle.a.polling, PollingKind::CpuidlePoll);
    EXPECT_EQ(cpuidle.cpu(0).evidence.pollReselects, 1u);
}

TEST(AnalysisTextTrace, LowResKernelFallsBackToTheLocalTimer)
{
    TextTrace t;
    auto lt = [&](double ts, const char *task) {
        t.ev(0, ts, task, "local_timer_entry: vector=236", "d.h..");
        t.ev(0, ts + 5e-6, task, "local_timer_exit: vector=236", "d.h..");
    };
    t.ev(0, 600.000000, "app-100", "sys_exit: NR 0 = 0");
    lt(600.004000, "app-100");
    t.ev(0, 600.006000, "app-100", "sys_enter: NR 230 (1, 0, 0, 0, 0, 0)");
    t.ev(0, 600.006010, "app-100",
         "hrtimer_start: hrtimer=00000000cccc0000 function=hrtimer_wakeup expires=599977000000 "
         "softexpires=599977000000 mode=REL was_armed=0",
         "d....");
    t.sw(0, 600.006020, "app", 100, "S", "swapper/0", 0);
    t.ev(0, 600.006100, kIdle, "tick_stop: success=1 dependency=NONE", "d....");
    t.ev(0, 600.006110, kIdle, "cpu_idle: state=1 cpu_id=0", "d....");
    t.ev(0, 600.007000, kIdle, "local_timer_entry: vector=236", "d.h..");
    t.ev(0, 600.007001, kIdle,
         "hrtimer_expire_entry: hrtimer=00000000cccc0000 function=hrtimer_wakeup now=599977000500", "d.h..");
    t.ev(0, 600.007002, kIdle, "sched_waking: comm=app pid=100 prio=120 target_cpu=000", "d.h..");
    t.ev(0, 600.007003, kIdle, "hrtimer_expire_exit: hrtimer=00000000cccc0000", "d.h..");
    t.ev(0, 600.007004, kIdle, "local_timer_exit: vector=236", "d.h..");
    t.ev(0, 600.007010, kIdle, "cpu_idle: state=4294967295 cpu_id=0", "d....");
    t.sw(0, 600.007020, "swapper/0", 0, "R", "app", 100);
    t.ev(0, 600.007100, "app-100", "sys_exit: NR 230 = 0");
    lt(600.008000, "app-100");
    lt(600.012000, "app-100");
    const Result r = analyse(t);
    const CpuAnalysis &c = r.cpu(0);

    EXPECT_TRUE(r.a.localTimerFallback);
    EXPECT_EQ(c.tickTimer, 0u);
    ASSERT_EQ(c.ticks.size(), 4u);
    const std::vector<bool> periodic{true, false, true, true}; // the one in stopped-tick idle: a nohz wakeup
    for (size_t k = 0; k < 4; ++k) {
        EXPECT_EQ(c.ticks[k].periodic(), periodic[k]) << k;
        EXPECT_TRUE(c.ticks[k].flags & TickFlag::LocalTimer);
    }
    EXPECT_EQ(r.contexts(0), (std::vector<TC>{TC::User, TC::Idle, TC::User, TC::User}));
    const TickReport rep = TickReport::make(*r.trace, r.a, {});
    EXPECT_EQ(rep.cpus[0].ticks.total, 3u);
    EXPECT_EQ(rep.cpus[0].ticks.nohzWakeups, 1u);
    EXPECT_EQ(rep.cpus[0].tickStoppedNs, 600007020000 - 600006100000); // stopped until the idle exit
}

TEST(AnalysisTextTrace, TickCallbackNamesOfEveryVersion)
{
    for (const char *fn : {"tick_sched_timer", "tick_nohz_highres_handler", "tick_nohz_handler"}) {
        TextTrace t;
        t.ev(0, 1.0, "app-100", "sys_exit: NR 0 = 0");
        t.tick(0, 1.004, "app-100", P0, fn);
        t.tick(0, 1.008, "app-100", P0, fn);
        // another hrtimer in the same interrupt is not the tick
        t.ev(0, 1.009, "app-100", "local_timer_entry: vector=236", "d.h..");
        t.ev(0, 1.009001, "app-100",
             "hrtimer_expire_entry: hrtimer=00000000dddd0000 function=hrtimer_wakeup now=971000000", "d.h..");
        t.ev(0, 1.009002, "app-100", "hrtimer_expire_exit: hrtimer=00000000dddd0000", "d.h..");
        t.ev(0, 1.009003, "app-100", "local_timer_exit: vector=236", "d.h..");
        const Result r = analyse(t);
        EXPECT_EQ(r.a.tickFunction, fn);
        EXPECT_FALSE(r.a.localTimerFallback);
        EXPECT_EQ(r.cpu(0).ticks.size(), 2u) << fn;
    }
}

TEST(AnalysisTextTrace, NohzFullAndIdlePollFromTheCaptureMetadata)
{
    TextTrace t;
    t.ev(0, 1.000000, "app-100", "sys_exit: NR 0 = 0");
    t.tick(0, 1.004000, "app-100", P0);
    t.ev(1, 1.000000, "app-200", "sys_exit: NR 0 = 0");
    t.tick(1, 1.004000, "app-200", P1);
    auto trace = t.load();
    trace->meta.kernelCmdline = "BOOT_IMAGE=/vmlinuz root=/dev/vda nohz_full=1 idle=poll quiet";
    const TickAnalysis a = TickAnalysis::run(*trace);
    EXPECT_EQ(a.nohzFullSource, NohzFullSource::Metadata);
    EXPECT_FALSE(a.isNohzFull(0));
    EXPECT_TRUE(a.isNohzFull(1)); // no evidence in the events: the command line says so
    EXPECT_EQ(a.polling, PollingKind::IdlePoll);
    EXPECT_FALSE(a.cpus[0].ticks[0].flags & TickFlag::Spurious);
    EXPECT_TRUE(a.cpus[1].ticks[0].flags & TickFlag::Spurious);
    // --nohz-full wins over the metadata
    AnalysisOptions o;
    o.nohzFullGiven = true;
    o.nohzFull = {0};
    const TickAnalysis b = TickAnalysis::run(*trace, o);
    EXPECT_EQ(b.nohzFullSource, NohzFullSource::Option);
    EXPECT_TRUE(b.isNohzFull(0));
    EXPECT_FALSE(b.isNohzFull(1));
    EXPECT_EQ(cmdlineValue("a nohz_full=2-3 b", "nohz_full="), "2-3");
    EXPECT_EQ(cmdlineValue("xnohz_full=2 nohz_full=5", "nohz_full="), "5");
    EXPECT_EQ(cmdlineValue("quiet", "nohz_full="), "");
}

} // namespace
} // namespace tickscope
