// SPDX-License-Identifier: GPL-3.0-or-later
// A minimal streaming JSON writer (objects, arrays, strings, numbers) with stable key order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tickscope {

class JsonWriter
{
public:
    explicit JsonWriter(int indent = 2) : indent_(indent) {}
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
    const std::string &str() const { return out_; }
    std::string take() { return std::move(out_); } // the text, leaving the writer empty
    void reserve(size_t bytes) { out_.reserve(bytes); }

private:
    void prefix(std::string_view key);
    void newline();
    static void escape(std::string &out, std::string_view s);

    int indent_;
    std::string out_;
    std::vector<bool> first_;
};

} // namespace tickscope
