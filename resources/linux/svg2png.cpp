// SPDX-License-Identifier: GPL-3.0-or-later
// Build tool: renders the application's SVG icon to a square PNG (svg2png IN.svg SIZE OUT.png).
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

#include <cstdio>

int main(int argc, char **argv)
{
    QGuiApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    bool ok = false;
    const int size = args.size() == 4 ? args[2].toInt(&ok) : 0;
    if (!ok || size <= 0 || size > 4096) {
        std::fprintf(stderr, "usage: svg2png IN.svg SIZE OUT.png\n");
        return 2;
    }
    QSvgRenderer svg(args[1]);
    if (!svg.isValid()) {
        std::fprintf(stderr, "svg2png: %s: not a readable SVG\n", qPrintable(args[1]));
        return 1;
    }
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    svg.render(&p);
    p.end();
    if (!image.save(args[3], "PNG")) {
        std::fprintf(stderr, "svg2png: %s: cannot write\n", qPrintable(args[3]));
        return 1;
    }
    return 0;
}
