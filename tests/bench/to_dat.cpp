// SPDX-License-Identifier: GPL-3.0-or-later
// to_dat IN OUT.dat
// Writes any trace tickscope loads (ftrace text, trace.dat) as a trace.dat: `report --stream` reads
// trace.dat only, and a benchmark input edited as text (events taken out with grep, say) gets there
// this way.
#include "import/Loader.h"
#include "write/TraceDatWriter.h"

#include <cstdio>
#include <exception>

int main(int argc, char **argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: to_dat IN OUT.dat\n");
        return 2;
    }
    try {
        const auto trace = tickscope::loadTrace(argv[1]);
        const tickscope::DatWriteStats s = tickscope::writeTraceDat(*trace, argv[2]);
        std::printf("%s: %llu events in %llu pages, %llu bytes\n", argv[2],
                    static_cast<unsigned long long>(s.events), static_cast<unsigned long long>(s.pages),
                    static_cast<unsigned long long>(s.bytes));
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
