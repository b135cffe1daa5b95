// SPDX-License-Identifier: GPL-3.0-or-later
// A model trace (a simulation, or any loaded trace) written as a trace.dat that trace-cmd, KernelShark
// and tickscope read back: one event format per event type, made from the event-kind table (the kernel's
// field names, sizes from the payload, strings as __data_loc), kallsyms naming the function fields,
// saved cmdlines from the task table, and every CPU's events in ring-buffer pages.
#pragma once

#include "model/MachineFacts.h"
#include "model/Trace.h"

#include <string>

namespace tickscope {

struct DatWriteStats
{
    uint64_t events = 0;
    uint64_t pages = 0;
    uint64_t bytes = 0;
};

// Throws LoadError (one line naming the path) when the file cannot be written; nothing is left under
// the final name then. facts: written into the file; nullptr takes the release and command line from
// the trace's metadata.
DatWriteStats writeTraceDat(const Trace &trace, const std::string &path, const MachineFacts *facts = nullptr);

// The texts tracefs gives for a 64-bit kernel with 4 KiB pages: events/header_page and header_event.
const std::string &headerPageText();
const std::string &headerEventText();

} // namespace tickscope
