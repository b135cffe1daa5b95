// SPDX-License-Identifier: GPL-3.0-or-later
// `tickscope-cli render` and File -> Export View: the same view at the same size gives the same pixels;
// the spurious-tick colour lands in CPU 1's tick row of nohzfull-poll.dat and nowhere in the lanes of
// nohzfull-nopoll.dat; SVG parses and holds the legend as text; the PDF's text has the axis units;
// two renders of one input are byte-identical; the compare view renders; bad output names, unwritable
// places and windows outside the trace get one line, exit 1 and no file; the lanes' fills written straight
// into pixels give the pixels QPainter::fillRect gives, at scale 1 and 2.
#include "ExportView.h"
#include "GuiTestUtil.h"
#include "MainWindow.h"
#include "PixelCanvas.h"
#include "TimelinePalette.h"
#include "TimelinePlot.h"
#include "TimelineView.h"
#include "ViewState.h"
#include "tickscope_version.h"

#include "report/TickReport.h"

#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QProcessEnvironment>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace tickscope;
using test::countColour;

namespace {

QString data(const char *name)
{
    return QStringLiteral(TICKSCOPE_TEST_DATA "/") + QLatin1String(name);
}

struct Run
{
    int exit = -1;
    QString err;
};

Run render(const QStringList &args)
{
    const test::ProgramRun r =
        test::runProgram(QStringLiteral(TICKSCOPE_CLI), QStringList{QStringLiteral("render")} + args);
    return {r.exit, QString::fromUtf8(r.err)};
}

bool open(MainWindow &w, const QString &file)
{
    QSignalSpy shown(&w, &MainWindow::traceShown);
    w.openFile(file);
    return shown.wait(30000);
}

} // namespace

class RenderTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { test::initTestApplication(); }

    void pixelFillsGiveThePaintersPixels()
    {
        for (const char *file : {"nohzfull-poll.dat", "rt-hrtimer-k32-fifo50.dat", "fgraph-timers.dat"}) {
            MainWindow w;
            w.resize(1400, 900);
            w.show();
            QVERIFY(open(w, data(file)));
            ViewState *vs = w.viewState();
            const int64_t first = vs->boundsStart(), span = vs->boundsEnd() - vs->boundsStart();
            // the whole trace, a sixteenth, and ~50 us (sparse tick marks, wide wakeup marks)
            for (int64_t width : {span, span / 16, int64_t{50'000}}) {
                const int64_t mid = first + span / 2;
                vs->setRange(mid - width / 2, mid + width / 2);
                const QSize size(1500, 850);
                for (int scale : {1, 2}) {
                    auto paint = [&](bool pixels) {
                        PixelCanvas::setMode(pixels ? PixelCanvas::Mode::Pixels : PixelCanvas::Mode::Painter);
                        QImage img(size * scale, QImage::Format_ARGB32_Premultiplied);
                        img.setDevicePixelRatio(scale);
                        img.fill(Qt::white);
                        QCPPainter painter(&img);
                        w.timeline()->plot()->paintTo(&painter, size);
                        painter.end();
                        return img;
                    };
                    const QImage viaPainter = paint(false);
                    const uint64_t before = PixelCanvas::composited();
                    const QImage direct = paint(true);
                    QVERIFY(PixelCanvas::composited() > before); // the pixel path was taken
                    PixelCanvas::setMode(PixelCanvas::Mode::Auto);
                    const QRect all(QPoint(0, 0), viaPainter.size());
                    int stateful = 0; // lanes were drawn: pixels of the state row's colours
                    for (TaskSlot t : {TaskSlot::User, TaskSlot::Kernel, TaskSlot::IdleTask,
                                       TaskSlot::IdleShallow, TaskSlot::IdleDeep, TaskSlot::Poll})
                        stateful += countColour(viaPainter, all, palette::task(t));
                    QVERIFY2(stateful > 100, file);
                    QVERIFY2(direct == viaPainter,
                             qPrintable(
                                 QStringLiteral("%1, %2 ns wide, scale %3").arg(file).arg(width).arg(scale)));
                }
            }
        }
    }

    void theCliRendersWhatTheGuiExportsPixelForPixel()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(open(w, data("nohzfull-poll.dat")));
        w.viewState()->setRange(w.viewState()->boundsStart() + 1'000'000'000,
                                w.viewState()->boundsStart() + 1'060'000'000);
        const QSize size(1600, 900);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("cli.png"));
        const Run r = render(w.renderArgs(size, true) + QStringList{QStringLiteral("--out"), out});
        QVERIFY2(r.exit == 0, qPrintable(r.err));
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err)); // nothing from Qt or the libraries
        const QImage cli(out);
        const QImage gui =
            exportImage(w.timeline()->plot(), w.exportOptions(size, 1, true)).convertToFormat(cli.format());
        QCOMPARE(cli.size(), size);
        QVERIFY(cli == gui);
        // And File -> Export View writes the same file.
        const QString exported = dir.filePath(QStringLiteral("gui.png"));
        QCOMPARE(w.exportTo(exported, size, 1, true), QString());
        QVERIFY(QImage(exported) == cli);
    }

    void theSpuriousColourIsInCpu1TickRowOnlyWithPolling()
    {
        QTemporaryDir dir;
        const QSize size(1920, 1080);
        const QColor spurious = palette::spurious();
        for (const char *file : {"nohzfull-poll.dat", "nohzfull-nopoll.dat"}) {
            const QString out = dir.filePath(QStringLiteral("%1.png").arg(QLatin1String(file)));
            const Run r = render({data(file), QStringLiteral("--size"), QStringLiteral("1920x1080"),
                                  QStringLiteral("--out"), out});
            QVERIFY2(r.exit == 0, qPrintable(r.err));
            const QImage img(out);
            QCOMPARE(img.size(), size);
            // The lanes' geometry in the picture: the plot's own layout for the plot's rectangle.
            MainWindow w;
            QVERIFY(open(w, data(file)));
            ExportOptions o;
            o.size = size;
            o.title = QStringLiteral("x");
            o.footer = QStringLiteral("x");
            const QRect plotRect = exportPlotRect(o);
            const LaneGeometry g = w.timeline()->plot()->geometryFor(plotRect.size());
            const QRect cpu1 = g.rowRect(1, LaneRow::Tick).translated(plotRect.topLeft());
            const QRect cpu0 = g.rowRect(0, LaneRow::Tick).translated(plotRect.topLeft());
            const QRect lanes = QRect(plotRect.left(), plotRect.top(), plotRect.width(), plotRect.height());
            const int inCpu1 = countColour(img, cpu1, spurious), inLanes = countColour(img, lanes, spurious);
            if (QLatin1String(file) == QLatin1String("nohzfull-poll.dat")) {
                QVERIFY2(inCpu1 > 1000, qPrintable(QString::number(inCpu1)));
                QCOMPARE(countColour(img, cpu0, spurious), 0);
                // The marks lie over the run's span: from the data area's left part to its right part.
                int minX = img.width(), maxX = 0;
                for (int y = cpu1.top(); y <= cpu1.bottom(); ++y)
                    for (int x = cpu1.left(); x <= cpu1.right(); ++x)
                        if ((img.pixel(x, y) & 0xFFFFFF) == (spurious.rgb() & 0xFFFFFF)) {
                            minX = std::min(minX, x);
                            maxX = std::max(maxX, x);
                        }
                QVERIFY2(minX < cpu1.left() + cpu1.width() / 10 && maxX > cpu1.right() - cpu1.width() / 10,
                         qPrintable(QStringLiteral("%1..%2").arg(minX).arg(maxX)));
            } else { // (the same vermillion marks a wakeup >= 200 us late in the event row: not counted)
                QCOMPARE(inCpu1, 0);
                QCOMPARE(countColour(img, cpu0, spurious), 0);
                QVERIFY(inLanes < 200);
            }
        }
    }

    void svgAndPdfCarryTheirTextAsText()
    {
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("v.svg")),
                      pdf = dir.filePath(QStringLiteral("v.pdf"));
        Run r = render({data("nohzfull-poll.dat"), QStringLiteral("--out"), svg});
        QVERIFY2(r.exit == 0, qPrintable(r.err));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&f);
        QStringList texts;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::Characters) texts << xml.text().toString().trimmed();
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        for (const char *t : {"spurious tick", "tick stopped", "CPU 1", "nohzfull-poll.dat"})
            QVERIFY2(texts.join(QLatin1Char('\n')).contains(QLatin1String(t)), t);
        r = render({data("nohzfull-poll.dat"), QStringLiteral("--out"), pdf});
        QVERIFY2(r.exit == 0, qPrintable(r.err));
        const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
        if (pdftotext.isEmpty())
            TICKSCOPE_MISSING_TOOL(
                "pdftotext (poppler-utils) is not installed: scripts/install-deps.sh installs it");
        const test::ProgramRun p = test::runProgram(pdftotext, {pdf, QStringLiteral("-")},
                                                    QProcessEnvironment::systemEnvironment(), 30000);
        QCOMPARE(p.exit, 0);
        const QString text = QString::fromUtf8(p.out);
        QVERIFY2(text.contains(QRegularExpression(QStringLiteral("\\b1\\.0 s\\b"))),
                 qPrintable(text.left(600)));
        QVERIFY2(text.contains(QStringLiteral("spurious tick")), qPrintable(text.left(600)));
    }

    void twoRendersOfOneInputAreByteIdentical()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.png")), b = dir.filePath(QStringLiteral("b.png"));
        for (const QString &out : {a, b}) {
            const Run r =
                render({QStringLiteral("seed000-nohzfull-poll"), QStringLiteral("--compare"),
                        QStringLiteral("seed000-nohzfull-poll:p1p2"), QStringLiteral("--summary"),
                        QStringLiteral("--scale"), QStringLiteral("1.5"), QStringLiteral("--out"), out});
            QVERIFY2(r.exit == 0, qPrintable(r.err));
        }
        QFile fa(a), fb(b);
        QVERIFY(fa.open(QIODevice::ReadOnly) && fb.open(QIODevice::ReadOnly));
        const QByteArray ba = fa.readAll();
        QVERIFY(ba.size() > 10000);
        QVERIFY(ba == fb.readAll());
        QCOMPARE(QImage(a).width(), 2880); // 1920 at scale 1.5; as high as the lanes need
    }

    void badOutputAndWindowsGetOneLineAndNoFile()
    {
        QTemporaryDir dir;
        struct Case
        {
            QStringList args;
            QString says;
            QString file;
        };
        const QString bmp = dir.filePath(QStringLiteral("x.bmpx")),
                      late = dir.filePath(QStringLiteral("late.png"));
        const QList<Case> cases{
            {{data("nohzfull-poll.dat"), QStringLiteral("--out"), bmp},
             QStringLiteral("unknown picture type '.bmpx'"),
             bmp},
            {{data("nohzfull-poll.dat"), QStringLiteral("--out"), QStringLiteral("/nonexistent-dir/x.png")},
             QStringLiteral("/nonexistent-dir/x.png: cannot write it"),
             QStringLiteral("/nonexistent-dir/x.png")},
            {{data("nohzfull-poll.dat"), QStringLiteral("--window"), QStringLiteral("50:60"),
              QStringLiteral("--out"), late},
             QStringLiteral("--window 50:60 is outside the trace"),
             late},
            {{QStringLiteral("/nonexistent.dat"), QStringLiteral("--out"), late},
             QStringLiteral("nonexistent"),
             late},
        };
        for (const Case &c : cases) {
            const Run r = render(c.args);
            QCOMPARE(r.exit, 1);
            QVERIFY2(r.err.contains(c.says), qPrintable(r.err));
            QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
            QVERIFY(!QFile::exists(c.file));
        }
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 0); // no partial file either
    }

    // render keeps the timeline's index besides the model, so it weighs a file like the GUI, not like
    // report: with memory for report's model but not for render's, render refuses in one line that names
    // --load-window, and a window of time then fits.
    void aFileTooBigForRenderGetsALoadWindow()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("w.png"));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        // nohzfull-poll.dat: report's estimate is ~67.3 MB, the GUI's ~67.7 MB (64 MiB of it fixed)
        env.insert(QStringLiteral("TICKSCOPE_MEMORY_AVAILABLE"), QStringLiteral("67500000"));
        const test::ProgramRun report = test::runProgram(
            QStringLiteral(TICKSCOPE_CLI), {QStringLiteral("report"), data("nohzfull-poll.dat")}, env);
        QCOMPARE(report.exit, 0);
        const test::ProgramRun whole = test::runProgram(
            QStringLiteral(TICKSCOPE_CLI),
            {QStringLiteral("render"), data("nohzfull-poll.dat"), QStringLiteral("--out"), png}, env);
        const QString err = QString::fromUtf8(whole.err);
        QCOMPARE(whole.exit, 1);
        QVERIFY2(err.contains(QStringLiteral("of memory to load")) &&
                     err.contains(QStringLiteral("--load-window")),
                 qPrintable(err));
        QCOMPARE(err.count(QLatin1Char('\n')), 1);
        QVERIFY(!QFile::exists(png));
        // a window of time fits, also with an open end as for stats and report
        for (const QString &window : {QStringLiteral("0:1"), QStringLiteral("1.5:")}) {
            QFile::remove(png);
            const test::ProgramRun part =
                test::runProgram(QStringLiteral(TICKSCOPE_CLI),
                                 {QStringLiteral("render"), data("nohzfull-poll.dat"),
                                  QStringLiteral("--load-window"), window, QStringLiteral("--out"), png},
                                 env);
            QVERIFY2(part.exit == 0, part.err.constData());
            QVERIFY(QImage(png).width() > 0);
        }
        // and a scenario has no file to window
        const Run sim = render({QStringLiteral("seed000-nohzfull-poll"), QStringLiteral("--load-window"),
                                QStringLiteral("0:1"), QStringLiteral("--out"), png});
        QCOMPARE(sim.exit, 2); // a usage error
        QVERIFY2(sim.err.contains(QStringLiteral("--load-window reads a trace file")), qPrintable(sim.err));
    }
};

TICKSCOPE_TEST_MAIN(RenderTest)
#include "RenderTest.moc"
