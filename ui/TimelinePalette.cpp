#include "TimelinePalette.h"

namespace tickscope::palette {

namespace {
// Okabe & Ito (2008), "Color Universal Design".
const QColor kBlack(0x00, 0x00, 0x00);
const QColor kOrange(0xE6, 0x9F, 0x00);
const QColor kSkyBlue(0x56, 0xB4, 0xE9);
const QColor kBluishGreen(0x00, 0x9E, 0x73);
const QColor kYellow(0xF0, 0xE4, 0x42);
const QColor kBlue(0x00, 0x72, 0xB2);
const QColor kVermillion(0xD5, 0x5E, 0x00);
const QColor kReddishPurple(0xCC, 0x79, 0xA7);
} // namespace

QColor task(TaskSlot s)
{
    switch (s) {
    case TaskSlot::User:
        return kBlue;
    case TaskSlot::Kernel:
        return kOrange;
    case TaskSlot::IdleTask:
        return QColor(0x99, 0x99, 0x99);
    case TaskSlot::IdleShallow:
        return QColor(0xC4, 0xC4, 0xC4);
    case TaskSlot::IdleDeep:
        return QColor(0xE4, 0xE4, 0xE4);
    case TaskSlot::Poll:
        return kReddishPurple;
    default:
        return QColor(0xFA, 0xFA, 0xFA);
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
        return QColor(0xFA, 0xFA, 0xFA);
    default:
        return QColor(0xFF, 0xFF, 0xFF);
    }
}

QColor tick(TickClass c)
{
    switch (c) {
    case TickClass::Spurious:
        return kVermillion;
    case TickClass::User:
        return kBlue;
    case TickClass::Kernel:
        return kOrange;
    case TickClass::Irq:
        return kBlack;
    case TickClass::Polling:
        return kReddishPurple;
    case TickClass::Idle:
        return QColor(0x80, 0x80, 0x80);
    default:
        return QColor(0xB0, 0xB0, 0xB0);
    }
}

QColor tickRunning()
{
    return QColor(0x60, 0x60, 0x60);
}
QColor tickStopped()
{
    return kBluishGreen;
}

QColor lateness(int32_t ns)
{
    if (ns == INT32_MIN) return QColor(0xA0, 0xA0, 0xA0);
    if (ns < 10'000) return kSkyBlue;
    if (ns < 50'000) return kYellow;
    if (ns < 200'000) return kOrange;
    return kVermillion;
}

QColor catchup()
{
    return kReddishPurple;
}
QColor timerSoftirq()
{
    return kBluishGreen;
}
QColor failedStop()
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

std::vector<LegendEntry> legend()
{
    return {
        {task(TaskSlot::User), QStringLiteral("user")},
        {task(TaskSlot::Kernel), QStringLiteral("kernel")},
        {task(TaskSlot::IdleTask), QStringLiteral("idle task")},
        {task(TaskSlot::IdleShallow), QStringLiteral("idle C1")},
        {task(TaskSlot::IdleDeep), QStringLiteral("idle C2+")},
        {task(TaskSlot::Poll), QStringLiteral("polling idle")},
        {irq(IrqSlot::HardIrq), QStringLiteral("hardirq")},
        {irq(IrqSlot::SoftIrq), QStringLiteral("softirq")},
        {irq(IrqSlot::TimerSoftirq), QStringLiteral("TIMER softirq")},
        {tick(TickClass::Spurious), QStringLiteral("spurious tick")},
        {tick(TickClass::User), QStringLiteral("tick in user")},
        {tick(TickClass::Kernel), QStringLiteral("tick in kernel")},
        {tick(TickClass::Irq), QStringLiteral("tick in irq")},
        {tick(TickClass::Polling), QStringLiteral("tick polling")},
        {tick(TickClass::Idle), QStringLiteral("tick idle")},
        {tickRunning(), QStringLiteral("tick running")},
        {tickStopped(), QStringLiteral("tick stopped")},
        {failedStop(), QStringLiteral("failed stop ×")},
        {lateness(0), QStringLiteral("wakeup late <10µs")},
        {lateness(20'000), QStringLiteral("<50µs")},
        {lateness(100'000), QStringLiteral("<200µs")},
        {lateness(300'000), QStringLiteral("≥200µs")},
        {catchup(), QStringLiteral("catch-up softirq ▬")},
        {lost(), QStringLiteral("lost events ▨")},
    };
}

} // namespace tickscope::palette
