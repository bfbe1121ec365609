// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// libpq would look host names up inside PQconnectPoll, blind to the poll's deadline;
// PgConnection resolves them itself within the deadline and passes hostaddr. Proved
// with the tests' own getaddrinfo (slowgetaddrinfo.h): here names under .slow.test
// take 3 s, as a dead name server would take 5 s and more.
#include "../slowgetaddrinfo.h"
#include "pgconnection.h"
#include "pgtestutil.h"

#include <QElapsedTimer>
#include <QTest>
#include <QThread>
#include <atomic>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

class TestPgResolve : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void connectsByName()
    {
        HEADROOM_REQUIRE_PG();
        PgSettings settings;
        settings.conninfo = u"host=localhost port=%1 user=postgres dbname=postgres"_s.arg(
            env("HEADROOM_TEST_PGPORT"));
        PgConnection connection(settings);
        QString error;
        QVERIFY2(connection.ensureConnected(QDeadlineTimer(5000), &error), qPrintable(error));
    }

    void slowNameBoundedByTheDeadline()
    {
        slowLookupMs = 3000;
        PgSettings settings;
        settings.conninfo = u"host=db.slow.test port=5432 user=postgres"_s;
        settings.connectTimeoutMs = 10000;
        PgConnection connection(settings);
        QElapsedTimer timer;
        timer.start();
        QString error;
        QVERIFY(!connection.ensureConnected(QDeadlineTimer(400), &error));
        const qint64 tookMs = timer.elapsed();
        qInfo("a connect to a name that takes 3 s to resolve returned after %lld ms", tookMs);
        QVERIFY2(tookMs < 1000, qPrintable(QString::number(tookMs)));
        QVERIFY2(error.contains(u"db.slow.test"_s), qPrintable(error));
        QVERIFY(slowLookups >= 1);
    }

    void unknownName()
    {
        PgSettings settings;
        settings.conninfo = u"host=nothing-here.invalid user=postgres"_s;
        PgConnection connection(settings);
        QString error;
        QVERIFY(!connection.ensureConnected(QDeadlineTimer(3000), &error));
        QVERIFY2(error.contains(u"cannot resolve \"nothing-here.invalid\""_s), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestPgResolve)
#include "tst_pgresolve.moc"
