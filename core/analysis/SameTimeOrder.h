// SPDX-License-Identifier: GPL-3.0-or-later
// Ordering a CPU's records among other CPUs' records of the same time. Text traces print microseconds,
// so records of one time are common: a CPU's own stay in event order (which is true), and across CPUs a
// merge puts first the kind of record that cannot follow the other kind within one time. AfterAtTime
// tells, walking one CPU's records in event order, which come after a record of the kind that goes
// second: those must stay behind it in the merge.
#pragma once

#include <cstdint>

namespace tickscope {

class AfterAtTime
{
public:
    // The record at ts (`second`: of the kind that goes second across CPUs): it or a record before it of
    // its CPU at its time is of that kind.
    bool operator()(int64_t ts, bool second)
    {
        if (second) secondTs_ = ts;
        return second || secondTs_ == ts;
    }

private:
    int64_t secondTs_ = INT64_MIN;
};

} // namespace tickscope
