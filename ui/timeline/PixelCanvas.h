// SPDX-License-Identifier: GPL-3.0-or-later
// Rectangle fills of one band of a lane straight into pixels, composited with one drawImage, when the
// painter paints pixels (the raster engine: the screen's buffer, screenshots, --render PNG) at a whole
// device-pixel offset and scale. A full repaint fills ~10^5 small rectangles, and QPainter::fillRect
// costs far more per call than the few pixels each one covers. The pixels are those fillRect makes
// (opaque colours replace; a translucent fill composites what came before and goes to the painter, so
// that the painter blends it); any other painter (SVG, PDF, a fractional scale) gets the fillRect calls.
#pragma once

#include <QImage>
#include <QRect>
#include <QRgb>

#include <cstddef>
#include <cstdint>
#include <vector>

class QColor;
class QPainter;

namespace tickscope {

class PixelCanvas
{
public:
    PixelCanvas() = default;
    PixelCanvas(const PixelCanvas &) = delete; // its image points into its own buffer
    PixelCanvas &operator=(const PixelCanvas &) = delete;

    // Starts a band covering `rect` (logical coordinates) for about `fills` fills. Returns whether they
    // go to pixels: only when the band has at least one fill per kPixelsPerFill of its device pixels.
    // Clearing and compositing the band is paid per pixel, and a fillRect call costs more than a fill
    // into the pixels; 300 pixels per fill is where paint_bench's sweep of server-100M.dat was fastest
    // (tried 50, 150, 300, 600 and every band: every band was slowest zoomed in, where a band has a few
    // fills).
    bool begin(QPainter *p, const QRect &rect, size_t fills);
    static constexpr int kPixelsPerFill = 300;
    // fillRect(r, colour): into the band's pixels when begun, else on the painter.
    void fill(QPainter *p, const QRect &r, const QColor &colour);
    void fill(QPainter *p, const QRect &r, QRgb colour); // (a non-premultiplied ARGB, as QColor::rgba)
    // Draws the band's pixels under everything painted after it; fills go to the painter again.
    void end(QPainter *p);
    bool active() const { return active_; }

    // The canvas of the calling thread: every band of every lane painted there reuses its buffer, which
    // grows to the largest band once instead of once per lane (with 128 lanes, a first paint at a dense
    // zoom level touched ~2 MB of fresh pages, 13 ms of page faults on a VM). A band ends before the next
    // begins, so one is enough.
    static PixelCanvas &forThisThread();

    // Auto (the default): pixels where cheaper (begin()); Painter: every fill to the painter; Pixels: every
    // band that can be into pixels (tests compare the two paths).
    enum class Mode
    {
        Auto,
        Painter,
        Pixels
    };
    static void setMode(Mode m);
    static Mode mode();
    static uint64_t composited(); // bands drawn from pixels so far (for tests)

private:
    QImage image_;                 // the band at device resolution, over buffer_
    std::vector<uint32_t> buffer_; // its pixels: bands of every size reuse it, nothing is allocated per band
    QRect rect_;
    int scale_ = 1;
    bool active_ = false;
    bool touched_ = false;
};

} // namespace tickscope
