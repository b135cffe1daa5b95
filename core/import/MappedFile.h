// A whole file mapped privately (copy-on-write), for the fast trace.dat path.
#pragma once

#include <cstdint>
#include <string>

namespace tickscope {

class MappedFile
{
public:
    // data() == nullptr when it cannot be mapped; error() then says why (not a regular file, empty, ...).
    explicit MappedFile(const std::string &path);
    ~MappedFile();
    MappedFile(const MappedFile &) = delete;
    MappedFile &operator=(const MappedFile &) = delete;
    uint8_t *data() const { return data_; }
    uint64_t size() const { return size_; }
    const std::string &error() const { return error_; }

private:
    uint8_t *data_ = nullptr;
    uint64_t size_ = 0;
    std::string error_;
};

} // namespace tickscope
