// SPDX-License-Identifier: GPL-3.0-or-later
// A simulation scenario: the kernel's configuration and variant toggles, the platform, the tasks and the
// device interrupts. Parsed from JSON (resources/scenarios/*.json, or a user's file); `--set key=value`
// and named variants override keys. Every error is a ScenarioError with one readable line.
#pragma once

#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tickscope::sim {

struct ScenarioError : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

// What a scenario may ask for (README, simulate). The engine keeps per-CPU and per-thread state and a
// heap entry per declared interrupt, so these bound its memory before any event is made.
constexpr int kMaxCpus = 1024;
constexpr int kMaxThreads = 4096;          // the tasks' threads in all (the sum of their count)
constexpr int kMaxIrqsPerSource = 1000000; // an interrupt source's count
constexpr double kMinIrqSpacingMs = 0.001; // every_ms: below a microsecond the CPU only takes interrupts
constexpr int64_t kMaxIrqTimers = 100000;  // timers enqueued by interrupts in all (count x timers): the
                                           // engine scans a CPU's pending timers at each enqueue

enum class IdleMode : uint8_t
{
    Poll, // idle=poll: cpu_idle_poll()
    Halt  // a cpuidle state 1 (halt / mwait), with the governor's stop/retain decision
};
enum class WheelDesign : uint8_t
{
    Legacy,    // 3.10: __run_timers walks every missed jiffy, cascades every 256
    Forwarding // 4.8+: base->clk forwarded, timers rounded up to their level's granularity
};
enum class HrtimerWakeups : uint8_t
{
    Hard,        // every sleeper expires in hard interrupt context
    SoftForNonRt // PREEMPT_RT: SCHED_OTHER sleepers expire in HRTIMER softirq (ktimers/N)
};

// The kernel being simulated and the variant toggles of issue 4 item 2.
struct KernelConfig
{
    int hz = 1000;
    int cpus = 4;
    std::vector<int> nohzFull; // CPU list
    std::vector<int> isolcpus; // isolcpus= CPU list: only on the command line (the scenario places tasks)
    IdleMode idle = IdleMode::Halt;
    bool preemptRt = false;
    bool legacyKernel = false; // 3.10 semantics: tick stopped up front in idle, restarted on idle exit
    WheelDesign wheel = WheelDesign::Forwarding;
    HrtimerWakeups hrtimerWakeups = HrtimerWakeups::Hard;
    bool pollRestartsTick = true;  // mainline do_idle(): tick_nohz_idle_restart_tick() before polling
    bool p1Reevaluate = false;     // seed 000 P1: kick and stopped-tick expiry set need_resched in idle
    bool p2StopTickOnPoll = false; // seed 000 P2: stop the tick on polling idle entry (nohz_full only)
    bool p2WithoutKick = false;    // hazard: P1 without its kick change
    bool p2WithoutStoppedTickFix = false; // hazard: P1 without its stopped-tick expiry change
    int timekeeper = 0;                   // tick_do_timer_cpu at start
};

enum class ProgramKind : uint8_t
{
    SleepWork,   // sleep sleep_us (relative), work work_us in user mode, loops times
    Cyclic,      // cyclictest: absolute periodic sleeps of interval_us, measures its own wakeup latency
    RandomSleep, // clock_nanosleep of a random [min_us, max_us] (or to the next sync_us boundary), work_us
    Busy         // a busy loop in user mode, never sleeps
};

struct TaskSpec
{
    std::string name;
    int cpu = 0;
    int count = 1;   // identical threads (pids and names get a suffix when > 1)
    bool rt = false; // SCHED_FIFO (else SCHED_OTHER)
    int rtPrio = 0;  // 1..99 for SCHED_FIFO
    ProgramKind program = ProgramKind::SleepWork;
    int64_t sleepNs = 0, workNs = 0, intervalNs = 0, minNs = 0, maxNs = 0, syncNs = 0;
    int64_t startNs = 1000000;  // first action
    int loops = -1;             // -1: until the end
    bool posixCpuTimer = false; // arms a POSIX CPU timer: the POSIX_TIMER tick dependency while it runs
    bool markers = false;       // ftrace print markers at its start and end
    bool workByClock = false;   // work until start + work_us on the clock (interrupts do not extend it)
    bool aligned = false;       // cyclic: first wakeup exactly at start_us (else a random phase within 1 ms)
    std::string setBy;          // the --set key that added it ("": the scenario's own tasks[])
};

struct IrqSpec
{
    std::string name;
    int irq = 30;
    int cpu = 0;
    int count = 1;
    int64_t fromNs = 0;
    int64_t everyNs = 0; // spacing; 0 with count > 1: uniform random in [fromNs, toNs]
    int64_t toNs = 0;
    int timers = 0;                  // timer_list timers enqueued on its CPU per interrupt
    std::vector<int64_t> timeoutsNs; // per timer of one interrupt (cycled), or [min, max] with randomTimeout
    bool randomTimeout = false;
};

struct WheelTimerSpec // a periodic kernel timer_list timer (vmstat-like) on one CPU
{
    int cpu = 0;
    int64_t firstNs = 0;
    int64_t periodNs = 0; // 0: once
};

struct Scenario
{
    std::string name;
    std::string description;
    std::string platform = "x86-vm";
    KernelConfig kernel;
    int64_t durationNs = 1000000000;
    std::vector<TaskSpec> tasks;
    std::vector<IrqSpec> irqs;
    std::vector<WheelTimerSpec> wheelTimers;
    std::vector<int64_t> initialIdleJiffies; // per CPU: jiffies since the CPU's wheel last ran (legacy wheel)
    std::map<std::string, std::map<std::string, std::string>> variants; // name -> key=value overrides
    std::string variant;                                                // applied variant ("" = baseline)
};

// Parses JSON text; `origin` names the source in error messages.
Scenario parseScenario(const std::string &json, const std::string &origin);
// One `key=value` override (kernel keys by their JSON name, "platform", "duration_ms", "hz", ...).
void applySetting(Scenario &s, const std::string &key, const std::string &value);
// Applies a named variant of the scenario's "variants".
void applyVariant(Scenario &s, const std::string &variant);
// The keys applySetting accepts, for error messages and --list.
std::vector<std::string> settingKeys();
// What a setting's value is. In JSON its type must match ("cpus": "4" and "cpus": 2.5 are refused); in
// --set text every value is a string.
enum class SettingType : uint8_t
{
    Integer,
    Number,
    Flag,
    Text
};
// nullopt for a key applySetting does not know.
std::optional<SettingType> settingType(const std::string &key);
// Every key with its type, its words (for a key that takes one of a few, e.g. idle: poll, halt; the
// platform names), whether the JSON's kernel block takes it, and its meaning in one line.
struct SettingInfo
{
    std::string key;
    SettingType type;
    bool kernel;
    std::vector<std::string> choices;
    std::string meaning;
};
std::vector<SettingInfo> settingInfos();
// A key's value in `s` as --set text (applySetting(s, key, value) changes nothing); nullopt for the keys
// that add to or change the scenario's tasks (second_task, hog_cpus, posix_cpu_timer, sync_us,
// stress_threads, cyclic_aligned): they have no value of their own.
std::optional<std::string> settingValue(const Scenario &s, const std::string &key);
// The scenario as JSON that parseScenario reads back into the same scenario (its variants included,
// the applied one folded into the values). Tasks a --set key added become ordinary tasks.
std::string scenarioJson(const Scenario &s);
// One field of one entry of a scenario's list ("tasks", "irqs", "wheel_timers") set from text, the way the
// JSON would give it ("cpu" "3", "policy" "fifo", "timeouts_ms" "1, 2"): the whole scenario is written,
// changed and read back, so every check of the JSON applies. Throws a ScenarioError naming the field.
Scenario withListField(const Scenario &s, const std::string &list, size_t index, const std::string &field,
                       const std::string &text);
// Whether the key may also be written in the JSON's "kernel" block.
bool isKernelSetting(const std::string &key);
// Checks what only the final scenario (variant and --set keys applied) can show: every CPU a key names
// is below `cpus`, and the thread count. Throws a ScenarioError naming the key.
void validateScenario(const Scenario &s);
// "NAME" or "NAME:VARIANT", for messages.
std::string label(const Scenario &s);

// Numbers as users type them (--set values and tickscope-cli's options share these rules): all of the
// text, within [lo, hi]; nullopt for "", " 5", "5abc", "nan", "inf" and values out of range.
std::optional<double> parseNumberText(const std::string &text, double lo, double hi);
// The same for whole numbers, which also refuses "2.5", "1e3" and "+5".
template <class T> std::optional<T> parseWholeText(std::string_view text, T lo, T hi)
{
    T n{};
    const auto r = std::from_chars(text.data(), text.data() + text.size(), n);
    if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size() || n < lo || n > hi)
        return std::nullopt;
    return n;
}
// A number as people write it, for messages: 3600000, not 3600000.000000.
std::string numberText(double v);

} // namespace tickscope::sim
