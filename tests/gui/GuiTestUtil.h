// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers the Qt tests share: the test application's identity, counting a colour's pixels in an image,
// running a program, the longest event-loop stall allowed, skips that ctest reports.
#pragma once

#include "tickscope_version.h"

#include <QApplication>
#include <QColor>
#include <QElapsedTimer>
#include <QImage>
#include <QProcessEnvironment>
#include <QRect>
#include <QStringList>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace tickscope::test {

// Settings of the tests go to their own QSettings file, never the user's; the version is the build's
// (the exported pictures' footer carries it).
inline void initTestApplication()
{
    QApplication::setOrganizationName(QStringLiteral("tickscope-test"));
    QApplication::setApplicationName(QStringLiteral("tickscope-test"));
    QApplication::setApplicationVersion(QStringLiteral(TICKSCOPE_VERSION_TEXT));
}

// Pixels of exactly `c` inside `r` of `img`.
inline int countColour(const QImage &img, const QRect &r, const QColor &c)
{
    int n = 0;
    const QRgb want = c.rgb();
    for (int y = std::max(0, r.top()); y <= std::min(img.height() - 1, r.bottom()); ++y)
        for (int x = std::max(0, r.left()); x <= std::min(img.width() - 1, r.right()); ++x)
            n += (img.pixel(x, y) & 0xFFFFFF) == (want & 0xFFFFFF);
    return n;
}

// The longest the GUI thread may block the event loop: 100 ms, the product's limit. Under the
// sanitizers every instrumented line runs slower (ASan about 2 times, ThreadSanitizer 5-15 times), so
// the same work takes longer; the limit is five times higher there (the sanitizer runs check memory
// and races, the dev build and CI check the time). Measured as the GUI thread's own time (OwnClock,
// EventLoopStalls): a machine busy with other tests delays the thread but is no stall of ours.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
constexpr qint64 kStallLimitMs = 500;
#else
constexpr qint64 kStallLimitMs = 100;
#endif

// The time the calling thread has spent runnable but waiting for a CPU (other threads, other processes
// ran), in ns: the second figure of /proc/thread-self/schedstat; -1 when the kernel does not keep it.
inline qint64 runQueueWaitNs()
{
    FILE *f = std::fopen("/proc/thread-self/schedstat", "r");
    if (!f) return -1;
    unsigned long long onCpu = 0, waited = 0;
    const int n = std::fscanf(f, "%llu %llu", &onCpu, &waited);
    std::fclose(f);
    return n == 2 ? static_cast<qint64>(waited) : -1;
}

// The wall time since start() less the time this thread waited for a CPU meanwhile: how long the thread
// was running or blocked (on a lock, a join, a read), which a loaded machine does not lengthen. A call's
// own time on the GUI thread is how long it kept the event loop from running.
class OwnClock
{
public:
    void start()
    {
        wall_.start();
        waited_ = runQueueWaitNs();
    }
    qint64 elapsedNs() const
    {
        const qint64 w = runQueueWaitNs();
        return wall_.nsecsElapsed() - (w >= 0 && waited_ >= 0 ? w - waited_ : 0);
    }
    qint64 elapsedMs() const { return elapsedNs() / 1000000; }
    qint64 wallMs() const { return wall_.elapsed(); }

private:
    QElapsedTimer wall_;
    qint64 waited_ = 0;
};

// How long the event loop was blocked: the longest gap between two ticks of a 2 ms timer on the GUI
// thread, counted in the thread's own time (OwnClock). A gap the thread spent waiting for a CPU, because
// ctest runs other tests beside this one on a loaded machine, is not a stall: the wall-clock gap is
// printed beside it, but only the own time is held to kStallLimitMs. (Waiting on a lock or a join, the
// stalls this catches, is the thread's own time.)
class EventLoopStalls
{
public:
    EventLoopStalls()
    {
        QObject::connect(&ticker_, &QTimer::timeout, [this] {
            worst_ = std::max(worst_, sinceTick_.elapsedNs());
            worstWall_ = std::max(worstWall_, sinceTick_.wallMs());
            sinceTick_.start();
        });
    }
    void start()
    {
        worst_ = worstWall_ = 0;
        sinceTick_.start();
        ticker_.start(2);
    }
    void stop() { ticker_.stop(); }
    qint64 worstMs() const { return worst_ / 1000000; } // the GUI thread's own time
    qint64 worstWallMs() const { return worstWall_; }   // waiting for a CPU included
    QString describe() const
    {
        return QStringLiteral("event loop blocked %1 ms (%2 ms on the wall clock)")
            .arg(worstMs())
            .arg(worstWallMs());
    }

private:
    QTimer ticker_;
    OwnClock sinceTick_;
    qint64 worst_ = 0, worstWall_ = 0;
};

struct ProgramRun
{
    int exit = -1; // -1: killed by a signal, or still running at the timeout (then killed)
    QByteArray out, err;
};

// Runs `program` with `args` (and `env`, else this process' environment) to its end. fork() and exec()
// rather than QProcess: Debian's Qt starts children with vfork semantics, which ThreadSanitizer does
// not follow (it then reports false races and refuses to start threads); fork() it handles.
inline ProgramRun runProgram(const QString &program, const QStringList &args,
                             const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
                             int timeoutMs = 120000)
{
    std::vector<std::string> argv{program.toStdString()}, envv;
    for (const QString &a : args)
        argv.push_back(a.toStdString());
    for (const QString &e : env.toStringList())
        envv.push_back(e.toStdString());
    auto pointers = [](std::vector<std::string> &v) {
        std::vector<char *> p;
        for (std::string &s : v)
            p.push_back(s.data());
        p.push_back(nullptr);
        return p;
    };
    std::vector<char *> av = pointers(argv), ev = pointers(envv);
    int out[2], err[2];
    if (pipe(out) != 0 || pipe(err) != 0) return {};
    const pid_t pid = fork();
    if (pid < 0) return {};
    if (pid == 0) {
        dup2(out[1], 1);
        dup2(err[1], 2);
        for (int fd : {out[0], out[1], err[0], err[1]})
            close(fd);
        execve(av[0], av.data(), ev.data());
        _exit(127);
    }
    close(out[1]);
    close(err[1]);
    ProgramRun r;
    QElapsedTimer clock;
    clock.start();
    pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
    QByteArray *sinks[2] = {&r.out, &r.err};
    int openPipes = 2;
    bool timedOut = false;
    while (openPipes > 0) {
        const qint64 left = timeoutMs - clock.elapsed();
        if (left <= 0) {
            timedOut = true;
            kill(pid, SIGKILL);
            break;
        }
        if (poll(fds, 2, static_cast<int>(left)) < 0) continue;
        for (int k = 0; k < 2; ++k) {
            if (fds[k].fd < 0 || !fds[k].revents) continue;
            char buf[65536];
            const ssize_t n = read(fds[k].fd, buf, sizeof buf);
            if (n > 0) {
                sinks[k]->append(buf, static_cast<qsizetype>(n));
            } else {
                close(fds[k].fd);
                fds[k].fd = -1;
                --openPipes;
            }
        }
    }
    for (const pollfd &f : fds)
        if (f.fd >= 0) close(f.fd);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!timedOut && WIFEXITED(status)) r.exit = WEXITSTATUS(status);
    return r;
}

// What a test program skipped (TICKSCOPE_SKIP): a program that skipped anything and failed nothing exits
// with kSkipExitCode, which tests/CMakeLists.txt gives ctest as the program's SKIP_RETURN_CODE. ctest runs
// each Qt test program as one test, so a skip of one function shows as the whole program skipped (its
// output, with -V, says which part): never as a pass that did not check everything.
constexpr int kSkipExitCode = 77;

inline QStringList &skipped()
{
    static QStringList s;
    return s;
}

// QTest::qExec's result (the number of failures) as the program's exit code; the skips are listed last.
inline int exitCode(int failures)
{
    if (skipped().isEmpty()) return std::min(failures, kSkipExitCode - 1); // (77 failures are no skip)
    for (const QString &why : skipped())
        std::fprintf(stderr, "SKIPPED, not passed: %s\n", qPrintable(why));
    return failures != 0 ? std::min(failures, kSkipExitCode - 1) : kSkipExitCode;
}

// A reference tool is missing: in CI (CI=true in the environment), where scripts/install-deps.sh --test
// has installed it, that fails the test; elsewhere it skips.
inline bool inCi()
{
    return qgetenv("CI") == "true";
}

} // namespace tickscope::test

// QSKIP(message), remembered for the program's exit code (tickscope::test::exitCode).
#define TICKSCOPE_SKIP(message)                                                                              \
    do {                                                                                                     \
        tickscope::test::skipped() << QStringLiteral("%1: %2").arg(                                          \
            QLatin1String(QTest::currentTestFunction()), QLatin1String(message));                            \
        QSKIP(message);                                                                                      \
    } while (false)

// A reference tool the test needs is missing: QFAIL in CI, else TICKSCOPE_SKIP.
#define TICKSCOPE_MISSING_TOOL(message)                                                                      \
    do {                                                                                                     \
        if (tickscope::test::inCi()) QFAIL(message " (CI=true: the reference tool must be installed)");      \
        TICKSCOPE_SKIP(message);                                                                             \
    } while (false)

// QTEST_MAIN, with the exit code telling ctest about skips.
#define TICKSCOPE_TEST_MAIN(TestObject)                                                                      \
    int main(int argc, char *argv[])                                                                         \
    {                                                                                                        \
        QApplication app(argc, argv);                                                                        \
        app.setAttribute(Qt::AA_Use96Dpi, true);                                                             \
        TestObject tc;                                                                                       \
        QTEST_SET_MAIN_SOURCE_PATH                                                                           \
        return tickscope::test::exitCode(QTest::qExec(&tc, argc, argv));                                     \
    }
