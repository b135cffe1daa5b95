// The main window as a person uses it, headless: open a real trace and see what was loaded; open a
// bad file and get an error dialog; cancel a load.
#include "MainWindow.h"
#include "TraceLoader.h"

#include <QApplication>
#include <QFileInfo>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using tickscope::MainWindow;

class MainWindowTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QApplication::setOrganizationName(QStringLiteral("tickscope-test"));
        QApplication::setApplicationName(QStringLiteral("tickscope-test"));
    }

    void opensARealTraceAndShowsWhatWasLoaded()
    {
        MainWindow w;
        w.show();
        QSignalSpy shown(&w, &MainWindow::traceShown);
        w.openFile(QStringLiteral(TICKSCOPE_TEST_DATA "/nohzfull-poll.dat"));
        QVERIFY(shown.wait(30000));
        const QString text = w.summaryText();
        QVERIFY2(text.contains(QStringLiteral("events:   11741")), qPrintable(text.left(400)));
        QVERIFY(text.contains(QStringLiteral("6.1.0-57-amd64")));
        QVERIFY(text.contains(QStringLiteral("user_exit")));
        QVERIFY(w.windowTitle().contains(QStringLiteral("nohzfull-poll.dat")));
        QVERIFY(!w.loading());
    }

    // Issue 4 item 8: the first start (no file) shows the simulated seed000-nohzfull-poll baseline.
    void opensTheSeed000ScenarioWithoutAFile()
    {
        MainWindow w;
        w.show();
        QSignalSpy shown(&w, &MainWindow::traceShown);
        w.openScenario(QStringLiteral("seed000-nohzfull-poll"));
        QVERIFY(shown.wait(30000));
        const QString text = w.summaryText();
        QVERIFY2(text.contains(QStringLiteral("tickscope simulation")), qPrintable(text.left(400)));
        QVERIFY(text.contains(QStringLiteral("6.18.0-sim")));
        QVERIFY(text.contains(QStringLiteral("user_exit")));
        QVERIFY(text.contains(QStringLiteral("tick_stop")));
        QVERIFY(w.windowTitle().contains(QStringLiteral("seed000-nohzfull-poll")));
    }

    // The GUI's main starts loading its file before Qt is up; the window's load of that file takes it over,
    // the load of another file cancels it.
    void aPrestartedLoadIsTakenOverOrCancelled()
    {
        using tickscope::TraceLoader;
        const QString poll = QStringLiteral(TICKSCOPE_TEST_DATA "/nohzfull-poll.dat");
        const QString nopoll = QStringLiteral(TICKSCOPE_TEST_DATA "/nohzfull-nopoll.dat");
        for (const QString &open : {poll, nopoll}) {
            TraceLoader::prestart(poll.toStdString());
            QVERIFY(TraceLoader::prestartPending());
            MainWindow w;
            w.show();
            QSignalSpy shown(&w, &MainWindow::traceShown);
            w.openFile(open);
            QVERIFY(!TraceLoader::prestartPending());
            QVERIFY(shown.wait(30000));
            QCOMPARE(shown.first().first().toString(), open);
            QVERIFY(w.windowTitle().contains(QFileInfo(open).fileName()));
            const QString text = w.summaryText();
            QVERIFY2(text.contains(open == poll ? QStringLiteral("events:   11741")
                                                : QStringLiteral("events:   10284")),
                     qPrintable(text.left(400)));
        }
    }

    void aBadFileShowsAnErrorDialog()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("garbage.dat"));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray("\x17\x08\x44tracing6\0garbage-garbage-garbage", 35));
        }
        MainWindow w;
        w.show();
        QSignalSpy failed(&w, &MainWindow::loadFailed);
        QString dialogText;
        // The dialog is modal: read and close it from a timer once it is up.
        QTimer closer;
        connect(&closer, &QTimer::timeout, [&] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                dialogText = box->text();
                box->accept();
            }
        });
        closer.start(20);
        w.openFile(bad);
        QVERIFY(failed.wait(30000));
        QTRY_VERIFY_WITH_TIMEOUT(!dialogText.isEmpty(), 10000);
        QVERIFY2(dialogText.contains(QStringLiteral("garbage.dat")), qPrintable(dialogText));
        QVERIFY(!w.loading());
    }
};

QTEST_MAIN(MainWindowTest)
#include "MainWindowTest.moc"
