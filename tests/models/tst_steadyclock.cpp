// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The clock of sample timestamps and rates: it follows CLOCK_BOOTTIME (which counts
// suspend) and not CLOCK_MONOTONIC (which stops while the machine sleeps). On a machine
// that has slept since boot the two differ and boot() below tells them apart; on one
// that never slept they agree, and the test checks only that time advances evenly.
#include "collector/steadyclock.h"

#include <QDateTime>
#include <QTest>
#include <QThread>
#include <ctime>

using namespace Qt::StringLiterals;

using namespace Headroom;

namespace {
qint64 clockMs(clockid_t id)
{
    timespec now {};
    clock_gettime(id, &now);
    return qint64(now.tv_sec) * 1000 + now.tv_nsec / 1'000'000;
}
} // namespace

class TestSteadyClock : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void boot()
    {
        const qint64 before = clockMs(CLOCK_BOOTTIME);
        const qint64 ours = bootClockMs();
        const qint64 after = clockMs(CLOCK_BOOTTIME);
        QVERIFY2(
            before <= ours && ours <= after,
            qPrintable(
                u"%1 not in [%2, %3]; CLOCK_MONOTONIC is %4"_s.arg(ours).arg(before).arg(after).arg(
                    clockMs(CLOCK_MONOTONIC))));
        qInfo("CLOCK_BOOTTIME - CLOCK_MONOTONIC here: %lld ms (time this machine slept)",
              clockMs(CLOCK_BOOTTIME) - clockMs(CLOCK_MONOTONIC));
    }

    void wallClockAdvancesWithTheBootClock()
    {
        const qint64 wall0 = steadyWallClockMs();
        const qint64 boot0 = clockMs(CLOCK_BOOTTIME);
        // Starts at the wall clock (unless it stepped since the first call).
        QVERIFY(std::abs(wall0 - QDateTime::currentMSecsSinceEpoch()) < 60'000);
        QThread::msleep(120);
        const qint64 wall1 = steadyWallClockMs();
        const qint64 boot1 = clockMs(CLOCK_BOOTTIME);
        QVERIFY(std::abs((wall1 - wall0) - (boot1 - boot0)) <= 2);
        QVERIFY(wall1 - wall0 >= 120);
    }
};

QTEST_GUILESS_MAIN(TestSteadyClock)
#include "tst_steadyclock.moc"
