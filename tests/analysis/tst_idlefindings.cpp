// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// False positives: idle periods of every shipped dashboard that collects for itself,
// recorded on quiet machines (tests/fixtures/idle, made by tests/analysis/record-idle
// and listed in its fixtures.json), each opened as a recording by the built headroom:
// no finding at or above the warning score. Recordings instead of live minutes: the
// check takes seconds, runs beside other tests, and judges the same quiet every time.
// A control recording of a saturated CPU (marked "control") must raise a finding, so a
// check that could no longer see one fails too.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
// RFC 4180 rows: quoted fields may hold commas, doubled quotes and newlines.
QList<QStringList> parseCsv(const QString &text)
{
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quoted) {
            if (c == u'"' && i + 1 < text.size() && text.at(i + 1) == u'"') {
                field += u'"';
                ++i;
            } else if (c == u'"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == u'"') {
            quoted = true;
        } else if (c == u',') {
            row.append(field);
            field.clear();
        } else if (c == u'\n') {
            row.append(field);
            field.clear();
            rows.append(row);
            row.clear();
        } else {
            field += c;
        }
    }
    if (!field.isEmpty() || !row.isEmpty()) {
        row.append(field);
        rows.append(row);
    }
    return rows;
}
} // namespace

class TestIdleFindings : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void recordedIdleFindsNothingAboveWarning_data();
    void recordedIdleFindsNothingAboveWarning();
};

void TestIdleFindings::recordedIdleFindsNothingAboveWarning_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("seconds");
    QTest::addColumn<bool>("control");
    QFile manifest(QStringLiteral(HEADROOM_FIXTURES_DIR "/idle/fixtures.json"));
    QVERIFY2(manifest.open(QIODevice::ReadOnly), qPrintable(manifest.fileName()));
    const QJsonArray entries = QJsonDocument::fromJson(manifest.readAll()).array();
    QSet<QString> machines;
    QSet<QString> what;
    for (const auto &value : entries) {
        const QJsonObject entry = value.toObject();
        const QString file = entry.value(u"file"_s).toString();
        machines.insert(entry.value(u"machine"_s).toString());
        what.insert(entry.value(u"what"_s).toString());
        QTest::newRow(qPrintable(file))
            << file << entry.value(u"seconds"_s).toInt() << entry.value(u"control"_s).toBool();
    }
    // Every shipped dashboard that collects for itself has an idle period on record.
    for (const QString &needed : { u"host-local"_s, u"postgres"_s, u"mariadb"_s })
        QVERIFY2(what.contains(needed), qPrintable(u"no idle recording of "_s + needed));
    QVERIFY(entries.size() >= 4);
}

void TestIdleFindings::recordedIdleFindsNothingAboveWarning()
{
    QFETCH(QString, file);
    QFETCH(int, seconds);
    QFETCH(bool, control);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString recording = dir.filePath(u"idle.sqlite"_s);
    QProcess gunzip;
    gunzip.setStandardOutputFile(recording);
    gunzip.start(u"gzip"_s, { u"-dc"_s, QStringLiteral(HEADROOM_FIXTURES_DIR "/idle/") + file });
    QVERIFY(gunzip.waitForFinished(30000));
    QCOMPARE(gunzip.exitCode(), 0);

    const QString csvPath = dir.filePath(u"findings.csv"_s);
    QProcess headroom;
    headroom.setProcessChannelMode(QProcess::ForwardedErrorChannel); // stdout: --explain
    headroom.start(
        QStringLiteral(HEADROOM_BUILD_DIR "/bin/headroom"),
        { u"--recording"_s, recording, u"--explain"_s, u"--export-findings"_s, csvPath });
    QVERIFY(headroom.waitForFinished(120000));
    QVERIFY2(headroom.exitStatus() == QProcess::NormalExit && headroom.exitCode() == 0,
             qPrintable(u"exit %1"_s.arg(headroom.exitCode())));
    // The run judged something: "Findings for ... (N series, ...".
    const QString explained = QString::fromUtf8(headroom.readAllStandardOutput());
    const QRegularExpressionMatch analysed
        = QRegularExpression(u"\\((\\d+) series"_s).match(explained);
    QVERIFY2(analysed.hasMatch() && analysed.captured(1).toInt() >= 10,
             qPrintable(explained.left(300)));
    qInfo("%s: %s series over %d s analysed", qPrintable(file), qPrintable(analysed.captured(1)),
          seconds);
    QFile csv(csvPath);
    QVERIFY2(csv.open(QIODevice::ReadOnly), qPrintable(csv.fileName()));
    const QList<QStringList> rows = parseCsv(QString::fromUtf8(csv.readAll()));
    QVERIFY(!rows.isEmpty());
    const QStringList &header = rows.first();
    const qsizetype scoreColumn = header.indexOf(u"score"_s);
    QVERIFY2(scoreColumn >= 0, qPrintable(header.join(u',')));
    int aboveWarning = 0;
    for (qsizetype r = 1; r < rows.size(); ++r) {
        qInfo("%s: %s", qPrintable(file), qPrintable(rows[r].join(u" | ")));
        QCOMPARE(rows[r].size(), header.size());
        bool ok = false;
        const double score = rows[r][scoreColumn].toDouble(&ok);
        QVERIFY2(ok, qPrintable(rows[r].join(u',')));
        aboveWarning += score >= 0.5 ? 1 : 0;
    }
    if (control) {
        QVERIFY2(aboveWarning > 0, "the control recording of a saturated CPU raised nothing");
        return;
    }
    QVERIFY2(
        aboveWarning == 0,
        qPrintable(u"%1 finding(s) at or above warning in an idle recording"_s.arg(aboveWarning)));
}

QTEST_GUILESS_MAIN(TestIdleFindings)
#include "tst_idlefindings.moc"
