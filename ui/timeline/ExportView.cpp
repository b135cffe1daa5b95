// SPDX-License-Identifier: GPL-3.0-or-later
#include "ExportView.h"

#include "LegendBar.h"
#include "TimelinePlot.h"
#include "session/Document.h"

#include <QFileInfo>
#include <QFontDatabase>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgGenerator>

namespace tickscope {

namespace {

constexpr int kTitleH = 26, kFooterH = 18, kSummaryLine = 13;

QFont titleFont()
{
    QFont f;
    f.setPixelSize(14);
    f.setBold(true);
    return f;
}

QFont smallFont(int px)
{
    QFont f;
    f.setPixelSize(px);
    return f;
}

struct Bands
{
    int title = 0, plot = 0, legend = 0, summary = 0, footer = 0;
};

Bands bands(const ExportOptions &o)
{
    Bands b;
    b.title = o.title.isEmpty() ? 0 : kTitleH;
    b.legend =
        o.legend ? layoutLegend(nullptr, smallFont(11), o.size.width(), {}, Qt::black, o.functions) : 0;
    b.summary = o.summary.isEmpty() ? 0 : static_cast<int>(o.summary.size()) * kSummaryLine + 8;
    b.footer = o.footer.isEmpty() ? 0 : kFooterH;
    b.plot = o.size.height() - b.title - b.legend - b.summary - b.footer;
    return b;
}

void paint(QCPPainter &p, TimelinePlot *plot, const ExportOptions &o)
{
    const Bands b = bands(o);
    const int w = o.size.width();
    p.fillRect(QRect(QPoint(0, 0), o.size), Qt::white);
    int y = 0;
    if (b.title) {
        p.setFont(titleFont());
        p.setPen(Qt::black);
        p.drawText(QRect(8, 0, w - 16, kTitleH), Qt::AlignVCenter | Qt::AlignLeft, o.title);
        y += b.title;
    }
    p.save();
    p.translate(0, y);
    plot->paintTo(&p, QSize(w, b.plot));
    p.restore();
    y += b.plot;
    if (b.legend) {
        layoutLegend(&p, smallFont(11), w, QPoint(0, y), Qt::black, o.functions);
        y += b.legend;
    }
    if (b.summary) {
        QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
        mono.setPixelSize(11);
        p.setFont(mono);
        p.setPen(Qt::black);
        for (int k = 0; k < o.summary.size(); ++k)
            p.drawText(QPoint(8, y + 4 + (k + 1) * kSummaryLine - 3), o.summary[k]);
        y += b.summary;
    }
    if (b.footer) {
        p.setFont(smallFont(10));
        p.setPen(QColor(90, 90, 90));
        p.drawText(QRect(8, y, w - 16, kFooterH), Qt::AlignVCenter | Qt::AlignLeft, o.footer);
    }
}

} // namespace

QString exportTitle(const Document &a, const Comparison *c, double fromS, double toS)
{
    auto run = [](const Document &d) {
        const std::string &k = d.trace->meta.kernelRelease;
        return QString::fromStdString(d.title) +
               (k.empty() ? QString() : QStringLiteral(" (kernel %1)").arg(QString::fromStdString(k)));
    };
    const QString window = QStringLiteral("%1–%2 s").arg(fromS, 0, 'f', 6).arg(toS, 0, 'f', 6);
    if (c)
        return QStringLiteral("A: %1  vs  B: %2  ·  %3 (aligned by %4)")
            .arg(run(a), run(c->b), window, QString::fromStdString(c->how));
    return QStringLiteral("%1  ·  %2").arg(run(a), window);
}

QString renderFooter(const QStringList &args, const QString &version)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./:,=+-]+$"));
    QString cmd = QStringLiteral("tickscope-cli render");
    for (const QString &arg : args)
        cmd += QLatin1Char(' ') +
               (plain.match(arg).hasMatch() ? arg : QLatin1Char('\'') + arg + QLatin1Char('\''));
    return cmd + QStringLiteral(" --out FILE  ·  tickscope ") + version;
}

QString checkExportPath(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png") || suffix == QLatin1String("svg") || suffix == QLatin1String("pdf"))
        return {};
    return QStringLiteral("%1: unknown picture type '%2' (png, svg or pdf)")
        .arg(path, suffix.isEmpty() ? QStringLiteral("no suffix") : QLatin1Char('.') + suffix);
}

QRect exportPlotRect(const ExportOptions &o)
{
    const Bands b = bands(o);
    return {0, b.title, o.size.width(), b.plot};
}

QImage exportImage(TimelinePlot *plot, const ExportOptions &o)
{
    QImage img((QSizeF(o.size) * o.scale).toSize(), QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::white);
    QCPPainter p(&img);
    p.scale(o.scale, o.scale);
    paint(p, plot, o);
    p.end();
    return img;
}

QString exportView(TimelinePlot *plot, const ExportOptions &o, const QString &path)
{
    if (QString e = checkExportPath(path); !e.isEmpty()) return e;
    if (bands(o).plot < 120)
        return QStringLiteral("%1: %2x%3 leaves no room for the lanes (at least %4 pixels high)")
            .arg(path)
            .arg(o.size.width())
            .arg(o.size.height())
            .arg(o.size.height() - bands(o).plot + 120);
    QSaveFile file(path); // written beside, renamed when complete: a failure leaves no file behind
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("%1: cannot write it (%2)").arg(path, file.errorString());
    const QString suffix = QFileInfo(path).suffix().toLower();
    bool ok = true;
    if (suffix == QLatin1String("png")) {
        ok = exportImage(plot, o).save(&file, "PNG");
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(o.size);
        svg.setViewBox(QRect(QPoint(0, 0), o.size));
        svg.setTitle(o.title.isEmpty() ? QStringLiteral("tickscope") : o.title);
        QCPPainter p;
        ok = p.begin(&svg);
        if (ok) {
            paint(p, plot, o);
            p.end();
        }
    } else {
        QPdfWriter pdf(&file);
        pdf.setResolution(72); // one PDF point per pixel
        pdf.setPageSize(QPageSize(QSizeF(o.size), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setTitle(o.title);
        pdf.setCreator(QStringLiteral("tickscope"));
        QCPPainter p;
        ok = p.begin(&pdf);
        if (ok) {
            paint(p, plot, o);
            p.end();
        }
    }
    if (!ok) {
        file.cancelWriting();
        return QStringLiteral("%1: cannot write it").arg(path);
    }
    if (!file.commit()) return QStringLiteral("%1: cannot write it (%2)").arg(path, file.errorString());
    return {};
}

} // namespace tickscope
