// SPDX-License-Identifier: GPL-3.0-or-later
// Writes a trace.dat, format version 6 (trace-cmd.dat.v6(5)): the metadata texts in their fixed order,
// the options, then every CPU's ring-buffer pages, page-aligned. Version 6 because its pages are stored
// as the kernel wrote them (a capture's pages are copied byte for byte, no compression step on the
// recording path) and every trace-cmd since 2.0 and every KernelShark reads it; v7's compression would
// save disk at the cost of a second container format to write and test.
//
// The file appears under its final name only when complete: it is written beside it under a temporary
// name and renamed at the end; any failure (the disk full, a write error) removes the temporary file and
// throws LoadError with one line naming the path and the reason.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace tickscope {

struct DatMetadata
{
    uint32_t pageSize = 4096;
    std::string headerPage;                                                // tracefs events/header_page
    std::string headerEvent;                                               // tracefs events/header_event
    std::vector<std::string> ftraceFormats;                                // events/ftrace/*/format
    std::vector<std::pair<std::string, std::vector<std::string>>> systems; // system, its format texts
    std::string kallsyms;                                                  // /proc/kallsyms text
    std::string printk;                                                    // printk_formats text
    std::string cmdlines; // saved_cmdlines text ("pid comm" lines)
    int cpuCount = 0;
    std::string uname;      // "Linux host 6.1.0 #1 SMP ..." (UNAME option)
    std::string traceClock; // the trace_clock file's text ("[local] global ...")
    std::string machine;    // tickscope's machine facts (MachineFacts::serialize), "" for none
};

class DatFileWriter
{
public:
    // Writes the metadata; throws LoadError when the temporary file cannot be created.
    DatFileWriter(std::string path, const DatMetadata &meta);
    ~DatFileWriter(); // removes the temporary file unless finish() succeeded
    DatFileWriter(const DatFileWriter &) = delete;
    DatFileWriter &operator=(const DatFileWriter &) = delete;

    // The CPUs' data, in increasing CPU order, each at most once; CPUs never begun stay empty.
    void beginCpu(int cpu);
    void write(const void *data, size_t size);
    // Completes the CPU table, flushes and renames into place.
    void finish();

    uint64_t bytesWritten() const { return pos_; }

private:
    void raw(const void *data, size_t size);
    void pad();
    void endCpu();
    [[noreturn]] void fail(const std::string &why);

    std::string path_, temp_;
    FILE *f_ = nullptr;
    uint32_t pageSize_;
    uint64_t pos_ = 0;
    uint64_t tableAt_ = 0;
    std::vector<std::pair<uint64_t, uint64_t>> cpus_; // offset, size
    int current_ = -1;
    bool done_ = false;
};

} // namespace tickscope
