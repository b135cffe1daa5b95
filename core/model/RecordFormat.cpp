// SPDX-License-Identifier: GPL-3.0-or-later
#include "RecordFormat.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace tickscope {
namespace {

// A string the kernel wrote: printable bytes up to the first NUL (or the array's end), nothing after
// the NUL but more NULs.
bool printable(std::string_view s, std::string_view &text)
{
    const size_t nul = s.find('\0');
    text = s.substr(0, nul);
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 && c != '\n' && c != '\t') return false;
        if (u == 0x7f) return false;
    }
    return true;
}

// A comm written with its newline ("echo name > /proc/self/comm") stays on one line.
void appendEscaped(std::string &out, std::string_view text)
{
    for (const char c : text) {
        if (c == '\n')
            out += "\\n";
        else if (c == '\t')
            out += "\\t";
        else
            out += c;
    }
}

} // namespace

void printRecord(const RecordFormat &format, std::string_view kept, const StringPool &strings,
                 std::string &out)
{
    if (kept.size() < format.symbolFields.size() * sizeof(uint32_t)) return;
    const std::string_view bytes = format.record(kept);
    const auto nameOf = [&](size_t field) -> std::string_view {
        for (size_t k = 0; k < format.symbolFields.size(); ++k)
            if (format.symbolFields[k] == field) return strings.str(format.functionName(kept, k));
        return {};
    };
    const auto *d = reinterpret_cast<const uint8_t *>(bytes.data());
    const auto size = static_cast<int64_t>(bytes.size());
    bool first = true;
    for (size_t k = 0; k < format.fields.size(); ++k) {
        const RecordField &f = format.fields[k];
        if (f.offset < 0 || f.size < 0 || f.offset + int64_t{f.size} > size) continue;
        if (!first) out += ' ';
        first = false;
        if (!format.bareText) {
            out += f.name;
            out += '=';
        }
        if (f.flags & (RecordField::Array | RecordField::Dynamic)) {
            int64_t off = f.offset;
            int64_t len = f.size;
            if (f.flags & RecordField::Dynamic) {
                const uint64_t loc = f.size >= 4 ? readRecordNumber(d + f.offset, 4, format.swap) : 0;
                off = static_cast<int64_t>(loc & 0xffff);
                len = static_cast<int64_t>(loc >> 16);
                // __rel_loc counts from the word's end, __data_loc from the record's start (not kept)
                if (f.flags & RecordField::Relative)
                    off += f.offset + f.size;
                else
                    off -= format.base;
            }
            if (off < 0 || off > size) off = size;
            len = std::clamp<int64_t>(len, 0, size - off);
            const std::string_view v(bytes.data() + off, static_cast<size_t>(len));
            std::string_view text;
            if ((f.flags & RecordField::String) && printable(v, text)) {
                appendEscaped(out, text);
            } else {
                out += "ARRAY[";
                for (size_t i = 0; i < v.size(); ++i)
                    fmt::format_to(std::back_inserter(out), "{}{:02x}", i ? ", " : "",
                                   static_cast<unsigned char>(v[i]));
                out += ']';
            }
            continue;
        }
        const uint64_t v = readRecordNumber(d + f.offset, f.size, format.swap);
        if (const std::string_view name = (f.flags & RecordField::Pointer) ? nameOf(k) : std::string_view{};
            !name.empty())
            out += name;
        else if (f.flags & (RecordField::Pointer | RecordField::Long))
            fmt::format_to(std::back_inserter(out), "0x{:x}", v);
        else if (f.flags & RecordField::Signed)
            fmt::format_to(std::back_inserter(out), "{}", signExtendRecord(v, f.size));
        else
            fmt::format_to(std::back_inserter(out), "{}", v);
    }
}

} // namespace tickscope
