// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// NicCollector's qdisc series over fixture trees and captured netlink dumps, polled in
// sequence with a fake clock: rates and metadata, the first poll, a replaced qdisc, a
// counter going down, only watched interfaces, and netlink refused or failing.
#include "collectortestutil.h"
#include "niccollector.h"
#include "nictestutil.h"
#include "qdiscfixture.h"

#include <QJsonObject>
#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

// The known/ tree's interfaces stand for captured ones: eth0 for ta (tbf, traffic),
// veth0 for na (noqueue, traffic), virt1 for pa (pfifo_fast, traffic).
const QString QdiscT0 = u"netns/t0"_s;
const QString QdiscT1 = u"netns/t1"_s;
const QHash<QString, QString> StandIns { { u"eth0"_s, u"ta"_s },
                                         { u"veth0"_s, u"na"_s },
                                         { u"virt1"_s, u"pa"_s } };

QHash<int, QString> standInNames(const QHash<QString, QString> &standIns = StandIns)
{
    QHash<int, QString> names;
    for (auto it = standIns.cbegin(); it != standIns.cend(); ++it)
        names.insert(qdiscInterfaceIndex(QdiscT0, it.value()), it.key());
    return names;
}

// known/t0 with netns/t0's dump, then known/t1 with netns/t1's, 2 s apart.
struct QdiscHarness : FixtureHarness
{
    explicit QdiscHarness(std::unique_ptr<QdiscSource> qdiscs)
        : FixtureHarness(u"nic/known/t0"_s,
                         [&qdiscs](std::unique_ptr<FileSource> source, const FakeClock &clock) {
                             CollectorConfig config;
                             config.sourceId = u"net"_s;
                             NicOptions options;
                             options.speedMbps.insert(u"virt1"_s, 100);
                             return std::make_unique<NicCollector>(
                                 config, options, std::move(source), clock, std::move(qdiscs));
                         })
    {
    }
};

struct CapturedHarness : QdiscHarness
{
    CapturedHarness()
        : QdiscHarness(std::make_unique<CapturedQdiscSource>(qdiscDump(QdiscT0), standInNames()))
    {
    }
};

// A QdiscSource answering from a script, counting the questions.
class ScriptedQdiscSource : public QdiscSource
{
public:
    explicit ScriptedQdiscSource(QList<QdiscReading> answers, int *asked)
        : m_answers(std::move(answers))
        , m_asked(asked)
    {
    }
    QdiscReading read(const QDeadlineTimer &) override
    {
        const qsizetype index = std::min<qsizetype>((*m_asked)++, m_answers.size() - 1);
        return m_answers.at(index);
    }

private:
    QList<QdiscReading> m_answers;
    int *m_asked;
};

QdiscReading capturedReading(const QString &dir)
{
    return CapturedQdiscSource(qdiscDump(dir), standInNames()).read(QDeadlineTimer(0));
}

QdiscReading failedReading(const QString &error, bool unavailable)
{
    QdiscReading reading;
    reading.error = error;
    reading.unavailable = unavailable;
    return reading;
}

} // namespace

class TestNicQdiscs : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void qdiscRates_data();
    void qdiscRates();
    void qdiscMetadata_data();
    void qdiscMetadata();
    void qdiscFirstPoll();
    void qdiscReplaced();
    void qdiscCounterDown();
    void qdiscOnlyWatchedInterfaces();
    void qdiscUnavailable();
    void qdiscFailingAndRecovering();
    void qdiscOnlyLocal_data();
    void qdiscOnlyLocal();
};

void TestNicQdiscs::qdiscRates_data()
{
    QTest::addColumn<QString>("interface");
    QTest::addColumn<QString>("tcKey");
    QTest::addColumn<QString>("metric");
    for (const QString &interface : { u"eth0"_s, u"veth0"_s, u"virt1"_s }) {
        for (const auto &[key, metric] : { std::pair { u"drops"_s, u"nic.qdisc.drops"_s },
                                           std::pair { u"overlimits"_s, u"nic.qdisc.overlimits"_s },
                                           std::pair { u"requeues"_s, u"nic.qdisc.requeues"_s },
                                           std::pair { u"backlog"_s, u"nic.qdisc.backlog"_s } })
            QTest::newRow(qPrintable(interface + u' ' + metric)) << interface << key << metric;
    }
}

// Each series against tc's reading of the two captures: counters as their delta over
// the 2 s between the polls, the backlog as the second capture's.
void TestNicQdiscs::qdiscRates()
{
    QFETCH(QString, interface);
    QFETCH(QString, tcKey);
    QFETCH(QString, metric);
    int asked = 0;
    QdiscHarness h(std::make_unique<ScriptedQdiscSource>(
        QList<QdiscReading> { capturedReading(QdiscT0), capturedReading(QdiscT1) }, &asked));
    h.poll(u"nic/known/t0"_s, T0);
    const PollResult result = h.poll(u"nic/known/t1"_s, T0 + Interval);
    QVERIFY(result.error.isEmpty());
    const QString captureName = StandIns.value(interface);
    const double before = tcRoot(QdiscT0, captureName).value(tcKey).toDouble(-1);
    const double after = tcRoot(QdiscT1, captureName).value(tcKey).toDouble(-1);
    QVERIFY(before >= 0 && after >= before);
    const double expected = metric == "nic.qdisc.backlog"_L1 ? after : (after - before) / 2;
    const auto value = valueOf(result.batch, metric, { { u"interface"_s, interface } });
    QVERIFY2(value, qPrintable(metric + u" missing"_s));
    QCOMPARE(*value, expected);
    // The limiter dropped and held back packets between the captures; the others not.
    if (interface == "eth0"_L1 && (tcKey == "drops"_L1 || tcKey == "overlimits"_L1))
        QVERIFY(*value > 0);
}

void TestNicQdiscs::qdiscMetadata_data()
{
    addMetadataColumns();
    const QString eth0 = u"{interface=eth0}"_s;
    const QString nic = u"nic:eth0"_s;
    metadataRow(u"nic.qdisc.drops"_s, eth0, u"1/s"_s, nic, UseKind::Errors);
    metadataRow(u"nic.qdisc.overlimits"_s, eth0, u"1/s"_s, nic, UseKind::Saturation);
    metadataRow(u"nic.qdisc.requeues"_s, eth0, u"1/s"_s, nic, UseKind::Saturation);
    metadataRow(u"nic.qdisc.backlog"_s, eth0, u"B"_s, nic, UseKind::Saturation);
}

void TestNicQdiscs::qdiscMetadata()
{
    QFETCH(QString, metric);
    QFETCH(QString, labels);
    QFETCH(QString, unit);
    QFETCH(QString, resource);
    QFETCH(UseKind, kind);
    CapturedHarness h;
    h.poll(u"nic/known/t0"_s, T0);
    const auto value
        = find(h.poll(u"nic/known/t1"_s, T0 + Interval).batch, metric, Test::labels(labels));
    QVERIFY(value);
    QCOMPARE(value->info.key.source, u"net"_s);
    QCOMPARE(value->info.unit, unit);
    QCOMPARE(value->info.resource, resource);
    QCOMPARE(value->info.kind, kind);
}

// The backlog is a gauge, published from the first poll; the rates need two.
void TestNicQdiscs::qdiscFirstPoll()
{
    CapturedHarness h;
    const PollResult first = h.poll(u"nic/known/t0"_s, T0);
    QCOMPARE(first.warnings, QStringList { speedWarning(u"veth0"_s) });
    QCOMPARE(findAll(first.batch, u"nic.qdisc.backlog"_s).size(), 3);
    QVERIFY(findAll(first.batch, u"nic.qdisc.drops"_s).isEmpty());
    QVERIFY(findAll(first.batch, u"nic.qdisc.overlimits"_s).isEmpty());
    // The same dump again: the counters did not move, which is a zero rate.
    const PollResult second = h.poll(u"nic/known/t0"_s, T0 + Interval);
    QCOMPARE(findAll(second.batch, u"nic.qdisc.drops"_s).size(), 3);
    for (const auto valueRange = findAll(second.batch, u"nic.qdisc.drops"_s);
         const SeriesValue &value : valueRange)
        QCOMPARE(value.value, 0.0);
    // The series set of knownSeriesSet, plus four qdisc series per interface.
    QCOMPARE(second.batch.values.size(), 3 * 8 + 2 * 3 + 2 + 2 + 4 + 3 * 4);
}

// `tc qdisc replace` (here: eth0's root becomes another qdisc with counters of its own)
// starts a new baseline: no rate against the old qdisc's counters.
void TestNicQdiscs::qdiscReplaced()
{
    // eth0 and virt1 swap roots: eth0's becomes a pfifo_fast with 1.1 million packets
    // sent, virt1's a tbf.
    auto standIns = StandIns;
    standIns[u"eth0"_s] = u"pa"_s;
    standIns[u"virt1"_s] = u"ta"_s;
    int asked = 0;
    const QdiscReading replaced
        = CapturedQdiscSource(qdiscDump(QdiscT1), standInNames(standIns)).read(QDeadlineTimer(0));
    QdiscHarness h(std::make_unique<ScriptedQdiscSource>(
        QList<QdiscReading> { capturedReading(QdiscT0), replaced, replaced }, &asked));
    h.poll(u"nic/known/t0"_s, T0);
    const Labels eth0 { { u"interface"_s, u"eth0"_s } };
    const PollResult result = h.poll(u"nic/known/t1"_s, T0 + Interval);
    QVERIFY(!valueOf(result.batch, u"nic.qdisc.drops"_s, eth0));
    QVERIFY(!valueOf(result.batch, u"nic.qdisc.overlimits"_s, eth0));
    QCOMPARE(valueOf(result.batch, u"nic.qdisc.backlog"_s, eth0), 0.0);
    QVERIFY(!valueOf(result.batch, u"nic.qdisc.drops"_s, { { u"interface"_s, u"virt1"_s } }));
    // veth0 kept its qdisc: a rate as usual.
    QCOMPARE(valueOf(result.batch, u"nic.qdisc.drops"_s, { { u"interface"_s, u"veth0"_s } }), 0.0);
    // The new qdisc's counters are the baseline from then on.
    const PollResult next = h.poll(u"nic/known/t1"_s, T0 + 2 * Interval);
    QCOMPARE(valueOf(next.batch, u"nic.qdisc.drops"_s, eth0), 0.0);
    QCOMPARE(asked, 3);
}

// Counters that went down on the same qdisc (a 32-bit wrap): a gap, never a negative.
void TestNicQdiscs::qdiscCounterDown()
{
    int asked = 0;
    QdiscHarness h(std::make_unique<ScriptedQdiscSource>(
        QList<QdiscReading> { capturedReading(QdiscT1), capturedReading(QdiscT0),
                              capturedReading(QdiscT1) },
        &asked));
    const Labels eth0 { { u"interface"_s, u"eth0"_s } };
    h.poll(u"nic/known/t0"_s, T0);
    const PollResult down = h.poll(u"nic/known/t0"_s, T0 + Interval);
    QVERIFY(!valueOf(down.batch, u"nic.qdisc.drops"_s, eth0));
    QVERIFY(!valueOf(down.batch, u"nic.qdisc.overlimits"_s, eth0));
    // requeues stayed 0: unchanged, a zero rate.
    QCOMPARE(valueOf(down.batch, u"nic.qdisc.requeues"_s, eth0), 0.0);
    const PollResult up = h.poll(u"nic/known/t0"_s, T0 + 2 * Interval);
    QVERIFY(*valueOf(up.batch, u"nic.qdisc.drops"_s, eth0) > 0);
}

// The qdisc series follow the interface selection: lo, and interfaces the tree does
// not have, give none.
void TestNicQdiscs::qdiscOnlyWatchedInterfaces()
{
    QHash<int, QString> names = standInNames();
    names.insert(qdiscInterfaceIndex(QdiscT0, u"lo"_s), u"lo"_s);
    names.insert(qdiscInterfaceIndex(QdiscT0, u"m0"_s), u"m0"_s);
    int asked = 0;
    const QdiscReading reading
        = CapturedQdiscSource(qdiscDump(QdiscT0), names).read(QDeadlineTimer(0));
    QCOMPARE(reading.roots.size(), 5);
    QdiscHarness h(std::make_unique<ScriptedQdiscSource>(QList<QdiscReading> { reading }, &asked));
    const PollResult result = h.poll(u"nic/known/t0"_s, T0);
    QStringList named;
    for (const auto valueList = findAll(result.batch, u"nic.qdisc.backlog"_s);
         const SeriesValue &value : valueList)
        named << value.info.key.labels.value(u"interface"_s);
    named.sort();
    QCOMPARE(named, (QStringList { u"eth0"_s, u"veth0"_s, u"virt1"_s }));
}

// Netlink refused for good (a sandbox): said once, never asked again, everything else
// published as before.
void TestNicQdiscs::qdiscUnavailable()
{
    int asked = 0;
    QdiscHarness h(std::make_unique<ScriptedQdiscSource>(
        QList<QdiscReading> { failedReading(u"netlink socket: Operation not permitted"_s, true) },
        &asked));
    const QString said = u"nic: qdisc statistics unavailable (netlink socket: Operation not "
                         u"permitted); no nic.qdisc.* series"_s;
    const PollResult first = h.poll(u"nic/known/t0"_s, T0);
    QCOMPARE(first.warnings, (QStringList { said, speedWarning(u"veth0"_s) }));
    QVERIFY(first.error.isEmpty());
    for (int i = 1; i <= 3; ++i) {
        const PollResult later = h.poll(u"nic/known/t1"_s, T0 + i * Interval);
        QCOMPARE(later.warnings, QStringList { speedWarning(u"veth0"_s) });
        QCOMPARE(later.batch.values.size(), 3 * 8 + 2 * 3 + 2 + 2 + 4);
    }
    QCOMPARE(asked, 1);
}

// A reading that fails now and then (a timeout): said when it starts failing, not each
// poll; the series come back with the next good reading, and a new failure is said again.
void TestNicQdiscs::qdiscFailingAndRecovering()
{
    int asked = 0;
    const QdiscReading timeout = failedReading(u"no complete qdisc dump"_s, false);
    QdiscHarness h(std::make_unique<ScriptedQdiscSource>(
        QList<QdiscReading> { capturedReading(QdiscT0), timeout, timeout, capturedReading(QdiscT0),
                              timeout },
        &asked));
    const QString said
        = u"nic: qdisc statistics unavailable (no complete qdisc dump); no nic.qdisc.* series "
          u"until it recovers"_s;
    const Labels eth0 { { u"interface"_s, u"eth0"_s } };
    QStringList warned;
    QList<bool> published;
    for (int i = 0; i < 5; ++i) {
        const PollResult result = h.poll(u"nic/known/t0"_s, T0 + i * Interval);
        warned << (result.warnings.contains(said) ? u"said"_s : u"-"_s);
        published << valueOf(result.batch, u"nic.qdisc.backlog"_s, eth0).has_value();
    }
    QCOMPARE(warned, (QStringList { u"-"_s, u"said"_s, u"-"_s, u"-"_s, u"said"_s }));
    QCOMPARE(published, (QList<bool> { true, false, false, true, false }));
    QCOMPARE(asked, 5);
}

void TestNicQdiscs::qdiscOnlyLocal_data()
{
    QTest::addColumn<QJsonObject>("options");
    QTest::addColumn<bool>("netlink");
    QTest::newRow("this machine") << QJsonObject() << true;
    QTest::newRow("local") << QJsonObject { { u"host"_s, u"local"_s } } << true;
    // A captured or container tree is not the namespace netlink answers for.
    QTest::newRow("root prefix") << QJsonObject { { u"root"_s, fixture(u"nic/known/t0"_s) } }
                                 << false;
}

// create() reads qdiscs over netlink only where /sys/class/net is this machine's.
void TestNicQdiscs::qdiscOnlyLocal()
{
    QFETCH(QJsonObject, options);
    QFETCH(bool, netlink);
    CollectorConfig config;
    config.sourceId = u"n"_s;
    config.options = options;
    QString error;
    const auto collector = NicCollector::create(config, &error);
    QVERIFY2(collector, qPrintable(error));
    collector->poll(QDeadlineTimer(5000));
    const QdiscReading before = NetlinkQdiscSource().read(QDeadlineTimer(2000));
    const PollResult result = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QStringList published;
    for (const auto allValues = findAll(result.batch, u"nic.qdisc.backlog"_s);
         const SeriesValue &value : allValues)
        published << value.info.key.labels.value(u"interface"_s);
    if (!netlink) {
        QCOMPARE(published, QStringList());
        return;
    }
    // Every interface of this machine but lo whose root qdisc the kernel reports (an
    // interface that is down has none). Interfaces come and go with parallel tests:
    // only those with the same root before and after the poll count.
    const QdiscReading after = NetlinkQdiscSource().read(QDeadlineTimer(2000));
    QVERIFY2(before.error.isEmpty(), qPrintable(before.error));
    QVERIFY2(after.error.isEmpty(), qPrintable(after.error));
    int expected = 0;
    for (const QdiscStats &root : after.roots) {
        const bool stable = std::any_of(
            before.roots.cbegin(), before.roots.cend(), [&root](const QdiscStats &earlier) {
                return earlier.interfaceName == root.interfaceName && earlier.kind == root.kind
                    && earlier.handle == root.handle;
            });
        if (root.interfaceName == "lo"_L1 || !stable)
            continue;
        const bool present = std::any_of(result.batch.values.cbegin(), result.batch.values.cend(),
                                         [&root](const SeriesValue &value) {
                                             return value.info.key.metric == "nic.rx.bytes"_L1
                                                 && value.info.key.labels.value(u"interface"_s)
                                                 == root.interfaceName;
                                         });
        if (!present)
            continue;
        ++expected;
        QVERIFY2(published.contains(root.interfaceName), qPrintable(root.interfaceName));
    }
    QVERIFY2(expected > 0, "no interface with a root qdisc here (eth0 has pfifo_fast)");
    QVERIFY(!published.contains(u"lo"_s));
}

QTEST_GUILESS_MAIN(TestNicQdiscs)
#include "tst_nicqdiscs.moc"
