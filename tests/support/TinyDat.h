// SPDX-License-Identifier: GPL-3.0-or-later
// Small trace.dat files for tests and fuzz seeds, made from a real one: its header page, the event
// formats of a few systems, and the first pages of each CPU, written back as v6 or as v7 (sections
// uncompressed). The writer records where it put the fields that the robustness tests corrupt.
#pragma once

#include "import/DatLayout.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace tickscope::test {

struct TinyDat
{
    DatLayout layout;                        // pageSize, longSize, headerPage, formats, cmdlines, uname
    std::vector<std::vector<uint8_t>> pages; // per CPU: whole raw pages, back to back

    // Throws std::runtime_error when the fixture cannot be read.
    static TinyDat fromFile(const std::string &path, int pagesPerCpu, const std::set<std::string> &systems);

    // Where write6()/write7() put things (byte offsets in the returned file).
    struct Offsets
    {
        std::vector<uint64_t> cpuNumber; // v7: each BUFFER entry's u32 CPU number
        std::vector<uint64_t> cpuSize;   // each CPU's u64 data size (v6 flyrecord table, v7 BUFFER entry)
        std::vector<uint64_t> cpuData;   // each CPU's first page
        uint64_t formatsSize = 0;        // the u64 length of the first event format of the systems
    };
    std::string write6(Offsets *where = nullptr) const;
    std::string write7(Offsets *where = nullptr) const;
};

} // namespace tickscope::test
