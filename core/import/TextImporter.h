// SPDX-License-Identifier: GPL-3.0-or-later
// ftrace text: the tracefs `trace` / `trace_pipe` format and `trace-cmd report` output.
#pragma once

#include "InputFile.h"
#include "Loader.h"

namespace tickscope {

// Parses the whole text file; one Trace per instance prefix ("name:" in trace-cmd report output of a
// multi-instance file), usually one. Bad lines are skipped and counted in Trace::warnings; a file with
// no parsable event line throws LoadError.
std::vector<std::unique_ptr<Trace>> importText(const InputFile &file, const LoadOptions &options);
// The same, opening path first.
std::vector<std::unique_ptr<Trace>> importText(const std::string &path, const LoadOptions &options);

} // namespace tickscope
