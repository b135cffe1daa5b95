// SPDX-License-Identifier: GPL-3.0-or-later
// tickscope: the GUI. `tickscope [FILE]` opens FILE; `tickscope --compare A B` shows run B against run A
// (each a trace or a scenario); without FILE it compares the simulated seed000-nohzfull-poll baseline
// with its p1p2 variant (the patch series' effect).
#include "Allocator.h"
#include "BackgroundJob.h"
#include "CaptureDialog.h"
#include "EventTable.h"
#include "EvidenceDialog.h"
#include "KeysDialog.h"
#include "MainWindow.h"
#include "PanelDocks.h"
#include "TimelinePlot.h"
#include "TimelineView.h"
#include "Timing.h"
#include "TraceLoader.h"
#include "ViewState.h"
#include "tickscope_version.h"

#include "sim/Presets.h"

#include <QAbstractEventDispatcher>
#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QPointer>
#include <QTimer>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

namespace {

// The trace files a plain command line opens (`tickscope [--quit-when-drawn] [--view A:B] [--screenshot PNG]
// [--dock NAME] [--dialog NAME] FILE`, or `--compare A B`), read before the QApplication exists so that their
// loads start first; empty for anything else (Qt's own options, help, a scenario), which then loads the usual
// way.
std::vector<std::string> earlyFiles(int argc, char **argv)
{
    std::vector<std::string> files;
    bool compare = false;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (std::strcmp(a, "--quit-when-drawn") == 0) continue;
        if (std::strcmp(a, "--compare") == 0) {
            compare = true;
            continue;
        }
        if (std::strcmp(a, "--view") == 0 || std::strcmp(a, "--screenshot") == 0 ||
            std::strcmp(a, "--dock") == 0 || std::strcmp(a, "--dialog") == 0) {
            ++i; // its value
            continue;
        }
        if (a[0] == '-') return {};
        files.emplace_back(a);
    }
    if (files.size() != (compare ? 2u : 1u)) return {};
    for (const std::string &f : files) // a scenario (PRESET, FILE.json) is simulated, not read
        if (!tickscope::sim::namesTraceFile(f)) return {};
    return files;
}

// The command line, declared once for the GUI's own parse and for --help/--version, which answer
// without a display.
struct CommandLine
{
    QCommandLineParser parser;
    const QCommandLineOption compare{
        QStringLiteral("compare"),
        QStringLiteral("Compare two runs: tickscope --compare A B (each a trace file or a scenario, "
                       "PRESET[:VARIANT] or FILE.json). A is before, B after.")};
    const QCommandLineOption shot{QStringLiteral("screenshot"),
                                  QStringLiteral("Save a PNG of the window once FILE is shown, then quit."),
                                  QStringLiteral("PNG")};
    // For tests/bench/open-time.sh: once FILE is shown and the event loop has nothing left to do, paint,
    // print the seconds since the process started and quit.
    QCommandLineOption drawn{QStringLiteral("quit-when-drawn"), QStringLiteral("benchmark: quit when idle")};
    const QCommandLineOption view{
        QStringLiteral("view"),
        QStringLiteral("Show seconds A to B after the trace start once FILE is loaded."),
        QStringLiteral("A:B")};
    const QCommandLineOption dock{QStringLiteral("dock"),
                                  QStringLiteral("Show and raise a panel: events, summary, histograms, "
                                                 "functions, findings, difference or what-if; events-b: "
                                                 "the events of run B (for screenshots)."),
                                  QStringLiteral("NAME")};
    const QCommandLineOption dialog{
        QStringLiteral("dialog"),
        QStringLiteral("Open File -> Capture once FILE is shown: 'capture', or 'capture-recording' to start "
                       "recording too (root); --screenshot then takes the dialog (1.5 s into the recording). "
                       "'evidence': View -> What This Trace Can Tell; 'keys': Help -> Keyboard and Mouse."),
        QStringLiteral("NAME")};

    CommandLine()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("tickscope"));
        QCoreApplication::setApplicationName(QStringLiteral("tickscope"));
        QCoreApplication::setApplicationVersion(QStringLiteral(TICKSCOPE_VERSION_TEXT));
        parser.setApplicationDescription(QStringLiteral("Linux timer ticks per CPU, explained."));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addPositionalArgument(
            QStringLiteral("FILE"),
            QStringLiteral("trace.dat or ftrace text to open, or a scenario to simulate "
                           "(PRESET[:VARIANT] or FILE.json)"));
        drawn.setFlags(QCommandLineOption::HiddenFromHelp);
        for (const QCommandLineOption &o : {compare, shot, drawn, view, dock, dialog})
            parser.addOption(o);
    }
};

// Whether the command line asks only for help or the version (Qt's spellings of both).
bool asksHelpOrVersion(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i)
        for (const char *o : {"-h", "--help", "-?", "--help-all", "-v", "--version"})
            if (std::strcmp(argv[i], o) == 0) return true;
    return false;
}

} // namespace

int main(int argc, char **argv)
{
    if (asksHelpOrVersion(argc, argv)) { // no display needed: print and exit
        QCoreApplication core(argc, argv);
        CommandLine cl;
        cl.parser.process(core);
        return 0;
    }
    tickscope::keepFreedMemory();
    if (const auto files = earlyFiles(argc, argv); !files.empty()) tickscope::TraceLoader::prestart(files);
    QApplication app(argc, argv);
    tickscope::markTime("QApplication");
    CommandLine cl;
    cl.parser.process(app);
    const QCommandLineParser &parser = cl.parser;
    const QCommandLineOption &compare = cl.compare, &shot = cl.shot, &drawn = cl.drawn, &view = cl.view,
                             &dock = cl.dock, &dialog = cl.dialog;

    tickscope::MainWindow w;
    const QStringList files = parser.positionalArguments();
    if (parser.isSet(compare) && files.size() != 2) {
        std::fprintf(stderr, "tickscope: --compare wants two runs: A B\n");
        return 2;
    }
    if (!parser.isSet(compare) && files.size() > 1) {
        std::fprintf(stderr, "tickscope: one FILE, or --compare A B\n");
        return 2;
    }
    // What "shown" means for the options below: the trace, or both runs of a comparison.
    const bool comparing = parser.isSet(compare) || files.isEmpty();
    auto onShown = [&w, comparing](auto f) {
        if (comparing)
            QObject::connect(&w, &tickscope::MainWindow::comparisonShown, &w, f);
        else
            QObject::connect(&w, &tickscope::MainWindow::traceShown, &w, f);
    };
    if (parser.isSet(view)) {
        const QStringList ab = parser.value(view).split(QLatin1Char(':'));
        bool okA = false, okB = false;
        const double a = ab.size() == 2 ? ab[0].toDouble(&okA) : 0,
                     b = ab.size() == 2 ? ab[1].toDouble(&okB) : 0;
        if (!okA || !okB || b <= a) {
            std::fprintf(stderr, "tickscope: --view wants A:B in seconds with A < B\n");
            return 2;
        }
        onShown([&w, a, b] {
            // seconds on the time axis: after the trace start, or after the time zero of a comparison
            const int64_t zero = w.timeline()->plot()->origin();
            const auto at = [zero](double s) { return zero + static_cast<int64_t>(s * 1e9); };
            w.viewState()->setRange(at(a), at(b));
        });
    }
    if (parser.isSet(dock)) {
        const QString name = parser.value(dock);
        const bool runB = name == QLatin1String("events-b");
        if (runB && !comparing) {
            std::fprintf(stderr, "tickscope: --dock events-b: run B is that of --compare A B\n");
            return 2;
        }
        QDockWidget *d = name == QLatin1String("events") || runB ? w.panels()->eventDock()
                         : name == QLatin1String("summary")      ? w.panels()->summaryDock()
                         : name == QLatin1String("findings")     ? w.panels()->findingsDock()
                         : name == QLatin1String("histograms")   ? w.panels()->histogramDock()
                         : name == QLatin1String("functions")    ? w.panels()->functionsDock()
                         : name == QLatin1String("difference")   ? w.panels()->differenceDock()
                         : name == QLatin1String("what-if")      ? w.panels()->simulatorDock()
                                                                 : nullptr;
        if (!d) {
            std::fprintf(
                stderr,
                "tickscope: --dock: expected events, events-b, summary, findings, histograms, functions, "
                "difference or what-if\n");
            return 2;
        }
        onShown([&w, d, runB] {
            d->show();
            d->raise();
            if (runB) w.panels()->eventTable()->showRun(1);
        });
    }
    QPointer<QWidget> shotTarget = &w; // what --screenshot takes
    int shotDelayMs = 0;
    if (parser.isSet(dialog)) {
        const QString name = parser.value(dialog);
        if (name != QLatin1String("capture") && name != QLatin1String("capture-recording") &&
            name != QLatin1String("capture-live") && name != QLatin1String("evidence") &&
            name != QLatin1String("keys")) {
            std::fprintf(
                stderr,
                "tickscope: --dialog: expected capture, capture-recording, capture-live, evidence or keys\n");
            return 2;
        }
        if (name == QLatin1String("evidence")) { // View -> What This Trace Can Tell
            shotDelayMs = 300;
            onShown([&w, &shotTarget] {
                if (QWidget *d = w.evidenceDialog()) shotTarget = d;
            });
        } else if (name == QLatin1String("keys")) { // Help -> Keyboard and Mouse
            shotDelayMs = 300;
            onShown([&w, &shotTarget] { shotTarget = w.keysDialog(); });
        } else {
            const bool record = name != QLatin1String("capture");
            const bool window =
                name == QLatin1String("capture-live"); // the window's live view, not the dialog
            shotDelayMs = record ? 2000 : 300;
            auto opened = std::make_shared<bool>(false);
            onShown([&w, &shotTarget, record, window, opened] {
                if (*opened) return; // the live view's documents are shown too
                *opened = true;
                tickscope::CaptureDialog *d = w.captureDialog();
                if (!window) shotTarget = d;
                if (record && !d->startCapture()) QApplication::exit(1);
            });
        }
    }
    w.setNonInteractive(parser.isSet(shot) || parser.isSet(drawn));
    if (parser.isSet(shot)) {
        const QString png = parser.value(shot);
        auto save = [&shotTarget, png, shotDelayMs] {
            QTimer::singleShot(shotDelayMs, qApp, [&shotTarget, png] {
                const bool ok = shotTarget && shotTarget->grab().save(png);
                QApplication::exit(ok ? 0 : 1);
            });
        };
        // After the panels' background jobs (summary, difference, histograms) have delivered: no job on
        // the pool for two polls in a row, 20 s at most.
        onShown([save] {
            auto *poll = new QTimer(qApp);
            auto idle = std::make_shared<int>(0), polls = std::make_shared<int>(0);
            QObject::connect(poll, &QTimer::timeout, qApp, [poll, idle, polls, save] {
                *idle = tickscope::backgroundJobsPending() == 0 ? *idle + 1 : 0;
                if (*idle < 2 && ++*polls < 200) return;
                poll->stop();
                save();
            });
            poll->start(100);
        });
        QObject::connect(&w, &tickscope::MainWindow::loadFailed, &w, [](const QString &message) {
            std::fprintf(stderr, "tickscope: %s\n", qPrintable(message));
            QApplication::exit(1);
        });
    }
    if (parser.isSet(drawn)) {
        onShown([&w] {
            QObject::connect(
                QAbstractEventDispatcher::instance(), &QAbstractEventDispatcher::aboutToBlock, &w,
                [&w] {
                    w.repaint();
                    std::printf("drawn and idle %.3f s after the process started\n",
                                tickscope::secondsSinceProcessStart());
                    std::fflush(stdout);
                    QApplication::exit(0);
                },
                Qt::SingleShotConnection);
        });
        QObject::connect(&w, &tickscope::MainWindow::loadFailed, &w, [] { QApplication::exit(1); });
    }
    // The load starts on its worker before the window is shown, so that mapping and laying out the window
    // overlap it; its result arrives through the event loop, after every connection above.
    if (parser.isSet(compare))
        w.openComparison(files[0], files[1]);
    else if (!files.isEmpty() &&
             (tickscope::sim::namesTraceFile(files.front().toStdString()) ||
              (!files.front().contains(QLatin1String(".json")) &&
               (files.front().contains(QLatin1Char('/')) || files.front().contains(QLatin1Char('.'))))))
        w.openFile(files.front()); // a trace file (a missing one is reported as such)
    else if (!files.isEmpty())     // a scenario: PRESET[:VARIANT] or FILE.json
        w.openScenario(files.front());
    else // first start: a simulated nohz_full box before and after the patch series, said to be a demo
        w.showDemo();
    w.show();
    tickscope::markTime("window built");
    return app.exec();
}
