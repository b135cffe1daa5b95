// Helpers the Qt tests share: the test application's identity, counting a colour's pixels in an image.
#pragma once

#include "tickscope_version.h"

#include <QApplication>
#include <QColor>
#include <QImage>
#include <QRect>

#include <algorithm>

namespace tickscope::test {

// Settings of the tests go to their own QSettings file, never the user's; the version is the build's
// (the exported pictures' footer carries it).
inline void initTestApplication()
{
    QApplication::setOrganizationName(QStringLiteral("tickscope-test"));
    QApplication::setApplicationName(QStringLiteral("tickscope-test"));
    QApplication::setApplicationVersion(QStringLiteral(TICKSCOPE_VERSION_TEXT));
}

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
