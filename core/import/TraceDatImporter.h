// SPDX-License-Identifier: GPL-3.0-or-later
// trace.dat (trace-cmd v6 and v7, compressed or not) through libtracecmd/libtraceevent.
#pragma once

#include "DatLayout.h"
#include "InputFile.h"
#include "Loader.h"
#include "PageDecoder.h"

#include <map>

namespace tickscope {

class TraceDatHandle;

struct InstanceInfo
{
    std::string name; // "" = top level
    int cpus = 0;
    bool hasData = false;
};

// The buffer instances of the file, the top level first.
std::vector<InstanceInfo> listInstances(TraceDatHandle &file);

// The file's layout (DatLayout), read from its bytes; a LoadError naming the file says what is wrong.
DatLayout traceDatLayout(const InputFile &in);
// Loads options.instance when given, else every instance that has events; with requireOne, a file
// with events in several instances is a LoadError that names them.
// v6/v7 files the page decoder covers are read without libtracecmd; others go to the libtracecmd
// record API (the reference, also used for options.recordApi).
std::vector<std::unique_ptr<Trace>> importTraceDat(const std::string &path, uint64_t fileSize,
                                                   DatLayout layout, const LoadOptions &options,
                                                   bool requireOne);
// pageGaps: per buffer instance name, per CPU, the pages after lost events (checkCpuPages); nullptr: the
// gaps libtracecmd reports only.
std::vector<std::unique_ptr<Trace>>
importWithLibtracecmd(const std::string &path, const LoadOptions &options, bool requireOne,
                      const std::map<std::string, std::vector<PageGaps>> *pageGaps = nullptr);

} // namespace tickscope
