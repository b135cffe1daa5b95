// SPDX-License-Identifier: GPL-3.0-or-later
// Function names and task names read from a trace.dat's own KALLSYMS and CMDLINES sections, compactly,
// so that the fast path can close libtracecmd (and its ~25 MB of parsed metadata) before the model
// grows. Lookups follow libtraceevent's tep_find_function() and tep_data_comm_from_pid().
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tickscope {

class NameResolver
{
public:
    virtual ~NameResolver() = default;
    virtual const char *function(uint64_t addr) const = 0; // nullptr when unknown
    // The function that starts exactly at addr (a function pointer a generic event holds), or nullptr.
    virtual const char *functionAt(uint64_t addr) const = 0;
    virtual const char *comm(int pid) const = 0; // nullptr when unknown
};

class FileSymbols : public NameResolver
{
public:
    // kallsyms: /proc/kallsyms text; cmdlines: saved_cmdlines text ("pid comm" lines).
    FileSymbols(std::string kallsyms, const std::string &cmdlines);
    const char *function(uint64_t addr) const override;
    const char *functionAt(uint64_t addr) const override;
    const char *comm(int pid) const override;
    size_t functionCount() const { return addrs_.size(); }

private:
    std::string text_;            // the function names, NUL-terminated (only what lookups need)
    std::vector<uint64_t> addrs_; // sorted
    std::vector<uint32_t> names_; // offsets into text_, parallel to addrs_
    std::unordered_map<int, std::string> comms_;
};

} // namespace tickscope
