// SPDX-License-Identifier: GPL-3.0-or-later
#include "JsonWriter.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <vector>

namespace tickscope {

using Json = nlohmann::ordered_json;

// NOLINTNEXTLINE(bugprone-exception-escape): basic_json() is not declared noexcept; a null one cannot throw
struct JsonWriter::Tree
{
    int indent = 2;
    Json root;
    bool rooted = false;
    std::vector<Json *> open; // the containers begun and not yet ended, innermost last
    mutable std::string text;
    mutable bool written = false;

    // Adds v under key (in an object) or at the end (in an array, or as the root); returns it.
    Json &put(std::string_view key, Json v)
    {
        if (open.empty()) {
            root = std::move(v);
            rooted = true;
            return root;
        }
        Json &parent = *open.back();
        if (parent.is_array()) {
            parent.push_back(std::move(v));
            return parent.back();
        }
        // Appended without a lookup: ordered_map's operator[] searches the object's keys one by one, which
        // made a 128-CPU report's JSON 5 times slower. The callers write each key once.
        auto &object = parent.get_ref<Json::object_t &>();
        object.Json::object_t::Container::emplace_back(std::string(key), std::move(v));
        return object.back().second;
    }
};

JsonWriter::JsonWriter(int indent) : tree_(std::make_unique<Tree>())
{
    tree_->indent = indent;
}

JsonWriter::~JsonWriter() = default;

JsonWriter &JsonWriter::beginObject(std::string_view key)
{
    tree_->open.push_back(&tree_->put(key, Json::object()));
    return *this;
}

JsonWriter &JsonWriter::endObject()
{
    tree_->open.pop_back();
    return *this;
}

JsonWriter &JsonWriter::beginArray(std::string_view key)
{
    tree_->open.push_back(&tree_->put(key, Json::array()));
    return *this;
}

JsonWriter &JsonWriter::endArray()
{
    tree_->open.pop_back();
    return *this;
}

JsonWriter &JsonWriter::value(std::string_view key, std::string_view v)
{
    tree_->put(key, std::string(v));
    return *this;
}

JsonWriter &JsonWriter::value(std::string_view key, int64_t v)
{
    tree_->put(key, v);
    return *this;
}

JsonWriter &JsonWriter::value(std::string_view key, uint64_t v)
{
    tree_->put(key, v);
    return *this;
}

JsonWriter &JsonWriter::value(std::string_view key, double v)
{
    if (!std::isfinite(v)) return null(key);
    // 6 significant digits, as the text report prints them: a figure's last digits are noise (a p99 from
    // buckets, a mean of ns), and two runs' JSON then differ only where their figures do.
    char buf[32];
    const auto end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 6).ptr; // = %.6g
    double r = v;
    std::from_chars(buf, end, r);
    if (r == std::floor(r) && std::abs(r) < 9.007199254740992e15)
        tree_->put(key, static_cast<int64_t>(r)); // "2", not "2.0"
    else
        tree_->put(key, r);
    return *this;
}

JsonWriter &JsonWriter::value(std::string_view key, bool v)
{
    tree_->put(key, v);
    return *this;
}

JsonWriter &JsonWriter::null(std::string_view key)
{
    tree_->put(key, nullptr);
    return *this;
}

const std::string &JsonWriter::str() const
{
    Tree &t = *tree_;
    if (!t.written) {
        t.text = t.rooted
                     ? t.root.dump(t.indent > 0 ? t.indent : -1, ' ', false, Json::error_handler_t::replace)
                     : std::string();
        if (t.rooted && t.root.is_object()) t.text += '\n';
        t.written = true;
    }
    return t.text;
}

std::string JsonWriter::take()
{
    str();
    Tree &t = *tree_;
    std::string out = std::move(t.text);
    t.root = Json();
    t.rooted = t.written = false;
    t.open.clear();
    t.text.clear();
    return out;
}

} // namespace tickscope
