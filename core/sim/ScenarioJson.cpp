// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a scenario from JSON: every object's keys checked, every value's JSON type strict (2.5 is not a
// CPU, "4" is not a count), and nlohmann's errors turned into one plain line naming the file's position.
#include "Scenario.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace tickscope::sim {
namespace {

using json = nlohmann::json;

// A JSON value as the file spells it, cut short: error messages quote it.
std::string shown(const json &v)
{
    const std::string text = v.dump();
    return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}

// Reads one JSON object, refusing keys it does not know.
class Obj
{
public:
    Obj(const json &j, std::string where, const std::set<std::string> &keys) : j_(j), where_(std::move(where))
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
        const json &v = j_[k];
        if (!v.is_number()) throw ScenarioError(where_ + "." + k + ": expected a number, got " + shown(v));
        const double d = v.get<double>();
        if (!std::isfinite(d) || d < lo || d > hi)
            throw ScenarioError(where_ + "." + k + ": " + shown(v) + " is out of range (" + numberText(lo) +
                                " to " + numberText(hi) + ")");
        return d;
    }
    // A count, a CPU, a priority: 2.5 is refused, not rounded.
    int integer(const char *k, int def, int lo, int hi) const
    {
        if (has(k) && !j_[k].is_number_integer())
            throw ScenarioError(where_ + "." + k + ": expected a whole number, got " + shown(j_[k]));
        return static_cast<int>(num(k, def, lo, hi));
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

// A setting's JSON value as its --set text, once its JSON type is the key's: "cpus": "4" and
// "cpus": 2.5 are refused rather than read as 4 and 2.
std::string settingText(const std::string &key, const json &v)
{
    const auto type = settingType(key);
    if (!type) return valueText(v); // unknown: applySetting names the known ones
    switch (*type) {
    case SettingType::Integer:
        if (v.is_number_integer()) return v.dump();
        throw ScenarioError(key + ": expected a whole number, got " + shown(v));
    case SettingType::Number:
        if (v.is_number()) return v.dump();
        throw ScenarioError(key + ": expected a number, got " + shown(v));
    case SettingType::Flag:
        if (v.is_boolean()) return v.dump();
        throw ScenarioError(key + ": expected true or false, got " + shown(v));
    case SettingType::Text:
        break;
    }
    if (v.is_string()) return v.get<std::string>();
    throw ScenarioError(key + ": expected a string, got " + shown(v));
}

// nlohmann's parse error as "line L column C: what", without its exception name and number.
std::string parseErrorText(const std::string &text, const json::parse_error &e)
{
    size_t line = 1, column = 1;
    for (size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
        column = text[i] == '\n' ? 1 : column + 1;
        line += text[i] == '\n' ? 1 : 0;
    }
    std::string what = e.what();
    const size_t dash = what.rfind(" - ");
    const size_t colon = what.find(": ");
    what = dash != std::string::npos    ? what.substr(dash + 3)
           : colon != std::string::npos ? what.substr(colon + 2)
                                        : what;
    return "line " + std::to_string(line) + " column " + std::to_string(column) + ": " + what;
}

// Any other nlohmann message without its "[json.exception.NAME.N] " prefix.
std::string plainJsonError(const json::exception &e)
{
    const std::string what = e.what();
    const size_t bracket = what.find("] ");
    return bracket == std::string::npos ? what : what.substr(bracket + 2);
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
           "min_us", "max_us", "sync_us", "start_us", "loops", "posix_cpu_timer", "markers", "work_by_clock",
           "aligned"});
    TaskSpec t;
    t.name = o.str("name", "task");
    if (t.name.empty() || t.name.size() > 15) throw ScenarioError(where + ".name: 1 to 15 characters");
    t.cpu = o.integer("cpu", 0, 0, cpus - 1);
    t.count = o.integer("count", 1, 1, kMaxThreads);
    const std::string policy = o.str("policy", "other");
    if (policy != "other" && policy != "fifo")
        throw ScenarioError(where + ".policy: expected \"other\" or \"fifo\", got '" + policy + "'");
    t.rt = policy == "fifo";
    t.rtPrio = o.integer("rt_prio", t.rt ? 99 : 0, t.rt ? 1 : 0, t.rt ? 99 : 0);
    t.program = programKind(where, o.str("program", "sleep_work"));
    t.sleepNs = o.us("sleep_us", 100000);
    t.workNs = o.us("work_us", 10000);
    t.intervalNs = o.us("interval_us", 1000000);
    t.minNs = o.us("min_us", 0);
    t.maxNs = o.us("max_us", 1000000);
    t.syncNs = o.us("sync_us", 0);
    t.startNs = o.us("start_us", 1000000);
    t.loops = o.integer("loops", -1, -1, 100000000);
    t.posixCpuTimer = o.flag("posix_cpu_timer", false);
    t.markers = o.flag("markers", false);
    t.workByClock = o.flag("work_by_clock", false);
    t.aligned = o.flag("aligned", false); // what cyclic_aligned sets
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
    q.irq = o.integer("irq", 30, 0, 1 << 20);
    q.cpu = o.integer("cpu", 0, 0, cpus - 1);
    q.count = o.integer("count", 1, 1, kMaxIrqsPerSource);
    q.fromNs = std::llround(o.num("from_ms", 0, 0, 1e7) * 1e6);
    q.toNs = std::llround(o.num("to_ms", 0, 0, 1e7) * 1e6);
    // absent: spread at random over from_ms..to_ms
    q.everyNs = std::llround(o.num("every_ms", 0, o.has("every_ms") ? kMinIrqSpacingMs : 0, 1e7) * 1e6);
    q.timers = o.integer("timers", 0, 0, 64);
    q.randomTimeout = o.flag("random_timeout", false);
    if (o.has("timeouts_ms")) {
        const json &a = o.at("timeouts_ms");
        if (!a.is_array() || a.empty())
            throw ScenarioError(where + ".timeouts_ms: expected a non-empty array");
        for (const auto &v : a) {
            if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0 ||
                v.get<double>() > 1e7)
                throw ScenarioError(where + ".timeouts_ms: expected numbers of ms from 0 to 10000000, got " +
                                    shown(v));
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

json parseJson(const std::string &text, const std::string &origin)
{
    try {
        return json::parse(text);
    } catch (const json::parse_error &e) {
        throw ScenarioError(origin + ": not valid JSON at " + parseErrorText(text, e));
    } catch (const json::exception &e) { // a number too large for a double
        throw ScenarioError(origin + ": not valid JSON: " + plainJsonError(e));
    }
}

void parseKernel(const json &kj, const std::string &origin, Scenario &s)
{
    std::set<std::string> known;
    for (const std::string &k : settingKeys()) {
        if (isKernelSetting(k)) known.insert(k);
    }
    Obj ko(kj, origin + ".kernel", known);
    // cpus first: the CPU lists are checked against it
    std::vector<std::string> order{"cpus"};
    for (const auto &[k, v] : kj.items())
        if (k != "cpus") order.push_back(k);
    for (const std::string &k : order) {
        if (!kj.contains(k)) continue;
        try {
            applySetting(s, k, settingText(k, kj[k]));
        } catch (const ScenarioError &e) {
            throw ScenarioError(origin + ".kernel." + e.what());
        }
    }
    const int cpus = s.kernel.cpus;
    for (int c : s.kernel.nohzFull) {
        if (c >= cpus)
            throw ScenarioError(origin + ".kernel.nohz_full: CPU " + std::to_string(c) +
                                " is not below cpus (" + std::to_string(cpus) + ")");
    }
    if (s.kernel.timekeeper >= cpus) throw ScenarioError(origin + ".kernel.timekeeper: CPU out of range");
    if (std::find(s.kernel.nohzFull.begin(), s.kernel.nohzFull.end(), s.kernel.timekeeper) !=
        s.kernel.nohzFull.end())
        throw ScenarioError(origin + ".kernel.timekeeper: the timekeeper must be a housekeeping CPU");
}

const json *array(const Obj &o, const std::string &origin, const char *key)
{
    if (!o.has(key)) return nullptr;
    const json &a = o.at(key);
    if (!a.is_array()) throw ScenarioError(origin + "." + key + ": expected an array");
    return &a;
}

void parseLists(const Obj &o, const std::string &origin, Scenario &s)
{
    const int cpus = s.kernel.cpus;
    auto at = [&](const char *key, size_t i) { return origin + "." + key + "[" + std::to_string(i) + "]"; };
    if (const json *a = array(o, origin, "tasks")) {
        for (size_t i = 0; i < a->size(); ++i)
            s.tasks.push_back(parseTask((*a)[i], at("tasks", i), cpus));
    }
    if (const json *a = array(o, origin, "irqs")) {
        for (size_t i = 0; i < a->size(); ++i)
            s.irqs.push_back(parseIrq((*a)[i], at("irqs", i), cpus));
    }
    if (const json *a = array(o, origin, "wheel_timers")) {
        for (size_t i = 0; i < a->size(); ++i) {
            Obj w((*a)[i], at("wheel_timers", i), {"cpu", "first_ms", "period_ms"});
            s.wheelTimers.push_back({w.integer("cpu", 0, 0, cpus - 1),
                                     std::llround(w.num("first_ms", 0, 0, 1e7) * 1e6),
                                     std::llround(w.num("period_ms", 0, 0, 1e7) * 1e6)});
        }
    }
    if (const json *a = array(o, origin, "initial_idle_jiffies")) {
        if (static_cast<int>(a->size()) > cpus)
            throw ScenarioError(origin + ".initial_idle_jiffies: more entries than CPUs");
        for (const auto &v : *a) {
            if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > 100000000)
                throw ScenarioError(
                    origin + ".initial_idle_jiffies: expected whole numbers from 0 to 100000000, got " +
                    shown(v));
            s.initialIdleJiffies.push_back(v.get<int64_t>());
        }
    }
}

void parseVariants(const json &vj, const std::string &origin, Scenario &s)
{
    if (!vj.is_object()) throw ScenarioError(origin + ".variants: expected an object of objects");
    for (const auto &[name, kv] : vj.items()) {
        const std::string where = origin + ".variants." + name;
        if (!kv.is_object()) throw ScenarioError(where + ": expected an object");
        auto &m = s.variants[name];
        for (const auto &[k, v] : kv.items()) {
            try {
                m[k] = settingText(k, v);
            } catch (const ScenarioError &e) {
                throw ScenarioError(where + "." + e.what());
            }
        }
        Scenario probe = s; // check the variant's keys and values now, not when it is used
        try {
            applyVariant(probe, name);
        } catch (const ScenarioError &e) {
            throw ScenarioError(where + ": " + e.what());
        }
    }
}

Scenario scenarioFrom(const json &j, const std::string &origin)
{
    Obj o(j, origin,
          {"name", "description", "platform", "kernel", "duration_ms", "tasks", "irqs", "wheel_timers",
           "initial_idle_jiffies", "variants"});
    Scenario s;
    s.name = o.str("name", "scenario");
    s.description = o.str("description");
    s.platform = o.str("platform", "x86-vm");
    s.durationNs = std::llround(o.num("duration_ms", 1000, 1, 3.6e6) * 1e6);
    if (o.has("kernel")) parseKernel(o.at("kernel"), origin, s);
    parseLists(o, origin, s);
    if (o.has("variants")) parseVariants(o.at("variants"), origin, s);
    return s;
}

} // namespace

Scenario parseScenario(const std::string &text, const std::string &origin)
{
    const json j = parseJson(text, origin);
    try {
        return scenarioFrom(j, origin);
    } catch (const json::exception &e) { // a check above missed a type: still one line, in plain words
        throw ScenarioError(origin + ": unexpected JSON value: " + plainJsonError(e));
    }
}

} // namespace tickscope::sim
