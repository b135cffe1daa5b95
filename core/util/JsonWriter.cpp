// SPDX-License-Identifier: GPL-3.0-or-later
#include "JsonWriter.h"

#include <cmath>
#include <cstdio>

namespace tickscope {

void JsonWriter::newline()
{
    if (indent_ <= 0) return;
    out_ += '\n';
    out_.append(first_.size() * static_cast<size_t>(indent_), ' ');
}

void JsonWriter::prefix(std::string_view key)
{
    if (!first_.empty()) {
        if (!first_.back()) out_ += ',';
        first_.back() = false;
        newline();
    }
    if (!key.empty()) {
        escape(out_, key);
        out_ += indent_ > 0 ? ": " : ":";
    }
}

void JsonWriter::escape(std::string &out, std::string_view s)
{
    out += '"';
    for (unsigned char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    out += '"';
}

JsonWriter &JsonWriter::beginObject(std::string_view key)
{
    prefix(key);
    out_ += '{';
    first_.push_back(true);
    return *this;
}

JsonWriter &JsonWriter::endObject()
{
    const bool empty = first_.back();
    first_.pop_back();
    if (!empty) newline();
    out_ += '}';
    if (first_.empty()) out_ += '\n';
    return *this;
}

JsonWriter &JsonWriter::beginArray(std::string_view key)
{
    prefix(key);
    out_ += '[';
    first_.push_back(true);
    return *this;
}

JsonWriter &JsonWriter::endArray()
{
    const bool empty = first_.back();
    first_.pop_back();
    if (!empty) newline();
    out_ += ']';
    return *this;
}

JsonWriter &JsonWriter::value(std::string_view key, std::string_view v)
{
    prefix(key);
    escape(out_, v);
    return *this;
}

JsonWriter &JsonWriter::value(std::string_view key, int64_t v)
{
    prefix(key);
    out_ += std::to_string(v);
    return *this;
}

JsonWriter &JsonWriter::value(std::string_view key, uint64_t v)
{
    prefix(key);
    out_ += std::to_string(v);
    return *this;
}

JsonWriter &JsonWriter::value(std::string_view key, double v)
{
    prefix(key);
    if (!std::isfinite(v)) {
        out_ += "null";
        return *this;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    out_ += buf;
    return *this;
}

JsonWriter &JsonWriter::value(std::string_view key, bool v)
{
    prefix(key);
    out_ += v ? "true" : "false";
    return *this;
}

JsonWriter &JsonWriter::null(std::string_view key)
{
    prefix(key);
    out_ += "null";
    return *this;
}

} // namespace tickscope
