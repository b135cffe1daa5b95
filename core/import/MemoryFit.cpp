// SPDX-License-Identifier: GPL-3.0-or-later
#include "MemoryFit.h"

#include "FuncGraphText.h"
#include "TextLineParser.h"
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

constexpr int64_t kNoTs = INT64_MIN;

// The time of an event line, or of a function_graph line with funcgraph-abstime; kNoTs for other lines.
int64_t lineTs(std::string_view line, const text::PrefixOracle *prefixes)
{
    if (const text::ParsedLine pl = text::parseLine(line, prefixes); pl.kind == text::LineKind::Event)
        return pl.ts;
    const funcgraph::Line g = funcgraph::parseLine(line);
    return g.kind != funcgraph::LineKind::None ? g.ts : kNoTs;
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

TextWeight weighText(const std::string &path, std::string_view data, size_t lines, const LoadOptions &options,
                     const text::PrefixOracle *prefixes)
{
    constexpr size_t kLook = size_t{4} << 20;
    TextWeight w;
    for (size_t pos = 0; pos < std::min(data.size(), kLook) && w.first == kNoTs;) {
        const size_t nl = data.find('\n', pos);
        const size_t end = nl == std::string_view::npos ? data.size() : nl;
        w.first = lineTs(data.substr(pos, end - pos), prefixes);
        pos = end + 1;
    }
    int64_t last = kNoTs;
    for (size_t end = data.size(); end > 0 && data.size() - end < kLook && last == kNoTs;) {
        if (data[end - 1] == '\n') --end; // (the last line's newline)
        const size_t nl = data.rfind('\n', end == 0 ? 0 : end - 1);
        const size_t begin = nl == std::string_view::npos || end == 0 ? 0 : nl + 1;
        last = lineTs(data.substr(begin, end - begin), prefixes);
        if (begin == 0) break;
        end = begin;
    }
    const bool spanKnown = w.first != kNoTs && last != kNoTs && last > w.first;
    double share = 1;
    if (options.window) {
        if (w.first == kNoTs)
            throw LoadError(path + ": --load-window: no line in the first 4 MiB of this text shows a time "
                                   "(function_graph output shows one with funcgraph-abstime)");
        w.window = {nsAfter(w.first, options.window->first), nsAfter(w.first, options.window->second)};
        if (spanKnown) {
            const double in = static_cast<double>(std::min(w.window->second, last)) -
                              static_cast<double>(std::max(w.window->first, w.first));
            share = std::clamp(in / static_cast<double>(last - w.first), 0.0, 1.0);
        }
    }
    const auto need = static_cast<uint64_t>(static_cast<double>(lines) * share * kModelBytesPerTextLine *
                                            modelWeight(options)) +
                      kModelFixedBytes;
    refuseIfTooBig(path, options, need, spanKnown ? static_cast<double>(last - w.first) / 1e9 : 0);
    return w;
}

} // namespace tickscope
