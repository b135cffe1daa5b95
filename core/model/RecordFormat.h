// SPDX-License-Identifier: GPL-3.0-or-later
// The fields of an event kind tickscope has no table entry for, as a trace.dat's own format describes them.
// The trace.dat decoder keeps such an event's record bytes as they are; printing them through this format
// gives every field as "name=value", the way `trace-cmd report -R` prints a record: integers in decimal
// (pointers and longs the format marks so in hex), character arrays and __data_loc strings as text, other
// arrays as their bytes in hex.
#pragma once

#include "StringPool.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace tickscope {

struct RecordField
{
    enum Flag : uint16_t
    {
        Array = 1,    // a fixed array (size = arraylen * elementSize), or the __data_loc's target
        Pointer = 2,  // printed in hex
        Signed = 4,   //
        String = 8,   // char array or __data_loc char[]: printed as text when it is printable
        Dynamic = 16, // __data_loc / __rel_loc: a 32-bit (length << 16 | offset) word at `offset`
        Long = 32,    // unsigned long / long: printed in hex like libtraceevent's raw print
        Relative = 64 // __rel_loc: the offset counts from the end of the word
    };
    std::string name;
    int offset = 0; // bytes from the start of the kept record (the common fields are not kept)
    int size = 0;
    uint16_t flags = 0;
};

struct RecordFormat
{
    std::vector<RecordField> fields;
    int base = 0; // the record offset the kept bytes start at (the first non-common field)
    // The pointer fields: each kept record ends in one u32 string id per field, in this order, naming the
    // function the pointer points at (0: none).
    std::vector<size_t> symbolFields;
    // The file's format text of the event ("name: ...\nID: ...\nformat: ... print fmt: ..."), when the
    // importer had it: the trace.dat writer writes the event with it, record bytes as they were.
    std::string formatText;
    // One string field named "text": the form tickscope's writer gives a text trace's generic events. Printed
    // as the text alone, as it was read.
    bool bareText = false;
    bool swap = false; // the file's byte order is not ours

    // A kept record's bytes, without the function name ids after them (empty when it is too short).
    std::string_view record(std::string_view kept) const
    {
        const size_t names = symbolFields.size() * sizeof(uint32_t);
        return kept.size() >= names ? kept.substr(0, kept.size() - names) : std::string_view{};
    }
    // The string id of the function symbolFields[k] points at (0: none), from a kept record.
    uint32_t functionName(std::string_view kept, size_t k) const
    {
        const size_t names = symbolFields.size() * sizeof(uint32_t);
        uint32_t id = 0;
        if (kept.size() >= names)
            std::memcpy(&id, kept.data() + kept.size() - names + k * sizeof id, sizeof id);
        return id;
    }
};

// A record's integer field of 1, 2, 4 or 8 bytes (0 for another size), byte-swapped when the file's order
// is not ours; and the same value sign-extended from its size. Inline: the trace.dat decoder reads every
// field of every event through them.
inline uint64_t readRecordNumber(const uint8_t *p, int size, bool swap)
{
    switch (size) {
    case 1:
        return *p;
    case 2: {
        uint16_t x;
        std::memcpy(&x, p, 2);
        return swap ? __builtin_bswap16(x) : x;
    }
    case 4: {
        uint32_t x;
        std::memcpy(&x, p, 4);
        return swap ? __builtin_bswap32(x) : x;
    }
    case 8: {
        uint64_t x;
        std::memcpy(&x, p, 8);
        return swap ? __builtin_bswap64(x) : x;
    }
    default:
        return 0;
    }
}

inline int64_t signExtendRecord(uint64_t v, int size)
{
    switch (size) {
    case 1:
        return static_cast<int8_t>(v);
    case 2:
        return static_cast<int16_t>(v);
    case 4:
        return static_cast<int32_t>(v);
    default:
        return static_cast<int64_t>(v);
    }
}

// Appends "name=value ..." for every field of a kept record (record bytes, then the function name ids, which
// `strings` resolves). Fields outside the bytes are left out; control characters in strings print escaped.
void printRecord(const RecordFormat &format, std::string_view kept, const StringPool &strings,
                 std::string &out);

} // namespace tickscope
