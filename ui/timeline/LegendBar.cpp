// SPDX-License-Identifier: GPL-3.0-or-later
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

void LegendBar::setFunctions(bool on)
{
    if (on == functions_) return;
    functions_ = on;
    setFixedHeight(layoutHeight(width() > 0 ? width() : 800, nullptr)); // resizeEvent refines it
    update();
}

static void drawGlyph(QPainter *p, const QRect &box, palette::Glyph g, const QColor &c)
{
    using G = palette::Glyph;
    p->save();
    p->setPen(Qt::NoPen);
    switch (g) {
    case G::Box:
        p->fillRect(box, c);
        p->setPen(QColor(0, 0, 0, 90));
        p->setBrush(Qt::NoBrush);
        p->drawRect(box.adjusted(0, 0, -1, -1));
        break;
    case G::Band:
        p->fillRect(QRect(box.left(), box.bottom() - 3, box.width(), 4), c);
        break;
    case G::Mark:
        p->fillRect(QRect(box.center().x() - 1, box.top(), 3, box.height()), c);
        break;
    case G::TopBand:
        p->fillRect(QRect(box.left(), box.top(), box.width(), 3), c);
        break;
    case G::Cross:
        p->setPen(QPen(c, 1.5));
        p->setRenderHint(QPainter::Antialiasing);
        p->drawLine(box.topLeft() + QPoint(1, 1), box.bottomRight() - QPoint(1, 1));
        p->drawLine(box.bottomLeft() + QPoint(1, -1), box.topRight() + QPoint(-1, 1));
        break;
    case G::Arrow: {
        p->setPen(QPen(c, 1));
        const int y = box.center().y();
        p->drawLine(box.left(), y, box.right() - 1, y);
        p->setBrush(c);
        const QPoint head[3] = {{box.right(), y}, {box.right() - 4, y - 3}, {box.right() - 4, y + 3}};
        p->setPen(Qt::NoPen);
        p->drawPolygon(head, 3);
        break;
    }
    case G::Hatch:
        p->fillRect(box, Qt::white);
        p->fillRect(box, QBrush(c, Qt::BDiagPattern));
        p->setPen(QColor(0, 0, 0, 90));
        p->setBrush(Qt::NoBrush);
        p->drawRect(box.adjusted(0, 0, -1, -1));
        break;
    }
    p->restore();
}

// The entries flow left to right, each row's group behind its name in bold; a group whose name and first
// entry do not fit on the line starts the next one.
int layoutLegend(QPainter *p, const QFont &font, int width, QPoint origin, const QColor &text, bool functions)
{
    QFont bold = font;
    bold.setBold(true);
    const QFontMetrics fm(font), fmBold(bold);
    int x = kPad, y = 2;
    const std::vector<palette::LegendEntry> entries = palette::legend(functions);
    for (size_t i = 0; i < entries.size(); ++i) {
        const palette::LegendEntry &e = entries[i];
        const int w = kSwatch + 4 + fm.horizontalAdvance(e.label) + 12;
        const bool first = i == 0 || entries[i - 1].row != e.row;
        const QString group = first ? palette::legendRowName(e.row) : QString();
        const int gw = group.isEmpty() ? 0 : fmBold.horizontalAdvance(group) + 6;
        const int lead = first && i > 0 ? 10 : 0; // space between groups
        if (x + lead + gw + w > width && x > kPad) {
            x = kPad;
            y += kLine;
        } else {
            x += x > kPad ? lead : 0;
        }
        if (p && gw) {
            p->setFont(bold);
            p->setPen(text);
            p->drawText(QRect(origin + QPoint(x, y), QSize(gw, kLine)), Qt::AlignVCenter | Qt::AlignLeft,
                        group);
        }
        x += gw;
        if (p) {
            const QPoint o = origin + QPoint(x, y);
            drawGlyph(p, QRect(o + QPoint(0, 3), QSize(kSwatch, kSwatch)), e.glyph, e.colour);
            p->setFont(font);
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
    return layoutLegend(p, font(), width, QPoint(0, 0), palette().color(QPalette::WindowText), functions_);
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
