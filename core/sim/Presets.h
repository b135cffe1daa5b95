// SPDX-License-Identifier: GPL-3.0-or-later
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

// Whether a run named on a command line or in a dialog is a trace file to load (an existing regular file
// that is not a scenario's .json) rather than a scenario to simulate.
bool namesTraceFile(const std::string &run);

// "NAME  description" per preset with its variants, for `simulate --list`.
std::string listPresets();

} // namespace tickscope::sim
