// A readable "field=value ..." text of one event's decoded payload, with symbols and names resolved
// (tooltips, the event table, and tests that compare two decodings of the same trace).
#pragma once

#include "Trace.h"

#include <string>

namespace tickscope {

std::string formatEventFields(const Trace &trace, int cpu, size_t index);

// "R", "S", "D|K", "R+" ... as the kernel prints sched_switch prev_state.
std::string formatPrevState(uint32_t state);

} // namespace tickscope
