// Helpers the Qt tests share: counting a colour's pixels in a rendered image.
#pragma once

#include <QColor>
#include <QImage>
#include <QRect>

#include <algorithm>

namespace tickscope::test {

// Pixels of exactly `c` inside `r` of `img`.
inline int countColour(const QImage &img, const QRect &r, const QColor &c)
{
    int n = 0;
    const QRgb want = c.rgb();
    for (int y = std::max(0, r.top()); y <= std::min(img.height() - 1, r.bottom()); ++y)
        for (int x = std::max(0, r.left()); x <= std::min(img.width() - 1, r.right()); ++x)
            n += (img.pixel(x, y) & 0xFFFFFF) == (want & 0xFFFFFF);
    return n;
}

} // namespace tickscope::test
