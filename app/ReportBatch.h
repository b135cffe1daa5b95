// SPDX-License-Identifier: GPL-3.0-or-later
// `tickscope-cli report`'s work for one file (load, analyse, the report over the chosen window), and
// `report --jsonl FILE...`: many files, one compact JSON report per line, the files spread over the cores.
#pragma once

#include "analysis/TickAnalysis.h"
#include "import/Loader.h"
#include "report/TickReport.h"

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace tickscope {

struct ReportRequest
{
    LoadOptions load;
    AnalysisOptions analysis;
    ReportOptions report;
    bool markers = false;      // the window between the first and last ftrace print marker
    bool window = false;       // report.from/to were given (--window)
    bool stream = false;       // --stream: read the trace.dat a slice of time at a time (StreamReport.h)
    int64_t sliceNs = 0;       // --stream's slice (0: its default)
    size_t exactValues = 4096; // --stream: values kept per distribution for exact percentiles
};

// An option that does not fit the file (a --cpus CPU the trace does not have): a usage error for one
// file, a failed line for a batch.
class RequestError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// The report of one file; throws LoadError for a file that cannot be read or has no print markers for
// --markers, RequestError for --cpus outside the trace.
TickReport reportOf(const std::string &file, const ReportRequest &request);

// One line per file, in the order given: the report as compact JSON (the keys of `report --json`;
// peak_rss_bytes is 0, the process's peak being no single file's), or {"file": F, "error": MESSAGE}
// for a file that failed (also said on stderr). The files run side by side, one per thread of
// `threads` (0: every hardware thread), each with the threads left over; each gets its share of the
// free memory, and a file too big for its share is tried again alone at the end.
// Returns 0 when every file was reported, 1 otherwise.
int reportJsonLines(const std::vector<std::string> &files, const ReportRequest &request, int threads,
                    std::FILE *out);

} // namespace tickscope
