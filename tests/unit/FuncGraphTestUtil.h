// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the function_graph tests: a text file written and imported as one trace.
#pragma once

#include "TextTestUtil.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace tickscope::texttest {

inline std::unique_ptr<Trace> loadText(const std::string &name, const std::string &text)
{
    auto traces = importText(writeFile(name, text), LoadOptions{});
    EXPECT_EQ(traces.size(), 1u);
    return std::move(traces.front());
}

} // namespace tickscope::texttest
