// SPDX-License-Identifier: GPL-3.0-or-later
#include "InputChecks.h"

#include "DatLayout.h"
#include "RingPage.h"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace tickscope {
namespace {

using ring::kCommitMask, ring::kMissingEvents, ring::kMissingStored;
using ring::kTypePadding, ring::kTypeTimeExtend, ring::kTypeTimeStamp;

// Where the event at curr ends, by kbuffer's own arithmetic (32-bit, wrapping); index is where its
// payload starts. isRecord: a data record (not padding or a time stamp).
struct Step
{
    uint32_t index, next;
    bool isRecord;
};

Step stepNew(const uint8_t *data, uint32_t curr, bool big)
{
    const uint32_t w = readU32(data + curr, big);
    const uint32_t typeLen = big ? w >> 27 : w & 31;
    switch (typeLen) {
    case kTypePadding:
        return {curr + 4, curr + 4 + readU32(data + curr + 4, big), false};
    case kTypeTimeExtend:
    case kTypeTimeStamp:
        return {curr + 8, curr + 8, false};
    case 0: {
        const uint32_t len = (readU32(data + curr + 4, big) - 4 + 3) & ~3u;
        return {curr + 8, curr + 8 + len, static_cast<int32_t>(len) >= 0};
    }
    default:
        return {curr + 4, curr + 4 + typeLen * 4, true};
    }
}

Step stepOld(const uint8_t *data, uint32_t curr, uint32_t size, bool big)
{
    const uint32_t w = readU32(data + curr, big);
    const uint32_t type = big ? (w >> 29) & 3 : w & 3;
    const uint32_t len = big ? (w >> 27) & 7 : (w >> 2) & 7;
    switch (type) {
    case 0:
        return {curr, size, false}; // padding: the rest of the page
    case 1:
        return {curr + 8, curr + 8, false};
    case 2:
        return {curr, curr, false}; // "never happens": refused
    default:
        if (len) return {curr + 4, curr + 4 + len * 4, true};
        return {curr + 8, curr + 4 + readU32(data + curr + 4, big), true};
    }
}

bool allDigits(std::string_view s)
{
    if (s.empty() || s.size() > 9) return false;
    for (char c : s) {
        if (c < '0' || c > '9') return false;
    }
    return true;
}

// The number after "key:" up to ';' in a field line; -1 when absent or not a number.
long fieldNumber(std::string_view line, std::string_view key)
{
    const auto p = line.find(key);
    if (p == std::string_view::npos) return -1;
    const auto start = p + key.size();
    const auto end = line.find(';', start);
    if (end == std::string_view::npos) return -1;
    const std::string_view digits = line.substr(start, end - start);
    return allDigits(digits) ? std::stol(std::string(digits)) : -1;
}

// Quotes closed (backslash escapes honoured) and brackets nested properly outside them.
bool balanced(std::string_view s)
{
    std::string stack;
    bool quoted = false;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (quoted) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                quoted = false;
            continue;
        }
        if (c == '"')
            quoted = true;
        else if (c == '(' || c == '[' || c == '{')
            stack.push_back(c);
        else if (c == ')' || c == ']' || c == '}') {
            const char open = c == ')' ? '(' : c == ']' ? '[' : '{';
            if (stack.empty() || stack.back() != open) return false;
            stack.pop_back();
        }
        if (stack.size() > 64) return false; // libtraceevent's argument parser recurses per level
    }
    return !quoted && stack.empty();
}

std::string_view nameOf(std::string_view text)
{
    if (text.substr(0, 6) != "name: ") return {};
    const auto end = text.find('\n');
    return text.substr(6, end == std::string_view::npos ? std::string_view::npos : end - 6);
}

bool textOnly(std::string_view text)
{
    for (unsigned char c : text) {
        if ((c < 0x20 || c > 0x7e) && c != '\t' && c != '\n') return false;
    }
    return true;
}

bool identChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// A field line's name: the last identifier before ';', past any "[N]" ("char comm[16]" -> "comm").
std::string_view fieldName(std::string_view line)
{
    std::string_view decl = line.substr(0, line.find(';'));
    if (!decl.empty() && decl.back() == ']') decl = decl.substr(0, decl.rfind('['));
    size_t start = decl.size();
    while (start > 0 && identChar(decl[start - 1]))
        --start;
    return decl.substr(start);
}

// Field lines as tracefs writes them ("\tfield:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;"), blank lines
// between groups. Collects the fields' names when asked.
std::optional<std::string> fieldLinesFault(std::string_view fields,
                                           std::vector<std::string_view> *names = nullptr)
{
    while (!fields.empty()) {
        const auto eol = fields.find('\n');
        const std::string_view line = fields.substr(0, eol);
        fields = eol == std::string_view::npos ? std::string_view() : fields.substr(eol + 1);
        if (line.empty()) continue;
        if (line.substr(0, 6) != "\tfield" || !balanced(line)) return "has a malformed field line";
        const long off = fieldNumber(line, "\toffset:");
        const long size = fieldNumber(line, "\tsize:");
        if (off < 0 || size < 0 || off > 65535 || size > 65535)
            return "has a field with an implausible offset or size";
        if (names) names->push_back(fieldName(line));
    }
    return std::nullopt;
}

// Every REC->name outside the quoted format names a field of the event: libtraceevent's print-format
// parser follows such a reference without checking that the field exists.
std::optional<std::string> recordReferencesFault(std::string_view print,
                                                 const std::vector<std::string_view> &names)
{
    bool quoted = false;
    for (size_t i = 0; i < print.size(); ++i) {
        if (quoted) {
            if (print[i] == '\\')
                ++i;
            else if (print[i] == '"')
                quoted = false;
            continue;
        }
        if (print[i] == '"') {
            quoted = true;
            continue;
        }
        if (print.compare(i, 5, "REC->") != 0) continue;
        size_t end = i + 5;
        while (end < print.size() && identChar(print[end]))
            ++end;
        const std::string_view name = print.substr(i + 5, end - i - 5);
        if (std::find(names.begin(), names.end(), name) == names.end())
            return "prints a field it does not have (REC->" + std::string(name.substr(0, 32)) + ")";
        i = end - 1;
    }
    return std::nullopt;
}

std::optional<std::string> formatFault(std::string_view text)
{
    if (text.size() > (1u << 20)) return "is larger than 1 MiB";
    if (!textOnly(text)) return "contains bytes that are not text";
    if (nameOf(text).empty()) return "does not start with its name";
    const auto id = text.find("\nID: ");
    if (id == std::string_view::npos) return "has no ID";
    const auto idEnd = text.find('\n', id + 5);
    if (!allDigits(
            text.substr(id + 5, idEnd == std::string_view::npos ? std::string_view::npos : idEnd - id - 5)))
        return "has an ID that is not a number";
    const auto fmt = text.find("\nformat:\n");
    if (fmt == std::string_view::npos) return "has no field list";
    const auto print = text.find("\nprint fmt: ", fmt);
    if (print == std::string_view::npos) return "has no print format";
    std::vector<std::string_view> names;
    if (auto fault = fieldLinesFault(text.substr(fmt + 9, print - fmt - 9), &names)) return fault;
    if (!balanced(text.substr(print + 12)))
        return "has a print format whose quotes or brackets do not balance";
    if (auto fault = recordReferencesFault(text.substr(print + 12), names)) return fault;
    return std::nullopt;
}

} // namespace

bool pageMissedEvents(const uint8_t *page, int longSize, bool bigEndian)
{
    return (ring::readLong(page + 8, longSize, bigEndian) & kMissingEvents) != 0;
}

uint64_t pageMissedCount(const uint8_t *page, int longSize, bool bigEndian)
{
    const uint64_t flags = ring::readLong(page + 8, longSize, bigEndian);
    if (!(flags & kMissingEvents) || !(flags & kMissingStored)) return 0;
    const uint32_t start = longSize == 8 ? 16 : 12;
    return ring::readLong(page + start + (flags & kCommitMask), longSize, bigEndian);
}

bool pageIsSound(const uint8_t *page, uint32_t pageSize, int longSize, bool bigEndian, bool oldFormat)
{
    const uint32_t start = longSize == 8 ? 16 : 12;
    if (pageSize <= start) return false;
    const uint64_t flags = ring::readLong(page + 8, longSize, bigEndian);
    const auto size = static_cast<uint32_t>(flags & kCommitMask);
    if (size > pageSize - start) return false;
    if ((flags & kMissingEvents) && (flags & kMissingStored) &&
        size + static_cast<uint32_t>(longSize) > pageSize - start)
        return false;
    const uint8_t *data = page + start;
    for (uint32_t curr = 0; curr < size;) {
        const Step s = oldFormat ? stepOld(data, curr, size, bigEndian) : stepNew(data, curr, bigEndian);
        if (s.next <= curr) return false; // kbuffer would loop on this event (or go backwards)
        if (s.isRecord && (s.next < s.index || s.next > size)) return false;
        curr = s.next;
    }
    return true;
}

std::optional<std::string> checkFormatText(std::string_view text)
{
    if (auto fault = formatFault(text)) {
        const auto name = nameOf(text).substr(0, 64);
        return "the event format" + (name.empty() ? std::string() : " of '" + std::string(name) + "'") + " " +
               *fault + " (corrupt file)";
    }
    return std::nullopt;
}

std::optional<std::string> checkFormatTexts(const std::vector<FormatText> &formats)
{
    for (const auto &f : formats) {
        if (auto bad = checkFormatText(f.text)) return bad;
    }
    return std::nullopt;
}

std::optional<std::string> checkHeaderPageText(std::string_view text)
{
    if (text.size() > 4096 || !textOnly(text) || fieldLinesFault(text))
        return std::string("its ring-buffer page header description is malformed (corrupt file)");
    return std::nullopt;
}

std::optional<std::string> checkPrintkText(std::string_view text)
{
    size_t lineNo = 0;
    while (!text.empty()) {
        ++lineNo;
        const auto eol = text.find('\n');
        std::string_view line = text.substr(0, eol);
        text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
        if (line.empty()) continue;
        const auto sep = line.find(" : \"");
        uint64_t addr = 0;
        const bool addrOk =
            line.substr(0, 2) == "0x" && sep != std::string_view::npos &&
            std::from_chars(line.data() + 2, line.data() + sep, addr, 16).ptr == line.data() + sep;
        if (!addrOk || line.back() != '"' || line.size() < sep + 5)
            return "its printk formats are malformed at line " + std::to_string(lineNo) + " (corrupt file)";
    }
    return std::nullopt;
}

} // namespace tickscope
