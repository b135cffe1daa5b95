#include "MemoryFit.h"

#include "util/ProcessStats.h"

#include <algorithm>
#include <cstdio>

namespace tickscope {

namespace {

std::string size(uint64_t bytes) // "2.4 GiB"; below 1 GiB in MiB, so that the two sizes differ
{
    char b[32];
    if (bytes >= (uint64_t{1} << 30))
        std::snprintf(b, sizeof b, "%.1f GiB", static_cast<double>(bytes) / (1u << 30));
    else
        std::snprintf(b, sizeof b, "%.0f MiB", static_cast<double>(bytes) / (1u << 20));
    return b;
}

} // namespace

double modelWeight(const LoadOptions &options)
{
    return options.bytesPerDataByte > 0 ? options.bytesPerDataByte / kModelBytesPerDataByte : 1.0;
}

int64_t nsAfter(int64_t first, double seconds)
{
    const double ns = seconds * 1e9;
    return ns >= static_cast<double>(INT64_MAX) - static_cast<double>(first)
               ? INT64_MAX
               : first + static_cast<int64_t>(ns);
}

void refuseIfTooBig(const std::string &path, const LoadOptions &options, uint64_t need, double spanSeconds)
{
    const uint64_t avail = options.memoryAvailable ? options.memoryAvailable : memoryAvailableBytes();
    if (!avail || need <= avail) return;
    const std::string what = path + ": " + (options.window ? "the chosen window" : "the trace") +
                             " needs about " + size(need) + " of memory to load, " + size(avail) +
                             " are available";
    if (avail <= kModelFixedBytes)
        throw TooBigError(what + ", less than what tickscope needs before the first event", spanSeconds, need,
                          avail);
    char span[64];
    std::snprintf(span, sizeof span, "%.3f", spanSeconds);
    const double fits = spanSeconds * static_cast<double>(avail - std::min(avail, kModelFixedBytes)) /
                        std::max<double>(1, static_cast<double>(need - std::min(need, kModelFixedBytes)));
    char w[64];
    const double fit = std::max(0.001, fits * 0.9);
    std::snprintf(w, sizeof w, fit >= 1 ? "%.1f" : "%.3f", fit);
    throw TooBigError(what +
                          "; load a window of time instead (--load-window A:B, seconds after the start; the "
                          "file spans " +
                          span + " s, about " + w + " s fit)",
                      spanSeconds, need, avail);
}

} // namespace tickscope
