// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// parseQdiscDump on real RTM_GETQDISC answers of this machine's kernel (captured by
// tests/fixtures/qdisc/capture.sh), checked against iproute2's reading of the same
// moment; every truncation of them; corrupted message and attribute lengths, seeded
// random corruption (under ASan), kernel errors, other requests' answers, and the old
// TCA_STATS struct.
#include "collectortestutil.h"
#include "qdiscfixture.h"
#include "qdiscstats.h"

#include <QRandomGenerator>
#include <QSet>
#include <QTest>
#include <QtEndian>
#include <cerrno>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

const QStringList Dumps { u"netns/t0"_s, u"netns/t1"_s, u"host"_s };

// Byte ranges of the dump's structure, found independently of the parser.
struct Span
{
    qsizetype offset = 0;
    qsizetype length = 0;
};

QList<Span> messages(const QByteArray &dump)
{
    QList<Span> spans;
    for (qsizetype offset = 0; offset + 16 <= dump.size();) {
        const auto length = qsizetype(qFromUnaligned<quint32>(dump.constData() + offset));
        spans.append({ offset, length });
        offset += (length + 3) & ~3;
    }
    return spans;
}

quint16 messageType(const QByteArray &dump, Span message)
{
    return qFromUnaligned<quint16>(dump.constData() + message.offset + 4);
}

// Attributes within [from, to).
QList<Span> attributesIn(const QByteArray &dump, qsizetype from, qsizetype to)
{
    QList<Span> spans;
    for (qsizetype offset = from; offset + 4 <= to;) {
        const qsizetype length = qFromUnaligned<quint16>(dump.constData() + offset);
        spans.append({ offset, length });
        offset += (length + 3) & ~3;
    }
    return spans;
}

QList<Span> attributes(const QByteArray &dump, Span message)
{
    return attributesIn(dump, message.offset + 16 + 20, message.offset + message.length);
}

quint16 attributeType(const QByteArray &dump, Span attribute)
{
    return qFromUnaligned<quint16>(dump.constData() + attribute.offset + 2);
}

void setU16(QByteArray &bytes, qsizetype offset, quint16 value)
{
    qToUnaligned(value, bytes.data() + offset);
}

void setU32(QByteArray &bytes, qsizetype offset, quint32 value)
{
    qToUnaligned(value, bytes.data() + offset);
}

// tc's spelling of a handle: "8009:", "1:4", "0:".
QString tcHandle(quint32 handle)
{
    const quint32 major = handle >> 16;
    const quint32 minor = handle & 0xFFFF;
    return minor ? u"%1:%2"_s.arg(major, 0, 16).arg(minor, 0, 16) : u"%1:"_s.arg(major, 0, 16);
}

std::optional<QdiscStats> findQdisc(const QdiscDump &dump, int ifindex, const QString &handle,
                                    const QString &parent)
{
    for (const QdiscStats &qdisc : dump.qdiscs) {
        if (qdisc.ifindex == ifindex && tcHandle(qdisc.handle) == handle
            && (parent.isEmpty() ? qdisc.isRoot() : tcHandle(qdisc.parent) == parent))
            return qdisc;
    }
    return std::nullopt;
}

bool sameQdisc(const QdiscStats &a, const QdiscStats &b)
{
    return a.ifindex == b.ifindex && a.kind == b.kind && a.handle == b.handle
        && a.parent == b.parent && a.bytes == b.bytes && a.packets == b.packets
        && a.drops == b.drops && a.overlimits == b.overlimits && a.requeues == b.requeues
        && a.backlogBytes == b.backlogBytes && a.qlen == b.qlen;
}

// Whatever a corrupted dump gives, what comes out is within bounds of sense.
void checkSane(const QdiscDump &dump, int messageCount)
{
    QVERIFY(dump.qdiscs.size() <= messageCount);
    for (const QdiscStats &qdisc : dump.qdiscs) {
        QVERIFY(!qdisc.kind.isEmpty() && qdisc.kind.size() <= 16);
        for (const QChar c : qdisc.kind)
            QVERIFY(c.unicode() > 32 && c.unicode() < 127);
    }
}

} // namespace

class TestQdiscParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void matchesTc_data();
    void matchesTc();
    void wholeDumps_data();
    void wholeDumps();
    void roots();
    void mqRootIsTheSumOfItsQueues();
    void everyTruncation_data();
    void everyTruncation();
    void badMessageLengths_data();
    void badMessageLengths();
    void badAttributeLengths_data();
    void badAttributeLengths();
    void randomCorruption_data();
    void randomCorruption();
    void kernelErrors_data();
    void kernelErrors();
    void otherRequests();
    void oldStatsStruct();
    void nestedFlag();
    void capturedSource();
};

void TestQdiscParser::matchesTc_data()
{
    QTest::addColumn<QString>("dir");
    QTest::addColumn<QJsonObject>("tc");
    for (const QString &dir : Dumps) {
        for (const auto values = tcQdiscs(dir); const auto &value : values) {
            const QJsonObject qdisc = value.toObject();
            const QString where = qdisc.value("root"_L1).toBool()
                ? u"root"_s
                : u"parent "_s + qdisc.value("parent"_L1).toString();
            QTest::addRow("%s %s %s %s", qPrintable(dir),
                          qPrintable(qdisc.value("dev"_L1).toString()),
                          qPrintable(qdisc.value("kind"_L1).toString()), qPrintable(where))
                << dir << qdisc;
        }
    }
}

// Each qdisc tc saw, with tc's numbers, as parsed from the bytes of the same moment.
void TestQdiscParser::matchesTc()
{
    QFETCH(QString, dir);
    QFETCH(QJsonObject, tc);
    const QdiscDump dump = parseQdiscDump(qdiscDump(dir));
    const int ifindex = qdiscInterfaceIndex(dir, tc.value("dev"_L1).toString());
    QVERIFY(ifindex > 0);
    const auto qdisc = findQdisc(dump, ifindex, tc.value("handle"_L1).toString(),
                                 tc.value("parent"_L1).toString());
    QVERIFY2(qdisc, "not in the parsed dump");
    QCOMPARE(qdisc->kind, tc.value("kind"_L1).toString());
    QCOMPARE(qdisc->isRoot(), tc.value("root"_L1).toBool());
    const auto number = [&tc](const char *key) {
        return quint64(tc.value(QLatin1StringView(key)).toInteger(-1));
    };
    QCOMPARE(qdisc->bytes, number("bytes"));
    QCOMPARE(qdisc->packets, number("packets"));
    QCOMPARE(qdisc->drops, number("drops"));
    QCOMPARE(qdisc->overlimits, number("overlimits"));
    QCOMPARE(qdisc->requeues, std::optional<quint64>(number("requeues")));
    QCOMPARE(qdisc->backlogBytes, number("backlog"));
    QCOMPARE(qdisc->qlen, number("qlen"));
}

void TestQdiscParser::wholeDumps_data()
{
    QTest::addColumn<QString>("dir");
    for (const QString &dir : Dumps)
        QTest::newRow(qPrintable(dir)) << dir;
}

void TestQdiscParser::wholeDumps()
{
    QFETCH(QString, dir);
    const QdiscDump dump = parseQdiscDump(qdiscDump(dir));
    QVERIFY2(dump.error.isEmpty(), qPrintable(dump.error));
    QVERIFY(dump.complete);
    QCOMPARE(dump.problems, QStringList());
    QCOMPARE(dump.qdiscs.size(), tcQdiscs(dir).size());
}

void TestQdiscParser::roots()
{
    const QString dir = u"netns/t1"_s;
    const QHash<int, QString> names = qdiscInterfaceNames(dir);
    const QdiscReading reading
        = rootQdiscs(parseQdiscDump(qdiscDump(dir)), [&names](int i) { return names.value(i); });
    QVERIFY(reading.error.isEmpty());
    QStringList found;
    for (const QdiscStats &qdisc : reading.roots)
        found << qdisc.interfaceName + u'=' + qdisc.kind;
    // One per interface, in the dump's order; mq's four children are not roots.
    QCOMPARE(found,
             (QStringList { u"lo=noqueue"_s, u"ta=tbf"_s, u"na=noqueue"_s, u"m0=mq"_s,
                            u"pa=pfifo_fast"_s, u"b0=htb"_s }));
    // An index without a name (the interface went away) is left out.
    const QdiscReading unnamed = rootQdiscs(parseQdiscDump(qdiscDump(dir)), [&names](int i) {
        return names.value(i) == "ta"_L1 ? QString() : names.value(i);
    });
    QCOMPARE(unnamed.roots.size(), reading.roots.size() - 1);
    // A dump interrupted by a change repeats qdiscs: each root counts once, the later.
    QdiscDump twice = parseQdiscDump(qdiscDump(dir));
    QdiscStats later = twice.qdiscs.at(1);
    later.drops += 5;
    twice.qdiscs.append(later);
    const QdiscReading deduplicated = rootQdiscs(twice, [&names](int i) { return names.value(i); });
    QCOMPARE(deduplicated.roots.size(), reading.roots.size());
    QCOMPARE(deduplicated.roots.at(1).drops, later.drops);
}

// What qdiscstats.h relies on instead of summing: the kernel reports an mq root's
// statistics as the sum of its per-queue children's.
void TestQdiscParser::mqRootIsTheSumOfItsQueues()
{
    const QString dir = u"netns/t1"_s;
    const QdiscDump dump = parseQdiscDump(qdiscDump(dir));
    const int m0 = qdiscInterfaceIndex(dir, u"m0"_s);
    std::optional<QdiscStats> root;
    quint64 bytes = 0;
    quint64 packets = 0;
    int children = 0;
    for (const QdiscStats &qdisc : dump.qdiscs) {
        if (qdisc.ifindex != m0)
            continue;
        if (qdisc.isRoot()) {
            root = qdisc;
        } else {
            bytes += qdisc.bytes;
            packets += qdisc.packets;
            ++children;
        }
    }
    QVERIFY(root);
    QCOMPARE(root->kind, u"mq"_s);
    QCOMPARE(children, 4);
    QVERIFY(bytes > 0);
    QCOMPARE(root->bytes, bytes);
    QCOMPARE(root->packets, packets);
}

void TestQdiscParser::everyTruncation_data()
{
    wholeDumps_data();
}

// Every prefix of a real dump: refused with a reason when it cuts a message, else the
// qdiscs of the whole messages before the cut and never "complete".
void TestQdiscParser::everyTruncation()
{
    QFETCH(QString, dir);
    const QByteArray whole = qdiscDump(dir);
    const QdiscDump full = parseQdiscDump(whole);
    QSet<qsizetype> boundaries { 0 };
    // A message's end, or anywhere in the padding up to the next one's start.
    for (const auto messages2 = messages(whole); const Span &message : messages2) {
        const qsizetype end = message.offset + message.length;
        for (qsizetype at = end; at <= ((end + 3) & ~3); ++at)
            boundaries.insert(at);
    }
    for (qsizetype size = 0; size < whole.size(); ++size) {
        // A copy of exactly `size` bytes, so that ASan sees any read past it.
        const QByteArray prefix = whole.first(size);
        const QdiscDump dump = parseQdiscDump(prefix);
        QVERIFY2(!dump.complete, qPrintable(QString::number(size)));
        QCOMPARE(dump.error.isEmpty(), boundaries.contains(size));
        QVERIFY(dump.qdiscs.size() <= full.qdiscs.size());
        for (qsizetype i = 0; i < dump.qdiscs.size(); ++i)
            QVERIFY2(sameQdisc(dump.qdiscs[i], full.qdiscs[i]), qPrintable(QString::number(size)));
        QCOMPARE(dump.problems, QStringList());
    }
}

void TestQdiscParser::badMessageLengths_data()
{
    QTest::addColumn<quint32>("length");
    QTest::newRow("zero") << quint32(0);
    QTest::newRow("shorter than the header") << quint32(15);
    QTest::newRow("one past the end") << quint32(1); // added to the bytes left
    QTest::newRow("huge") << quint32(0xFFFFFFFF);
    QTest::newRow("sign bit") << quint32(0x80000000);
}

// Each message's nlmsg_len in turn: the dump is refused from there, with the messages
// before it parsed.
void TestQdiscParser::badMessageLengths()
{
    QFETCH(quint32, length);
    const QByteArray whole = qdiscDump(u"netns/t1"_s);
    const QdiscDump full = parseQdiscDump(whole);
    const QList<Span> spans = messages(whole);
    for (qsizetype i = 0; i < spans.size(); ++i) {
        QByteArray bytes = whole;
        const quint32 value = length == 1 ? quint32(whole.size() - spans[i].offset + 1) : length;
        setU32(bytes, spans[i].offset, value);
        const QdiscDump dump = parseQdiscDump(bytes);
        QVERIFY(!dump.complete);
        QVERIFY2(dump.error.startsWith("netlink message of length"_L1), qPrintable(dump.error));
        QCOMPARE(dump.qdiscs.size(), qMin<qsizetype>(i, full.qdiscs.size()));
    }
}

void TestQdiscParser::badAttributeLengths_data()
{
    QTest::addColumn<int>("length");
    QTest::newRow("zero") << 0;
    QTest::newRow("shorter than the header") << 3;
    QTest::newRow("past the message") << -1;
    QTest::newRow("huge") << 0xFFFF;
    QTest::newRow("payload cut to 4 bytes") << 8;
}

// Each attribute of each qdisc message, and each one nested in TCA_STATS2: that qdisc is
// skipped with a reason or parsed from what is consistent; the others are unaffected.
void TestQdiscParser::badAttributeLengths()
{
    QFETCH(int, length);
    const QByteArray whole = qdiscDump(u"netns/t1"_s);
    const QdiscDump full = parseQdiscDump(whole);
    int cases = 0;
    for (const auto listedMessage = messages(whole); const Span &message : listedMessage) {
        if (messageType(whole, message) != RTM_NEWQDISC)
            continue;
        QList<Span> targets = attributes(whole, message);
        for (const auto listedAttribute = attributes(whole, message);
             const Span &attribute : listedAttribute) {
            if (attributeType(whole, attribute) == TCA_STATS2)
                targets += attributesIn(whole, attribute.offset + 4,
                                        attribute.offset + attribute.length);
        }
        for (const Span &attribute : std::as_const(targets)) {
            QByteArray bytes = whole;
            const qsizetype end = message.offset + message.length;
            const int value = length < 0 ? int(end - attribute.offset + 4) : length;
            setU16(bytes, attribute.offset, quint16(value));
            const QdiscDump dump = parseQdiscDump(bytes);
            ++cases;
            // Framing is the message's: the dump itself goes on.
            QVERIFY2(dump.error.isEmpty(), qPrintable(dump.error));
            QVERIFY(dump.complete);
            checkSane(dump, int(full.qdiscs.size()));
            QCOMPARE(dump.qdiscs.size() + dump.problems.size(), full.qdiscs.size());
            // Lengths the parser cannot follow are refused; a shorter but well-formed
            // one may leave a value out, never invent another qdisc.
            if (length != 8)
                QCOMPARE(dump.problems.size(), 1);
        }
    }
    QVERIFY(cases > 50);
}

void TestQdiscParser::randomCorruption_data()
{
    wholeDumps_data();
}

// Seeded corruption of 1 to 8 bytes, 3000 times per dump: nothing read out of bounds
// (ASan), nothing insane parsed.
void TestQdiscParser::randomCorruption()
{
    QFETCH(QString, dir);
    const QByteArray whole = qdiscDump(dir);
    const int messageCount = int(messages(whole).size());
    QRandomGenerator random(18);
    for (int round = 0; round < 3000; ++round) {
        QByteArray bytes = whole;
        const int flips = 1 + int(random.bounded(8));
        for (int i = 0; i < flips; ++i)
            bytes[random.bounded(int(bytes.size()))] = char(random.bounded(256));
        if (random.bounded(4) == 0)
            bytes.truncate(random.bounded(int(bytes.size())));
        const QdiscDump dump = parseQdiscDump(bytes);
        checkSane(dump, messageCount);
        if (QTest::currentTestFailed())
            return;
    }
}

void TestQdiscParser::kernelErrors_data()
{
    QTest::addColumn<quint16>("type");
    QTest::addColumn<int>("code");
    QTest::addColumn<int>("payload"); // bytes after the header
    QTest::addColumn<QString>("error");
    QTest::addColumn<int>("kernelErrno");
    QTest::addColumn<bool>("complete");
    QTest::newRow("EPERM") << quint16(NLMSG_ERROR) << -EPERM << 20 << u"the kernel refused"_s
                           << EPERM << false;
    QTest::newRow("error cut short")
        << quint16(NLMSG_ERROR) << -EPERM << 2 << u"truncated NLMSG_ERROR"_s << 0 << false;
    QTest::newRow("ack") << quint16(NLMSG_ERROR) << 0 << 20 << QString() << 0 << false;
    QTest::newRow("done") << quint16(NLMSG_DONE) << 0 << 4 << QString() << 0 << true;
    QTest::newRow("done without payload")
        << quint16(NLMSG_DONE) << 0 << 0 << QString() << 0 << true;
    QTest::newRow("done with an error")
        << quint16(NLMSG_DONE) << -EINTR << 4 << u"the dump failed"_s << EINTR << false;
    QTest::newRow("overrun") << quint16(NLMSG_OVERRUN) << 0 << 4 << u"netlink overrun"_s << 0
                             << false;
    QTest::newRow("noop") << quint16(NLMSG_NOOP) << 0 << 0 << QString() << 0 << false;
}

// Control messages, as the kernel words them (hand-built: the kernel sent none of
// these to the captures).
void TestQdiscParser::kernelErrors()
{
    QFETCH(quint16, type);
    QFETCH(int, code);
    QFETCH(int, payload);
    QFETCH(QString, error);
    QFETCH(int, kernelErrno);
    QFETCH(bool, complete);
    QByteArray bytes(16 + payload, '\0');
    setU32(bytes, 0, quint32(bytes.size()));
    setU16(bytes, 4, type);
    if (payload >= 4)
        setU32(bytes, 16, quint32(code));
    const QdiscDump dump = parseQdiscDump(bytes);
    QVERIFY2(error.isEmpty() ? dump.error.isEmpty() : dump.error.startsWith(error),
             qPrintable(dump.error));
    QCOMPARE(dump.kernelErrno, kernelErrno);
    QCOMPARE(dump.complete, complete);
    QVERIFY(dump.qdiscs.isEmpty());
}

// Messages of another request (another sequence number) are not ours.
void TestQdiscParser::otherRequests()
{
    const QByteArray whole = qdiscDump(u"netns/t1"_s);
    const quint32 sequence = qFromUnaligned<quint32>(whole.constData() + 8);
    const QdiscDump ours = parseQdiscDump(whole, sequence);
    QVERIFY(ours.complete);
    QCOMPARE(ours.qdiscs.size(), parseQdiscDump(whole).qdiscs.size());
    const QdiscDump theirs = parseQdiscDump(whole, sequence + 1);
    QVERIFY(!theirs.complete);
    QVERIFY(theirs.error.isEmpty());
    QVERIFY(theirs.qdiscs.isEmpty());
}

// A kernel that sends only the old TCA_STATS struct (here: TCA_STATS2 renamed to a type
// nobody knows): the same counters, but no requeues.
void TestQdiscParser::oldStatsStruct()
{
    const QString dir = u"netns/t1"_s;
    QByteArray bytes = qdiscDump(dir);
    for (const auto messageItems = messages(bytes); const Span &message : messageItems) {
        if (messageType(bytes, message) != RTM_NEWQDISC)
            continue;
        for (const auto attributeItems = attributes(bytes, message);
             const Span &attribute : attributeItems) {
            if (attributeType(bytes, attribute) == TCA_STATS2)
                setU16(bytes, attribute.offset + 2, 0x3ff0);
        }
    }
    const QdiscDump old = parseQdiscDump(bytes);
    const QdiscDump current = parseQdiscDump(qdiscDump(dir));
    QVERIFY(old.complete);
    QCOMPARE(old.problems, QStringList());
    QCOMPARE(old.qdiscs.size(), current.qdiscs.size());
    for (qsizetype i = 0; i < old.qdiscs.size(); ++i) {
        const QdiscStats &a = old.qdiscs[i];
        const QdiscStats &b = current.qdiscs[i];
        QCOMPARE(a.kind, b.kind);
        QCOMPARE(a.bytes, b.bytes);
        QCOMPARE(a.packets, b.packets);
        QCOMPARE(a.drops, b.drops);
        QCOMPARE(a.overlimits, b.overlimits);
        QCOMPARE(a.backlogBytes, b.backlogBytes);
        QCOMPARE(a.qlen, b.qlen);
        QCOMPARE(a.requeues, std::nullopt);
    }
    // Without either form a qdisc has no statistics: skipped, with a reason.
    for (const auto messageList = messages(bytes); const Span &message : messageList) {
        if (messageType(bytes, message) != RTM_NEWQDISC)
            continue;
        for (const auto attributeList = attributes(bytes, message);
             const Span &attribute : attributeList) {
            if (attributeType(bytes, attribute) == TCA_STATS)
                setU16(bytes, attribute.offset + 2, 0x3ff1);
        }
    }
    const QdiscDump none = parseQdiscDump(bytes);
    QVERIFY(none.qdiscs.isEmpty());
    QCOMPARE(none.problems.size(), current.qdiscs.size());
    QVERIFY(none.problems.first().endsWith("no statistics"_L1));
}

// NLA_F_NESTED on TCA_STATS2 (a kernel that marks its nests) changes nothing.
void TestQdiscParser::nestedFlag()
{
    const QString dir = u"netns/t1"_s;
    QByteArray bytes = qdiscDump(dir);
    for (const auto allMessages = messages(bytes); const Span &message : allMessages) {
        if (messageType(bytes, message) != RTM_NEWQDISC)
            continue;
        for (const auto allAttributes = attributes(bytes, message);
             const Span &attribute : allAttributes) {
            if (attributeType(bytes, attribute) == TCA_STATS2)
                setU16(bytes, attribute.offset + 2, TCA_STATS2 | NLA_F_NESTED);
        }
    }
    const QdiscDump flagged = parseQdiscDump(bytes);
    const QdiscDump plain = parseQdiscDump(qdiscDump(dir));
    QCOMPARE(flagged.qdiscs.size(), plain.qdiscs.size());
    for (qsizetype i = 0; i < plain.qdiscs.size(); ++i)
        QVERIFY(sameQdisc(flagged.qdiscs[i], plain.qdiscs[i]));
}

void TestQdiscParser::capturedSource()
{
    const QString dir = u"netns/t1"_s;
    CapturedQdiscSource source(qdiscDump(dir), qdiscInterfaceNames(dir));
    const QdiscReading reading = source.read(QDeadlineTimer(0));
    QVERIFY(reading.error.isEmpty());
    QCOMPARE(reading.roots.size(), 6);
    // A dump without its NLMSG_DONE is not a reading.
    const QByteArray whole = qdiscDump(dir);
    source.setDump(whole.first(messages(whole).constLast().offset));
    const QdiscReading cut = source.read(QDeadlineTimer(0));
    QCOMPARE(cut.error, u"the captured dump ends before NLMSG_DONE"_s);
    QVERIFY(cut.roots.isEmpty());
}

QTEST_GUILESS_MAIN(TestQdiscParser)
#include "tst_qdiscparser.moc"
