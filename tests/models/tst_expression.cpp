// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "document/expression.h"
#include "engine/runtime/derivedseries.h"
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"

#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

class TestExpression : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void evaluate_data();
    void evaluate();
    void errors_data();
    void errors();
    void limits_data();
    void limits();
    void derivedJoinsOnLabels();
    void derivedApdexPerHistogram();
};

void TestExpression::evaluate_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("expected"); // NaN: no value
    QTest::addColumn<QStringList>("metrics");
    QTest::newRow("ratio") << u"a.rate / b.rate"_s << 4.0
                           << QStringList { u"a.rate"_s, u"b.rate"_s };
    QTest::newRow("precedence") << u"1 + 2 * 3"_s << 7.0 << QStringList();
    QTest::newRow("parentheses") << u"(1 + 2) * 3"_s << 9.0 << QStringList();
    QTest::newRow("left associative") << u"8 - 2 - 1"_s << 5.0 << QStringList();
    QTest::newRow("negation") << u"-a.rate + 10"_s << 2.0 << QStringList { u"a.rate"_s };
    QTest::newRow("exponent literal") << u"1.5e3 / 1e-1"_s << 15000.0 << QStringList();
    QTest::newRow("percent of") << u"100 * b.rate / (a.rate + b.rate)"_s << 20.0
                                << QStringList { u"b.rate"_s, u"a.rate"_s };
    QTest::newRow("divide by zero is a gap")
        << u"a.rate / zero"_s << qQNaN() << QStringList { u"a.rate"_s, u"zero"_s };
    QTest::newRow("missing operand is a gap")
        << u"a.rate + nosuch"_s << qQNaN() << QStringList { u"a.rate"_s, u"nosuch"_s };
    QTest::newRow("wait class name")
        << u"LWLock:PgStatsHash * 2"_s << 6.0 << QStringList { u"LWLock:PgStatsHash"_s };
}

void TestExpression::evaluate()
{
    QFETCH(QString, text);
    QFETCH(double, expected);
    QFETCH(QStringList, metrics);
    QString error;
    const auto e = Expression::parse(text, &error);
    QVERIFY2(e, qPrintable(error));
    QCOMPARE(e->metrics(), metrics);
    const QHash<QString, double> values {
        { u"a.rate"_s, 8 }, { u"b.rate"_s, 2 }, { u"zero"_s, 0 }, { u"LWLock:PgStatsHash"_s, 3 }
    };
    const auto v = e->evaluate([&](const QString &m) -> std::optional<double> {
        if (values.contains(m))
            return values.value(m);
        return std::nullopt;
    });
    if (qIsNaN(expected))
        QVERIFY(!v.has_value());
    else
        QCOMPARE(v.value_or(qQNaN()), expected);
}

void TestExpression::errors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("error");
    QTest::newRow("empty") << QString() << u"position 1: expected a number, a metric or \"(\""_s;
    QTest::newRow("dangling operator")
        << u"a +"_s << u"position 4: expected a number, a metric or \"(\""_s;
    QTest::newRow("unclosed") << u"(a + b"_s << u"position 7: expected \")\""_s;
    QTest::newRow("junk") << u"a $ b"_s << u"position 3: unexpected \"$\""_s;
    QTest::newRow("two operands") << u"a b"_s << u"position 3: unexpected \"b\""_s;
    // Dashboard files are untrusted: a deep nest would overflow the stack, and is refused
    // at the first level too many.
    const QString depth = QString::number(Expression::MaximumDepth);
    const QString tooDeep = u"nested deeper than "_s + depth + u" levels"_s;
    QTest::newRow("parentheses one too deep")
        << QString(Expression::MaximumDepth + 1, u'(') + u"a"_s
            + QString(Expression::MaximumDepth + 1, u')')
        << u"position "_s + QString::number(Expression::MaximumDepth + 1) + u": "_s + tooDeep;
    QTest::newRow("the longest text of parentheses")
        << QString(Expression::MaximumLength, u'(')
        << u"position "_s + QString::number(Expression::MaximumDepth + 1) + u": "_s + tooDeep;
    QTest::newRow("the longest text of minus signs")
        << QString(Expression::MaximumLength - 1, u'-') + u"1"_s
        << u"position "_s + QString::number(Expression::MaximumDepth + 1) + u": "_s + tooDeep;
    QTest::newRow("minus signs and parentheses add up")
        << QString(u"-(").repeated(Expression::MaximumDepth / 2) + u"-a"_s
            + QString(Expression::MaximumDepth / 2, u')')
        << u"position "_s + QString::number(Expression::MaximumDepth + 1) + u": "_s + tooDeep;
    QTest::newRow("one character too long")
        << u"a"_s.repeated(Expression::MaximumLength + 1)
        << u"longer than %1 characters (%2)"_s.arg(Expression::MaximumLength)
               .arg(Expression::MaximumLength + 1);
}

// The largest accepted expressions still parse and evaluate (no off-by-one in the
// bounds, and a long flat chain, which the parser loops over, is not a nesting).
void TestExpression::limits_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("expected");
    QTest::newRow("deepest parentheses") << QString(Expression::MaximumDepth, u'(') + u"a"_s
            + QString(Expression::MaximumDepth, u')')
                                         << 8.0;
    QTest::newRow("deepest minus signs")
        << QString(Expression::MaximumDepth, u'-') + u"a"_s << 8.0; // an even count
    QString chain = u"a"_s;
    while (chain.size() + 2 <= Expression::MaximumLength)
        chain += u"+a"_s;
    QTest::newRow("longest flat chain") << chain << 8.0 * double(chain.count(u'a'));
    QString padded = u"a"_s;
    padded += QString(Expression::MaximumLength - padded.size(), u' ');
    QTest::newRow("exactly the longest text") << padded << 8.0;
}

void TestExpression::limits()
{
    QFETCH(QString, text);
    QFETCH(double, expected);
    QVERIFY(text.size() <= Expression::MaximumLength);
    QString error;
    const auto e = Expression::parse(text, &error);
    QVERIFY2(e, qPrintable(error));
    QCOMPARE(e->evaluate([](const QString &) -> std::optional<double> { return 8.0; }),
             std::optional<double>(expected));
}

void TestExpression::errors()
{
    QFETCH(QString, text);
    QFETCH(QString, error);
    QString actual;
    QVERIFY(!Expression::parse(text, &actual));
    QCOMPARE(actual, error);
}

void TestExpression::derivedJoinsOnLabels()
{
    SeriesRegistry registry;
    SampleBus bus(&registry);
    LiveBuffers live(100);
    DerivedSeries derived(&bus);
    bus.addSink(&live);
    bus.addSink(&derived);
    QString error;
    derived.setDefinitions(
        { { u"pg"_s,
            u"pg.db.rows_per_block"_s,
            *Expression::parse(u"pg.db.tup_returned.rate / pg.db.blks_hit.rate"_s, &error),
            u"rows/block"_s,
            u"db"_s,
            UseKind::Saturation,
            {},
            0 },
          { u"pg"_s,
            u"pg.db.hit_per_cpu"_s,
            *Expression::parse(u"pg.db.blks_hit.rate / cpus"_s, &error),
            QString(),
            QString(),
            UseKind::Info,
            {},
            0 } });
    auto info = [](const QString &metric, const QString &db) {
        return SeriesInfo { { u"pg"_s, metric,
                              db.isEmpty() ? Labels() : Labels { { u"datname"_s, db } } },
                            u"1/s"_s,
                            u"db"_s,
                            UseKind::Throughput,
                            false };
    };
    SampleBatch batch;
    batch.source = u"pg"_s;
    batch.tsMs = 1000;
    batch.add(info(u"pg.db.tup_returned.rate"_s, u"erp"_s), 800);
    batch.add(info(u"pg.db.blks_hit.rate"_s, u"erp"_s), 100);
    batch.add(info(u"pg.db.tup_returned.rate"_s, u"idle"_s), 5);
    batch.add(info(u"pg.db.blks_hit.rate"_s, u"idle"_s),
              0); // no ratio: gap
    batch.add(info(u"pg.db.tup_returned.rate"_s, u"half"_s),
              5); // no operand: none
    batch.add(info(u"cpus"_s, QString()), 4);
    bus.publish(batch);
    batch.source = u"other"_s; // another source's batches feed nothing
    bus.publish(batch);

    const auto ratio = [&](const QString &metric, const QString &db) -> std::optional<double> {
        const auto id = registry.find(SeriesKey { u"pg"_s, metric, { { u"datname"_s, db } } });
        if (!id)
            return std::nullopt;
        const auto samples = live.read(*id, 0, 5000);
        return samples.empty() ? std::nullopt : std::optional<double>(samples.back().value);
    };
    QCOMPARE(ratio(u"pg.db.rows_per_block"_s, u"erp"_s), std::optional<double>(8.0));
    QCOMPARE(ratio(u"pg.db.rows_per_block"_s, u"idle"_s), std::nullopt);
    QCOMPARE(ratio(u"pg.db.rows_per_block"_s, u"half"_s), std::nullopt);
    QCOMPARE(ratio(u"pg.db.hit_per_cpu"_s, u"erp"_s), std::optional<double>(25.0));
    QVERIFY(!registry.find(
        SeriesKey { u"other"_s, u"pg.db.rows_per_block"_s, { { u"datname"_s, u"erp"_s } } }));
    QCOMPARE(registry
                 .info(*registry.find(SeriesKey {
                     u"pg"_s, u"pg.db.rows_per_block"_s, { { u"datname"_s, u"erp"_s } } }))
                 ->unit,
             u"rows/block"_s);

    // A definition that reads its own output does not recurse forever.
    derived.setDefinitions({ { u"pg"_s,
                               u"loop"_s,
                               *Expression::parse(u"loop + 1"_s, &error),
                               {},
                               {},
                               UseKind::Info,
                               {},
                               0 } });
    SampleBatch seed;
    seed.source = u"pg"_s;
    seed.tsMs = 2000;
    seed.add(info(u"loop"_s, QString()), 1);
    bus.publish(seed);
    const auto loopId = registry.find(SeriesKey { u"pg"_s, u"loop"_s, {} });
    QVERIFY(loopId);
    QVERIFY(live.read(*loopId, 0, 5000).size() <= 5);
}

void TestExpression::derivedApdexPerHistogram()
{
    SeriesRegistry registry;
    SampleBus bus(&registry);
    LiveBuffers live(100);
    DerivedSeries derived(&bus);
    bus.addSink(&live);
    bus.addSink(&derived);
    derived.setDefinitions({ { u"pg"_s,
                               u"pg.apdex.statements"_s,
                               {},
                               QString(),
                               QString(),
                               UseKind::Info,
                               u"pg.latency.statements"_s,
                               50 } });
    SampleBatch batch;
    batch.source = u"pg"_s;
    batch.tsMs = 1000;
    const auto histogram = [&](const QString &db, const QList<QPair<double, int>> &requests) {
        SeriesHistogram h;
        h.info = SeriesInfo { { u"pg"_s, u"pg.latency.statements"_s, { { u"datname"_s, db } } },
                              u"ms"_s,
                              u"db:"_s + db,
                              UseKind::Latency,
                              true };
        for (const auto &[ms, count] : requests)
            h.histogram.add(ms, quint64(count));
        batch.histograms.append(h);
    };
    histogram(u"shop"_s, { { 10, 6 }, { 120, 2 }, { 900, 2 } }); // (6 + 1) / 10
    histogram(u"idle"_s, {}); // no statement ran: no APDEX
    batch.add(SeriesInfo { { u"pg"_s, u"pg.up"_s, {} }, {}, u"pg"_s, UseKind::Info, false }, 1);
    bus.publish(batch);

    const auto apdex = [&](const QString &db) -> std::optional<double> {
        const auto id = registry.find(
            SeriesKey { u"pg"_s, u"pg.apdex.statements"_s, { { u"datname"_s, db } } });
        if (!id)
            return std::nullopt;
        const auto samples = live.read(*id, 0, 5000);
        return samples.empty() ? std::nullopt : std::optional<double>(samples.back().value);
    };
    QCOMPARE(apdex(u"shop"_s), 0.7);
    QCOMPARE(apdex(u"idle"_s), std::nullopt);
    const auto id = registry.find(
        SeriesKey { u"pg"_s, u"pg.apdex.statements"_s, { { u"datname"_s, u"shop"_s } } });
    QCOMPARE(registry.info(*id)->resource, u"db:shop"_s); // that of its histogram
}

QTEST_GUILESS_MAIN(TestExpression)
#include "tst_expression.moc"
