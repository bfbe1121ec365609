// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The main window's time range rules (RangeController): which [from, to] the panels
// get after a sequence of range changes, zooms, pauses and resumes, at a given time.
#include "rangecontroller.h"

#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {
constexpr qint64 Minute = 60 * 1000;
constexpr qint64 T0 = 1'700'000'000'000; // a "now" for the steps

struct Step
{
    enum Op
    {
        SetRange,
        Zoom,
        Pause,
        Resume,
        Data // results came back: a is their earliest point, b where they were queried from
    } op;
    qint64 nowMs = T0;
    qint64 a = 0, b = 0; // SetRange: a is the length; Zoom: [a, b]
};

void apply(RangeController &controller, const Step &step)
{
    switch (step.op) {
    case Step::SetRange:
        controller.setRangeMs(step.a, step.nowMs);
        break;
    case Step::Zoom:
        controller.zoom(step.a, step.b, step.nowMs);
        break;
    case Step::Pause:
        controller.setFollowing(false, step.nowMs);
        break;
    case Step::Resume:
        controller.setFollowing(true, step.nowMs);
        break;
    case Step::Data:
        controller.noteDataStart(step.a, step.b, step.nowMs);
        break;
    }
}
} // namespace

Q_DECLARE_METATYPE(QList<Step>)

class TestRangeController : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void presets();
    void steps_data();
    void steps();
};

void TestRangeController::presets()
{
    QStringList names;
    QList<qint64> lengths;
    for (const RangePreset &preset : RangeController::presets()) {
        names << preset.name;
        lengths << preset.ms;
    }
    QCOMPARE(names, (QStringList { u"5m"_s, u"15m"_s, u"1h"_s, u"6h"_s, u"24h"_s }));
    QCOMPARE(lengths,
             (QList<qint64> { 5 * Minute, 15 * Minute, 60 * Minute, 360 * Minute, 1440 * Minute }));
    QCOMPARE(RangeController().rangeMs(), 15 * Minute);
}

void TestRangeController::steps_data()
{
    QTest::addColumn<QList<Step>>("steps");
    QTest::addColumn<qint64>("nowMs"); // when the range is asked for
    QTest::addColumn<bool>("following");
    QTest::addColumn<qint64>("rangeMs");
    QTest::addColumn<qint64>("fromMs");
    QTest::addColumn<qint64>("toMs");

    const qint64 later = T0 + 10 * Minute;
    const qint64 a = T0 - 50 * Minute, b = T0 - 40 * Minute;
    QTest::newRow("follows the last 15 minutes")
        << QList<Step> {} << T0 << true << 15 * Minute << T0 - 15 * Minute << T0;
    QTest::newRow("following covers now as time goes on")
        << QList<Step> {} << later << true << 15 * Minute << later - 15 * Minute << later;
    QTest::newRow("range change while following")
        << QList<Step> { { Step::SetRange, T0, 60 * Minute } } << later << true << 60 * Minute
        << later - 60 * Minute << later;
    QTest::newRow("pause freezes the range shown")
        << QList<Step> { { Step::Pause, T0 } } << later << false << 15 * Minute << T0 - 15 * Minute
        << T0;
    QTest::newRow("pause twice keeps the first")
        << QList<Step> { { Step::Pause, T0 }, { Step::Pause, T0 + Minute } } << later << false
        << 15 * Minute << T0 - 15 * Minute << T0;
    QTest::newRow("resume follows again")
        << QList<Step> { { Step::Pause, T0 }, { Step::Resume, T0 + Minute } } << later << true
        << 15 * Minute << later - 15 * Minute << later;
    QTest::newRow("range change while paused ends at that time")
        << QList<Step> { { Step::Pause, T0 }, { Step::SetRange, T0 + Minute, 5 * Minute } } << later
        << false << 5 * Minute << T0 - 4 * Minute << T0 + Minute;
    QTest::newRow("zoom fixes the range and pauses")
        << QList<Step> { { Step::Zoom, T0, a, b } } << later << false << 15 * Minute << a << b;
    QTest::newRow("zoom keeps the range length")
        << QList<Step> { { Step::SetRange, T0, 60 * Minute }, { Step::Zoom, T0, a, b } } << later
        << false << 60 * Minute << a << b;
    QTest::newRow("zoom while zoomed replaces the range")
        << QList<Step> { { Step::Zoom, T0, a, b }, { Step::Zoom, T0, a + Minute, b - Minute } }
        << later << false << 15 * Minute << a + Minute << b - Minute;
    QTest::newRow("pause after a zoom keeps the zoom")
        << QList<Step> { { Step::Zoom, T0, a, b }, { Step::Pause, T0 + Minute } } << later << false
        << 15 * Minute << a << b;
    QTest::newRow("empty zoom pauses on the range shown")
        << QList<Step> { { Step::Zoom, T0, a, a } } << later << false << 15 * Minute
        << T0 - 15 * Minute << T0;
    QTest::newRow("range change after a zoom ends at that time")
        << QList<Step> { { Step::Zoom, T0, a, b }, { Step::SetRange, T0 + Minute, 5 * Minute } }
        << later << false << 5 * Minute << T0 - 4 * Minute << T0 + Minute;
    // A preset chosen in the range combo: resume, then the new length.
    QTest::newRow("preset after a zoom follows over the preset")
        << QList<Step> { { Step::Zoom, T0, a, b },
                         { Step::Resume, T0 + Minute },
                         { Step::SetRange, T0 + Minute, 5 * Minute } }
        << later << true << 5 * Minute << later - 5 * Minute << later;
    // Start well: the data of a fresh start is drawn across the chart, growing to 15m.
    const qint64 start = T0 - 20'000; // collection began 20 s before T0
    const Step fresh { Step::Data, T0, start, T0 - 15 * Minute };
    QTest::newRow("fresh start: the minimum growing range")
        << QList<Step> { fresh } << T0 << true << 15 * Minute << T0 - Minute << T0;
    QTest::newRow("fresh start: grows with the data")
        << QList<Step> { fresh } << T0 + 5 * Minute << true << 15 * Minute << start
        << T0 + 5 * Minute;
    const qint64 muchLater = T0 + 20 * Minute; // 20 minutes of data by then
    QTest::newRow("fresh start: stops growing at the chosen length")
        << QList<Step> { fresh } << muchLater << true << 15 * Minute << muchLater - 15 * Minute
        << muchLater;
    QTest::newRow("results of a narrower query say nothing")
        << QList<Step> { fresh, { Step::Data, T0 + 5 * Minute, start + Minute, start } }
        << T0 + 5 * Minute << true << 15 * Minute << start << T0 + 5 * Minute;
    QTest::newRow("no data: the whole length")
        << QList<Step> { { Step::Data, T0, 0, T0 - 15 * Minute } } << T0 << true << 15 * Minute
        << T0 - 15 * Minute << T0;
    QTest::newRow("a new length forgets where the data started")
        << QList<Step> { fresh, { Step::SetRange, T0 + Minute, 60 * Minute } } << T0 + 2 * Minute
        << true << 60 * Minute << T0 - 58 * Minute << T0 + 2 * Minute;
    QTest::newRow("data start ignored while paused")
        << QList<Step> { { Step::Pause, T0 }, { Step::Data, T0, start, T0 - 15 * Minute } } << later
        << false << 15 * Minute << T0 - 15 * Minute << T0;
    QTest::newRow("forgotten on resume")
        << QList<Step> { fresh, { Step::Pause, T0 }, { Step::Resume, T0 } } << T0 + Minute << true
        << 15 * Minute << T0 - 14 * Minute << T0 + Minute;
    QTest::newRow("resume forgets the zoom: a later pause freezes now") << QList<Step> {
        { Step::Zoom, T0, a, b }, { Step::Resume, T0 + Minute }, { Step::Pause, T0 + 2 * Minute }
    } << later << false << 15 * Minute << T0 - 13 * Minute << T0 + 2 * Minute;
}

void TestRangeController::steps()
{
    QFETCH(QList<Step>, steps);
    QFETCH(qint64, nowMs);
    QFETCH(bool, following);
    QFETCH(qint64, rangeMs);
    QFETCH(qint64, fromMs);
    QFETCH(qint64, toMs);
    RangeController controller;
    for (const Step &step : std::as_const(steps))
        apply(controller, step);
    QCOMPARE(controller.following(), following);
    QCOMPARE(controller.rangeMs(), rangeMs);
    const auto [from, to] = controller.range(nowMs);
    QCOMPARE(from, fromMs);
    QCOMPARE(to, toMs);
}

QTEST_GUILESS_MAIN(TestRangeController)
#include "tst_rangecontroller.moc"
