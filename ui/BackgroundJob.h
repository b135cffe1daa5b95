// Runs a job on Qt's thread pool and hands its result to the GUI thread (long work stays off the
// GUI thread, stale results are dropped). The receiver owns the watcher: when the receiver is gone the
// result is dropped; callers drop superseded results with their own generation counter and stop
// superseded jobs with a cancel flag the job polls. Recompute decides when a view's job runs.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace tickscope {

template <class Work, class Done> void runInBackground(QObject *receiver, Work work, Done done)
{
    using Result = std::invoke_result_t<Work>;
    auto result = std::make_shared<std::optional<Result>>();
    auto *watcher = new QFutureWatcher<void>(receiver);
    QObject::connect(watcher, &QFutureWatcherBase::finished, receiver, [watcher, result, done]() mutable {
        watcher->deleteLater();
        if (*result) done(std::move(**result));
    });
    watcher->setFuture(
        QtConcurrent::run([result, work = std::move(work)]() mutable { result->emplace(work()); }));
}

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
