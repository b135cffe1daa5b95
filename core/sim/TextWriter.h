// SPDX-License-Identifier: GPL-3.0-or-later
// Writes a Trace as tracefs-style ftrace text (the `trace` file's format, with ns timestamps) that
// tickscope's text importer reads back into the same events, fields and tasks (a test checks it).
#pragma once

#include "model/Trace.h"

#include <string>

namespace tickscope::sim {

// Throws LoadError (import/Loader.h) when the file cannot be written.
void writeFtraceText(const Trace &trace, const std::string &path);

} // namespace tickscope::sim
