// SPDX-License-Identifier: GPL-3.0-or-later
#include "TextCache.h"

#include <QFontMetrics>
#include <QFontMetricsF>
#include <QPainter>
#include <QRect>
#include <QTextLayout>

namespace tickscope {

TextCache &TextCache::instance()
{
    static TextCache cache;
    return cache;
}

TextCache::Font &TextCache::of(const QFont &f)
{
    const QString key = f.key();
    auto it = fonts_.find(key);
    if (it == fonts_.end()) it = fonts_.insert(key, new Font(f));
    return **it;
}

TextCache::Font::Font(const QFont &f) : font_(f) {}

const TextCache::Entry &TextCache::Font::operator[](const QString &s)
{
    auto it = entries_.find(s);
    if (it != entries_.end()) return *it;
    if (entries_.size() >= kMaxPerFont) entries_.clear();
    Entry e;
    e.text.setText(s);
    e.text.setTextFormat(Qt::PlainText);
    e.text.prepare(QTransform(), font_);
    e.width = QFontMetrics(font_).horizontalAdvance(s);
    QTextLayout layout(s, font_);
    layout.beginLayout();
    const QTextLine line = layout.createLine();
    layout.endLayout();
    e.ascent = line.isValid() ? line.ascent() : QFontMetricsF(font_).ascent();
    e.height = line.isValid() ? line.height() : QFontMetricsF(font_).height();
    return *entries_.insert(s, e);
}

void TextCache::Font::draw(QPainter *p, const QRect &box, bool centre, const Entry &e) const
{
    const qreal x = centre ? box.x() + (box.width() - e.text.size().width()) / 2 : box.x();
    const qreal y = box.y() + (box.height() - e.height) / 2;
    const bool fits = e.text.size().width() <= box.width() && e.height <= box.height();
    if (!fits) {
        p->save();
        p->setClipRect(box, Qt::IntersectClip);
    }
    p->drawStaticText(QPointF(x, y), e.text);
    if (!fits) p->restore();
}

void TextCache::Font::drawAt(QPainter *p, int x, int baseline, const Entry &e) const
{
    p->drawStaticText(QPointF(x, baseline - e.ascent), e.text);
}

} // namespace tickscope
