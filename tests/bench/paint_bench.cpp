// SPDX-License-Identifier: GPL-3.0-or-later
// paint_bench FILE [--compare B] [--width W --height H] [--collapse-all] [--span S [--repeat N]]: loads FILE
// (trace.dat or text), runs the tick analysis, builds the timeline index, then renders the timeline at
// 1920x1080 offscreen through the real paint path (TimelinePlot::render: QCustomPlot::toPainter with the CPU
// lane plottables, the same code that paints the screen) over a sweep of zoom levels from the whole trace
// down to ~10 µs, several positions per level, and prints ms per full repaint (min / median / max) per level
// and overall, the core's share (column summaries only), and repaints of an unchanged range. Target: <= 8 ms.
// With --compare B the compare view is measured: B loaded too and its lanes interleaved with FILE's (each CPU
// twice, both runs aligned by start), the sweep over both runs' span. Target: <= 8 ms median, <= 16 ms max.
// --painter-fills: every lane fill through QPainter::fillRect, not straight into pixels (PixelCanvas), to
// compare the two in one build; --ab-fills: QPainter fills and the shipped choice (pixels where cheaper),
// alternating paint by paint (the machine's drift falls on both alike), each printed on its own.
// --collapse-all: every lane collapsed first (View > Collapse All CPUs): with 128 CPUs all lanes are on
// screen, each a thin row of task states.
// --span S [--repeat N]: only the zoom level S seconds wide, N rounds of its positions (default 20), to
// profile one level (perf record -p PID once the header "visible span ..." is printed).
// A paint over 12 ms prints its page faults and context switches (fresh memory, or a core lost).
// Without FILE, or when it does not exist, it says so and exits 0 (a skip, not a failure).
#include "Allocator.h"
#include "PixelCanvas.h"
#include "TimelinePlot.h"
#include "TimelineView.h"
#include "ViewState.h"
#include "session/Document.h"

#include "session/OpenRun.h"
#include "view/TimelineIndex.h"

#include <QApplication>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

using namespace tickscope;
using Clock = std::chrono::steady_clock;

namespace {
double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Page faults and context switches of the whole process (every thread) so far: a slow paint with many
// faults touched fresh memory, one with involuntary switches lost its core.
struct Usage
{
    long minorFaults, majorFaults, involuntary, voluntary;
};
Usage usage()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return {u.ru_minflt, u.ru_majflt, u.ru_nivcsw, u.ru_nvcsw};
}

struct Stats
{
    double min, median, max;
};
Stats stats(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return {v.front(), v[v.size() / 2], v.back()};
}
} // namespace

int main(int argc, char **argv)
{
    tickscope::keepFreedMemory(); // the allocator as the GUI sets it
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("tickscope-bench"));
    const QStringList args = app.arguments();
    int width = 1920, height = 1080;
    QString file, fileB;
    double onlySpan = 0; // ns; 0: the whole sweep
    int repeat = 20;
    bool abFills = false, collapseAll = false;
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QStringLiteral("--compare") && i + 1 < args.size())
            fileB = args[++i];
        else if (args[i] == QStringLiteral("--width") && i + 1 < args.size())
            width = args[++i].toInt();
        else if (args[i] == QStringLiteral("--height") && i + 1 < args.size())
            height = args[++i].toInt();
        else if (args[i] == QStringLiteral("--painter-fills"))
            PixelCanvas::setMode(PixelCanvas::Mode::Painter);
        else if (args[i] == QStringLiteral("--ab-fills"))
            abFills = true;
        else if (args[i] == QStringLiteral("--collapse-all"))
            collapseAll = true;
        else if (args[i] == QStringLiteral("--span") && i + 1 < args.size())
            onlySpan = args[++i].toDouble() * 1e9;
        else if (args[i] == QStringLiteral("--repeat") && i + 1 < args.size())
            repeat = std::max(1, args[++i].toInt());
        else
            file = args[i];
    }
    if (file.isEmpty() || !std::filesystem::exists(file.toStdString())) {
        std::printf("paint_bench: skipped: %s\n", file.isEmpty()
                                                      ? "no FILE given (paint_bench FILE)"
                                                      : qPrintable(file + QStringLiteral(" does not exist")));
        return 0;
    }
    if (!fileB.isEmpty() && !std::filesystem::exists(fileB.toStdString())) {
        std::printf("paint_bench: skipped: %s does not exist\n", qPrintable(fileB));
        return 0;
    }
    try {
        auto open = [](const QString &path) {
            OpenedRun run = openRun(RunSource::file(path.toStdString()));
            Document doc = std::move(run.doc);
            doc.title = path.toStdString();
            std::printf("file:        %s\n", qPrintable(path));
            std::printf("events:      %zu on %d CPUs\n", doc.trace->eventCount(), doc.trace->cpuCount());
            std::printf("load %.0f ms, analysis %.0f ms, timeline index %.0f ms (%.1f MB)\n",
                        run.loadSeconds * 1e3, run.analysisSeconds * 1e3, run.timelineSeconds * 1e3,
                        doc.timeline->bytes() / 1e6);
            return doc;
        };
        const Document doc = open(file);

        ViewState state;
        TimelineView view(&state);
        view.resize(width, height);
        view.setDocument(doc);
        state.reset(doc.trace->firstTs(), doc.trace->lastTs(), doc.trace->cpuCount());
        if (!fileB.isEmpty()) {
            auto c = std::make_shared<Comparison>();
            c->b = open(fileB);
            c->zeroA = doc.trace->firstTs();
            c->zeroB = c->b.trace->firstTs();
            c->how = "start";
            state.setComparison(std::move(c));
            std::printf("compare view: %zu lanes\n", view.plot()->geometry().lanes.size());
        }
        if (collapseAll) view.collapseAll(true);
        // Idle first, as a user is once the window has opened: the view's whole-trace report (the CPU
        // strip's numbers) runs on the thread pool after setDocument, and painting beside it measures the
        // two cores shared, not the paint.
        const auto r0 = Clock::now();
        while (!view.cpuReport())
            QApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        std::printf("the view's report ready %.0f ms after the document\n", msSince(r0));
        const QSize size(width, height);
        view.render(size); // warm-up (fonts, caches)

        const int64_t first = state.boundsStart(), last = state.boundsEnd();
        std::vector<double> all, cached;
        std::vector<double> abAll[2], abCached[2]; // --ab-fills: [0] painter fills, [1] pixels
        std::printf("%14s %6s %9s %9s %9s %12s\n", "visible span", "paints", "min ms", "median ms", "max ms",
                    "LOD only ms");
        std::vector<ColumnSummary> columns(static_cast<size_t>(width));
        const char *slowEnv = std::getenv("PAINT_BENCH_SLOW_MS");
        const double slowMs = slowEnv ? std::atof(slowEnv) : 12.0;
        std::fflush(stdout);
        for (double span = onlySpan > 0 ? onlySpan : static_cast<double>(last - first);; span /= 4) {
            span = std::max(span, 10'000.0);
            std::vector<double> times;
            constexpr int kPositions = 9;
            for (int k = 0; k < kPositions * (onlySpan > 0 ? repeat : 1); ++k) {
                const double centre = first + (last - first) * (k % kPositions + 0.5) / kPositions;
                state.setRange(static_cast<int64_t>(centre - span / 2),
                               static_cast<int64_t>(centre + span / 2), false);
                const bool pixels = !abFills || k % 2 == 1;
                if (abFills)
                    PixelCanvas::setMode(pixels ? PixelCanvas::Mode::Auto : PixelCanvas::Mode::Painter);
                view.plot()->invalidateSummaries(); // a full repaint: column summaries and painting
                // The image is not kept: the next render paints into the same buffer, as the screen's
                // paint buffer is reused (a fresh 8 MB image per paint measures page faults, not painting).
                const Usage u0 = usage();
                const auto p0 = Clock::now();
                const bool painted = !view.render(size).isNull();
                times.push_back(msSince(p0));
                if (times.back() > slowMs) { // over 3/4 of the 16 ms budget: say what else happened
                    const Usage u1 = usage();
                    std::printf("  slow paint %d of this level: %.2f ms, %ld minor / %ld major page faults, "
                                "%ld involuntary / %ld voluntary context switches\n",
                                k, times.back(), u1.minorFaults - u0.minorFaults,
                                u1.majorFaults - u0.majorFaults, u1.involuntary - u0.involuntary,
                                u1.voluntary - u0.voluntary);
                }
                if (!painted) throw std::runtime_error("render failed");
                const auto p1 = Clock::now();
                view.render(size); // the same range again (selection, markers, tooltips): summaries cached
                cached.push_back(msSince(p1));
                abAll[pixels].push_back(times.back());
                abCached[pixels].push_back(cached.back());
            }
            // The core's share: the column summaries of every CPU for the same range, without painting.
            const auto l0 = Clock::now();
            for (int cpu = 0; cpu < doc.trace->cpuCount(); ++cpu)
                doc.timeline->summarize(cpu, state.rangeStart(), state.rangeEnd(),
                                        width - TimelinePlot::kLeftMargin, columns.data());
            if (const auto &c = state.comparison()) {
                for (int cpu = 0; cpu < c->b.trace->cpuCount(); ++cpu)
                    c->b.timeline->summarize(cpu, state.rangeStart() + c->shift(),
                                             state.rangeEnd() + c->shift(), width - TimelinePlot::kLeftMargin,
                                             columns.data());
            }
            const double lodMs = msSince(l0);
            const Stats s = stats(times);
            std::printf("%11.6f s %6zu %9.2f %9.2f %9.2f %12.2f\n",
                        (state.rangeEnd() - state.rangeStart()) / 1e9, times.size(), s.min, s.median, s.max,
                        lodMs);
            all.insert(all.end(), times.begin(), times.end());
            if (span <= 10'000.0 || onlySpan > 0) break;
        }
        const Stats s = stats(all), c = stats(cached);
        std::printf(
            "all %zu full repaints at %dx%d: min %.2f ms, median %.2f ms, max %.2f ms (target <= 8 ms)\n",
            all.size(), width, height, s.min, s.median, s.max);
        std::printf("same-range repaints (cached summaries): min %.2f ms, median %.2f ms, max %.2f ms\n",
                    c.min, c.median, c.max);
        for (int pixels = 0; abFills && pixels < 2; ++pixels) {
            const Stats a = stats(abAll[pixels]), b = stats(abCached[pixels]);
            std::printf(
                "%s: full repaints median %.2f ms, max %.2f ms; same-range median %.2f ms, max %.2f ms\n",
                pixels ? "pixels where cheaper" : "fills via QPainter  ", a.median, a.max, b.median, b.max);
        }
        return 0;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "paint_bench: %s\n", e.what());
        return 1;
    }
}
