// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimelinePalette.h"

namespace tickscope::palette {

namespace {
// Okabe & Ito (2008), "Color Universal Design".
const QColor kBlack(0x00, 0x00, 0x00);
const QColor kOrange(0xE6, 0x9F, 0x00);
const QColor kSkyBlue(0x56, 0xB4, 0xE9);
const QColor kBluishGreen(0x00, 0x9E, 0x73);
const QColor kBlue(0x00, 0x72, 0xB2);
const QColor kVermillion(0xD5, 0x5E, 0x00);
const QColor kReddishPurple(0xCC, 0x79, 0xA7);
// Lateness: four steps of ColorBrewer's sequential "Blues" (Brewer, colorbrewer2.org), ordered by
// lightness so that they keep their order without hue vision.
const QColor kLate[4] = {QColor(0x9E, 0xCA, 0xE1), QColor(0x42, 0x92, 0xC6), QColor(0x08, 0x51, 0x9C),
                         QColor(0x08, 0x1D, 0x58)};
// Call durations: four steps of ColorBrewer's sequential "Purples", the same way.
const QColor kCall[4] = {QColor(0xCB, 0xC9, 0xE2), QColor(0x9E, 0x9A, 0xC8), QColor(0x6A, 0x51, 0xA3),
                         QColor(0x3F, 0x00, 0x7D)};
} // namespace

QColor task(TaskSlot s)
{
    switch (s) {
    case TaskSlot::User:
        return kBlue;
    case TaskSlot::Kernel:
        return kOrange;
    case TaskSlot::IdleTask:
        return QColor(0x66, 0x66, 0x66);
    case TaskSlot::IdleShallow:
        return QColor(0xBD, 0xBD, 0xBD);
    case TaskSlot::IdleDeep:
        return QColor(0xE3, 0xE3, 0xE3);
    case TaskSlot::Poll:
        return kReddishPurple;
    default:
        return QColor(0xF5, 0xEF, 0xB0); // unknown: a pale yellow, not a grey of idle
    }
}

QColor irq(IrqSlot s)
{
    switch (s) {
    case IrqSlot::HardIrq:
        return kBlack;
    case IrqSlot::SoftIrq:
        return kSkyBlue;
    case IrqSlot::TimerSoftirq:
        return kBluishGreen;
    case IrqSlot::Unknown:
        return QColor(0xF5, 0xEF, 0xB0);
    default:
        return QColor(0xFF, 0xFF, 0xFF);
    }
}

QColor tickMark()
{
    return QColor(0x4D, 0x4D, 0x4D);
}
QColor spurious()
{
    return kVermillion;
}
QColor tickRunning()
{
    return QColor(0xB4, 0xB4, 0xB4);
}
QColor tickStopped()
{
    return kBluishGreen;
}
QColor failedStop()
{
    return kBlack;
}

int latenessStep(int32_t ns)
{
    if (ns == INT32_MIN) return -1;
    return ns < 10'000 ? 0 : ns < 50'000 ? 1 : ns < 200'000 ? 2 : 3;
}
QColor lateness(int32_t ns)
{
    const int s = latenessStep(ns);
    return s < 0 ? QColor(0xA8, 0x9F, 0x91) : kLate[s]; // unknown: a warm grey
}

int callStep(int64_t ns)
{
    // The 50 us step is the catch-up rule's threshold for a long TIMER softirq.
    return ns < 10'000 ? 0 : ns < 50'000 ? 1 : ns < 200'000 ? 2 : 3;
}
QColor call(int64_t ns)
{
    return kCall[callStep(ns)];
}

QColor catchup()
{
    return kReddishPurple;
}
QColor timerSoftirq()
{
    return kBluishGreen;
}
QColor softExpiry()
{
    return kOrange;
}
QColor wakeupArrow()
{
    return kBlack;
}
QColor lost()
{
    return QColor(0x70, 0x70, 0x70);
}
QColor markerA()
{
    return kBlue;
}
QColor markerB()
{
    return kOrange;
}
QColor selection()
{
    return QColor(0xFF, 0x00, 0xFF);
}
QColor better()
{
    return QColor(0x00, 0x9E, 0x73, 70);
}
QColor worse()
{
    return QColor(0xD5, 0x5E, 0x00, 70);
}
QColor run(int run)
{
    return run == 0 ? QColor(0x33, 0x33, 0x33) : QColor(0x00, 0x72, 0xB2);
}

QString legendRowName(LegendRow r)
{
    switch (r) {
    case LegendRow::State:
        return QStringLiteral("state");
    case LegendRow::Interrupts:
        return QStringLiteral("interrupts");
    case LegendRow::Tick:
        return QStringLiteral("tick");
    case LegendRow::Timers:
        return QStringLiteral("timers");
    case LegendRow::Functions:
        return QStringLiteral("functions");
    default:
        return QString();
    }
}

LegendRow paintedRow(LegendRow r)
{
    return r == LegendRow::Interrupts ? LegendRow::State : r;
}

std::vector<LegendEntry> legend(bool functions)
{
    using R = LegendRow;
    using G = Glyph;
    std::vector<LegendEntry> all{
        {R::State, G::Box, task(TaskSlot::User), QStringLiteral("user")},
        {R::State, G::Box, task(TaskSlot::Kernel), QStringLiteral("kernel")},
        {R::State, G::Box, task(TaskSlot::IdleTask), QStringLiteral("idle task")},
        {R::State, G::Box, task(TaskSlot::IdleShallow), QStringLiteral("idle C1")},
        {R::State, G::Box, task(TaskSlot::IdleDeep), QStringLiteral("idle C2+")},
        {R::State, G::Box, task(TaskSlot::Poll), QStringLiteral("polling idle")},
        {R::State, G::Box, task(TaskSlot::Unknown), QStringLiteral("unknown")},
        {R::Interrupts, G::Band, irq(IrqSlot::HardIrq), QStringLiteral("hardirq")},
        {R::Interrupts, G::Band, irq(IrqSlot::SoftIrq), QStringLiteral("softirq")},
        {R::Interrupts, G::Band, irq(IrqSlot::TimerSoftirq), QStringLiteral("TIMER softirq")},
        {R::Tick, G::Mark, tickMark(), QStringLiteral("ticks (height: per tick period)")},
        {R::Tick, G::Mark, spurious(), QStringLiteral("spurious tick")},
        {R::Tick, G::Band, tickRunning(), QStringLiteral("tick running")},
        {R::Tick, G::Band, tickStopped(), QStringLiteral("tick stopped")},
        {R::Tick, G::Cross, failedStop(), QStringLiteral("failed stop")},
        {R::Timers, G::Mark, lateness(0), QStringLiteral("wakeup late <10µs")},
        {R::Timers, G::Mark, lateness(20'000), QStringLiteral("<50µs")},
        {R::Timers, G::Mark, lateness(100'000), QStringLiteral("<200µs")},
        {R::Timers, G::Mark, lateness(300'000), QStringLiteral("≥200µs")},
        {R::Timers, G::Mark, lateness(INT32_MIN), QStringLiteral("lateness unknown")},
        {R::Timers, G::Band, timerSoftirq(), QStringLiteral("TIMER softirq")},
        {R::Timers, G::Band, catchup(), QStringLiteral("catch-up softirq")},
        {R::Timers, G::TopBand, softExpiry(), QStringLiteral("soft expiries (top)")},
        {R::Timers, G::Arrow, wakeupArrow(), QStringLiteral("wakeup → switch-in (zoomed in)")},
        {R::Lane, G::Hatch, lost(), QStringLiteral("lost events")},
    };
    if (functions) {
        const std::vector<LegendEntry> calls{
            {R::Functions, G::Box, call(0), QStringLiteral("call <10µs")},
            {R::Functions, G::Box, call(20'000), QStringLiteral("<50µs")},
            {R::Functions, G::Box, call(100'000), QStringLiteral("<200µs")},
            {R::Functions, G::Box, call(300'000), QStringLiteral("≥200µs")},
        };
        all.insert(all.end() - 1, calls.begin(), calls.end());
    }
    return all;
}

} // namespace tickscope::palette
