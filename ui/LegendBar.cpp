#include "LegendBar.h"

#include "TimelinePalette.h"

#include <QPainter>

namespace tickscope {

namespace {
constexpr int kSwatch = 10, kLine = 16, kPad = 6;
}

LegendBar::LegendBar(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

int LegendBar::layoutHeight(int width, QPainter *p) const
{
    const QFontMetrics fm(font());
    int x = kPad, y = 2;
    for (const palette::LegendEntry &e : palette::legend()) {
        const int w = kSwatch + 4 + fm.horizontalAdvance(e.label) + 12;
        if (x + w > width && x > kPad) {
            x = kPad;
            y += kLine;
        }
        if (p) {
            p->fillRect(QRect(x, y + 3, kSwatch, kSwatch), e.colour);
            p->setPen(QColor(0, 0, 0, 90));
            p->drawRect(QRect(x, y + 3, kSwatch - 1, kSwatch - 1));
            p->setPen(palette().color(QPalette::WindowText));
            p->drawText(QRect(x + kSwatch + 4, y, w, kLine), Qt::AlignVCenter | Qt::AlignLeft, e.label);
        }
        x += w;
    }
    return y + kLine + 2;
}

int LegendBar::heightForWidth(int w) const
{
    return layoutHeight(w, nullptr);
}

QSize LegendBar::sizeHint() const
{
    return {800, layoutHeight(width() > 0 ? width() : 800, nullptr)};
}

void LegendBar::resizeEvent(QResizeEvent *e)
{
    QWidget::resizeEvent(e);
    setFixedHeight(layoutHeight(width(), nullptr));
}

void LegendBar::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    layoutHeight(width(), &p);
}

} // namespace tickscope
