#include "Scenario.h"

#include "analysis/CpuList.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace tickscope::sim {
namespace {

using json = nlohmann::json;

// Reads one JSON object, refusing keys it does not know.
class Obj
{
public:
    Obj(const json &j, std::string where, std::set<std::string> keys) : j_(j), where_(std::move(where))
    {
        if (!j_.is_object()) throw ScenarioError(where_ + ": expected an object");
        for (const auto &[k, v] : j_.items()) {
            if (!keys.count(k)) {
                std::string known;
                for (const auto &n : keys)
                    known += (known.empty() ? "" : ", ") + n;
                throw ScenarioError(where_ + ": unknown key '" + k + "' (known: " + known + ")");
            }
        }
    }
    bool has(const char *k) const { return j_.contains(k); }
    const json &at(const char *k) const { return j_.at(k); }
    std::string str(const char *k, std::string def = {}) const
    {
        if (!has(k)) return def;
        if (!j_[k].is_string()) throw ScenarioError(where_ + "." + k + ": expected a string");
        return j_[k].get<std::string>();
    }
    bool flag(const char *k, bool def) const
    {
        if (!has(k)) return def;
        if (!j_[k].is_boolean()) throw ScenarioError(where_ + "." + k + ": expected true or false");
        return j_[k].get<bool>();
    }
    double num(const char *k, double def, double lo, double hi) const
    {
        if (!has(k)) return def;
        if (!j_[k].is_number()) throw ScenarioError(where_ + "." + k + ": expected a number");
        const double v = j_[k].get<double>();
        if (!std::isfinite(v) || v < lo || v > hi)
            throw ScenarioError(where_ + "." + k + ": " + std::to_string(v) + " is out of range [" +
                                std::to_string(lo) + ", " + std::to_string(hi) + "]");
        return v;
    }
    int64_t us(const char *k, int64_t defNs, double hiUs = 1e9) const
    {
        return static_cast<int64_t>(
            std::llround(num(k, static_cast<double>(defNs) / 1000.0, 0, hiUs) * 1000.0));
    }
    const std::string &where() const { return where_; }

private:
    const json &j_;
    std::string where_;
};

std::string valueText(const json &v)
{
    return v.is_string() ? v.get<std::string>() : v.dump();
}

bool parseBool(const std::string &key, const std::string &v)
{
    if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
    if (v == "0" || v == "false" || v == "no" || v == "off") return false;
    throw ScenarioError(key + ": expected true or false, got '" + v + "'");
}

double parseNumber(const std::string &key, const std::string &v, double lo, double hi)
{
    char *end = nullptr;
    const double d = std::strtod(v.c_str(), &end);
    if (v.empty() || end != v.c_str() + v.size() || !std::isfinite(d) || d < lo || d > hi)
        throw ScenarioError(key + ": expected a number in [" + std::to_string(lo) + ", " +
                            std::to_string(hi) + "], got '" + v + "'");
    return d;
}

ProgramKind programKind(const std::string &where, const std::string &p)
{
    if (p == "sleep_work") return ProgramKind::SleepWork;
    if (p == "cyclic") return ProgramKind::Cyclic;
    if (p == "random_sleep") return ProgramKind::RandomSleep;
    if (p == "busy") return ProgramKind::Busy;
    throw ScenarioError(where + ".program: unknown program '" + p +
                        "' (sleep_work, cyclic, random_sleep, busy)");
}

TaskSpec parseTask(const json &j, const std::string &where, int cpus)
{
    Obj o(j, where,
          {"name", "cpu", "count", "policy", "rt_prio", "program", "sleep_us", "work_us", "interval_us",
           "min_us", "max_us", "sync_us", "start_us", "loops", "posix_cpu_timer", "markers", "work_by_clock"});
    TaskSpec t;
    t.name = o.str("name", "task");
    if (t.name.empty() || t.name.size() > 15) throw ScenarioError(where + ".name: 1 to 15 characters");
    t.cpu = static_cast<int>(o.num("cpu", 0, 0, cpus - 1));
    t.count = static_cast<int>(o.num("count", 1, 1, 4096));
    const std::string policy = o.str("policy", "other");
    if (policy != "other" && policy != "fifo")
        throw ScenarioError(where + ".policy: expected \"other\" or \"fifo\", got '" + policy + "'");
    t.rt = policy == "fifo";
    t.rtPrio = static_cast<int>(o.num("rt_prio", t.rt ? 99 : 0, t.rt ? 1 : 0, t.rt ? 99 : 0));
    t.program = programKind(where, o.str("program", "sleep_work"));
    t.sleepNs = o.us("sleep_us", 100000);
    t.workNs = o.us("work_us", 10000);
    t.intervalNs = o.us("interval_us", 1000000);
    t.minNs = o.us("min_us", 0);
    t.maxNs = o.us("max_us", 1000000);
    t.syncNs = o.us("sync_us", 0);
    t.startNs = o.us("start_us", 1000000);
    t.loops = static_cast<int>(o.num("loops", -1, -1, 1e8));
    t.posixCpuTimer = o.flag("posix_cpu_timer", false);
    t.markers = o.flag("markers", false);
    t.workByClock = o.flag("work_by_clock", false);
    if (t.program == ProgramKind::Cyclic && t.intervalNs < 10000)
        throw ScenarioError(where + ".interval_us: at least 10");
    if (t.program == ProgramKind::RandomSleep && t.minNs > t.maxNs)
        throw ScenarioError(where + ": min_us > max_us");
    if (t.program == ProgramKind::SleepWork && t.sleepNs + t.workNs <= 0)
        throw ScenarioError(where + ": sleep_us + work_us must be > 0");
    return t;
}

IrqSpec parseIrq(const json &j, const std::string &where, int cpus)
{
    Obj o(j, where,
          {"name", "irq", "cpu", "count", "from_ms", "to_ms", "every_ms", "timers", "timeouts_ms",
           "random_timeout"});
    IrqSpec q;
    q.name = o.str("name", "dev");
    if (q.name.empty() || q.name.size() > 31) throw ScenarioError(where + ".name: 1 to 31 characters");
    q.irq = static_cast<int>(o.num("irq", 30, 0, 1 << 20));
    q.cpu = static_cast<int>(o.num("cpu", 0, 0, cpus - 1));
    q.count = static_cast<int>(o.num("count", 1, 1, 1e7));
    q.fromNs = std::llround(o.num("from_ms", 0, 0, 1e7) * 1e6);
    q.toNs = std::llround(o.num("to_ms", 0, 0, 1e7) * 1e6);
    q.everyNs = std::llround(o.num("every_ms", 0, 0, 1e7) * 1e6);
    q.timers = static_cast<int>(o.num("timers", 0, 0, 64));
    q.randomTimeout = o.flag("random_timeout", false);
    if (o.has("timeouts_ms")) {
        const json &a = o.at("timeouts_ms");
        if (!a.is_array() || a.empty())
            throw ScenarioError(where + ".timeouts_ms: expected a non-empty array");
        for (const auto &v : a) {
            if (!v.is_number() || v.get<double>() < 0 || v.get<double>() > 1e7)
                throw ScenarioError(where + ".timeouts_ms: expected numbers of ms");
            q.timeoutsNs.push_back(std::llround(v.get<double>() * 1e6));
        }
    }
    if (q.timers && q.timeoutsNs.empty()) throw ScenarioError(where + ": timers need timeouts_ms");
    if (q.randomTimeout && q.timeoutsNs.size() != 2)
        throw ScenarioError(where + ".timeouts_ms: random_timeout takes [min, max]");
    if (q.count > 1 && q.everyNs == 0 && q.toNs <= q.fromNs)
        throw ScenarioError(where + ": several interrupts need every_ms or to_ms > from_ms");
    return q;
}

} // namespace

std::vector<std::string> settingKeys()
{
    return {"hz",
            "cpus",
            "nohz_full",
            "idle",
            "preempt_rt",
            "legacy_kernel",
            "timer_wheel",
            "hrtimer_wakeups",
            "poll_restarts_tick",
            "p1_reevaluate",
            "p2_stop_tick_on_poll",
            "p2_without_kick",
            "p2_without_stopped_tick_fix",
            "timekeeper",
            "platform",
            "duration_ms",
            "posix_cpu_timer",
            "second_task",
            "hog_cpus",
            "sync_us",
            "stress_threads",
            "cyclic_aligned"};
}

void applySetting(Scenario &s, const std::string &key, const std::string &v)
{
    KernelConfig &k = s.kernel;
    if (key == "hz") {
        const double hz = parseNumber(key, v, 100, 1000);
        if (1000000000 % static_cast<int64_t>(hz) != 0) throw ScenarioError("hz: 1e9 must divide by it");
        k.hz = static_cast<int>(hz);
    } else if (key == "cpus") {
        k.cpus = static_cast<int>(parseNumber(key, v, 1, 256));
    } else if (key == "nohz_full") {
        const auto list = v.empty() ? std::optional<std::vector<int>>(std::vector<int>{}) : parseCpuList(v);
        if (!list) throw ScenarioError("nohz_full: not a CPU list: '" + v + "' (e.g. 2-3)");
        k.nohzFull = *list;
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
        k.timekeeper = static_cast<int>(parseNumber(key, v, 0, 255));
    } else if (key == "posix_cpu_timer" || key == "second_task" || key == "hog_cpus") {
        const auto list = parseCpuList(v);
        if (!list) throw ScenarioError(key + ": not a CPU list: '" + v + "' (e.g. 3)");
        for (int c : *list) {
            if (c >= k.cpus) throw ScenarioError(key + ": CPU " + std::to_string(c) + " >= cpus");
            if (key == "posix_cpu_timer") {
                for (TaskSpec &t : s.tasks)
                    t.posixCpuTimer |= t.cpu == c;
                continue;
            }
            TaskSpec t;
            t.cpu = c;
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
        const int n = static_cast<int>(parseNumber(key, v, 1, 4096));
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

Scenario parseScenario(const std::string &text, const std::string &origin)
{
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error &e) {
        throw ScenarioError(origin + ": not valid JSON: " + e.what());
    }
    Obj o(j, origin,
          {"name", "description", "platform", "kernel", "duration_ms", "tasks", "irqs", "wheel_timers",
           "initial_idle_jiffies", "variants"});
    Scenario s;
    s.name = o.str("name", "scenario");
    s.description = o.str("description");
    s.platform = o.str("platform", "x86-vm");
    s.durationNs = std::llround(o.num("duration_ms", 1000, 1, 3.6e6) * 1e6);
    if (o.has("kernel")) {
        const json &kj = o.at("kernel");
        const auto keys = settingKeys();
        std::set<std::string> known(keys.begin(), keys.end());
        for (const char *notKernel : {"platform", "duration_ms", "posix_cpu_timer", "second_task", "hog_cpus",
                                      "sync_us", "stress_threads", "cyclic_aligned"})
            known.erase(notKernel);
        Obj ko(kj, origin + ".kernel", known);
        // cpus first: the CPU lists are checked against it
        if (ko.has("cpus")) applySetting(s, "cpus", valueText(kj["cpus"]));
        for (const auto &[k, v] : kj.items()) {
            if (k == "cpus") continue;
            try {
                applySetting(s, k, valueText(v));
            } catch (const ScenarioError &e) {
                throw ScenarioError(origin + ".kernel." + e.what());
            }
        }
    }
    const int cpus = s.kernel.cpus;
    for (int c : s.kernel.nohzFull) {
        if (c >= cpus)
            throw ScenarioError(origin + ".kernel.nohz_full: CPU " + std::to_string(c) + " >= cpus");
    }
    if (s.kernel.timekeeper >= cpus) throw ScenarioError(origin + ".kernel.timekeeper: CPU out of range");
    if (std::find(s.kernel.nohzFull.begin(), s.kernel.nohzFull.end(), s.kernel.timekeeper) !=
        s.kernel.nohzFull.end())
        throw ScenarioError(origin + ".kernel.timekeeper: the timekeeper must be a housekeeping CPU");
    auto array = [&](const char *key) -> const json * {
        if (!o.has(key)) return nullptr;
        const json &a = o.at(key);
        if (!a.is_array()) throw ScenarioError(origin + "." + key + ": expected an array");
        return &a;
    };
    if (const json *a = array("tasks")) {
        for (size_t i = 0; i < a->size(); ++i)
            s.tasks.push_back(parseTask((*a)[i], origin + ".tasks[" + std::to_string(i) + "]", cpus));
    }
    if (const json *a = array("irqs")) {
        for (size_t i = 0; i < a->size(); ++i)
            s.irqs.push_back(parseIrq((*a)[i], origin + ".irqs[" + std::to_string(i) + "]", cpus));
    }
    if (const json *a = array("wheel_timers")) {
        for (size_t i = 0; i < a->size(); ++i) {
            Obj w((*a)[i], origin + ".wheel_timers[" + std::to_string(i) + "]",
                  {"cpu", "first_ms", "period_ms"});
            s.wheelTimers.push_back({static_cast<int>(w.num("cpu", 0, 0, cpus - 1)),
                                     std::llround(w.num("first_ms", 0, 0, 1e7) * 1e6),
                                     std::llround(w.num("period_ms", 0, 0, 1e7) * 1e6)});
        }
    }
    if (const json *a = array("initial_idle_jiffies")) {
        if (static_cast<int>(a->size()) > cpus)
            throw ScenarioError(origin + ".initial_idle_jiffies: more entries than CPUs");
        for (const auto &v : *a) {
            if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > 100000000)
                throw ScenarioError(origin + ".initial_idle_jiffies: expected integers in [0, 1e8]");
            s.initialIdleJiffies.push_back(v.get<int64_t>());
        }
    }
    if (o.has("variants")) {
        const json &vj = o.at("variants");
        if (!vj.is_object()) throw ScenarioError(origin + ".variants: expected an object of objects");
        for (const auto &[name, kv] : vj.items()) {
            if (!kv.is_object()) throw ScenarioError(origin + ".variants." + name + ": expected an object");
            auto &m = s.variants[name];
            for (const auto &[k, v] : kv.items())
                m[k] = valueText(v);
            Scenario probe = s; // check the variant's keys and values now, not when it is used
            try {
                applyVariant(probe, name);
            } catch (const ScenarioError &e) {
                throw ScenarioError(origin + ".variants." + name + ": " + e.what());
            }
        }
    }
    return s;
}

} // namespace tickscope::sim
