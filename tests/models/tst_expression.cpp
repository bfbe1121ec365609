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
};

void TestExpression::evaluate_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("expected"); // NaN: no value
    QTest::addColumn<QStringList>("metrics");
    QTest::newRow("ratio") << QStringLiteral("a.rate / b.rate") << 4.0
                           << QStringList { QStringLiteral("a.rate"), QStringLiteral("b.rate") };
    QTest::newRow("precedence") << QStringLiteral("1 + 2 * 3") << 7.0 << QStringList();
    QTest::newRow("parentheses") << QStringLiteral("(1 + 2) * 3") << 9.0 << QStringList();
    QTest::newRow("left associative") << QStringLiteral("8 - 2 - 1") << 5.0 << QStringList();
    QTest::newRow("negation") << QStringLiteral("-a.rate + 10") << 2.0
                              << QStringList { QStringLiteral("a.rate") };
    QTest::newRow("exponent literal") << QStringLiteral("1.5e3 / 1e-1") << 15000.0 << QStringList();
    QTest::newRow("percent of") << QStringLiteral("100 * b.rate / (a.rate + b.rate)") << 20.0
                                << QStringList { QStringLiteral("b.rate"),
                                                 QStringLiteral("a.rate") };
    QTest::newRow("divide by zero is a gap")
        << QStringLiteral("a.rate / zero") << qQNaN()
        << QStringList { QStringLiteral("a.rate"), QStringLiteral("zero") };
    QTest::newRow("missing operand is a gap")
        << QStringLiteral("a.rate + nosuch") << qQNaN()
        << QStringList { QStringLiteral("a.rate"), QStringLiteral("nosuch") };
    QTest::newRow("wait class name") << QStringLiteral("LWLock:PgStatsHash * 2") << 6.0
                                     << QStringList { QStringLiteral("LWLock:PgStatsHash") };
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
    const QHash<QString, double> values { { QStringLiteral("a.rate"), 8 },
                                          { QStringLiteral("b.rate"), 2 },
                                          { QStringLiteral("zero"), 0 },
                                          { QStringLiteral("LWLock:PgStatsHash"), 3 } };
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
    QTest::newRow("empty") << QString()
                           << QStringLiteral("position 1: expected a number, a metric or \"(\"");
    QTest::newRow("dangling operator")
        << QStringLiteral("a +")
        << QStringLiteral("position 4: expected a number, a metric or \"(\"");
    QTest::newRow("unclosed") << QStringLiteral("(a + b")
                              << QStringLiteral("position 7: expected \")\"");
    QTest::newRow("junk") << QStringLiteral("a $ b")
                          << QStringLiteral("position 3: unexpected \"$\"");
    QTest::newRow("two operands") << QStringLiteral("a b")
                                  << QStringLiteral("position 3: unexpected \"b\"");
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
    QTest::newRow("longest flat chain") << chain << 8.0 * double((chain.size() + 1) / 2);
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
        { { QStringLiteral("pg"), QStringLiteral("pg.db.rows_per_block"),
            *Expression::parse(QStringLiteral("pg.db.tup_returned.rate / pg.db.blks_hit.rate"),
                               &error),
            QStringLiteral("rows/block"), QStringLiteral("db"), UseKind::Saturation },
          { QStringLiteral("pg"), QStringLiteral("pg.db.hit_per_cpu"),
            *Expression::parse(QStringLiteral("pg.db.blks_hit.rate / cpus"), &error), QString(),
            QString(), UseKind::Info } });
    auto info = [](const QString &metric, const QString &db) {
        return SeriesInfo { { QStringLiteral("pg"), metric,
                              db.isEmpty() ? Labels()
                                           : Labels { { QStringLiteral("datname"), db } } },
                            QStringLiteral("1/s"),
                            QStringLiteral("db"),
                            UseKind::Throughput,
                            false };
    };
    SampleBatch batch;
    batch.source = QStringLiteral("pg");
    batch.tsMs = 1000;
    batch.add(info(QStringLiteral("pg.db.tup_returned.rate"), QStringLiteral("erp")), 800);
    batch.add(info(QStringLiteral("pg.db.blks_hit.rate"), QStringLiteral("erp")), 100);
    batch.add(info(QStringLiteral("pg.db.tup_returned.rate"), QStringLiteral("idle")), 5);
    batch.add(info(QStringLiteral("pg.db.blks_hit.rate"), QStringLiteral("idle")),
              0); // no ratio: gap
    batch.add(info(QStringLiteral("pg.db.tup_returned.rate"), QStringLiteral("half")),
              5); // no operand: none
    batch.add(info(QStringLiteral("cpus"), QString()), 4);
    bus.publish(batch);
    batch.source = QStringLiteral("other"); // another source's batches feed nothing
    bus.publish(batch);

    const auto ratio = [&](const QString &metric, const QString &db) -> std::optional<double> {
        const auto id = registry.find(
            SeriesKey { QStringLiteral("pg"), metric, { { QStringLiteral("datname"), db } } });
        if (!id)
            return std::nullopt;
        const auto samples = live.read(*id, 0, 5000);
        return samples.empty() ? std::nullopt : std::optional<double>(samples.back().value);
    };
    QCOMPARE(ratio(QStringLiteral("pg.db.rows_per_block"), QStringLiteral("erp")),
             std::optional<double>(8.0));
    QCOMPARE(ratio(QStringLiteral("pg.db.rows_per_block"), QStringLiteral("idle")), std::nullopt);
    QCOMPARE(ratio(QStringLiteral("pg.db.rows_per_block"), QStringLiteral("half")), std::nullopt);
    QCOMPARE(ratio(QStringLiteral("pg.db.hit_per_cpu"), QStringLiteral("erp")),
             std::optional<double>(25.0));
    QVERIFY(!registry.find(SeriesKey { QStringLiteral("other"),
                                       QStringLiteral("pg.db.rows_per_block"),
                                       { { QStringLiteral("datname"), QStringLiteral("erp") } } }));
    QCOMPARE(registry
                 .info(*registry.find(
                     SeriesKey { QStringLiteral("pg"),
                                 QStringLiteral("pg.db.rows_per_block"),
                                 { { QStringLiteral("datname"), QStringLiteral("erp") } } }))
                 ->unit,
             QStringLiteral("rows/block"));

    // A definition that reads its own output does not recurse forever.
    derived.setDefinitions({ { QStringLiteral("pg"),
                               QStringLiteral("loop"),
                               *Expression::parse(QStringLiteral("loop + 1"), &error),
                               {},
                               {},
                               UseKind::Info } });
    SampleBatch seed;
    seed.source = QStringLiteral("pg");
    seed.tsMs = 2000;
    seed.add(info(QStringLiteral("loop"), QString()), 1);
    bus.publish(seed);
    const auto loopId
        = registry.find(SeriesKey { QStringLiteral("pg"), QStringLiteral("loop"), {} });
    QVERIFY(loopId);
    QVERIFY(live.read(*loopId, 0, 5000).size() <= 5);
}

QTEST_GUILESS_MAIN(TestExpression)
#include "tst_expression.moc"
