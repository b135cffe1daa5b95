// Shared by the fuzz targets: the input as a file (a memfd: a regular file, as the importers require),
// and the analysis of whatever loaded, as the CLI and the GUI run it.
#pragma once

#include "analysis/TickAnalysis.h"
#include "analysis/TickReport.h"
#include "import/Loader.h"
#include "view/TimelineIndex.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <sys/mman.h>
#include <unistd.h>

namespace tickscope::fuzz {

class MemFile
{
public:
    MemFile(const uint8_t *data, size_t size)
    {
        fd_ = ::memfd_create("tickscope-fuzz", MFD_CLOEXEC);
        if (fd_ < 0) std::abort();
        for (size_t done = 0; done < size;) {
            const ssize_t n = ::write(fd_, data + done, size - done);
            if (n <= 0) std::abort();
            done += static_cast<size_t>(n);
        }
        path_ = "/proc/self/fd/" + std::to_string(fd_);
    }
    ~MemFile() { ::close(fd_); }
    const std::string &path() const { return path_; }

private:
    int fd_ = -1;
    std::string path_;
};

// Loads every source of the file and runs what a user's first look runs: the tick analysis, the
// report of the whole trace and the timeline index. Load errors are expected; crashes are not.
inline void loadAndAnalyse(const uint8_t *data, size_t size, bool recordApi)
{
    MemFile file(data, size);
    LoadOptions options;
    options.threads = 1;
    options.recordApi = recordApi;
    options.streamIdleTimeoutMs = 10;
    try {
        for (const auto &trace : loadAll(file.path(), options)) {
            const TickAnalysis analysis = TickAnalysis::run(*trace, AnalysisOptions{});
            const TickReport report = TickReport::make(*trace, analysis, ReportOptions{});
            (void)formatReportText(report);
            (void)formatReportJson(report);
            (void)TimelineIndex::build(*trace, analysis, 1);
        }
    } catch (const LoadError &e) {
        // An exception the importers do not turn into a message of their own is a defect.
        if (std::string_view(e.what()).find(kUnexpectedContent) != std::string_view::npos) std::abort();
    }
}

} // namespace tickscope::fuzz
