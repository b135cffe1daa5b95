// SPDX-License-Identifier: GPL-3.0-or-later
// Applying settings and variants to a scenario (--set KEY=VALUE, a variant's keys, the JSON's kernel
// block), and the checks only the final scenario allows.
#include "Scenario.h"

#include "Platform.h"

#include "analysis/CpuList.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

namespace tickscope::sim {
namespace {

bool parseBool(const std::string &key, const std::string &v)
{
    if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
    if (v == "0" || v == "false" || v == "no" || v == "off") return false;
    throw ScenarioError(key + ": expected true or false, got '" + v + "'");
}

// Refusals quote the user's own text (1e308 is not printed back with its 300 digits).
double parseNumber(const std::string &key, const std::string &v, double lo, double hi)
{
    if (const auto d = parseNumberText(v, lo, hi)) return *d;
    throw ScenarioError(key + ": expected a number from " + numberText(lo) + " to " + numberText(hi) +
                        ", got '" + v + "'");
}

int parseInteger(const std::string &key, const std::string &v, int lo, int hi)
{
    if (const auto n = parseWholeText(v, lo, hi)) return *n;
    throw ScenarioError(key + ": expected a whole number from " + std::to_string(lo) + " to " +
                        std::to_string(hi) + ", got '" + v + "'");
}

struct Setting
{
    const char *key;
    SettingType type;
    bool kernel;         // also accepted in the JSON's "kernel" block
    const char *choices; // '|'-separated for a key that takes one of a few words; "" otherwise
    const char *meaning; // one line, for --list and the GUI's tooltips
};

// Every key applySetting accepts, in the order messages list them.
constexpr Setting kSettings[] = {
    {"hz", SettingType::Integer, true, "",
     "CONFIG_HZ: periodic ticks per second (100 to 1000, a divisor of 1e9)"},
    {"cpus", SettingType::Integer, true, "", "Number of CPUs"},
    {"nohz_full", SettingType::Text, true, "",
     "nohz_full= CPU list (e.g. 2-3): CPUs whose tick stops while a single task runs"},
    {"isolcpus", SettingType::Text, true, "",
     "isolcpus= CPU list: written on the traced command line (tasks stay where the scenario puts them)"},
    {"idle", SettingType::Text, true, "poll|halt",
     "poll: idle=poll (cpu_idle_poll, never sleeps); halt: a cpuidle state with the governor's tick "
     "stop/retain decision"},
    {"preempt_rt", SettingType::Flag, true, "",
     "PREEMPT_RT: timer and hrtimer softirq work runs in the ktimers/N threads"},
    {"legacy_kernel", SettingType::Flag, true, "",
     "3.10 semantics: the tick is stopped on idle entry and restarted on idle exit"},
    {"timer_wheel", SettingType::Text, true, "legacy|forwarding",
     "legacy: the 3.10 wheel walks every missed jiffy; forwarding: the 4.8+ wheel forwards base->clk"},
    {"hrtimer_wakeups", SettingType::Text, true, "hard|soft_for_non_rt",
     "hard: every sleeper's hrtimer expires in hard interrupt context; soft_for_non_rt: PREEMPT_RT's "
     "SCHED_OTHER sleepers expire in the HRTIMER softirq"},
    {"poll_restarts_tick", SettingType::Flag, true, "",
     "Mainline do_idle(): the stopped tick is restarted before polling idle"},
    {"p1_reevaluate", SettingType::Flag, true, "",
     "Seed 000 patch 1: the nohz_full kick and the stopped tick's expiry set need_resched in idle, so "
     "the tick is re-evaluated"},
    {"p2_stop_tick_on_poll", SettingType::Flag, true, "",
     "Seed 000 patch 2: stop the tick on polling idle entry (nohz_full CPUs only)"},
    {"p2_without_kick", SettingType::Flag, true, "", "Hazard: patch 2 without patch 1's kick change"},
    {"p2_without_stopped_tick_fix", SettingType::Flag, true, "",
     "Hazard: patch 2 without patch 1's stopped-tick expiry change"},
    {"timekeeper", SettingType::Integer, true, "", "tick_do_timer_cpu at start (a housekeeping CPU)"},
    {"platform", SettingType::Text, false, "",
     "Cost preset: interrupt entry/exit, tick handler, wakeup and switch costs in ns"},
    {"duration_ms", SettingType::Number, false, "", "Simulated time in ms"},
    {"posix_cpu_timer", SettingType::Text, false, "",
     "CPUs whose tasks arm a POSIX CPU timer (the POSIX_TIMER tick dependency)"},
    {"second_task", SettingType::Text, false, "",
     "CPUs that get a second task (the SCHED tick dependency while both run)"},
    {"hog_cpus", SettingType::Text, false, "", "CPUs that get a busy loop in user mode"},
    {"sync_us", SettingType::Number, false, "",
     "random_sleep tasks sleep to the next boundary of this many µs (0: a random time)"},
    {"stress_threads", SettingType::Integer, false, "", "Threads per random_sleep task"},
    {"cyclic_aligned", SettingType::Flag, false, "",
     "cyclictest's first wakeup exactly at its start_us (else a random phase within 1 ms)"},
};

const Setting *findSetting(const std::string &key)
{
    for (const Setting &s : kSettings) {
        if (key == s.key) return &s;
    }
    return nullptr;
}

} // namespace

std::vector<std::string> settingKeys()
{
    std::vector<std::string> keys;
    for (const Setting &s : kSettings)
        keys.emplace_back(s.key);
    return keys;
}

std::vector<SettingInfo> settingInfos()
{
    std::vector<SettingInfo> out;
    for (const Setting &s : kSettings) {
        SettingInfo i{s.key, s.type, s.kernel, {}, s.meaning};
        for (std::string_view c = s.choices; !c.empty();) {
            const size_t bar = c.find('|');
            i.choices.emplace_back(c.substr(0, bar));
            c = bar == std::string_view::npos ? std::string_view() : c.substr(bar + 1);
        }
        if (i.key == "platform") i.choices = platformNames();
        out.push_back(std::move(i));
    }
    return out;
}

std::optional<std::string> settingValue(const Scenario &s, const std::string &key)
{
    const KernelConfig &k = s.kernel;
    auto flag = [](bool b) { return std::string(b ? "true" : "false"); };
    if (key == "hz") return std::to_string(k.hz);
    if (key == "cpus") return std::to_string(k.cpus);
    if (key == "nohz_full") return formatCpuList(k.nohzFull);
    if (key == "isolcpus") return formatCpuList(k.isolcpus);
    if (key == "idle") return std::string(k.idle == IdleMode::Poll ? "poll" : "halt");
    if (key == "preempt_rt") return flag(k.preemptRt);
    if (key == "legacy_kernel") return flag(k.legacyKernel);
    if (key == "timer_wheel") return std::string(k.wheel == WheelDesign::Legacy ? "legacy" : "forwarding");
    if (key == "hrtimer_wakeups")
        return std::string(k.hrtimerWakeups == HrtimerWakeups::Hard ? "hard" : "soft_for_non_rt");
    if (key == "poll_restarts_tick") return flag(k.pollRestartsTick);
    if (key == "p1_reevaluate") return flag(k.p1Reevaluate);
    if (key == "p2_stop_tick_on_poll") return flag(k.p2StopTickOnPoll);
    if (key == "p2_without_kick") return flag(k.p2WithoutKick);
    if (key == "p2_without_stopped_tick_fix") return flag(k.p2WithoutStoppedTickFix);
    if (key == "timekeeper") return std::to_string(k.timekeeper);
    if (key == "platform") return s.platform;
    if (key == "duration_ms") return numberText(static_cast<double>(s.durationNs) / 1e6);
    return std::nullopt; // the keys that add to or change the scenario's tasks have no value of their own
}

std::optional<SettingType> settingType(const std::string &key)
{
    const Setting *s = findSetting(key);
    return s ? std::optional(s->type) : std::nullopt;
}

bool isKernelSetting(const std::string &key)
{
    const Setting *s = findSetting(key);
    return s && s->kernel;
}

std::optional<double> parseNumberText(const std::string &text, double lo, double hi)
{
    if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return std::nullopt;
    char *end = nullptr;
    const double d = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(d) || d < lo || d > hi) return std::nullopt;
    return d;
}

std::string numberText(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.15g", v);
    return buf;
}

void applySetting(Scenario &s, const std::string &key, const std::string &v)
{
    KernelConfig &k = s.kernel;
    if (key == "hz") {
        const int hz = parseInteger(key, v, 100, 1000);
        if (1000000000 % hz != 0)
            throw ScenarioError("hz: expected a whole number that divides 1e9 (e.g. 100, 250, 1000), got '" +
                                v + "'");
        k.hz = hz;
    } else if (key == "cpus") {
        k.cpus = parseInteger(key, v, 1, kMaxCpus);
    } else if (key == "nohz_full") {
        const auto list = v.empty() ? std::optional<std::vector<int>>(std::vector<int>{}) : parseCpuList(v);
        if (!list) throw ScenarioError("nohz_full: not a CPU list: '" + v + "' (e.g. 2-3)");
        k.nohzFull = *list;
    } else if (key == "isolcpus") {
        const auto list = v.empty() ? std::optional<std::vector<int>>(std::vector<int>{}) : parseCpuList(v);
        if (!list) throw ScenarioError("isolcpus: not a CPU list: '" + v + "' (e.g. 2-3)");
        k.isolcpus = *list;
    } else if (key == "idle") {
        if (v != "poll" && v != "halt") throw ScenarioError("idle: expected poll or halt, got '" + v + "'");
        k.idle = v == "poll" ? IdleMode::Poll : IdleMode::Halt;
    } else if (key == "preempt_rt") {
        k.preemptRt = parseBool(key, v);
    } else if (key == "legacy_kernel") {
        k.legacyKernel = parseBool(key, v);
    } else if (key == "timer_wheel") {
        if (v != "legacy" && v != "forwarding")
            throw ScenarioError("timer_wheel: expected legacy or forwarding, got '" + v + "'");
        k.wheel = v == "legacy" ? WheelDesign::Legacy : WheelDesign::Forwarding;
    } else if (key == "hrtimer_wakeups") {
        if (v != "hard" && v != "soft_for_non_rt")
            throw ScenarioError("hrtimer_wakeups: expected hard or soft_for_non_rt, got '" + v + "'");
        k.hrtimerWakeups = v == "hard" ? HrtimerWakeups::Hard : HrtimerWakeups::SoftForNonRt;
    } else if (key == "poll_restarts_tick") {
        k.pollRestartsTick = parseBool(key, v);
    } else if (key == "p1_reevaluate") {
        k.p1Reevaluate = parseBool(key, v);
    } else if (key == "p2_stop_tick_on_poll") {
        k.p2StopTickOnPoll = parseBool(key, v);
    } else if (key == "p2_without_kick") {
        k.p2WithoutKick = parseBool(key, v);
    } else if (key == "p2_without_stopped_tick_fix") {
        k.p2WithoutStoppedTickFix = parseBool(key, v);
    } else if (key == "timekeeper") {
        k.timekeeper = parseInteger(key, v, 0, kMaxCpus - 1);
    } else if (key == "posix_cpu_timer" || key == "second_task" || key == "hog_cpus") {
        const auto list = parseCpuList(v);
        if (!list) throw ScenarioError(key + ": not a CPU list: '" + v + "' (e.g. 3)");
        for (int c : *list) {
            if (c >= k.cpus)
                throw ScenarioError(key + ": CPU " + std::to_string(c) + " is not below cpus (" +
                                    std::to_string(k.cpus) + ")");
            if (key == "posix_cpu_timer") {
                for (TaskSpec &t : s.tasks)
                    t.posixCpuTimer |= t.cpu == c;
                continue;
            }
            TaskSpec t;
            t.cpu = c;
            t.setBy = key;
            if (key == "second_task") { // a second task on the CPU: the SCHED tick dependency while both run
                t.name = "second";
                t.sleepNs = 2000000;
                t.workNs = 3000000;
                t.startNs = 25000000;
            } else { // a busy loop keeping the tick alive (seed 002): its wheel never fell behind
                t.name = "busyloop";
                t.program = ProgramKind::Busy;
                t.startNs = 0;
                if (static_cast<size_t>(c) < s.initialIdleJiffies.size()) s.initialIdleJiffies[c] = 0;
            }
            s.tasks.push_back(t);
        }
    } else if (key == "stress_threads") { // threads per random_sleep task entry
        const int n = parseInteger(key, v, 1, kMaxThreads);
        for (TaskSpec &t : s.tasks) {
            if (t.program == ProgramKind::RandomSleep) t.count = n;
        }
    } else if (key == "cyclic_aligned") { // cyclictest periods on the same boundaries as sync_us sleepers
        const bool on = parseBool(key, v);
        for (TaskSpec &t : s.tasks) {
            if (t.program == ProgramKind::Cyclic) t.aligned = on;
        }
    } else if (key == "sync_us") {
        const int64_t ns = std::llround(parseNumber(key, v, 0, 1e7) * 1000);
        for (TaskSpec &t : s.tasks) {
            if (t.program == ProgramKind::RandomSleep) t.syncNs = ns;
        }
    } else if (key == "platform") {
        s.platform = v;
    } else if (key == "duration_ms") {
        s.durationNs = std::llround(parseNumber(key, v, 1, 3.6e6) * 1e6);
    } else {
        std::string known;
        for (const auto &n : settingKeys())
            known += (known.empty() ? "" : ", ") + n;
        throw ScenarioError("unknown setting '" + key + "' (known: " + known + ")");
    }
}

std::string label(const Scenario &s)
{
    return s.name + (s.variant.empty() ? "" : ":" + s.variant);
}

namespace {

void checkCpu(const Scenario &s, const std::string &key, int cpu)
{
    if (cpu >= 0 && cpu < s.kernel.cpus) return;
    const std::string n = std::to_string(s.kernel.cpus);
    throw ScenarioError(label(s) + ": " + key + " is CPU " + std::to_string(cpu) + " but cpus is " + n +
                        ": name a CPU below " + n + " or raise cpus");
}

void checkThreads(const Scenario &s)
{
    int64_t threads = 0;
    for (const TaskSpec &t : s.tasks)
        threads += t.count;
    if (threads > kMaxThreads)
        throw ScenarioError(label(s) + ": tasks: " + std::to_string(threads) +
                            " threads in all (the sum of their count), above the limit of " +
                            std::to_string(kMaxThreads) + ": lower count or stress_threads");
}

} // namespace

// The JSON's own checks ran against the cpus of its kernel block; a variant or --set may have changed
// cpus since, and the engine indexes its per-CPU state with every one of these.
void validateScenario(const Scenario &s)
{
    for (size_t i = 0; i < s.tasks.size(); ++i) {
        const TaskSpec &t = s.tasks[i];
        checkCpu(s, t.setBy.empty() ? "tasks[" + std::to_string(i) + "].cpu" : t.setBy, t.cpu);
    }
    for (size_t i = 0; i < s.irqs.size(); ++i)
        checkCpu(s, "irqs[" + std::to_string(i) + "].cpu", s.irqs[i].cpu);
    for (size_t i = 0; i < s.wheelTimers.size(); ++i)
        checkCpu(s, "wheel_timers[" + std::to_string(i) + "].cpu", s.wheelTimers[i].cpu);
    for (int c : s.kernel.nohzFull)
        checkCpu(s, "kernel.nohz_full", c);
    for (int c : s.kernel.isolcpus)
        checkCpu(s, "kernel.isolcpus", c);
    checkCpu(s, "kernel.timekeeper", s.kernel.timekeeper);
    if (s.initialIdleJiffies.size() > static_cast<size_t>(s.kernel.cpus))
        throw ScenarioError(label(s) + ": initial_idle_jiffies has " +
                            std::to_string(s.initialIdleJiffies.size()) + " entries but cpus is " +
                            std::to_string(s.kernel.cpus) + ": raise cpus");
    checkThreads(s);
    int64_t timers = 0;
    for (const IrqSpec &q : s.irqs)
        timers += static_cast<int64_t>(q.count) * q.timers;
    if (timers > kMaxIrqTimers)
        throw ScenarioError(label(s) + ": irqs: " + std::to_string(timers) +
                            " timers enqueued in all (count x timers), above the limit of " +
                            std::to_string(kMaxIrqTimers) + ": lower count or timers");
}

void applyVariant(Scenario &s, const std::string &variant)
{
    if (variant.empty() || variant == "baseline") return;
    const auto it = s.variants.find(variant);
    if (it == s.variants.end()) {
        std::string known = "baseline";
        for (const auto &[n, kv] : s.variants)
            known += ", " + n;
        throw ScenarioError(s.name + ": no variant '" + variant + "' (known: " + known + ")");
    }
    for (const auto &[k, v] : it->second)
        applySetting(s, k, v);
    s.variant = variant;
}

} // namespace tickscope::sim
