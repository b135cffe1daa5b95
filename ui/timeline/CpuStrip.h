// SPDX-License-Identifier: GPL-3.0-or-later
// The overview strip beside the lanes, for machines with many CPUs: a row per lane in the lanes' order,
// scaled to the strip's height like a minimap once the lanes do not fit (else beside its lane), with a
// cell per figure of the whole-trace report: spurious ticks (vermillion, stronger towards the CPU with
// the most), TIMER catch-ups (the timers row's catch-up colour, the same way), the share of time with the
// tick stopped (the tick row's stopped colour, by the share) and the worst wakeup latency (the lateness
// blues at 10 / 50 / 200 µs). The lanes in view are framed; a click scrolls the lanes to the CPU. The
// timeline shows it only while its lanes do not fit.
#pragma once

#include <QWidget>

#include <memory>
#include <vector>

namespace tickscope {

struct TickReport;
struct CpuReport;
class TimelinePlot;

class CpuStrip : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kCell = 9, kCells = 4, kWidth = kCells * kCell + 4;
    CpuStrip(TimelinePlot *plot, QWidget *parent = nullptr);

    void setReport(std::shared_ptr<const TickReport> report); // whole trace, every CPU; null: none yet
    bool hasReport() const { return report_ != nullptr; }
    QSize sizeHint() const override { return {kWidth, 100}; }
    QSize minimumSizeHint() const override { return {kWidth, 40}; }

    struct Row
    {
        int cpu;
        int y0, y1; // strip y range [y0, y1)
    };
    std::vector<Row> rows() const; // the shown lanes (A's in the compare view), in order
    int cpuAt(int y) const;        // -1 between rows
    // The lanes' scroll offset that puts `cpu`'s lane at the top (and scrolls there); false without it.
    bool scrollTo(int cpu);

signals:
    void cpuClicked(int cpu);

protected:
    void paintEvent(QPaintEvent *e) override;
    void mousePressEvent(QMouseEvent *e) override;
    bool event(QEvent *e) override;

private:
    const CpuReport *figures(int cpu) const;

    TimelinePlot *plot_;
    std::shared_ptr<const TickReport> report_;
    std::vector<int> index_; // cpu -> index in report_->cpus, -1: none
    uint64_t maxSpurious_ = 0, maxCatchups_ = 0;
};

} // namespace tickscope
