// SPDX-License-Identifier: GPL-3.0-or-later
// The "field=value ..." text of one event's decoded payload as tracefs prints it, with symbols and task
// names resolved (tooltips, the event table, the simulator's text writer, and tests that compare two
// decodings of the same trace). The text decoder reads it back.
#pragma once

#include "Trace.h"

#include <string>

namespace tickscope {

std::string formatEventFields(const Trace &trace, int cpu, size_t index);

} // namespace tickscope
