// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: a simulator scenario. The input is the scenario JSON, optionally followed by a
// line "--" and `KEY=VALUE` lines (the --set keys). Every input is parsed, overridden, validated and
// estimated; one that the estimate says is small is also simulated and analysed, as `simulate` does.
#include "analysis/TickAnalysis.h"
#include "sim/Scenario.h"
#include "sim/Simulator.h"

#include <cstdint>
#include <string>

using namespace tickscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string input(reinterpret_cast<const char *>(data), size);
    const auto split = input.find("\n--\n");
    const std::string json = input.substr(0, split);
    try {
        sim::Scenario s = sim::parseScenario(json, "fuzz.json");
        if (split != std::string::npos) {
            size_t pos = split + 4;
            while (pos < input.size()) {
                auto eol = input.find('\n', pos);
                if (eol == std::string::npos) eol = input.size();
                const std::string line = input.substr(pos, eol - pos);
                pos = eol + 1;
                const auto eq = line.find('=');
                if (eq == std::string::npos) continue;
                sim::applySetting(s, line.substr(0, eq), line.substr(eq + 1));
            }
        }
        sim::validateScenario(s);
        if (sim::estimate(s).events > 200000) return 0; // bounded: the fuzzer needs many runs a second
        const auto result = sim::simulate(s, 1);
        (void)TickAnalysis::run(*result.trace, AnalysisOptions{});
    } catch (const sim::ScenarioError &) {
    }
    return 0;
}
