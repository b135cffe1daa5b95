// SPDX-License-Identifier: GPL-3.0-or-later
#include "FileSymbols.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <numeric>

namespace tickscope {

FileSymbols::FileSymbols(std::string kallsyms, const std::string &cmdlines) : text_(std::move(kallsyms))
{
    // "ffffffff81000000 T _stext\t[module]": like trace-cmd, skip absolute symbols ('A'/'a', per-cpu
    // offsets on x86-64) and ARM's '$' mapping symbols.
    std::vector<uint64_t> addrs;
    std::vector<uint32_t> names;
    addrs.reserve(text_.size() / 32); // lines are ~40 bytes
    names.reserve(text_.size() / 32);
    size_t nameBytes = 0;
    size_t pos = 0;
    while (pos < text_.size()) {
        size_t end = text_.find('\n', pos);
        if (end == std::string::npos) end = text_.size();
        const char *line = text_.data() + pos;
        const char *lend = text_.data() + end;
        uint64_t addr = 0;
        auto [p, ec] = std::from_chars(line, lend, addr, 16);
        if (ec == std::errc() && p + 3 < lend && p[0] == ' ' && p[2] == ' ') {
            const char type = p[1];
            const char *name = p + 3;
            const char *nend = name;
            while (nend < lend && *nend != '\t' && *nend != ' ')
                ++nend;
            if (nend > name && name[0] != '$' && type != 'A' && type != 'a') {
                addrs.push_back(addr);
                names.push_back(static_cast<uint32_t>(name - text_.data()));
                text_[static_cast<size_t>(nend - text_.data())] = '\0';
                nameBytes += static_cast<size_t>(nend - name) + 1;
            }
        }
        pos = end + 1;
    }
    // Keep only the names: a third of kallsyms, and it stays in memory for the whole load.
    std::string names_only;
    names_only.reserve(nameBytes); // exact: no shrink (and copy) afterwards
    for (auto &off : names) {
        const char *n = text_.data() + off;
        off = static_cast<uint32_t>(names_only.size());
        names_only.append(n, std::strlen(n) + 1);
    }
    text_ = std::move(names_only);
    if (std::is_sorted(addrs.begin(), addrs.end())) { // /proc/kallsyms comes sorted: no permutation
        addrs_ = std::move(addrs);
        names_ = std::move(names);
    } else {
        std::vector<uint32_t> order(addrs.size());
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(),
                         [&](uint32_t a, uint32_t b) { return addrs[a] < addrs[b]; });
        addrs_.reserve(order.size());
        names_.reserve(order.size());
        for (uint32_t i : order) {
            addrs_.push_back(addrs[i]);
            names_.push_back(names[i]);
        }
    }
    size_t cpos = 0;
    while (cpos < cmdlines.size()) {
        size_t end = cmdlines.find('\n', cpos);
        if (end == std::string::npos) end = cmdlines.size();
        int pid = 0;
        const char *b = cmdlines.data() + cpos;
        auto [q, ec] = std::from_chars(b, cmdlines.data() + end, pid);
        if (ec == std::errc() && q < cmdlines.data() + end && *q == ' ')
            comms_[pid] = std::string(q + 1, cmdlines.data() + end);
        cpos = end + 1;
    }
}

const char *FileSymbols::function(uint64_t addr) const
{
    // The symbol at or below addr; past the last symbol only an exact match counts (as in libtraceevent).
    auto it = std::upper_bound(addrs_.begin(), addrs_.end(), addr);
    if (it == addrs_.begin()) return nullptr;
    const size_t i = static_cast<size_t>(it - addrs_.begin()) - 1;
    if (i + 1 == addrs_.size() && addrs_[i] != addr) return nullptr;
    return text_.data() + names_[i];
}

const char *FileSymbols::functionAt(uint64_t addr) const
{
    const auto it = std::lower_bound(addrs_.begin(), addrs_.end(), addr);
    if (it == addrs_.end() || *it != addr) return nullptr;
    return text_.data() + names_[static_cast<size_t>(it - addrs_.begin())];
}

const char *FileSymbols::comm(int pid) const
{
    if (pid == 0) return "<idle>"; // as libtraceevent names it
    auto it = comms_.find(pid);
    return it == comms_.end() ? nullptr : it->second.c_str();
}

} // namespace tickscope
