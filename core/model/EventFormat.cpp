// SPDX-License-Identifier: GPL-3.0-or-later
#include "EventFormat.h"

#include "EventKinds.h"

namespace tickscope {

std::string formatEventFields(const Trace &t, int cpu, size_t i)
{
    const CpuEvents &ev = t.cpu(cpu);
    std::string s;
    kinds::print(t.kind(ev.type(i)), EventView{t, ev.payloadBytes(i), ev.ts(i), ev.type(i)}, s);
    return s;
}

} // namespace tickscope
