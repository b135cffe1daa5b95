// SPDX-License-Identifier: GPL-3.0-or-later
// Internal to core/import: the pieces the v6 and v7 trace.dat layout readers share (DatLayout.cpp,
// DatLayoutV7.cpp): a bounds-checked reader, the refusal that carries the user's reason, the option ids,
// the v7 section header, and the readers of the format lists both versions store alike.
#pragma once

#include "DatLayout.h"
#include "model/MachineFacts.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace tickscope::dat {

// Bounds-checked reader over the file bytes in the file's endianness.
class Reader
{
public:
    Reader(const uint8_t *d, uint64_t size, bool big) : d_(d), size_(size), big_(big) {}
    bool ok() const { return ok_; }
    uint64_t pos() const { return pos_; }
    uint64_t left() const { return size_ - pos_; }
    const uint8_t *here() const { return d_ + pos_; }
    // True when len more bytes lie inside the data. Written as a subtraction: pos + len can wrap
    // around for a 64-bit length read from the file.
    bool fits(uint64_t len) const { return ok_ && len <= size_ - pos_; }
    void seek(uint64_t p) { p <= size_ ? void(pos_ = p) : void(ok_ = false); }
    void skip(uint64_t len) { fits(len) ? void(pos_ += len) : void(ok_ = false); }
    void fail() { ok_ = false; }
    template <class T> T get()
    {
        T v{};
        if (!fits(sizeof(T))) {
            ok_ = false;
            return v;
        }
        std::memcpy(&v, d_ + pos_, sizeof(T));
        pos_ += sizeof(T);
        if (big_) {
            if constexpr (sizeof(T) == 2) v = static_cast<T>(__builtin_bswap16(static_cast<uint16_t>(v)));
            if constexpr (sizeof(T) == 4) v = static_cast<T>(__builtin_bswap32(static_cast<uint32_t>(v)));
            if constexpr (sizeof(T) == 8) v = static_cast<T>(__builtin_bswap64(static_cast<uint64_t>(v)));
        }
        return v;
    }
    std::string str()
    {
        if (!ok_ || pos_ >= size_) { // also an empty body, whose data pointer may be null
            ok_ = false;
            return {};
        }
        const void *end = std::memchr(d_ + pos_, 0, size_ - pos_);
        if (!end) {
            ok_ = false;
            return {};
        }
        std::string s(reinterpret_cast<const char *>(d_ + pos_),
                      static_cast<const uint8_t *>(end) - (d_ + pos_));
        pos_ += s.size() + 1;
        return s;
    }

private:
    const uint8_t *d_;
    uint64_t size_;
    bool big_;
    uint64_t pos_ = 0;
    bool ok_ = true;
};

// Why a file is not a readable trace.dat, in the user's terms; caught in readDatLayout().
struct Bad
{
    std::string why;
};
[[noreturn]] inline void bad(std::string why)
{
    throw Bad{std::move(why)};
}

// Option ids (trace-cmd.dat.v7(5)); a v7 section has the id of the option that points to it.
constexpr uint16_t kSectionOptions = 0;
constexpr uint16_t kOptDone = 0, kOptDate = 1, kOptBuffer = 3, kOptTraceClock = 4, kOptUname = 5,
                   kOptHook = 6, kOptOffset = 7, kOptCpuCount = 8, kOptVersion = 9, kOptProcMaps = 10,
                   kOptTimeShift = 12, kOptGuest = 13, kOptTsc2Nsec = 14, kOptHeaderInfo = 16,
                   kOptFtraceEvents = 17, kOptEventFormats = 18, kOptKallsyms = 19, kOptPrintk = 20,
                   kOptCmdlines = 21, kOptBufferText = 22;
constexpr uint16_t kOptMachineFacts = kMachineFactsOption; // tickscope's own (model/MachineFacts.h)

// v7, read in DatLayoutV7.cpp.
DatLayout readV7(const uint8_t *data, uint64_t size, Reader &r, DatLayout l);

// A v7 section header: <u16 id><u16 flags><u32 description string id><u64 size>, then the body.
struct SectionHeader
{
    uint16_t id = 0;
    uint16_t flags = 0; // bit 0: the body is compressed
    uint64_t body = 0;  // file offset of the body
    uint64_t size = 0;  // body size in the file
    bool ok = false;    // the header lies in the file
    bool whole = false; // and so does the body
};
SectionHeader readSectionHeader(const uint8_t *data, uint64_t size, uint64_t at, bool big);

// What v6's option list and v7's options sections both hold.
// Options that make libtracecmd adjust timestamps or hold latency data: files the page decoder leaves
// to libtracecmd.
bool needsLibraryPath(uint16_t id);
void noteText(DatLayout &l, uint16_t id, const uint8_t *d, uint32_t len); // sets unterminatedText
std::string cString(const uint8_t *d, uint32_t len);

// <u32 count> then count x (<u64 size><format text>), as in both v6 and v7.
bool readFormatList(Reader &r, const std::string &system, DatLayout &l);
// <u32 systems> then per system <name\0> and a format list.
bool readSystems(Reader &r, DatLayout &l);
// "header_page\0" <u64 size> <text> "header_event\0" <u64 size> <text>
bool readHeaderInfo(Reader &r, DatLayout &l);

} // namespace tickscope::dat
