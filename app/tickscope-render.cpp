// SPDX-License-Identifier: GPL-3.0-or-later
// tickscope-render: `tickscope-cli render` (tickscope-cli runs this program, which links the GUI's paint
// code; tickscope-cli itself stays free of Qt). Renders the timeline of a trace or a scenario — or the
// compare view of two runs — to PNG, SVG or PDF without a display, through the same code as the GUI's
// File -> Export View, so that the same view at the same size gives the same picture.
#include "CommandLine.h"
#include "ExportView.h"
#include "TimelinePlot.h"
#include "ViewState.h"
#include "WindowOption.h"
#include "session/Document.h"
#include "tickscope_version.h"

#include "analysis/CpuList.h"
#include "import/Loader.h"
#include "report/ReportMail.h"
#include "report/TickReport.h"
#include "session/OpenRun.h"
#include "sim/Presets.h"
#include "sim/SimReport.h"
#include "view/TimelineIndex.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace tickscope;

namespace {

Document open(const std::string &spec, uint64_t seed, const LoadOptions &load)
{
    OpenOptions options;
    options.load = load;
    try {
        return openRun(RunSource::named(spec, seed), options).doc;
    } catch (const RunOptionError &e) {
        throw UsageError{std::string("render: ") + e.what()};
    }
}

double seconds(const std::string &opt, const std::string &text)
{
    char *end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v) || std::abs(v) > 9e9)
        throw UsageError{"render: " + opt + ": '" + text + "' is not a number of seconds"};
    return v;
}

int run(const std::vector<std::string> &args)
{
    RenderArgs r;
    CommandLine cl = renderCommandLine(r);
    cl.parse(args);
    const std::string &in = r.in, &out = r.out, &compare = r.compare, &window = r.window, &cpus = r.cpus,
                      &title = r.title, &sizeText = r.size, &alignText = r.align, &loadWindow = r.loadWindow;
    const bool titleGiven = cl.given("--title"), markers = r.markers, legend = !r.noLegend,
               summary = r.summary;
    const double scale = cl.given("--scale") ? seconds("--scale", r.scale) : 1;
    uint64_t seed = 1;
    if (cl.given("--seed")) {
        const double s = seconds("--seed", r.seed);
        if (s < 0 || s != std::floor(s)) throw UsageError{"render: --seed: expected a whole number"};
        seed = static_cast<uint64_t>(s);
    }
    if (in.empty()) throw UsageError{"render: expected a FILE or SCENARIO"};
    if (out.empty()) throw UsageError{"render: --out OUT.png|.svg|.pdf is required"};
    if (window.size() && markers) throw UsageError{"render: --window and --markers exclude each other"};
    if (scale < 0.25 || scale > 8) throw UsageError{"render: --scale: expected 0.25 to 8"};
    ExportOptions o;
    o.scale = scale;
    o.legend = legend;
    if (!sizeText.empty()) {
        int w = 0, h = 0;
        char x = 0, extra = 0;
        if (std::sscanf(sizeText.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || x != 'x' || w < 320 ||
            h < 240 || w > 16384 || h > 16384)
            throw UsageError{"render: --size: expected WxH from 320x240 to 16384x16384, got '" + sizeText +
                             "'"};
        o.size = QSize(w, h);
    }
    // The output is checked before any loading: a wrong name costs nothing.
    const QString outPath = QString::fromStdString(out);
    if (const QString e = checkExportPath(outPath); !e.isEmpty()) throw LoadError(e.toStdString());
    const QFileInfo dir(QFileInfo(outPath).absolutePath());
    if (!dir.isDir() || !dir.isWritable())
        throw LoadError(out + ": cannot write it (" + dir.absoluteFilePath().toStdString() +
                        (dir.isDir() ? " is not writable)" : " is not a directory)"));
    std::optional<Alignment> align;
    if (!alignText.empty()) {
        align = parseAlignment(alignText);
        if (!align) throw UsageError{"render: --align: expected start, marker or an offset in seconds"};
        if (compare.empty()) throw UsageError{"render: --align needs --compare"};
    }

    // Weighed like the GUI (the timeline index besides the model); --load-window A:B loads only seconds A
    // to B after each file's first event, for a file whose whole model would not fit.
    LoadOptions load = viewLoadOptions();
    if (!loadWindow.empty())
        if (std::string e = parseLoadWindow(loadWindow, load); !e.empty()) throw UsageError{"render: " + e};
    const Document a = open(in, seed, load);
    o.functions = a.trace->functions.timed(); // the legend lists the function row's colours
    ViewState state;
    TimelinePlot plot(&state);
    plot.resize(o.size);
    plot.setDocument(a);
    state.reset(a.trace->startTs(), a.trace->endTs(), a.trace->cpuCount());
    std::shared_ptr<Comparison> cmp;
    if (!compare.empty()) {
        std::string why;
        auto c = compareRuns(a, open(compare, seed, load), align, why);
        if (!c) throw LoadError("render: " + why);
        cmp = std::make_shared<Comparison>(std::move(*c));
        state.setComparison(cmp);
    }
    if (!cpus.empty()) {
        const auto list = parseCpuList(cpus);
        if (!list) throw UsageError{"render: --cpus: not a CPU list: '" + cpus + "'"};
        for (int c : *list)
            if (c >= a.trace->cpuCount())
                throw LoadError(in + ": --cpus: CPU " + std::to_string(c) + " is not in the trace (" +
                                std::to_string(a.trace->cpuCount()) + " CPUs)");
        state.setCpus(*list);
    }
    const int64_t zero = plot.origin();
    if (!window.empty()) {
        const size_t colon = window.find(':');
        if (colon == std::string::npos) throw UsageError{"render: --window: expected A:B in seconds"};
        const double s = seconds("--window", window.substr(0, colon)),
                     e = seconds("--window", window.substr(colon + 1));
        if (e <= s) throw UsageError{"render: --window: A must be below B, got '" + window + "'"};
        const int64_t from = zero + std::llround(s * 1e9), to = zero + std::llround(e * 1e9);
        if (to <= state.boundsStart() || from >= state.boundsEnd())
            throw LoadError(in + ": --window " + window + " is outside the trace (" +
                            std::to_string((state.boundsStart() - zero) / 1e9) + " to " +
                            std::to_string((state.boundsEnd() - zero) / 1e9) + " s)");
        state.setRange(from, to, false);
    } else if (markers) {
        const auto m = markerWindow(*a.trace, *a.analysis);
        if (!m) throw LoadError(in + ": --markers: the trace has fewer than two print markers");
        state.setRange(m->first, m->second, false);
    }
    const double fromS = static_cast<double>(state.rangeStart() - zero) / 1e9,
                 toS = static_cast<double>(state.rangeEnd() - zero) / 1e9;
    o.title = titleGiven ? QString::fromStdString(title) : exportTitle(a, cmp.get(), fromS, toS);
    if (summary) {
        ReportOptions ro;
        ro.cpus = state.cpus();
        ro.from = state.rangeStart();
        ro.to = state.rangeEnd();
        ro.windowSource = "window";
        const TickReport r = TickReport::make(*a.trace, *a.analysis, ro);
        const std::string text = formatReportMail(r, false, "tickscope " TICKSCOPE_VERSION_TEXT);
        for (const QString &line : QString::fromStdString(text).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            o.summary << line;
    }
    QStringList given; // the arguments as given, the output aside
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--out") {
            ++i;
            continue;
        }
        given << QString::fromStdString(args[i]);
    }
    o.footer = renderFooter(given, QStringLiteral(TICKSCOPE_VERSION_TEXT));
    if (sizeText.empty()) { // 1920 wide and as high as the lanes at their largest, without blank space
        const LaneGeometry g = plot.geometryFor(QSize(o.size.width(), 1 << 20));
        const int plotH = TimelinePlot::kTopMargin + TimelinePlot::kBottomMargin + 12 + g.contentHeight;
        o.size.setHeight(std::clamp(o.size.height() - exportPlotRect(o).height() + plotH, 240, 16384));
    }
    if (const QString e = exportView(&plot, o, outPath); !e.isEmpty()) throw LoadError(e.toStdString());
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    // No display needed: the offscreen platform paints the same pixels.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    // Qt's own notes (no XDG_RUNTIME_DIR, fonts) are not the user's concern: every failure is reported
    // below in one line of ours.
    qInstallMessageHandler([](QtMsgType, const QMessageLogContext &, const QString &) {});
    QApplication app(argc, argv);
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        std::fputs(usageOf("render").c_str(), stderr);
        return 2;
    }
    try {
        return run(args);
    } catch (const HelpRequest &) {
        std::fputs(usageOf("render").c_str(), stdout);
        return 0;
    } catch (const UsageError &u) {
        std::fprintf(stderr, "tickscope-cli: %s\n", u.message.c_str());
        return 2;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "tickscope-cli: %s\n", e.what());
        return 1;
    }
}
