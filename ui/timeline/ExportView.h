// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline as a picture for a review: a title line, the lanes with the time axis and the markers, the
// legend, optionally the summary of the window as text, and a footer with the command that reproduces the
// picture. PNG (at any scale), SVG (text as text, lanes as shapes) or PDF (vectors), by the file's
// suffix, through the plot's own paint code. The GUI's File -> Export View and `tickscope-cli render`
// both come here, so the same view at the same size gives the same image.
#pragma once

#include <QImage>
#include <QRect>
#include <QSize>
#include <QString>
#include <QStringList>

class QPainter;

namespace tickscope {

class TimelinePlot;

struct ExportOptions
{
    QSize size{1920, 1080}; // the whole picture, in logical pixels
    double scale = 1;       // PNG: image pixels per logical pixel
    QString title;          // empty: no title line
    bool legend = true;
    bool functions = false; // the legend lists the function row's colours
    QStringList summary;    // monospace lines below the legend (empty: none)
    QString footer;         // empty: none
};

// The title line of a view: the run (or both runs), the kernel, the window on the time axis in seconds.
QString exportTitle(const struct Document &a, const struct Comparison *c, double fromS, double toS);

// The footer: the `tickscope-cli render` command with these arguments (the output aside) and the version.
QString renderFooter(const QStringList &args, const QString &version);

// "" when `path` has a suffix exportView writes (png, svg, pdf), else the error.
QString checkExportPath(const QString &path);
// Writes the picture; the file appears only when complete. Returns "" or one line saying what failed.
QString exportView(TimelinePlot *plot, const ExportOptions &o, const QString &path);
// Where the plot (lanes and time axis) sits in the picture, in logical pixels.
QRect exportPlotRect(const ExportOptions &o);
// The picture as an image (PNG's pixels; Edit -> Copy Image).
QImage exportImage(TimelinePlot *plot, const ExportOptions &o);

} // namespace tickscope
