// SPDX-License-Identifier: GPL-3.0-or-later
#include "Findings.h"

#include "stats/TraceStats.h"
#include "util/JsonWriter.h"
#include "util/Text.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace tickscope {

std::string_view findingKindName(FindingKind k)
{
    switch (k) {
    case FindingKind::LostEvents:
        return "lost_events";
    case FindingKind::SpuriousUser:
        return "spurious_user";
    case FindingKind::CatchupSoftirq:
        return "catchup_softirq";
    case FindingKind::LateWakeup:
        return "late_wakeup";
    case FindingKind::SpuriousPolling:
        return "spurious_polling";
    case FindingKind::FailedStops:
        return "failed_stops";
    case FindingKind::WakeupBurst:
        return "wakeup_burst";
    }
    return "?";
}

void sortFindings(std::vector<Finding> &findings)
{
    std::stable_sort(findings.begin(), findings.end(), [](const Finding &a, const Finding &b) {
        if (a.kind != b.kind) return a.kind < b.kind;
        if (a.count != b.count) return a.count > b.count;
        return a.cpu < b.cpu;
    });
}

void appendFindingsText(std::string &out, const std::vector<Finding> &findings)
{
    out += "\nfindings (worst first):\n";
    if (findings.empty()) out += "  none\n";
    for (size_t i = 0; i < findings.size(); ++i) {
        const Finding &f = findings[i];
        out += textf("%2zu. CPU %d: %s", i + 1, f.cpu, f.what.c_str());
        if (f.count) out += textf(", first at %s s", formatSeconds(f.first).c_str());
        out += "\n";
        if (!f.pattern.empty()) out += "    " + f.pattern + "\n";
        if (!f.cause.empty()) out += "    " + f.cause + "\n";
    }
}

void findingsJson(JsonWriter &j, const std::vector<Finding> &findings)
{
    j.beginArray("findings");
    for (const Finding &f : findings) {
        j.beginObject().value("kind", findingKindName(f.kind)).value("cpu", f.cpu).value("count", f.count);
        j.value("what", f.what).value("pattern", f.pattern).value("cause", f.cause);
        if (!f.dependency.empty()) j.value("dependency", f.dependency);
        if (f.worstNs) j.value("worst_ns", f.worstNs);
        if (f.count) j.value("first_ns", f.first).value("last_ns", f.last);
        j.endObject();
    }
    j.endArray();
}

} // namespace tickscope
