// SPDX-License-Identifier: GPL-3.0-or-later
// Opening trace files: format detection, options (progress, cancel, threads, instance) and errors.
#pragma once

#include "model/Trace.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tickscope {

struct LoadOptions
{
    // Fraction done in [0, 1]. May be called from worker threads (never concurrently with itself).
    std::function<void(double)> progress;
    const std::atomic<bool> *cancel = nullptr; // set to true to stop; the load throws LoadCancelled
    int threads = 0;                           // decode threads; 0 = one per hardware thread
    std::string instance;                      // trace.dat buffer instance; "" = the top-level buffer
    bool instanceGiven = false;                // false: pick the one instance that has events
    bool recordApi =
        false; // trace.dat: use libtracecmd's record API (the reference) instead of the page decoder
    int streamIdleTimeoutMs = 10000; // a pipe or pseudo-file that sends nothing this long is given up
    // trace.dat: load only this span, in seconds after the trace's first event ([from, to]); nullopt: all.
    std::optional<std::pair<double, double>> window;
    // The memory the model may take, in bytes; 0: what /proc/meminfo calls available. A trace.dat whose
    // model would not fit is refused before anything is allocated for it (TooBigError).
    uint64_t memoryAvailable = 0;
    // Bytes of memory per byte of ring-buffer page data the weighing assumes; 0: the loader's own estimate
    // (kModelBytesPerDataByte: the model and the report). The GUI keeps more beside the model (the
    // timeline's index, the event table's order, panels) and passes its own.
    double bytesPerDataByte = 0;
    // trace.dat: a CPU with more than a thread's share of the data is decoded in parts on several threads,
    // each of this size; 0: a quarter of a thread's share, at least 4 MiB. Set, every CPU with more data
    // than it is split (tests set it small to split every CPU).
    uint64_t decodePartBytes = 0;
};

// One clear line for the user; the CLI prints it and exits non-zero, the GUI shows it in a dialog.
class LoadError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};
// The model of the file (or of the chosen window) would not fit in memory: said before allocating it, with
// what a window of time to load could be.
class TooBigError : public LoadError
{
public:
    TooBigError(const std::string &message, double spanSeconds, uint64_t needBytes, uint64_t availableBytes)
        : LoadError(message), spanSeconds(spanSeconds), needBytes(needBytes), availableBytes(availableBytes)
    {
    }
    double spanSeconds; // the file's span, from its first to its last page
    uint64_t needBytes, availableBytes;
};
class LoadCancelled : public LoadError
{
public:
    LoadCancelled() : LoadError("loading cancelled") {}
};

enum class FileFormat
{
    TraceDat,
    Text
};

class InputFile;

// Throws LoadError for a missing/unreadable file, a directory, a device, an empty file or a truncated
// trace.dat header.
FileFormat detectFormat(const InputFile &in);

// Every source in the file: each buffer instance that has events (a text trace: one per instance
// prefix, usually one). Throws LoadError when nothing can be read.
std::vector<std::unique_ptr<Trace>> loadAll(const std::string &path, const LoadOptions &options = {});

// Exactly one source: options.instance when given, else the only instance with events. A file with
// events in several instances throws a LoadError that names them.
std::unique_ptr<Trace> loadTrace(const std::string &path, const LoadOptions &options = {});

// The LoadError for a file with events in several buffer instances ("" = the top level).
LoadError severalInstancesError(const std::string &path, const std::vector<std::string> &instances);

// The end of the message for a file that made an importer fail in a way it does not report itself (a
// defect): the fuzz targets treat it as a finding.
inline constexpr const char *kUnexpectedContent =
    "cannot be read: its content trips an unexpected case in tickscope; please report it with the file";

// Throws LoadCancelled when the flag is set.
inline void checkCancel(const LoadOptions &o)
{
    if (o.cancel && o.cancel->load(std::memory_order_relaxed)) throw LoadCancelled();
}

} // namespace tickscope
