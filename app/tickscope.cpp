// tickscope: the GUI. `tickscope [FILE ...]` opens FILE (the first one for now).
#include "MainWindow.h"
#include "ViewState.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <cstdio>

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
    const QCommandLineOption view(QStringLiteral("view"),
                                  QStringLiteral("Show seconds A to B after the trace start once FILE is loaded."),
                                  QStringLiteral("A:B"));
    parser.addOption(view);
    parser.process(app);

    tickscope::MainWindow w;
    w.show();
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
        if (files.isEmpty()) QTimer::singleShot(500, save);
    }
    if (!files.isEmpty()) w.openFile(files.front());
    return app.exec();
}
