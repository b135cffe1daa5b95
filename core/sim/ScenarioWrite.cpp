// SPDX-License-Identifier: GPL-3.0-or-later
// Writing a scenario back as JSON (the GUI's Save, and the round trip its test checks): the same keys and
// units parseScenario reads, values typed as the reader wants them.
#include "Scenario.h"

#include <nlohmann/json.hpp>

namespace tickscope::sim {

namespace {

using json = nlohmann::ordered_json;

// A setting's --set text as the JSON value its type asks for ("4" -> 4, "true" -> true).
json typed(const std::string &key, const std::string &text)
{
    switch (settingType(key).value_or(SettingType::Text)) {
    case SettingType::Integer:
        return std::stoll(text);
    case SettingType::Number:
        return std::stod(text);
    case SettingType::Flag:
        return text == "true" || text == "1" || text == "yes" || text == "on";
    case SettingType::Text:
        break;
    }
    return text;
}

double us(int64_t ns)
{
    return static_cast<double>(ns) / 1e3;
}

double ms(int64_t ns)
{
    return static_cast<double>(ns) / 1e6;
}

const char *programName(ProgramKind p)
{
    switch (p) {
    case ProgramKind::SleepWork:
        return "sleep_work";
    case ProgramKind::Cyclic:
        return "cyclic";
    case ProgramKind::RandomSleep:
        return "random_sleep";
    case ProgramKind::Busy:
        return "busy";
    }
    return "sleep_work";
}

} // namespace

std::string scenarioJson(const Scenario &s)
{
    json j;
    j["name"] = s.name;
    if (!s.description.empty()) j["description"] = s.description;
    j["platform"] = s.platform;
    j["duration_ms"] = ms(s.durationNs);
    json kernel = json::object();
    for (const SettingInfo &info : settingInfos()) {
        if (!info.kernel) continue;
        if (const auto v = settingValue(s, info.key)) kernel[info.key] = typed(info.key, *v);
    }
    j["kernel"] = kernel;
    json tasks = json::array();
    for (const TaskSpec &t : s.tasks) {
        json o;
        o["name"] = t.name;
        o["cpu"] = t.cpu;
        o["count"] = t.count;
        o["policy"] = t.rt ? "fifo" : "other";
        if (t.rt) o["rt_prio"] = t.rtPrio;
        o["program"] = programName(t.program);
        o["sleep_us"] = us(t.sleepNs);
        o["work_us"] = us(t.workNs);
        o["interval_us"] = us(t.intervalNs);
        o["min_us"] = us(t.minNs);
        o["max_us"] = us(t.maxNs);
        o["sync_us"] = us(t.syncNs);
        o["start_us"] = us(t.startNs);
        o["loops"] = t.loops;
        o["posix_cpu_timer"] = t.posixCpuTimer;
        o["markers"] = t.markers;
        o["work_by_clock"] = t.workByClock;
        if (t.aligned) o["aligned"] = true;
        tasks.push_back(o);
    }
    j["tasks"] = tasks;
    json irqs = json::array();
    for (const IrqSpec &q : s.irqs) {
        json o;
        o["name"] = q.name;
        o["irq"] = q.irq;
        o["cpu"] = q.cpu;
        o["count"] = q.count;
        o["from_ms"] = ms(q.fromNs);
        o["to_ms"] = ms(q.toNs);
        if (q.everyNs) o["every_ms"] = ms(q.everyNs); // absent: spread at random over from..to
        o["timers"] = q.timers;
        if (!q.timeoutsNs.empty()) {
            json t = json::array();
            for (int64_t ns : q.timeoutsNs)
                t.push_back(ms(ns));
            o["timeouts_ms"] = t;
        }
        o["random_timeout"] = q.randomTimeout;
        irqs.push_back(o);
    }
    j["irqs"] = irqs;
    json wheel = json::array();
    for (const WheelTimerSpec &w : s.wheelTimers)
        wheel.push_back({{"cpu", w.cpu}, {"first_ms", ms(w.firstNs)}, {"period_ms", ms(w.periodNs)}});
    j["wheel_timers"] = wheel;
    if (!s.initialIdleJiffies.empty()) j["initial_idle_jiffies"] = s.initialIdleJiffies;
    // The variants of a baseline only: with one applied, another would apply on top of it.
    if (s.variant.empty() && !s.variants.empty()) {
        json v = json::object();
        for (const auto &[name, keys] : s.variants) {
            json o = json::object();
            for (const auto &[k, text] : keys)
                o[k] = typed(k, text);
            v[name] = o;
        }
        j["variants"] = v;
    }
    return j.dump(2) + "\n";
}

Scenario withListField(const Scenario &s, const std::string &list, size_t index, const std::string &field,
                       const std::string &text)
{
    json j = json::parse(scenarioJson(s));
    const std::string where = list + "[" + std::to_string(index) + "]." + field;
    if (!j.contains(list) || !j[list].is_array() || index >= j[list].size())
        throw ScenarioError(where + ": no such entry");
    json &entry = j[list][index];
    auto number = [&](const std::string &t) -> json {
        if (const auto whole = parseWholeText<int64_t>(t, INT64_MIN / 2, INT64_MAX / 2)) return *whole;
        if (const auto d = parseNumberText(t, -1e300, 1e300)) return *d;
        throw ScenarioError(where + ": expected a number, got '" + t + "'");
    };
    const json old = entry.contains(field) ? entry[field] : json();
    if (old.is_boolean()) {
        if (text != "true" && text != "false")
            throw ScenarioError(where + ": expected true or false, got '" + text + "'");
        entry[field] = text == "true";
    } else if (old.is_string()) {
        entry[field] = text;
    } else if (old.is_array()) { // a list of numbers: "1, 2.5"
        json a = json::array();
        size_t p = 0;
        while (p <= text.size()) {
            const size_t comma = std::min(text.find(',', p), text.size());
            std::string part = text.substr(p, comma - p);
            part.erase(0, part.find_first_not_of(' '));
            part.erase(part.find_last_not_of(' ') + 1);
            if (!part.empty()) a.push_back(number(part));
            p = comma + 1;
        }
        entry[field] = a;
    } else {
        entry[field] = number(text);
    }
    Scenario out = parseScenario(j.dump(), "scenario");
    out.name = s.name;
    validateScenario(out);
    return out;
}

} // namespace tickscope::sim
