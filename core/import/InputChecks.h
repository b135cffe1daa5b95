// SPDX-License-Identifier: GPL-3.0-or-later
// Checks that stand between a file's bytes and libtraceevent / libtracecmd. Those libraries trust
// their input (a page's commit size, an event's length, a format's text); a damaged or crafted file
// must be refused here, in the user's terms, before they see it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tickscope {

struct FormatText;

// Bytes that must be readable after the last page of a buffer handed to kbuffer: it reads an event's
// 4- or 8-byte header before it checks it against the page's commit size.
constexpr size_t kPageSlack = 16;

// True when kbuffer can walk the ring-buffer page without reading outside page[0, pageSize +
// kPageSlack) and without looping: the commit size fits the page, the lost-events count stored after
// the data fits too, every event moves forward and every data record ends inside the committed bytes.
bool pageIsSound(const uint8_t *page, uint32_t pageSize, int longSize, bool bigEndian, bool oldFormat);
// The page header says events were lost before the page (RB_MISSED_EVENTS in its commit word).
bool pageMissedEvents(const uint8_t *page, int longSize, bool bigEndian);
// How many: the count stored after the data (RB_MISSED_STORED), 0 when not stored. For a page
// pageIsSound() accepted.
uint64_t pageMissedCount(const uint8_t *page, int longSize, bool bigEndian);

// What is wrong with an event format text (tracefs events/SYSTEM/NAME/format), or nullopt when it has
// the shape libtraceevent expects: name, ID, field lines with plausible offsets and sizes, and a print
// format whose quotes and brackets balance.
std::optional<std::string> checkFormatText(std::string_view text);
std::optional<std::string> checkFormatTexts(const std::vector<FormatText> &formats);

// The same for the header_page text (the ring-buffer page header's fields).
std::optional<std::string> checkHeaderPageText(std::string_view text);

// The same for the printk formats text ("0xADDR : \"format\"" lines).
std::optional<std::string> checkPrintkText(std::string_view text);

} // namespace tickscope
