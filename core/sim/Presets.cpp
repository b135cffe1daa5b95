// SPDX-License-Identifier: GPL-3.0-or-later
#include "Presets.h"

#include <sys/stat.h>

#include <fstream>
#include <sstream>

namespace tickscope::sim {

Scenario loadScenario(const std::string &spec)
{
    std::string name = spec;
    std::string variant;
    // FILE.json:VARIANT or PRESET:VARIANT (a ':' in a path before ".json" stays part of the path)
    const size_t colon = spec.rfind(':');
    if (colon != std::string::npos && spec.find('/', colon) == std::string::npos &&
        spec.find(".json", colon) == std::string::npos) {
        name = spec.substr(0, colon);
        variant = spec.substr(colon + 1);
        if (variant.empty()) throw ScenarioError(spec + ": empty variant after ':'");
    }
    for (const Preset &p : presets()) {
        if (p.name == name) {
            Scenario s = parseScenario(std::string(p.json), "preset " + name);
            applyVariant(s, variant);
            return s;
        }
    }
    std::ifstream in(name);
    if (!in) {
        std::string known;
        for (const Preset &p : presets())
            known += (known.empty() ? "" : ", ") + std::string(p.name);
        throw ScenarioError(name + ": neither a preset (" + known + ") nor a readable scenario file");
    }
    std::stringstream text;
    text << in.rdbuf();
    Scenario s = parseScenario(text.str(), name);
    applyVariant(s, variant);
    return s;
}

bool namesTraceFile(const std::string &run)
{
    struct stat st
    {
    };
    return ::stat(run.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
           !(run.size() > 5 && run.compare(run.size() - 5, 5, ".json") == 0);
}

std::string listPresets()
{
    std::string out;
    for (const Preset &p : presets()) {
        const Scenario s = parseScenario(std::string(p.json), std::string(p.name));
        out += std::string(p.name) + "  (platform " + s.platform + ")\n  " + s.description +
               "\n  variants: baseline";
        for (const auto &[v, kv] : s.variants) {
            out += ", " + v;
        }
        out += "\n";
        for (const auto &[v, kv] : s.variants) {
            out += "    " + std::string(p.name) + ":" + v + "  ";
            bool first = true;
            for (const auto &[k, val] : kv) {
                out += (first ? "" : " ") + k + "=" + val;
                first = false;
            }
            out += "\n";
        }
    }
    return out;
}

} // namespace tickscope::sim
