// SPDX-License-Identifier: GPL-3.0-or-later
// table_bench FILE: what the event table costs on a big trace. Loads FILE, builds the merged order of all
// CPUs (the reference MergedOrder of tests/support, as the table built it before) and prints its time and
// bytes per event; then a CPU filter, an event filter, a task filter (over the order, and without it as the
// table does), random row look-ups (row -> event, event -> row), a cursor placed at random rows without the
// order (the unfiltered table's way), and a text search that finds nothing (the worst case: every event
// formatted once), with and without the order.
#include "ReferenceOrder.h"
#include "import/Loader.h"
#include "model/EventFilter.h"

#include <chrono>
#include <cstdio>
#include <random>

using namespace tickscope;

namespace {

double since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: table_bench FILE\n");
        return 2;
    }
    try {
        auto t0 = std::chrono::steady_clock::now();
        const auto trace = loadTrace(argv[1]);
        const size_t n = trace->eventCount();
        std::printf("events:            %zu (%d CPUs), loaded in %.3f s\n", n, trace->cpuCount(), since(t0));

        t0 = std::chrono::steady_clock::now();
        const auto order = MergedOrder::build(*trace);
        std::printf("merged order:      %.3f s, %.2f bytes/event (checkpoint every %zu rows)\n", since(t0),
                    static_cast<double>(order->bytes()) / static_cast<double>(n),
                    order->checkpointInterval());

        auto filter = [&](const char *what, const EventFilter &f) {
            auto start = std::chrono::steady_clock::now();
            const auto rows = filterRows(*trace, *order, f, nullptr);
            const double withOrder = since(start);
            start = std::chrono::steady_clock::now();
            const auto kept = filterEvents(*trace, f, nullptr);
            std::printf("filter %-10s  %.3f s over the order, %.3f s without it (the table's), %zu rows%s\n",
                        what, withOrder, since(start), rows->size(),
                        kept->size() == rows->size() ? "" : " (NOT THE SAME)");
        };
        filter("CPU 1:", EventFilter::make(*trace, 1, "", ""));
        filter("event:", EventFilter::make(*trace, -1, "", "sched_switch"));
        filter("task:", EventFilter::make(*trace, -1, "cyclictest", ""));

        std::mt19937_64 rng(1);
        const int lookups = 200000;
        t0 = std::chrono::steady_clock::now();
        size_t check = 0;
        for (int k = 0; k < lookups; ++k) {
            const size_t row = rng() % n;
            const EventPos e = order->at(row);
            check += MergedCursor::rowOf(*trace, e) == row;
        }
        std::printf("row <-> event:     %.2f µs per round trip (%zu of %d exact)\n",
                    since(t0) / lookups * 1e6, check, lookups);

        // Without the order (the unfiltered table): a cursor placed at a random row, then a screenful read.
        const int places = 2000;
        t0 = std::chrono::steady_clock::now();
        check = 0;
        for (int k = 0; k < places; ++k) {
            const size_t row = rng() % n;
            MergedCursor c(*trace, row);
            for (int r = 0; r < 40 && c.valid(); ++r, c.next())
                check += c.pos() == order->at(row + static_cast<size_t>(r));
        }
        std::printf("cursor at a row:   %.3f ms to place it and read 40 rows (%zu of %d rows the same)\n",
                    since(t0) / places * 1e3, check, places * 40);

        t0 = std::chrono::steady_clock::now();
        int64_t found = findRow(*trace, *order, nullptr, 0, true, "no event has this text", nullptr);
        std::printf("search (no match): %.3f s over every event (%lld)\n", since(t0),
                    static_cast<long long>(found));
        t0 = std::chrono::steady_clock::now();
        found = findRow(*trace, 0, true, "no event has this text", nullptr);
        std::printf("  without the order: %.3f s (%lld)\n", since(t0), static_cast<long long>(found));
    } catch (const std::exception &e) {
        std::fprintf(stderr, "table_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
