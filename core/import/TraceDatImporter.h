// trace.dat (trace-cmd v6 and v7, compressed or not) through libtracecmd/libtraceevent.
#pragma once

#include "Loader.h"

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

// Loads one instance (name "" = top level).
std::unique_ptr<Trace> importTraceDat(TraceDatHandle &file, const std::string &instance, const LoadOptions &options);

} // namespace tickscope
