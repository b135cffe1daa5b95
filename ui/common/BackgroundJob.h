// SPDX-License-Identifier: GPL-3.0-or-later
// Background jobs for the views, and the hand-off of their results (and of any worker thread's
// message) to the GUI thread. Long work stays off the GUI thread; a result whose receiver is gone is
// dropped; callers drop superseded results with their own generation counter and stop superseded jobs
// with a cancel flag the job polls. Recompute decides when a view's job runs.
//
// Every hand-off between threads goes through a std::mutex (the jobs' queue, the GUI thread's inbox)
// rather than Qt's thread pool or queued functors: Debian's Qt is not built with ThreadSanitizer, so
// the synchronisation inside it is invisible to TSan, which would report each hand-off as a race.
// Through the mutexes TSan sees every one, and the GUI tests run under it.
#pragma once

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace tickscope {

// Runs `fn` on the GUI thread, from its event loop, if `receiver` still exists then. Callable from
// any thread; the calls from one thread run in their order.
void postToGui(QPointer<QObject> receiver, std::function<void()> fn);

// Queues a job for the views' background threads (one per hardware thread, at least two).
void submitBackgroundJob(std::function<void()> job);

// Background jobs queued or running.
int backgroundJobsPending();

// Who is told, on the GUI thread, that a background job failed (it threw): the main window, which says
// so in a dialog, since the views that waited for the result go on showing what they had. A job stopped
// by its cancel flag (Cancelled) has not failed. Without a handler (or once it is gone) a failure is
// written to stderr only. Call it on the GUI thread; the last call wins.
void setBackgroundFailureHandler(QObject *receiver, std::function<void(const QString &what)> handler);

// Runs work() on a background thread and done(result) on the GUI thread, unless `receiver` is gone by
// then. Call it on the GUI thread.
template <class Work, class Done> void runInBackground(QObject *receiver, Work work, Done done)
{
    submitBackgroundJob(
        [to = QPointer<QObject>(receiver), work = std::move(work), done = std::move(done)]() mutable {
            postToGui(to, [done = std::move(done), result = work()]() mutable { done(std::move(result)); });
        });
}

// The GUI thread's end of postToGui (one, made on first use, which must be on the GUI thread).
class GuiInbox : public QObject
{
    Q_OBJECT
public:
    static GuiInbox &instance();
    void post(QPointer<QObject> receiver, std::function<void()> fn);

private:
    GuiInbox() = default;
    Q_INVOKABLE void drain();

    struct Item
    {
        QPointer<QObject> receiver;
        std::function<void()> fn;
    };
    std::mutex mutex_;
    std::vector<Item> items_;
    bool scheduled_ = false; // a drain() is queued
};

// When a view recomputes from its inputs (the ViewState's range, CPUs, its own options): at once (a new
// document, an option toggled) or, debounced, after `delayMs` without another change (a range being
// dragged or zoomed); never again for the inputs it computed or is computing. Results of superseded
// computations are dropped by generation.
template <class Inputs> class Recompute
{
public:
    // compute: the owner's function that reads its inputs, calls start() and runs the job.
    Recompute(QObject *owner, int delayMs, std::function<void()> compute) : delay_(new QTimer(owner))
    {
        delay_->setSingleShot(true);
        delay_->setInterval(delayMs);
        QObject::connect(delay_, &QTimer::timeout, owner, std::move(compute));
    }
    // A new document: nothing is computed for it, and results still running are stale.
    void reset()
    {
        ++generation_;
        computed_.reset();
    }
    // The inputs changed: compute after the delay, unless they are back to what was computed.
    void schedule(const Inputs &in)
    {
        if (computed_ && *computed_ == in)
            delay_->stop();
        else
            delay_->start();
    }
    // The generation of a computation of `in` to start now; none when `in` is computed or being computed.
    std::optional<uint64_t> start(const Inputs &in)
    {
        delay_->stop();
        if (computed_ && *computed_ == in) return std::nullopt;
        computed_ = in;
        return ++generation_;
    }
    bool current(uint64_t generation) const { return generation == generation_; }
    bool debouncing() const { return delay_->isActive(); }

private:
    QTimer *delay_;
    uint64_t generation_ = 0;
    std::optional<Inputs> computed_; // of the last computation started
};

} // namespace tickscope
