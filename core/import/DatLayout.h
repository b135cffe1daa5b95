// SPDX-License-Identifier: GPL-3.0-or-later
// Where everything of a trace.dat file is: v7 from its header and OPTIONS sections (trace-cmd.dat.v7(5)),
// v6 by walking its metadata in order (trace-cmd.dat.v6(5)); the header page, event formats, kallsyms,
// printk formats and cmdlines texts, and where each CPU's ring-buffer pages lie. The page decoder reads
// the pages from there; libtracecmd only ever sees a file this reader accepted.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace tickscope {

struct DatCpuData
{
    uint32_t cpu = 0;
    uint64_t offset = 0;
    uint64_t size = 0; // bytes in the file (compressed size when the file is compressed)
};

struct DatBuffer
{
    std::string name; // "" = top level
    std::string clock;
    std::vector<DatCpuData> cpus;
    bool unreadable = false; // its CPU table lies past the end of the file (truncated)
    uint64_t section = 0;    // v7: where its buffer-data section starts
};

// One event format file as the trace.dat stores it (tracefs events/SYSTEM/NAME/format).
struct FormatText
{
    std::string system;
    std::string text;
    int id = -1; // its "ID:" line
};

struct DatLayout
{
    int version = 0;
    bool bigEndian = false;
    int longSize = 8;
    uint32_t pageSize = 0;
    std::string compression; // "" or "none" = raw pages
    std::vector<DatBuffer> buffers;
    // Options that make libtracecmd adjust timestamps (OFFSET, TIME_SHIFT, TSC2NSEC) or latency data:
    // the fast path does not reproduce those and leaves such files to libtracecmd.
    bool needsLibraryPath = false;
    bool unterminatedText = false; // a text option without its NUL: libtracecmd would read past it
    // v7: every buffer's data section is where its option says, marked compressed exactly when the file
    // is, and holds its CPUs' data (libtracecmd trusts all three; its error path for them crashes).
    bool dataSectionsSound = true;
    uint64_t kallsymsSection = 0; // v7: file offsets of those sections, 0 when absent
    uint64_t cmdlinesSection = 0;
    uint64_t printkSection = 0;
    uint64_t headerSection = 0;
    uint64_t ftraceSection = 0;
    uint64_t formatsSection = 0;
    std::string kallsyms; // the /proc/kallsyms and saved_cmdlines texts the file carries
    std::string cmdlines;
    std::string printk;     // the printk formats (only libtracecmd reads them; checked before it does)
    std::string headerPage; // tracefs events/header_page
    std::vector<FormatText> formats; // ftrace's own events, then every event system's
    std::string uname;               // UNAME option
    std::string traceClock;          // TRACECLOCK option ("[local] global ...")
    std::string writer;              // VERSION option (the trace-cmd that wrote the file)
    std::string machine;             // tickscope's machine facts option (MachineFacts text)
    int cpuCount = 0;                // CPUCOUNT option (v7) or the header count (v6)
    bool complete = false;           // header page and formats were read
    bool recovered = false; // v7 cut before its CPU table: the top-level CPUs were found by walking the data

    bool compressed() const { return !compression.empty() && compression != "none"; }
};

// The most CPUs a trace may have (per-CPU arrays are sized from CPU numbers read from the file).
constexpr uint32_t kMaxDatCpus = 8192;

// Parses a v6 or v7 file's layout from its bytes, with the kallsyms and cmdlines texts. Every size,
// offset and CPU number read from the file is checked against the file's real size before use.
// nullopt when the file is not a readable trace.dat; *why then says what is wrong, in the user's
// terms. CPU data that runs past the end of the file is kept as it is: the page decoder reports it
// as truncated.
std::optional<DatLayout> readDatLayout(const uint8_t *data, uint64_t size, std::string *why = nullptr);

// A 32-bit number of the file's byte order at p.
inline uint32_t readU32(const uint8_t *p, bool bigEndian)
{
    uint32_t v;
    std::memcpy(&v, p, 4);
    return bigEndian ? __builtin_bswap32(v) : v;
}

// Whether a compressed block's declared size is believable: at most 512 MiB, and at most ~1024 times its
// compressed size (zstd and zlib reach that only on long runs of one byte; ring-buffer pages and format
// texts stay far below). It keeps a corrupt size field from allocating gigabytes.
constexpr bool plausibleInflation(uint64_t compressed, uint64_t plain)
{
    return plain <= (512u << 20) && plain <= compressed * 1024 + 4096;
}

// Decompresses one block with the file's algorithm ("zstd" or "zlib"). False on any error.
bool decompressBlock(const std::string &algorithm, const uint8_t *src, size_t srcSize, uint8_t *dst,
                     size_t dstSize);

} // namespace tickscope
