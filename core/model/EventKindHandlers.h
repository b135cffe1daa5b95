// SPDX-License-Identifier: GPL-3.0-or-later
// The special handlers of the few built-in kinds whose printed form is not "key=value" (named in their
// entries in EventKindTable.cpp), and the printf helper both files use (util/Text.h). Internal to core/model.
#pragma once

#include "EventKinds.h"

#include "util/Text.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>

namespace tickscope::kindhandlers {

using tickscope::appendf;

bool schedSwitchText(const KindSpec &, std::string_view f, StringPool &, Decoded &out, bool);
bool schedWakeupText(const KindSpec &, std::string_view f, StringPool &, Decoded &out, bool);
bool schedMigrateText(const KindSpec &, std::string_view f, StringPool &, Decoded &out, bool);
bool timerStartText(const KindSpec &s, std::string_view f, StringPool &strings, Decoded &out, bool);
void timerStartPrint(const KindSpec &, const EventView &e, std::string &o);
bool syscallText(const KindSpec &s, std::string_view f, StringPool &strings, Decoded &out, bool);
void syscallPrint(const KindSpec &, const EventView &e, std::string &o);
// A generic event: its text, or its kept record printed by the trace.dat's format.
void genericPrint(const KindSpec &, const EventView &e, std::string &o);
bool printText(const KindSpec &, std::string_view f, StringPool &strings, Decoded &out, bool textNamed);
bool isVectorEntry(std::string_view system, std::string_view name);
bool isVectorExit(std::string_view system, std::string_view name);

} // namespace tickscope::kindhandlers
