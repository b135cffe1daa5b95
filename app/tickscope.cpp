// tickscope: the GUI. `tickscope [FILE ...]` opens FILE (the first one for now).
#include "MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>

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
    parser.process(app);

    tickscope::MainWindow w;
    w.show();
    const QStringList files = parser.positionalArguments();
    if (!files.isEmpty()) w.openFile(files.front());
    return app.exec();
}
