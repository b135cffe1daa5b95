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

int layoutLegend(QPainter *p, const QFont &font, int width, QPoint origin, const QColor &text)
{
    const QFontMetrics fm(font);
    if (p) p->setFont(font);
    int x = kPad, y = 2;
    for (const palette::LegendEntry &e : palette::legend()) {
        const int w = kSwatch + 4 + fm.horizontalAdvance(e.label) + 12;
        if (x + w > width && x > kPad) {
            x = kPad;
            y += kLine;
        }
        if (p) {
            const QPoint o = origin + QPoint(x, y);
            p->fillRect(QRect(o + QPoint(0, 3), QSize(kSwatch, kSwatch)), e.colour);
            p->setPen(QColor(0, 0, 0, 90));
            p->setBrush(Qt::NoBrush);
            p->drawRect(QRect(o + QPoint(0, 3), QSize(kSwatch - 1, kSwatch - 1)));
            p->setPen(text);
            p->drawText(QRect(o + QPoint(kSwatch + 4, 0), QSize(w, kLine)), Qt::AlignVCenter | Qt::AlignLeft,
                        e.label);
        }
        x += w;
    }
    return y + kLine + 2;
}

int LegendBar::layoutHeight(int width, QPainter *p) const
{
    return layoutLegend(p, font(), width, QPoint(0, 0), palette().color(QPalette::WindowText));
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
