#include "BackgroundJob.h"

#include "util/Parallel.h"

#include <QCoreApplication>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <thread>

namespace tickscope {

namespace {

JobQueue &jobs()
{
    // Destroyed at exit, after the application object: waits for the running jobs, whose results go to
    // an inbox that is never destroyed (and never drained again).
    static JobQueue queue(std::max(2, static_cast<int>(std::thread::hardware_concurrency())),
                          [](const std::exception &e) {
                              std::fprintf(stderr, "tickscope: background job failed: %s\n", e.what());
                          });
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
