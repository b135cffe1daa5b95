// tickscope: the GUI. `tickscope [FILE ...]` opens FILE (the first one for now); without FILE it shows the
// simulated seed000-nohzfull-poll preset (baseline).
#include "MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

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
    parser.process(app);

    tickscope::MainWindow w;
    w.show();
    const QStringList files = parser.positionalArguments();
    if (parser.isSet(shot)) {
        const QString png = parser.value(shot);
        auto save = [&w, png] {
            const bool ok = w.grab().save(png);
            QApplication::exit(ok ? 0 : 1);
        };
        QObject::connect(&w, &tickscope::MainWindow::traceShown, &w, [save] { QTimer::singleShot(200, save); });
        QObject::connect(&w, &tickscope::MainWindow::loadFailed, &w, [] { QApplication::exit(1); });
    }
    if (!files.isEmpty())
        w.openFile(files.front());
    else
        w.openScenario(QStringLiteral("seed000-nohzfull-poll")); // first start: a simulated nohz_full box
    return app.exec();
}
