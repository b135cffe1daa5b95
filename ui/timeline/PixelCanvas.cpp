// SPDX-License-Identifier: GPL-3.0-or-later
#include "PixelCanvas.h"

#include <QColor>
#include <QPaintEngine>
#include <QPainter>

#include <algorithm>
#include <atomic>
#include <cmath>

namespace tickscope {

namespace {
std::atomic<PixelCanvas::Mode> gMode{PixelCanvas::Mode::Auto};
std::atomic<uint64_t> gComposited{0};

bool whole(double v)
{
    return std::abs(v - std::round(v)) < 1e-9;
}
} // namespace

void PixelCanvas::setMode(Mode m)
{
    gMode = m;
}

PixelCanvas::Mode PixelCanvas::mode()
{
    return gMode;
}

uint64_t PixelCanvas::composited()
{
    return gComposited;
}

bool PixelCanvas::begin(QPainter *p, const QRect &rect, size_t fills)
{
    active_ = false;
    touched_ = false;
    const Mode m = gMode;
    if (m == Mode::Painter || rect.isEmpty() || !p->paintEngine() ||
        p->paintEngine()->type() != QPaintEngine::Raster)
        return false;
    // Only a whole-pixel offset and a whole scale, the same on both axes: then a logical rectangle covers
    // exactly the device pixels fillRect would.
    const QTransform t = p->deviceTransform();
    if (t.type() > QTransform::TxScale || t.m11() != t.m22() || t.m11() < 1 || !whole(t.m11()) ||
        !whole(t.dx()) || !whole(t.dy()))
        return false;
    const int scale = static_cast<int>(std::lround(t.m11()));
    const size_t devicePixels = static_cast<size_t>(rect.width()) * static_cast<size_t>(rect.height()) *
                                static_cast<size_t>(scale * scale);
    if (m == Mode::Auto && fills * kPixelsPerFill < devicePixels) return false;
    scale_ = scale;
    rect_ = rect;
    const QSize size = rect.size() * scale_;
    const size_t pixels = static_cast<size_t>(size.width()) * static_cast<size_t>(size.height());
    if (buffer_.size() < pixels) buffer_.resize(pixels);
    std::fill(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(pixels), 0u); // transparent
    image_ = QImage(reinterpret_cast<uchar *>(buffer_.data()), size.width(), size.height(),
                    static_cast<qsizetype>(size.width()) * 4, QImage::Format_ARGB32_Premultiplied);
    image_.setDevicePixelRatio(scale_);
    active_ = true;
    return true;
}

void PixelCanvas::fill(QPainter *p, const QRect &r, const QColor &colour)
{
    if (!active_)
        p->fillRect(r, colour);
    else
        fill(p, r, colour.rgba());
}

void PixelCanvas::fill(QPainter *p, const QRect &r, QRgb colour)
{
    if (!active_) {
        p->fillRect(r, QColor::fromRgba(colour));
        return;
    }
    if (qAlpha(colour) != 255) { // blended by the painter's own rules: what is filled so far goes first
        if (touched_) {
            p->drawImage(rect_.topLeft(), image_);
            image_.fill(Qt::transparent); // in place: the image does not own the buffer, nothing detaches
            touched_ = false;
        }
        p->fillRect(r, QColor::fromRgba(colour));
        return;
    }
    const QRect c = r.intersected(rect_);
    if (c.isEmpty()) return;
    touched_ = true;
    Q_ASSERT(image_.constBits() == reinterpret_cast<const uchar *>(buffer_.data())); // (never detached)
    // Straight into the buffer the image wraps (a row of the image apart): a fill is often one column a
    // few pixels tall, where a call per row (QImage::scanLine) cost more than the pixels.
    const size_t stride = static_cast<size_t>(image_.width());
    const size_t w = static_cast<size_t>(c.width()) * static_cast<size_t>(scale_);
    const int rows = c.height() * scale_;
    QRgb *line = buffer_.data() + static_cast<size_t>((c.top() - rect_.top()) * scale_) * stride +
                 static_cast<size_t>((c.left() - rect_.left()) * scale_);
    for (int y = 0; y < rows; ++y, line += stride)
        std::fill(line, line + w, colour);
}

void PixelCanvas::end(QPainter *p)
{
    if (active_ && touched_) {
        p->drawImage(rect_.topLeft(), image_);
        ++gComposited;
    }
    active_ = false;
    touched_ = false;
}

PixelCanvas &PixelCanvas::forThisThread()
{
    static thread_local PixelCanvas canvas;
    return canvas;
}

} // namespace tickscope
