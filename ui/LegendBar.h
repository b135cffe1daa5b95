// The timeline's legend: every colour it paints with its meaning, wrapped over as many lines as needed.
#pragma once

#include <QWidget>

namespace tickscope {

class LegendBar : public QWidget
{
    Q_OBJECT
public:
    explicit LegendBar(QWidget *parent = nullptr);
    QSize sizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int w) const override;

protected:
    void paintEvent(QPaintEvent *e) override;
    void resizeEvent(QResizeEvent *e) override;

private:
    int layoutHeight(int width, class QPainter *p) const; // draws when p is set
};

} // namespace tickscope
