// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// --retention and the stored setting: whole days from 1 to 400, 30 by default; a
// recording refuses it.
#include "commandline.h"
#include "retentionsetting.h"

#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Headroom;

class TestRetentionSetting : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void parse_data();
    void parse();
    void setting();
    void commandLine();
};

void TestRetentionSetting::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // QSettings in a test location
    QCoreApplication::setOrganizationName(u"headroom-test"_s);
    QCoreApplication::setApplicationName(u"tst_retentionsetting"_s);
    QSettings().clear();
}

void TestRetentionSetting::parse_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("days"); // 0: refused
    QTest::newRow("30d") << u"30d"_s << 30;
    QTest::newRow("8w") << u"8w"_s << 56;
    QTest::newRow("1d") << u"1d"_s << 1;
    QTest::newRow("400d") << u"400d"_s << 400;
    QTest::newRow("401d") << u"401d"_s << 0;
    QTest::newRow("0d") << u"0d"_s << 0;
    QTest::newRow("36h") << u"36h"_s << 0;
    QTest::newRow("48h") << u"48h"_s << 2;
    QTest::newRow("forever") << u"forever"_s << 0;
}

void TestRetentionSetting::parse()
{
    QFETCH(QString, text);
    QFETCH(int, days);
    QString error;
    const auto parsed = parseRetention(text, &error);
    if (days == 0) {
        QVERIFY(!parsed);
        QVERIFY2(error.contains(u"whole days from 1d to 400d"_s), qPrintable(error));
    } else {
        QVERIFY2(parsed, qPrintable(error));
        QCOMPARE(*parsed, days);
    }
}

void TestRetentionSetting::setting()
{
    QSettings().clear();
    QCOMPARE(retentionSetting(), (RetentionDays { 30, 90, 400 }));
    saveRetentionSetting({ 90, 120, 200 });
    QCOMPARE(retentionSetting(), (RetentionDays { 90, 120, 200 }));
    saveRetentionSetting({ 9999, 0, 400 }); // clamped when saved
    QCOMPARE(retentionSetting(), (RetentionDays { 400, 1, 400 }));
    QSettings().setValue(u"cache/retentionDays"_s, -3); // a hand-edited file: clamped when read
    QCOMPARE(retentionSetting().raw, 1);
    QSettings().setValue(u"cache/retentionDays"_s, u"lots"_s);
    QSettings().setValue(u"cache/hourRetentionDays"_s, u"lots"_s);
    QCOMPARE(retentionSetting(), (RetentionDays { 30, 1, 400 }));
    // One run's choice wins over the setting where it is made.
    QSettings().clear();
    saveRetentionSetting({ 14, 60, 300 });
    QCOMPARE(effectiveRetention({ 0, 100, 0 }), (RetentionDays { 14, 100, 300 }));
    const CacheOptions options = cacheOptionsWithRetention({ 7, 0, 0 });
    QCOMPARE(options.retentionDays, 7);
    QCOMPARE(options.minuteRetentionDays, 60);
    QCOMPARE(options.hourRetentionDays, 300);
}

void TestRetentionSetting::commandLine()
{
    CommandLine options;
    QString error;
    QVERIFY2(parseCommandLine({ u"headroom"_s, u"--retention"_s, u"90d"_s }, &options, &error),
             qPrintable(error));
    QCOMPARE(options.retention, (RetentionDays { 90, 0, 0 }));
    CommandLine tiers;
    QVERIFY2(parseCommandLine({ u"headroom"_s, u"--minute-retention"_s, u"60d"_s,
                                u"--hour-retention"_s, u"52w"_s },
                              &tiers, &error),
             qPrintable(error));
    QCOMPARE(tiers.retention, (RetentionDays { 0, 60, 364 }));
    CommandLine tooLong;
    QVERIFY(
        !parseCommandLine({ u"headroom"_s, u"--hour-retention"_s, u"500d"_s }, &tooLong, &error));
    QVERIFY2(error.startsWith(u"--hour-retention \"500d\""_s), qPrintable(error));
    CommandLine bad;
    QVERIFY(!parseCommandLine({ u"headroom"_s, u"--retention"_s, u"2y"_s }, &bad, &error));
    QVERIFY2(error.startsWith(u"--retention \"2y\""_s), qPrintable(error));
    CommandLine recording;
    QVERIFY(!parseCommandLine(
        { u"headroom"_s, u"--recording"_s, u"r.sqlite"_s, u"--retention"_s, u"9d"_s }, &recording,
        &error));
    QVERIFY2(error.contains(u"--retention"_s) && error.contains(u"read-only"_s), qPrintable(error));
    CommandLine range;
    QVERIFY(!parseCommandLine({ u"headroom"_s, u"--from"_s, u"yesterday"_s }, &range, &error));
    QVERIFY2(error.startsWith(u"--from \"yesterday\""_s), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestRetentionSetting)
#include "tst_retentionsetting.moc"
