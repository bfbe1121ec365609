// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Dashboard ▸ Sources… against real servers: a PostgreSQL server (the test server) and an
// ssh:// host (a real sshd on loopback) added through the dialog's forms, driven as a
// user types, give the very collectors the equivalent JSON gives (same plugin, same
// options after substitution, same interval and timeout), and both collect: the same
// metrics and series as the JSON's sources, polled side by side.
#include "../postgres/pgtestutil.h"
#include "document/dashboardfile.h"
#include "editors/sourcesdialog.h"
#include "engine/sourceinstance.h"
#include "engine/sourceprobe.h"
#include "remotetestutil.h"

#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLineEdit>
#include <QTest>
#include <algorithm>

using namespace Headroom;
using namespace Qt::StringLiterals;

class TestSourcesDialogLive : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void dialogSourcesCollectWhatJsonCollects();
};

namespace {
void type(QWidget *editor, const QString &field, const QString &text)
{
    auto *edit = editor->findChild<QLineEdit *>(field);
    QVERIFY2(edit, qPrintable(field));
    edit->selectAll();
    QTest::keyClicks(edit, text);
}

// The metrics a PostgreSQL server reports however idle it is; the others (statements,
// blocked sessions, vacuums in progress, tables and partitions, per-state sessions)
// come and go with what other sessions do.
QStringList steadyMetrics(const QStringList &metrics)
{
    static const QStringList steady {
        u"pg.up"_s,
        u"pg.activity.oldest_xact_age_s"_s,
        u"pg.activity.longest_query_age_s"_s,
        u"pg.autovacuum.busy"_s,
        u"pg.autovacuum.workers"_s,
        u"pg.latency.probe"_s,
        u"pg.locks.blocked"_s,
        u"pg.locks.root_blockers"_s,
        u"pg.maintenance.running"_s,
        u"pg.waits.samples_per_second"_s,
    };
    QStringList kept;
    std::copy_if(metrics.cbegin(), metrics.cend(), std::back_inserter(kept), [](const QString &m) {
        return steady.contains(m) || m.startsWith(u"pg.db."_s) || !m.startsWith(u"pg."_s);
    });
    return kept;
}
} // namespace

void TestSourcesDialogLive::dialogSourcesCollectWhatJsonCollects()
{
    HEADROOM_REQUIRE_PG();
    Test::SshServer sshd;
    QString error;
    QVERIFY2(sshd.start(&error), qPrintable(error));
    const Test::HomeDirectory home(sshd.home()); // the client key and known_hosts
    CollectorRegistry collectors;
    QCOMPARE(collectors.loadPlugins(), QStringList());

    Dashboard empty;
    empty.title = u"mine"_s;
    SourcesDialog dialog(empty, {}, {});
    dialog.setEditorRun([&](SourceEditor *editor) {
        if (editor->source().plugin == u"postgres") {
            type(editor, u"pgHost"_s, Test::env("HEADROOM_TEST_PGHOST"));
            type(editor, u"pgPort"_s, Test::env("HEADROOM_TEST_PGPORT"));
            type(editor, u"pgDatabase"_s, u"postgres"_s);
            type(editor, u"pgUser"_s, u"postgres"_s);
        } else {
            type(editor, u"host"_s, sshd.url());
        }
        return editor->problem().isEmpty();
    });
    dialog.addSource(u"postgres"_s);
    dialog.addSource(u"host"_s);
    QCOMPARE(dialog.sources().size(), 2);

    const QJsonObject pg { { u"id"_s, u"pg"_s },
                           { u"plugin"_s, u"postgres"_s },
                           { u"config"_s, QJsonObject { { u"conninfo"_s, Test::conninfo() } } } };
    const QJsonObject host { { u"id"_s, u"host"_s },
                             { u"plugin"_s, u"host"_s },
                             { u"config"_s, QJsonObject { { u"host"_s, sshd.url() } } } };
    const QByteArray file = QJsonDocument(QJsonObject {
                                              { u"schemaVersion"_s, 3 },
                                              { u"title"_s, u"mine"_s },
                                              { u"sources"_s, QJsonArray { pg, host } },
                                              { u"panels"_s, QJsonArray {} },
                                          })
                                .toJson();
    const DashboardLoadResult json = parseDashboard(file, u"mine.json"_s);
    QVERIFY2(json.ok(), qPrintable(json.error.toString()));

    for (qsizetype i = 0; i < 2; ++i) {
        const SourceInstance fromDialog = instantiateSource(collectors, dialog.dashboard(), i, {});
        const SourceInstance fromJson = instantiateSource(collectors, *json.dashboard, i, {});
        QVERIFY2(fromDialog.collector, qPrintable(fromDialog.error));
        QVERIFY2(fromJson.collector, qPrintable(fromJson.error));
        QCOMPARE(fromDialog.config.sourceId, fromJson.config.sourceId);
        QCOMPARE(fromDialog.config.options, fromJson.config.options);
        QCOMPARE(fromDialog.config.intervalMs, fromJson.config.intervalMs);
        QCOMPARE(fromDialog.config.timeoutMs, fromJson.config.timeoutMs);
        QCOMPARE(fromDialog.config.userOptions, fromJson.config.userOptions);

        const SourceProbeResult a = probeSource(collectors, dialog.dashboard(), i, {});
        const SourceProbeResult b = probeSource(collectors, *json.dashboard, i, {});
        QVERIFY2(a.error.isEmpty(), qPrintable(a.error));
        QVERIFY2(b.error.isEmpty(), qPrintable(b.error));
        // A metric family that exists only while some session of the shared test server
        // is busy (statements run, a lock is waited on, a vacuum or a partitioned table
        // appears) may show in one probe and not in the other, a second apart: compare
        // what every PostgreSQL server reports, and say what differed.
        const QStringList steadyA = steadyMetrics(a.metrics);
        QCOMPARE(steadyA, steadyMetrics(b.metrics));
        QVERIFY2(i != 0
                     || (steadyA.contains(u"pg.up"_s) && steadyA.contains(u"pg.db.commits.rate"_s)),
                 qPrintable(steadyA.join(u' ')));
        if (a.metrics != b.metrics)
            qInfo("activity-driven metrics differ: dialog %s, JSON %s",
                  qPrintable(a.metrics.join(u' ')), qPrintable(b.metrics.join(u' ')));
        qInfo("%s: %d series (JSON: %d), %lld ms: %s", qPrintable(fromJson.config.sourceId),
              a.series, b.series, a.tookMs, qPrintable(a.metrics.join(u' ')));
    }
}

QTEST_MAIN(TestSourcesDialogLive)
#include "tst_sourcesdialoglive.moc"
