// Runs a job on Qt's thread pool and hands its result to the GUI thread (STYLE §6: long work off the
// GUI thread, stale results dropped). The receiver owns the watcher: when the receiver is gone the
// result is dropped; callers drop superseded results with their own generation counter and stop
// superseded jobs with a cancel flag the job polls.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

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

} // namespace tickscope
