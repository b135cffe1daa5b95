// SPDX-License-Identifier: GPL-3.0-or-later
// The ftrace text field decoder: the printed forms (tracefs and trace-cmd plugin) of every decoded field.
#include "TextTestUtil.h"
#include "import/TextLineParser.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace tickscope {
namespace {

using namespace texttest;
using text::Decoded;
using text::decodeFields;

// ---- fields -------------------------------------------------------------------------------------------

class TextFields : public ::testing::Test
{
protected:
    StringPool pool;
    Decoded d;
    template <class T> T decode(EventKind k, std::string_view f, bool rawPrint = false)
    {
        EXPECT_TRUE(decodeFields(k, f, pool, d, rawPrint)) << f;
        EXPECT_EQ(d.size, payloadSize(k)) << f;
        return d.get<T>();
    }
    bool fails(EventKind k, std::string_view f) { return !decodeFields(k, f, pool, d); }
    std::string str(uint32_t id) const { return std::string(pool.str(id)); }
    uint64_t ptr(uint32_t id) const { return pool.pointer(id); }
};

TEST_F(TextFields, HrtimerStart)
{
    auto t = decode<HrtimerStartP>(EventKind::HrtimerStart,
                                   "hrtimer=00000000e0454865 function=tick_nohz_handler expires=335020000000 "
                                   "softexpires=335019950000 mode=ABS|PINNED|HARD was_armed=1");
    EXPECT_EQ(ptr(t.timer), 0xe0454865u);
    EXPECT_EQ(str(t.function), "tick_nohz_handler");
    EXPECT_EQ(val(t.expires), 335020000000);
    EXPECT_EQ(val(t.softexpires), 335019950000);
    EXPECT_EQ(val(t.mode), 10u);
    EXPECT_EQ(val(t.wasArmed), 1);
    // trace-cmd plugin: symbol/offset, no mode, no was_armed
    auto p =
        decode<HrtimerStartP>(EventKind::HrtimerStart, "hrtimer=0xff3c2143be9235c0 "
                                                       "function=tick_sched_timer/0x0 expires=4780000000 "
                                                       "softexpires=4780000000");
    EXPECT_EQ(ptr(p.timer), 0xff3c2143be9235c0u);
    EXPECT_EQ(str(p.function), "tick_sched_timer");
    EXPECT_EQ(val(p.mode), kModeUnknown);
    EXPECT_EQ(val(p.wasArmed), -1);
    auto n = decode<HrtimerStartP>(EventKind::HrtimerStart, "hrtimer=0x1 function=hrtimer_wakeup expires=5 "
                                                            "softexpires=4 mode=0x0 was_armed=0");
    EXPECT_EQ(val(n.mode), 0u);
    EXPECT_EQ(val(n.wasArmed), 0);
    EXPECT_TRUE(fails(EventKind::HrtimerStart, "hrtimer=xyz function=f expires=1 softexpires=1"));
    EXPECT_TRUE(fails(EventKind::HrtimerStart, "hrtimer=0x1 function=f expires=1 softexpires=1 mode=FAST"));
    EXPECT_TRUE(fails(EventKind::HrtimerStart, "hrtimer=0x1 function=f expires=1"));
}

TEST_F(TextFields, HrtimerModes)
{
    uint32_t m = 0;
    for (auto [s, v] : {std::pair{"ABS", 0u},
                        {"REL", 1u},
                        {"ABS|PINNED", 2u},
                        {"REL|SOFT", 5u},
                        {"ABS|PINNED|HARD", 10u},
                        {"REL|PINNED|HARD", 11u},
                        {"HRTIMER_MODE_ABS_PINNED_HARD", 10u},
                        {"HRTIMER_MODE_REL", 1u},
                        {"0x9", 9u},
                        {"9", 9u}}) {
        ASSERT_TRUE(text::parseHrtimerMode(s, m)) << s;
        EXPECT_EQ(m, v) << s;
    }
    EXPECT_FALSE(text::parseHrtimerMode("ABS|BOGUS", m));
    EXPECT_FALSE(text::parseHrtimerMode("", m));
}

TEST_F(TextFields, HrtimerExpireCancelInit)
{
    auto a =
        decode<HrtimerExpireEntryP>(EventKind::HrtimerExpireEntry,
                                    "hrtimer=00000000e0454865 function=tick_nohz_handler now=335016041769");
    EXPECT_EQ(ptr(a.timer), 0xe0454865u);
    EXPECT_EQ(val(a.now), 335016041769);
    EXPECT_EQ(str(a.function), "tick_nohz_handler");
    auto b = decode<HrtimerExpireEntryP>(
        EventKind::HrtimerExpireEntry,
        "hrtimer=0xff3c2143be9235c0 now=4776084793 function=tick_sched_timer/0x0");
    EXPECT_EQ(val(b.now), 4776084793);
    EXPECT_EQ(str(b.function), "tick_sched_timer");
    EXPECT_EQ(ptr(decode<PtrP>(EventKind::HrtimerCancel, "hrtimer=00000000c2acb096").ptr), 0xc2acb096u);
    EXPECT_EQ(ptr(decode<PtrP>(EventKind::HrtimerExpireExit, "hrtimer=0xffff888627c1c6f8").ptr),
              0xffff888627c1c6f8u);
    EXPECT_EQ(ptr(decode<PtrP>(EventKind::TimerCancel, "timer=0xff62c3e8c0083e38").ptr), 0xff62c3e8c0083e38u);
    EXPECT_EQ(ptr(decode<PtrP>(EventKind::TimerInit, "timer=ffff880037a3b8e0").ptr), 0xffff880037a3b8e0u);
    auto i = decode<HrtimerInitP>(EventKind::HrtimerInit,
                                  "hrtimer=0xff3c21438214a308 clockid=CLOCK_MONOTONIC mode=0x9");
    EXPECT_EQ(val(i.clockid), 1);
    EXPECT_EQ(val(i.mode), 9u);
    auto s = decode<HrtimerInitP>(EventKind::HrtimerInit,
                                  "hrtimer=00000000abcd clockid=CLOCK_BOOTTIME mode=REL|HARD");
    EXPECT_EQ(ptr(s.timer), 0xabcdu);
    EXPECT_EQ(val(s.clockid), 7);
    EXPECT_EQ(val(s.mode), 9u);
    EXPECT_EQ(val(decode<HrtimerInitP>(EventKind::HrtimerInit, "hrtimer=0x1 clockid=11 mode=ABS").clockid),
              11);
    EXPECT_TRUE(fails(EventKind::HrtimerInit, "hrtimer=0x1 clockid=CLOCK_NOPE mode=ABS"));
}

TEST_F(TextFields, TimerWheel)
{
    auto a =
        decode<TimerStartP>(EventKind::TimerStart,
                            "timer=000000003a5d6586 function=process_timeout expires=4294976003 [timeout=1] "
                            "bucket_expiry=4294976004 cpu=1 idx=4 flags=");
    EXPECT_EQ(ptr(a.timer), 0x3a5d6586u);
    EXPECT_EQ(str(a.function), "process_timeout");
    EXPECT_EQ(val(a.expires), 4294976003u);
    EXPECT_EQ(val(a.now), 4294976002u);
    EXPECT_EQ(val(a.bucketExpiry), 4294976004u);
    EXPECT_EQ(val(a.flags), 1u | (4u << 22));
    auto b =
        decode<TimerStartP>(EventKind::TimerStart,
                            "timer=00000000f function=delayed_work_timer_fn expires=4294953747 [timeout=242] "
                            "bucket_expiry=4294953752 cpu=1 idx=99 flags=D|P|I");
    EXPECT_EQ(val(b.flags), 1u | 0x80000u | 0x100000u | 0x200000u | (99u << 22));
    EXPECT_EQ(val(b.now), 4294953747u - 242u);
    // trace-cmd on 6.1 (no bucket_expiry)
    auto c =
        decode<TimerStartP>(EventKind::TimerStart, "timer=0xff62c3e8c0083e38 function=process_timeout "
                                                   "expires=4294893443 [timeout=1] cpu=0 idx=4 flags=D|P|I");
    EXPECT_EQ(val(c.bucketExpiry), val(c.expires));
    EXPECT_TRUE(d.timerFlagsDPI);
    EXPECT_EQ(
        val(decode<TimerStartP>(EventKind::TimerStart, "timer=0x1 function=f expires=10 [timeout=-2] cpu=3 "
                                                       "idx=0 flags=M")
                .flags),
        3u | 0x40000u);
    EXPECT_EQ(val(d.get<TimerStartP>().now), 12u);
    // 3.x: no cpu, idx or flags
    EXPECT_EQ(val(decode<TimerStartP>(EventKind::TimerStart, "timer=ffff88003 function=f expires=4294937600 "
                                                             "[timeout=250]")
                      .flags),
              0u);
    EXPECT_TRUE(
        fails(EventKind::TimerStart, "timer=0x1 function=f expires=1 [timeout=1] cpu=0 idx=0 flags=Q"));
    auto e =
        decode<TimerExpireEntryP>(EventKind::TimerExpireEntry,
                                  "timer=0xff3c2143be92f450 function=mix_interrupt_randomness now=4294893446 "
                                  "baseclk=4294893445");
    EXPECT_EQ(val(e.now), 4294893446u);
    EXPECT_EQ(val(e.baseclk), 4294893445u);
    EXPECT_EQ(str(e.function), "mix_interrupt_randomness");
    EXPECT_EQ(
        val(decode<TimerExpireEntryP>(EventKind::TimerExpireEntry, "timer=f function=g now=77").baseclk),
        77u);
    auto idle = decode<TimerBaseIdleP>(EventKind::TimerBaseIdle, "is_idle=1 cpu=3");
    EXPECT_EQ(val(idle.isIdle), 1);
    EXPECT_EQ(val(idle.cpu), 3u);
}

TEST_F(TextFields, TickStop)
{
    auto a = decode<TickStopP>(EventKind::TickStop, "success=1 dependency=NONE");
    EXPECT_EQ(val(a.success), 1);
    EXPECT_EQ(val(a.dependency), 0u);
    EXPECT_EQ(val(a.reason), 0u);
    EXPECT_EQ(val(decode<TickStopP>(EventKind::TickStop, "success=0 dependency=SCHED").dependency), 4u);
    EXPECT_EQ(val(decode<TickStopP>(EventKind::TickStop, "success=0 dependency=RCU_EXP").dependency), 0x20u);
    EXPECT_EQ(val(decode<TickStopP>(EventKind::TickStop, "success=0 dependency=0x10").dependency), 0x10u);
    auto old = decode<TickStopP>(EventKind::TickStop, "success=0 msg=more than 1 task in runqueue");
    EXPECT_EQ(val(old.success), 0);
    EXPECT_EQ(val(old.dependency), 0u);
    EXPECT_EQ(str(old.reason), "more than 1 task in runqueue");
    EXPECT_EQ(val(decode<TickStopP>(EventKind::TickStop, "success=yes msg=").success), 1);
    EXPECT_TRUE(fails(EventKind::TickStop, "success=1 dependency=BOGUS"));
    EXPECT_TRUE(fails(EventKind::TickStop, "success=1"));
}

TEST_F(TextFields, IdleSoftirqIrqVectors)
{
    auto i = decode<CpuIdleP>(EventKind::CpuIdle, "state=4294967295 cpu_id=1");
    EXPECT_EQ(val(i.state), kCpuIdleExit);
    EXPECT_EQ(val(i.cpu), 1u);
    auto m = decode<CpuIdleMissP>(EventKind::CpuIdleMiss, "cpu_id=1 state=2 type=below");
    EXPECT_EQ(val(m.cpu), 1u);
    EXPECT_EQ(val(m.state), 2u);
    EXPECT_EQ(val(m.below), 1);
    EXPECT_EQ(val(decode<CpuIdleMissP>(EventKind::CpuIdleMiss, "cpu_id=0 state=1 type=above").below), 0);
    EXPECT_EQ(val(decode<SoftirqP>(EventKind::SoftirqRaise, "vec=9 [action=RCU]").vec), 9);
    EXPECT_EQ(val(decode<SoftirqP>(EventKind::SoftirqEntry, "vec=1 [action=TIMER]").vec), 1);
    EXPECT_TRUE(fails(EventKind::SoftirqExit, "vec=300 [action=X]"));
    auto e = decode<IrqEntryP>(EventKind::IrqHandlerEntry, "irq=24 name=virtio0-input.0");
    EXPECT_EQ(val(e.irq), 24);
    EXPECT_EQ(str(e.name), "virtio0-input.0");
    EXPECT_EQ(str(decode<IrqEntryP>(EventKind::IrqHandlerEntry, "irq=9 name=PCIe PME").name), "PCIe PME");
    EXPECT_EQ(val(decode<IrqExitP>(EventKind::IrqHandlerExit, "irq=24 ret=handled").ret), 1);
    EXPECT_EQ(val(decode<IrqExitP>(EventKind::IrqHandlerExit, "irq=4 ret=unhandled").ret), 0);
    EXPECT_TRUE(fails(EventKind::IrqHandlerExit, "irq=4 ret=maybe"));
    EXPECT_EQ(val(decode<VectorP>(EventKind::LocalTimerEntry, "vector=236").vector), 236);
    EXPECT_EQ(val(decode<VectorP>(EventKind::VectorExit, "vector=253").vector), 253);
    EXPECT_EQ(val(decode<CpuP>(EventKind::SchedWakeIdleNoIpi, "cpu=1").cpu), 1);
    EXPECT_TRUE(fails(EventKind::CpuIdle, "state=abc cpu_id=1"));
}

TEST_F(TextFields, PrevState)
{
    uint32_t v = 0;
    for (auto [s, want] : {std::pair{"R", 0u},
                           {"R+", 0x100u},
                           {"S", 1u},
                           {"D", 2u},
                           {"T", 4u},
                           {"t", 8u},
                           {"X", 0x10u},
                           {"Z", 0x20u},
                           {"P", 0x40u},
                           {"I", 0x80u},
                           {"S|D", 3u},
                           {"D|K", 2u},
                           {"D|W", 2u}}) {
        ASSERT_TRUE(text::parsePrevState(s, false, v)) << s;
        EXPECT_EQ(v, want) << s;
    }
    // the trace-cmd plugin prints the raw bits with "SDTtZXxW"
    for (auto [s, want] :
         {std::pair{"R", 0u}, {"W", 0x80u}, {"Z", 0x10u}, {"X", 0x20u}, {"x", 0x40u}, {"S|D", 3u}}) {
        ASSERT_TRUE(text::parsePrevState(s, true, v)) << s;
        EXPECT_EQ(v, want) << s;
    }
    for (const char *bad : {"", "+", "?", "SD", "S|", "|S"})
        EXPECT_FALSE(text::parsePrevState(bad, false, v)) << bad;
    EXPECT_FALSE(text::parsePrevState("I", true, v));
}

TEST_F(TextFields, SchedSwitch)
{
    auto a = decode<SchedSwitchP>(EventKind::SchedSwitch,
                                  "prev_comm=kworker/u4:2 prev_pid=123 prev_prio=120 prev_state=I ==> "
                                  "next_comm=swapper/0 next_pid=0 next_prio=120");
    EXPECT_EQ(val(a.prevPid), 123);
    EXPECT_EQ(val(a.nextPid), 0);
    EXPECT_EQ(val(a.prevPrio), 120);
    EXPECT_EQ(val(a.prevState), 0x80u);
    ASSERT_EQ(d.taskCount, 2);
    EXPECT_EQ(d.tasks[0].comm, "kworker/u4:2");
    EXPECT_EQ(d.tasks[1].comm, "swapper/0");
    auto b = decode<SchedSwitchP>(EventKind::SchedSwitch,
                                  "prev_comm=Web Content prev_pid=4567 prev_prio=120 prev_state=R+ ==> "
                                  "next_comm=my app next_pid=5 next_prio=100");
    EXPECT_EQ(val(b.prevState), 0x100u);
    EXPECT_EQ(val(b.nextPrio), 100);
    EXPECT_EQ(d.tasks[0].comm, "Web Content");
    EXPECT_EQ(d.tasks[1].comm, "my app");
    EXPECT_FALSE(d.pluginForm);
    auto p = decode<SchedSwitchP>(EventKind::SchedSwitch, "trace-cmd:114 [120] R ==> rcu_preempt:15 [120]");
    EXPECT_TRUE(d.pluginForm);
    EXPECT_EQ(val(p.prevPid), 114);
    EXPECT_EQ(val(p.nextPid), 15);
    EXPECT_EQ(val(p.prevState), 0u);
    EXPECT_EQ(d.tasks[0].comm, "trace-cmd");
    auto q = decode<SchedSwitchP>(EventKind::SchedSwitch,
                                  "Web Content:4567 [120] S|D ==> memfd:sealed-91:6415 [139]");
    EXPECT_EQ(val(q.prevPid), 4567);
    EXPECT_EQ(val(q.prevState), 3u);
    EXPECT_EQ(val(q.nextPid), 6415);
    EXPECT_EQ(val(q.nextPrio), 139);
    EXPECT_EQ(d.tasks[0].comm, "Web Content");
    EXPECT_EQ(d.tasks[1].comm, "memfd:sealed-91");
    EXPECT_EQ(val(decode<SchedSwitchP>(EventKind::SchedSwitch, "kworker/0:1:40 [120] W ==> swapper/0:0 [120]")
                      .prevState),
              0x80u);
    EXPECT_TRUE(fails(EventKind::SchedSwitch, "garbage"));
    EXPECT_TRUE(fails(EventKind::SchedSwitch, "a:1 [120] Q ==> b:2 [120]"));
    EXPECT_TRUE(
        fails(EventKind::SchedSwitch, "prev_comm=a prev_pid=1 prev_prio=1 prev_state=S ==> next_comm=b"));
}

TEST_F(TextFields, SchedWakeAndMigrate)
{
    auto a = decode<SchedWakeP>(EventKind::SchedWaking, "comm=rcu_preempt pid=15 prio=120 target_cpu=001");
    EXPECT_EQ(val(a.pid), 15);
    EXPECT_EQ(val(a.prio), 120);
    EXPECT_EQ(val(a.targetCpu), 1);
    EXPECT_EQ(d.tasks[0].comm, "rcu_preempt");
    auto old = decode<SchedWakeP>(EventKind::SchedWakeup, "comm=foo pid=1 prio=120 success=1 target_cpu=002");
    EXPECT_EQ(val(old.targetCpu), 2);
    decode<SchedWakeP>(EventKind::SchedWakeup, "comm=Web Content pid=4567 prio=120 target_cpu=000");
    EXPECT_EQ(d.tasks[0].comm, "Web Content");
    EXPECT_EQ(d.tasks[0].pid, 4567);
    auto p = decode<SchedWakeP>(EventKind::SchedWakeup, "rcu_preempt:15 [120] CPU:000");
    EXPECT_TRUE(d.pluginForm);
    EXPECT_EQ(val(p.pid), 15);
    EXPECT_EQ(val(p.targetCpu), 0);
    EXPECT_EQ(val(decode<SchedWakeP>(EventKind::SchedWakeup, "init:1 [120] success=1 CPU:001").targetCpu), 1);
    auto n = decode<SchedWakeP>(EventKind::SchedWakeupNew, "memfd:sealed-91:6415 [120] CPU:001");
    EXPECT_EQ(val(n.pid), 6415);
    EXPECT_EQ(d.tasks[0].comm, "memfd:sealed-91");
    EXPECT_EQ(val(decode<SchedWakeP>(EventKind::SchedWakeup, "a:1 [99]").targetCpu), -1);
    auto m = decode<SchedMigrateP>(EventKind::SchedMigrateTask,
                                   "comm=capture.sh pid=6414 prio=120 orig_cpu=0 dest_cpu=1");
    EXPECT_EQ(val(m.pid), 6414);
    EXPECT_EQ(val(m.origCpu), 0);
    EXPECT_EQ(val(m.destCpu), 1);
    EXPECT_EQ(d.tasks[0].comm, "capture.sh");
    EXPECT_TRUE(fails(EventKind::SchedMigrateTask, "comm=a pid=1 prio=1 orig_cpu=0"));
}

TEST_F(TextFields, SyscallsPrintIpiUserAndGeneric)
{
    EXPECT_EQ(
        val(decode<SyscallP>(EventKind::SysEnter, "NR 231 (0, e7, 3c, e64596794d089126, ffffffffffffff78, 0)")
                .id),
        231);
    EXPECT_EQ(val(decode<SyscallP>(EventKind::SysExit, "NR -1 = 114").id), -1);
    EXPECT_EQ(val(decode<SyscallP>(EventKind::SysExit, "id=61 ret=114").id), 61);
    EXPECT_TRUE(fails(EventKind::SysEnter, "NR x (1)"));
    EXPECT_EQ(str(decode<TextP>(EventKind::Print, "tracing_mark_write: workload task 0 start cpu=1").text),
              "workload task 0 start cpu=1");
    EXPECT_EQ(str(decode<TextP>(EventKind::Print, "tracing_mark_write: a: b").text), "a: b");
    EXPECT_EQ(str(decode<TextP>(EventKind::Print, "tracing_mark_write:").text), "");
    EXPECT_EQ(str(decode<TextP>(EventKind::Print, "mark 2: x", true).text), "mark 2: x");
    auto ipi = decode<IpiSendCpuP>(EventKind::IpiSendCpu,
                                   "cpu=0 callsite=on_each_cpu_cond_mask+0x20/0x60 "
                                   "callback=generic_smp_call_function_single_interrupt+0x0/0x10");
    EXPECT_EQ(val(ipi.cpu), 0u);
    EXPECT_EQ(str(ipi.callsite), "on_each_cpu_cond_mask");
    EXPECT_EQ(str(ipi.callback), "generic_smp_call_function_single_interrupt");
    EXPECT_EQ(
        str(decode<IpiSendCpuP>(EventKind::IpiSendCpu, "cpu=1 callsite=f+0x20 callback=g+0x0").callsite),
        "f");
    EXPECT_TRUE(decodeFields(EventKind::UserEnter, "", pool, d));
    EXPECT_EQ(d.size, 0);
    EXPECT_TRUE(decodeFields(EventKind::UserExit, "dummy=0", pool, d));
    EXPECT_EQ(str(decode<TextP>(EventKind::Generic, "address=0x7f47cb27b9c4 ip=0x7f47cb27b9c4").text),
              "address=0x7f47cb27b9c4 ip=0x7f47cb27b9c4");
}

TEST_F(TextFields, PointersAndSymbols)
{
    uint64_t v = 0;
    ASSERT_TRUE(text::parsePointer("00000000a1b2c3d4", v));
    EXPECT_EQ(v, 0xa1b2c3d4u);
    ASSERT_TRUE(text::parsePointer("0xffff888627c1c6f8", v));
    EXPECT_EQ(v, 0xffff888627c1c6f8u);
    ASSERT_TRUE(text::parsePointer("(null)", v));
    EXPECT_EQ(v, 0u);
    EXPECT_FALSE(text::parsePointer("0x", v));
    EXPECT_FALSE(text::parsePointer("12345678901234567", v));
    EXPECT_FALSE(text::parsePointer("xyz", v));
    EXPECT_EQ(text::stripSymbolOffset("tick_sched_timer/0x0"), "tick_sched_timer");
    EXPECT_EQ(text::stripSymbolOffset("f+0x20/0x60"), "f");
    EXPECT_EQ(text::stripSymbolOffset("0xffffffff99368830"), "0xffffffff99368830");
}

} // namespace
} // namespace tickscope
