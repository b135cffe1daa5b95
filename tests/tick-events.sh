# SPDX-License-Identifier: GPL-3.0-or-later
# The tracefs events tickscope's analysis reads (system/event), sourced by the recording scripts.
TICK_EVENTS="timer/hrtimer_start timer/hrtimer_cancel timer/hrtimer_expire_entry timer/hrtimer_expire_exit
 timer/timer_start timer/timer_expire_entry timer/timer_expire_exit timer/timer_cancel timer/tick_stop timer/timer_base_idle
 sched/sched_switch sched/sched_wakeup sched/sched_waking sched/sched_wakeup_new sched/sched_migrate_task sched/sched_wake_idle_without_ipi
 power/cpu_idle irq/softirq_entry irq/softirq_exit irq/softirq_raise irq/irq_handler_entry irq/irq_handler_exit
 irq_vectors/local_timer_entry irq_vectors/local_timer_exit irq_vectors/reschedule_entry irq_vectors/reschedule_exit
 irq_vectors/irq_work_entry irq_vectors/irq_work_exit context_tracking/user_enter context_tracking/user_exit
 raw_syscalls/sys_enter raw_syscalls/sys_exit ipi/ipi_send_cpu"
