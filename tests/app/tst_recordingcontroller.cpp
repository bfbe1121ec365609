// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// RecordingController, the window's cache without the window: a recording saved from the
// live cache in the pool, opened in its place read-only and closed back to the live
// cache; an unreadable file falls back to the live cache; a save that cannot be written
// says why; no cache, nothing to save; the retention chosen is kept and used.
#include "engine/cache/samplecache.h"
#include "engine/monitoringsession.h"
#include "recordingcontroller.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

// Ten samples of one series, a second apart from a minute ago (within any retention),
// into the session's cache; returns the first one's time.
qint64 collect(MonitoringSession &session)
{
    const qint64 t0 = QDateTime::currentMSecsSinceEpoch() / 1000 * 1000 - 60'000;
    const SeriesInfo info {
        { u"host"_s, u"host.cpu.utilization"_s, {} }, u"%"_s, u"cpu"_s, UseKind::Utilization, false
    };
    for (int i = 0; i < 10; ++i) {
        SampleBatch batch;
        batch.source = u"host"_s;
        batch.tsMs = t0 + i * 1000;
        batch.add(info, 10.0 * i);
        session.bus().publish(batch);
    }
    session.flushCache();
    return t0;
}

} // namespace

class TestRecordingController : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void savedOpenedAndClosed();
    void unreadableFallsBackToLive();
    void saveThatCannotBeWritten();
    void nothingToSaveWithoutCache();
    void retentionKeptAndUsed();

private:
    QTemporaryDir m_dir;
};

void TestRecordingController::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QStandardPaths::setTestModeEnabled(true); // QSettings in a test location
    QCoreApplication::setOrganizationName(u"headroom-test"_s);
    QCoreApplication::setApplicationName(u"tst_recordingcontroller"_s);
    QSettings().clear();
}

void TestRecordingController::savedOpenedAndClosed()
{
    const QString live = m_dir.filePath(u"live.sqlite"_s);
    const QString recording = m_dir.filePath(u"incident.sqlite"_s);
    MonitoringSession session;
    QString error;
    QVERIFY2(session.openCache(live, &error), qPrintable(error));
    const qint64 t0 = collect(session);
    RecordingController controller(&session);
    controller.setLiveCache(live, {});
    QVERIFY(controller.canSave());

    QSignalSpy saved(&controller, &RecordingController::saved);
    QSignalSpy failed(&controller, &RecordingController::saveFailed);
    controller.save(recording, { { u"host.json"_s, QByteArray("{}") } }, t0, t0 + 9000);
    QTRY_COMPARE(saved.size(), 1);
    QCOMPARE(failed.size(), 0);
    const QString message = saved.constFirst().constFirst().toString();
    QVERIFY2(message.startsWith(u"Saved "_s + recording + u": 1 series, 10 samples"_s),
             qPrintable(message));

    session.stop();
    QVERIFY(!controller.isOpen(recording));
    QVERIFY2(controller.open(recording, &error), qPrintable(error));
    QVERIFY(controller.isOpen(recording));
    QVERIFY(session.isRecording());
    QVERIFY(session.cache()->isReadOnly());
    QCOMPARE(session.cache()->sources(), QStringList { u"host"_s });
    QCOMPARE(session.cache()->dashboards().size(), 1);

    session.stop();
    QVERIFY2(controller.close(&error), qPrintable(error));
    QVERIFY(!controller.isOpen(recording));
    QVERIFY(!session.isRecording());
    QCOMPARE(session.cache()->path(), live);
}

void TestRecordingController::unreadableFallsBackToLive()
{
    const QString live = m_dir.filePath(u"live2.sqlite"_s);
    const QString garbage = m_dir.filePath(u"garbage.sqlite"_s);
    QFile file(garbage);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("not a cache at all, just some bytes that SQLite will not read");
    file.close();
    MonitoringSession session;
    QString error;
    QVERIFY2(session.openCache(live, &error), qPrintable(error));
    RecordingController controller(&session);
    controller.setLiveCache(live, {});

    session.stop();
    QVERIFY(!controller.open(garbage, &error));
    QVERIFY2(error.contains(garbage), qPrintable(error));
    QVERIFY(!controller.isOpen(garbage));
    // Back to what collection uses: the window is not left without a cache.
    QVERIFY(session.cache());
    QCOMPARE(session.cache()->path(), live);
    QVERIFY(!session.isRecording());
}

void TestRecordingController::saveThatCannotBeWritten()
{
    MonitoringSession session;
    QString error;
    QVERIFY2(session.openCache(m_dir.filePath(u"live3.sqlite"_s), &error), qPrintable(error));
    const qint64 t0 = collect(session);
    RecordingController controller(&session);
    QSignalSpy saved(&controller, &RecordingController::saved);
    QSignalSpy failed(&controller, &RecordingController::saveFailed);
    // Beneath a file: no folder can be made there.
    QFile file(m_dir.filePath(u"notafolder"_s));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    const QString target = m_dir.filePath(u"notafolder/incident.sqlite"_s);
    controller.save(target, {}, t0, t0 + 9000);
    QTRY_COMPARE(failed.size(), 1);
    QCOMPARE(saved.size(), 0);
    const QString reason = failed.constFirst().constFirst().toString();
    QVERIFY2(!reason.isEmpty() && !reason.startsWith(u'!'), qPrintable(reason));
    QVERIFY(!QFile::exists(target));
}

void TestRecordingController::nothingToSaveWithoutCache()
{
    MonitoringSession session; // --no-cache
    RecordingController controller(&session);
    QVERIFY(!controller.canSave());
}

void TestRecordingController::retentionKeptAndUsed()
{
    MonitoringSession session;
    RecordingController controller(&session);
    controller.setLiveCache(QString(), { 0, 0, 0 });
    QCOMPARE(controller.retention(), retentionSetting()); // nothing chosen: the setting
    const RetentionDays chosen { 7, 30, 90 };
    controller.setRetention(chosen);
    QCOMPARE(controller.retention(), chosen);
    QCOMPARE(retentionSetting(), chosen); // and kept for the next start
    // A run given its own retention on the command line uses it.
    controller.setLiveCache(QString(), { 3, 0, 0 });
    QCOMPARE(controller.retention(), (RetentionDays { 3, 30, 90 }));
}

QTEST_GUILESS_MAIN(TestRecordingController)
#include "tst_recordingcontroller.moc"
