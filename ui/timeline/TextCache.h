// SPDX-License-Identifier: GPL-3.0-or-later
// Strings laid out once and drawn many times. A repaint writes the same few strings again and again (the
// lanes' labels, task names, wakeup latencies), and QPainter::drawText and QFontMetrics::horizontalAdvance
// shape their string (HarfBuzz) on every call: at the zoom levels that show task names that cost a quarter
// of a full repaint of 128 lanes. An entry keeps the string's QStaticText (its glyphs and their positions)
// and its advance; drawing it places the glyphs where drawText would.
#pragma once

#include <QFont>
#include <QHash>
#include <QStaticText>
#include <QString>

class QPainter;
class QRect;

namespace tickscope {

class TextCache
{
public:
    struct Entry
    {
        QStaticText text;
        int width = 0; // QFontMetrics::horizontalAdvance
        // Its line as laid out (a glyph from a fallback font can make it taller than the font's own).
        qreal ascent = 0, height = 0;
    };
    // The strings of one font: a painter's font, once its size and weight are set.
    class Font
    {
    public:
        const Entry &operator[](const QString &s);
        // drawText(rect, Qt::AlignLeft or Qt::AlignHCenter | Qt::AlignVCenter, s), clipped to the rect when
        // the text does not fit it (as drawText does); the painter's font must be this one.
        void draw(QPainter *p, const QRect &box, bool centre, const Entry &e) const;
        // drawText(x, baseline, s).
        void drawAt(QPainter *p, int x, int baseline, const Entry &e) const;

    private:
        friend class TextCache;
        explicit Font(const QFont &f);
        QFont font_;
        QHash<QString, Entry> entries_;
    };
    // The cache of the GUI thread (painting happens there only).
    static TextCache &instance();
    Font &of(const QFont &f);
    // A font's strings are dropped past this many (names differ between traces; a session opens many).
    static constexpr qsizetype kMaxPerFont = 8192;

private:
    QHash<QString, Font *> fonts_; // by QFont::key(); never freed (a few fonts)
};

} // namespace tickscope
