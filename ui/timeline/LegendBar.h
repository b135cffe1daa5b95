// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline's legend: every colour it paints with its meaning, wrapped over as many lines as needed.
#pragma once

#include <QColor>
#include <QFont>
#include <QPoint>
#include <QWidget>

class QPainter;

namespace tickscope {

// Lays the legend out in `width` pixels from `origin` with `font` and returns its height; paints it when p is
// set (the bar below the timeline and exported images share it). functions: with the function row's entries.
int layoutLegend(QPainter *p, const QFont &font, int width, QPoint origin, const QColor &text,
                 bool functions = false);

class LegendBar : public QWidget
{
    Q_OBJECT
public:
    explicit LegendBar(QWidget *parent = nullptr);
    QSize sizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int w) const override;
    void setFunctions(bool on); // the timeline has a function row

protected:
    void paintEvent(QPaintEvent *e) override;
    void resizeEvent(QResizeEvent *e) override;

private:
    int layoutHeight(int width, QPainter *p) const; // draws when p is set
    bool functions_ = false;
};

} // namespace tickscope
