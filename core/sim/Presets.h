// The scenario presets (resources/scenarios/*.json, embedded at build time) and how a scenario is named on
// the command line: PRESET, PRESET:VARIANT, FILE.json or FILE.json:VARIANT.
#pragma once

#include "Scenario.h"

#include <string>
#include <string_view>
#include <vector>

namespace tickscope::sim {

struct Preset
{
    std::string_view name;
    std::string_view json;
};

const std::vector<Preset> &presets(); // generated: presets.cpp in the build tree

// Loads a scenario by its command-line name and applies the variant after ':' (if any).
Scenario loadScenario(const std::string &spec);

// "NAME  description" per preset with its variants, for `simulate --list`.
std::string listPresets();

} // namespace tickscope::sim
