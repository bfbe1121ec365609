// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// --from/--to: ISO 8601 date-times, durations before the end of the data, "end"; the
// defaults of a live run and of a recording; a from that is not before its to.
#include "recordingsummary.h"
#include "timebounds.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace Headroom;

class TestTimeBounds : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void bound_data();
    void bound();
    void bounds_data();
    void bounds();
    void summary();
};

namespace {
// 2026-11-12T10:00:00Z
constexpr qint64 EndMs = 1'794'477'600'000;
constexpr qint64 HourMs = 3'600'000;
} // namespace

void TestTimeBounds::bound_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<qint64>("expected"); // -1: refused
    QTest::newRow("utc") << u"2026-11-12T09:30:00Z"_s << EndMs - HourMs / 2;
    QTest::newRow("offset") << u"2026-11-12T11:30:00+02:00"_s << EndMs - HourMs / 2;
    QTest::newRow("milliseconds") << u"2026-11-12T09:59:59.250Z"_s << EndMs - 750;
    QTest::newRow("before end") << u"-2h"_s << EndMs - 2 * HourMs;
    QTest::newRow("before end, minutes") << u"-90m"_s << EndMs - 90 * 60'000;
    QTest::newRow("end") << u"end"_s << EndMs;
    QTest::newRow("garbage") << u"yesterday"_s << qint64(-1);
    QTest::newRow("minus garbage") << u"-soon"_s << qint64(-1);
    QTest::newRow("empty") << QString() << qint64(-1);
}

void TestTimeBounds::bound()
{
    QFETCH(QString, spec);
    QFETCH(qint64, expected);
    QString error;
    const auto ms = parseTimeBound(spec, EndMs, &error);
    if (expected < 0) {
        QVERIFY(!ms);
        QVERIFY2(error.contains(u"ISO 8601"_s), qPrintable(error));
        return;
    }
    QVERIFY2(ms, qPrintable(error));
    QCOMPARE(*ms, expected);
}

void TestTimeBounds::bounds_data()
{
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<qint64>("rangeMs");
    QTest::addColumn<qint64>("expectedFrom"); // -1: refused
    QTest::addColumn<qint64>("expectedTo");
    const qint64 defaultFrom = EndMs - 48 * HourMs; // a recording's start
    QTest::newRow("defaults: the whole span")
        << QString() << QString() << qint64(0) << defaultFrom << EndMs;
    QTest::newRow("range before the end")
        << QString() << QString() << HourMs << EndMs - HourMs << EndMs;
    QTest::newRow("range before --to")
        << QString() << u"-1h"_s << HourMs << EndMs - 2 * HourMs << EndMs - HourMs;
    QTest::newRow("absolute") << u"2026-11-12T08:00:00Z"_s << u"2026-11-12T09:00:00Z"_s << qint64(0)
                              << EndMs - 2 * HourMs << EndMs - HourMs;
    QTest::newRow("from after to") << u"-1h"_s << u"-2h"_s << qint64(0) << qint64(-1) << qint64(0);
    QTest::newRow("bad to") << QString() << u"later"_s << qint64(0) << qint64(-1) << qint64(0);
}

void TestTimeBounds::bounds()
{
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(qint64, rangeMs);
    QFETCH(qint64, expectedFrom);
    QFETCH(qint64, expectedTo);
    QString error;
    const auto range = resolveTimeBounds(from, to, EndMs, rangeMs, EndMs - 48 * HourMs, &error);
    if (expectedFrom < 0) {
        QVERIFY(!range);
        QVERIFY2(error.startsWith(u"--"_s), qPrintable(error));
        return;
    }
    QVERIFY2(range, qPrintable(error));
    QCOMPARE(range->first, expectedFrom);
    QCOMPARE(range->second, expectedTo);
}

void TestTimeBounds::summary()
{
    const RecordingSummary s = summarizeRecording(
        u"/tmp/x/incident.sqlite"_s, { u"host"_s, u"nic"_s, u"pg:a"_s, u"pg:b"_s, u"pg:c"_s },
        std::pair { EndMs - (20 * 24 + 3) * HourMs, EndMs });
    QCOMPARE(s.title, u"incident.sqlite — recording, read-only"_s);
    QVERIFY2(s.status.startsWith(
                 u"Recording, read-only: incident.sqlite — host, nic, pg:a, pg:b and 1 more — "_s),
             qPrintable(s.status));
    QVERIFY2(s.status.endsWith(u"(20 d 3 h)"_s), qPrintable(s.status));
    QVERIFY(summarizeRecording(u"r.sqlite"_s, {}, std::nullopt)
                .status.endsWith(u"no series — no samples"_s));
}

QTEST_GUILESS_MAIN(TestTimeBounds)
#include "tst_timebounds.moc"
