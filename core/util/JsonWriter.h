// SPDX-License-Identifier: GPL-3.0-or-later
// JSON output with a stable key order, written as a stream of calls (begin/value/end) and kept as an
// nlohmann-json tree (ordered_json), which does the escaping, the indentation and the check that strings
// are UTF-8 (bytes that are not become U+FFFD: the output always parses). Numbers keep the report's form:
// doubles to 6 significant digits, whole ones printed without a fraction.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace tickscope {

class JsonWriter
{
public:
    explicit JsonWriter(int indent = 2); // 0: one line
    ~JsonWriter();
    JsonWriter(const JsonWriter &) = delete;
    JsonWriter &operator=(const JsonWriter &) = delete;

    JsonWriter &beginObject(std::string_view key = {});
    JsonWriter &endObject();
    JsonWriter &beginArray(std::string_view key = {});
    JsonWriter &endArray();
    JsonWriter &value(std::string_view key, std::string_view v);
    JsonWriter &value(std::string_view key, const char *v) { return value(key, std::string_view(v)); }
    JsonWriter &value(std::string_view key, int64_t v);
    JsonWriter &value(std::string_view key, uint64_t v);
    JsonWriter &value(std::string_view key, int v) { return value(key, static_cast<int64_t>(v)); }
    JsonWriter &value(std::string_view key, double v);
    JsonWriter &value(std::string_view key, bool v);
    JsonWriter &null(std::string_view key);
    // The text (a top-level object ends with a newline); the writer is not written to after.
    const std::string &str() const;
    std::string take(); // the text, leaving the writer empty

private:
    struct Tree;
    std::unique_ptr<Tree> tree_;
};

} // namespace tickscope
