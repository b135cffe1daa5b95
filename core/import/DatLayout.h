// Where the per-CPU ring-buffer pages of a trace.dat v7 file are, read from its header and OPTIONS
// sections (trace-cmd.dat.v7(5)). The fast import path decodes those pages itself; libtracecmd still
// reads everything else (formats, kallsyms, cmdlines).
#pragma once

#include <cstdint>
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
};

// Parses a v7 file's layout from its bytes. nullopt when the file is not v7 or anything is off (the
// caller then uses libtracecmd's record API).
std::optional<DatLayout> readDatLayout(const uint8_t *data, uint64_t size);

// Decompresses one block with the file's algorithm ("zstd" or "zlib"). False on any error.
bool decompressBlock(const std::string &algorithm, const uint8_t *src, size_t srcSize, uint8_t *dst, size_t dstSize);

} // namespace tickscope
