// SPDX-License-Identifier: GPL-3.0-or-later
#include "BackgroundJob.h"

#include "util/Cancel.h"
#include "util/Parallel.h"

#include <QCoreApplication>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <new>
#include <thread>

namespace tickscope {

namespace {

struct FailureHandler
{
    std::mutex mutex;
    QPointer<QObject> receiver;
    std::function<void(const QString &)> handler;
};

FailureHandler &failureHandler()
{
    static FailureHandler *h = new FailureHandler; // used by worker threads until the process ends
    return *h;
}

void jobFailed(const std::exception &e)
{
    if (dynamic_cast<const Cancelled *>(&e)) return; // superseded: not a failure
    const bool memory = dynamic_cast<const std::bad_alloc *>(&e) != nullptr;
    const QString what = memory ? QStringLiteral("out of memory") : QString::fromUtf8(e.what());
    std::fprintf(stderr, "tickscope: background job failed: %s\n", qPrintable(what));
    FailureHandler &h = failureHandler();
    const std::lock_guard lock(h.mutex);
    if (h.handler) postToGui(h.receiver, [handler = h.handler, what] { handler(what); });
}

JobQueue &jobs()
{
    // Destroyed at exit, after the application object: waits for the running jobs, whose results go to
    // an inbox that is never destroyed (and never drained again).
    static JobQueue queue(std::max(2, static_cast<int>(std::thread::hardware_concurrency())), jobFailed);
    return queue;
}

} // namespace

GuiInbox &GuiInbox::instance()
{
    static GuiInbox *inbox = new GuiInbox; // lives as long as the process: workers may post at exit
    return *inbox;
}

void GuiInbox::post(QPointer<QObject> receiver, std::function<void()> fn)
{
    bool schedule = false;
    {
        const std::lock_guard lock(mutex_);
        items_.push_back({std::move(receiver), std::move(fn)});
        schedule = !std::exchange(scheduled_, true);
    }
    // By name: the queued call is made inside Qt, with no functor of ours crossing threads.
    if (schedule) QMetaObject::invokeMethod(this, "drain", Qt::QueuedConnection);
}

void GuiInbox::drain()
{
    std::vector<Item> items;
    {
        const std::lock_guard lock(mutex_);
        items.swap(items_);
        scheduled_ = false;
    }
    for (Item &item : items)
        if (item.receiver) item.fn();
}

void setBackgroundFailureHandler(QObject *receiver, std::function<void(const QString &)> handler)
{
    FailureHandler &h = failureHandler();
    const std::lock_guard lock(h.mutex);
    h.receiver = receiver;
    h.handler = std::move(handler);
}

void postToGui(QPointer<QObject> receiver, std::function<void()> fn)
{
    GuiInbox::instance().post(std::move(receiver), std::move(fn));
}

void submitBackgroundJob(std::function<void()> job)
{
    GuiInbox::instance(); // made on the GUI thread, before any job can post
    jobs().submit(std::move(job));
}

int backgroundJobsPending()
{
    return jobs().pending();
}

} // namespace tickscope
