// SPDX-License-Identifier: GPL-3.0-or-later
// Opening what the user named as a trace: a regular file (mapped), or a stream — a pipe such as
// `<(trace-cmd report ...)`, or a pseudo-file like tracefs `trace` — read whole with a bound on its
// size and on how long it may stay silent. Devices and sockets are refused: /dev/zero would be read
// until memory runs out, and a FIFO without a writer must not block the open forever.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tickscope {

// A stream bigger than this is refused (save it to a file, which is mapped instead).
constexpr uint64_t kMaxStreamBytes = uint64_t{1} << 30;

// A regular file open for reading at any offset (pread), closed with the object. Throws LoadError naming
// the file when it cannot be opened or is something else (a pipe, a device, a directory).
class RegularFile
{
public:
    explicit RegularFile(const std::string &path);
    ~RegularFile();
    RegularFile(const RegularFile &) = delete;
    RegularFile &operator=(const RegularFile &) = delete;
    int fd() const { return fd_; }

private:
    int fd_ = -1;
};

class InputFile
{
public:
    // Throws LoadError (naming the file) for what cannot be read. idleTimeoutMs: how long a stream may
    // send nothing before it is given up.
    InputFile(const std::string &path, int idleTimeoutMs);
    ~InputFile();
    InputFile(const InputFile &) = delete;
    InputFile &operator=(const InputFile &) = delete;

    std::string_view bytes() const;
    bool isStream() const { return map_ == nullptr; } // read into memory, not mapped
    const std::string &path() const { return path_; }

private:
    void readStream(int fd, int idleTimeoutMs, bool fifo);

    std::string path_;
    void *map_ = nullptr;
    size_t mapSize_ = 0;
    std::string buf_;
};

} // namespace tickscope
