// tickscope: the GUI. `tickscope [FILE ...]` opens FILE (the first one for now); without FILE it shows the
// simulated seed000-nohzfull-poll preset (baseline).
#include "MainWindow.h"
#include "ViewState.h"

#include <QAbstractEventDispatcher>
#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

// Seconds since this process started (the kernel's start time in /proc/self/stat, in clock ticks since
// boot), so that the dynamic loading of the libraries counts too. -1 when unknown.
double secondsSinceProcessStart()
{
    std::ifstream f("/proc/self/stat");
    std::string s((std::istreambuf_iterator<char>(f)), {});
    const size_t p = s.rfind(')');
    if (p == std::string::npos) return -1;
    unsigned long long start = 0;
    const char *c = s.c_str() + p + 2;
    for (int field = 3; field < 22; ++field)
        c = std::strchr(c, ' ') + 1; // field 22: starttime
    start = std::strtoull(c, nullptr, 10);
    timespec now{};
    clock_gettime(CLOCK_BOOTTIME, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9 -
           static_cast<double>(start) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("tickscope"));
    QApplication::setApplicationName(QStringLiteral("tickscope"));
    QApplication::setApplicationVersion(QStringLiteral(TICKSCOPE_VERSION));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Linux timer ticks per CPU, explained."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("trace.dat or ftrace text to open"));
    const QCommandLineOption shot(QStringLiteral("screenshot"),
                                  QStringLiteral("Save a PNG of the window once FILE is shown, then quit."),
                                  QStringLiteral("PNG"));
    parser.addOption(shot);
    // For tests/bench/open-time.sh: once FILE is shown and the event loop has nothing left to do, paint,
    // print the seconds since the process started and quit.
    QCommandLineOption drawn(QStringLiteral("quit-when-drawn"), QStringLiteral("benchmark: quit when idle"));
    drawn.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(drawn);
    const QCommandLineOption view(QStringLiteral("view"),
                                  QStringLiteral("Show seconds A to B after the trace start once FILE is loaded."),
                                  QStringLiteral("A:B"));
    parser.addOption(view);
    parser.process(app);

    tickscope::MainWindow w;
    const QStringList files = parser.positionalArguments();
    if (parser.isSet(view)) {
        const QStringList ab = parser.value(view).split(QLatin1Char(':'));
        bool okA = false, okB = false;
        const double a = ab.size() == 2 ? ab[0].toDouble(&okA) : 0, b = ab.size() == 2 ? ab[1].toDouble(&okB) : 0;
        if (!okA || !okB || b <= a) {
            std::fprintf(stderr, "tickscope: --view wants A:B in seconds with A < B\n");
            return 2;
        }
        QObject::connect(&w, &tickscope::MainWindow::traceShown, &w, [&w, a, b] {
            tickscope::ViewState *vs = w.viewState();
            const auto at = [vs](double s) { return vs->boundsStart() + static_cast<int64_t>(s * 1e9); };
            vs->setRange(at(a), at(b));
        });
    }
    if (parser.isSet(shot)) {
        const QString png = parser.value(shot);
        auto save = [&w, png] {
            const bool ok = w.grab().save(png);
            QApplication::exit(ok ? 0 : 1);
        };
        QObject::connect(&w, &tickscope::MainWindow::traceShown, &w, [save] { QTimer::singleShot(200, save); });
        QObject::connect(&w, &tickscope::MainWindow::loadFailed, &w, [] { QApplication::exit(1); });
    }
    if (parser.isSet(drawn)) {
        QObject::connect(&w, &tickscope::MainWindow::traceShown, &w, [&w] {
            QObject::connect(
                QAbstractEventDispatcher::instance(), &QAbstractEventDispatcher::aboutToBlock, &w,
                [&w] {
                    w.repaint();
                    std::printf("drawn and idle %.3f s after the process started\n",
                                secondsSinceProcessStart());
                    std::fflush(stdout);
                    QApplication::exit(0);
                },
                Qt::SingleShotConnection);
        });
        QObject::connect(&w, &tickscope::MainWindow::loadFailed, &w, [] { QApplication::exit(1); });
    }
    // The load starts on its worker before the window is shown, so that mapping and laying out the window
    // overlap it; its result arrives through the event loop, after every connection above.
    if (!files.isEmpty())
        w.openFile(files.front());
    else
        w.openScenario(QStringLiteral("seed000-nohzfull-poll")); // first start: a simulated nohz_full box
    w.show();
    return app.exec();
}
