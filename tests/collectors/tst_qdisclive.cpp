// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The nic collector's qdisc series on this machine's kernel: two veth pairs whose peers
// live in a network namespace of the test's own, one behind a tc tbf rate limiter
// (8 Mbit/s), the other with the veth default (noqueue), TCP pushed through both.
// The tbf side must show drops, overlimits and a backlog series and a throughput held at
// the limiter's rate; the noqueue side zero rates at a far higher throughput. Also the
// netlink reader against iproute2 and its deadline. Needs root (skipped otherwise).
//
// The whole test runs in a network and mount namespace of its own, with /sys mounted
// again there so that /sys/class/net is that namespace's: main() re-executes the binary
// under `unshare --net --mount`. So its interfaces never show in the machine's own
// namespace, where other tests list and poll interfaces in parallel. (`ip netns add`
// does not work inside ./dev: its bind mount does not propagate.) The peer namespace is
// held by an `unshare --net sleep` process and entered with nsenter; every process the
// test starts has a timeout of its own, and the namespaces die with their last process.
#include "niccollector.h"
#include "qdiscstats.h"

#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>
#include <QThread>
#include <csignal>
#include <cstdlib>
#include <unistd.h>
#include <vector>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

constexpr int HolderSeconds = 120; // bounds everything the test sets up
constexpr const char *InnerVariable = "HEADROOM_QDISC_LIVE_INNER";

// In the namespaces main() made: a fresh network namespace has nothing but lo.
bool inOwnNamespace()
{
    return qEnvironmentVariableIsSet(InnerVariable)
        && QDir(u"/sys/class/net"_s)
               .entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System)
        == QStringList { u"lo"_s };
}

struct Command
{
    bool ok = false;
    QString output; // stdout and stderr
};

Command run(const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, arguments);
    Command result;
    if (!process.waitForFinished(15'000)) {
        process.kill();
        process.waitForFinished(1000);
        result.output = program + u": did not finish"_s;
        return result;
    }
    result.output = QString::fromLocal8Bit(process.readAll()).trimmed();
    result.ok = process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
    return result;
}

QByteArray netnsLink(qint64 pid)
{
    char target[128] = {};
    const QByteArray path = "/proc/" + QByteArray::number(pid) + "/ns/net";
    const ssize_t length = ::readlink(path.constData(), target, sizeof(target) - 1);
    return length > 0 ? QByteArray(target, length) : QByteArray();
}

// What the test set up, torn down in the destructor whatever happened in between.
struct Namespace
{
    QProcess holder; // unshare --net sleep
    QList<QProcess *> processes; // receiver and senders
    QStringList links; // veth ends in our namespace (deleting one deletes its peer)

    ~Namespace()
    {
        for (QProcess *process : std::as_const(processes)) {
            process->kill();
            process->waitForFinished(3000);
            delete process;
        }
        for (const QString &link : std::as_const(links))
            run(u"ip"_s, { u"link"_s, u"del"_s, link });
        if (holder.state() != QProcess::NotRunning) {
            holder.kill();
            holder.waitForFinished(3000);
        }
    }

    qint64 pid() const { return holder.processId(); }

    QStringList enter(const QStringList &command) const
    {
        return QStringList { u"-t"_s, QString::number(pid()), u"-n"_s } + command;
    }

    QProcess *start(const QString &program, const QStringList &arguments)
    {
        auto *process = new QProcess;
        processes.append(process);
        process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        process->start(program, arguments);
        return process;
    }
};

// Reads and discards whatever arrives on port 5201, each connection in a thread; says
// "ready" once it listens.
const QString Receiver = uR"(
import socket, threading, signal, sys
signal.alarm(100)
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", 5201)); s.listen(8)
print("ready", flush=True)
def drain(c):
    while c.recv(65536): pass
while True:
    c, _ = s.accept(); threading.Thread(target=drain, args=(c,), daemon=True).start()
)"_s;

// Sends to HOST:5201 for SECONDS as fast as TCP lets it.
const QString Sender = uR"(
import socket, sys, time, signal
signal.alarm(60)
end = time.time() + float(sys.argv[2])
c = socket.create_connection((sys.argv[1], 5201)); chunk = b"x" * 65536
try:
    while time.time() < end: c.send(chunk)
except OSError: # the receiver went first, at the end of the test
    pass
)"_s;

struct Series
{
    QList<double> drops, overlimits, requeues, backlog, txBytes;

    void take(const SampleBatch &batch, const QString &interface)
    {
        for (const SeriesValue &value : batch.values) {
            if (value.info.key.labels.value(u"interface"_s) != interface)
                continue;
            const QString &metric = value.info.key.metric;
            if (metric == "nic.qdisc.drops"_L1)
                drops << value.value;
            else if (metric == "nic.qdisc.overlimits"_L1)
                overlimits << value.value;
            else if (metric == "nic.qdisc.requeues"_L1)
                requeues << value.value;
            else if (metric == "nic.qdisc.backlog"_L1)
                backlog << value.value;
            else if (metric == "nic.tx.bytes"_L1)
                txBytes << value.value;
        }
    }
};

double maximum(const QList<double> &values)
{
    return values.isEmpty() ? -1 : *std::max_element(values.cbegin(), values.cend());
}

QString describe(const QList<double> &values)
{
    QStringList text;
    for (const double value : values)
        text << QString::number(value);
    return u"["_s + text.join(u", "_s) + u"]"_s;
}

} // namespace

class TestQdiscLive : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void readerDeadline();
    void tbfAndNoqueue();
};

void TestQdiscLive::initTestCase()
{
    for (const QString &program : { u"ip"_s, u"tc"_s, u"unshare"_s, u"nsenter"_s, u"python3"_s }) {
        if (QStandardPaths::findExecutable(program).isEmpty())
            QSKIP(qPrintable(program + u" is not installed (./dev has it in its root)"_s));
    }
    // A fresh namespace's lo is down, and a device that is down has no qdisc to dump.
    if (inOwnNamespace()) {
        const Command up = run(u"ip"_s, { u"link"_s, u"set"_s, u"lo"_s, u"up"_s });
        QVERIFY2(up.ok, qPrintable(up.output));
    }
}

// A dump of this machine always ends (lo has its noqueue root), and an expired deadline
// fails at once rather than waiting.
void TestQdiscLive::readerDeadline()
{
    QElapsedTimer timer;
    timer.start();
    const QdiscDumpReading reading = readQdiscDump(QDeadlineTimer(QDeadlineTimer::Forever));
    QVERIFY2(reading.error.isEmpty(), qPrintable(reading.error));
    QVERIFY(reading.dump.complete);
    QVERIFY(timer.elapsed() < QdiscMaxWaitMs);
    const QdiscReading named = NetlinkQdiscSource().read(QDeadlineTimer(2000));
    bool loopback = false;
    for (const QdiscStats &qdisc : named.roots)
        loopback |= qdisc.interfaceName == "lo"_L1 && qdisc.kind == "noqueue"_L1;
    QVERIFY(loopback);

    timer.restart();
    const QdiscDumpReading late = readQdiscDump(QDeadlineTimer(0));
    QVERIFY(timer.elapsed() < 500);
    QVERIFY(late.error.startsWith("no complete qdisc dump before the deadline"_L1));
}

void TestQdiscLive::tbfAndNoqueue()
{
    if (::geteuid() != 0)
        QSKIP("needs root: it creates veth pairs, a network namespace and a tbf qdisc");
    if (!inOwnNamespace())
        QSKIP("could not run in a network and mount namespace of its own (unshare --net "
              "--mount, mount -t sysfs): its interfaces would disturb parallel tests");
    const qint64 self = QCoreApplication::applicationPid();
    const QString tag = QString::number(self);
    const QString tbf = u"hqt"_s + tag; // 15 characters at most: pids have 7 digits
    const QString tbfPeer = tbf + u'p';
    const QString plain = u"hqn"_s + tag;
    const QString plainPeer = plain + u'p';
    // A /30 of our own in 10.77/16 and 10.78/16, from the pid.
    const qint64 slot = self % 16384;
    const auto address = [slot](int first, int host) {
        return u"10.%1.%2.%3"_s.arg(first).arg(slot / 64).arg(slot % 64 * 4 + host);
    };

    Namespace ns;
    ns.holder.start(u"unshare"_s, { u"--net"_s, u"sleep"_s, QString::number(HolderSeconds) });
    QVERIFY2(ns.holder.waitForStarted(5000), qPrintable(ns.holder.errorString()));
    // unshare execs sleep once the namespace exists: until then the pid is in ours.
    const QByteArray ours = netnsLink(self);
    QDeadlineTimer entered(5000);
    while (netnsLink(ns.pid()) == ours && !entered.hasExpired())
        QThread::msleep(10);
    if (netnsLink(ns.pid()) == ours || netnsLink(ns.pid()).isEmpty())
        QSKIP("unshare --net did not give a network namespace (no CAP_SYS_ADMIN?)");

    for (const auto &[end, peer] : { std::pair { tbf, tbfPeer }, std::pair { plain, plainPeer } }) {
        const Command veth
            = run(u"ip"_s,
                  { u"link"_s, u"add"_s, end, u"type"_s, u"veth"_s, u"peer"_s, u"name"_s, peer });
        if (!veth.ok)
            QSKIP(qPrintable(u"the kernel refused a veth pair: "_s + veth.output));
        ns.links << end;
        const Command moved
            = run(u"ip"_s, { u"link"_s, u"set"_s, peer, u"netns"_s, QString::number(ns.pid()) });
        QVERIFY2(moved.ok, qPrintable(moved.output));
    }
    const QString setup
        = u"ip addr add %1/30 dev %2 && ip link set %2 up && "
          u"ip addr add %3/30 dev %4 && ip link set %4 up && ip link set lo up"_s.arg(
              address(77, 2), tbfPeer, address(78, 2), plainPeer);
    const Command inside = run(u"nsenter"_s, ns.enter({ u"sh"_s, u"-c"_s, setup }));
    QVERIFY2(inside.ok, qPrintable(inside.output));
    for (const auto &[end, first] : { std::pair { tbf, 77 }, std::pair { plain, 78 } }) {
        const Command up = run(
            u"sh"_s,
            { u"-c"_s,
              u"ip addr add %1/30 dev %2 && ip link set %2 up"_s.arg(address(first, 1), end) });
        QVERIFY2(up.ok, qPrintable(up.output));
    }
    const Command limiter
        = run(u"tc"_s,
              { u"qdisc"_s, u"add"_s, u"dev"_s, tbf, u"root"_s, u"tbf"_s, u"rate"_s, u"8mbit"_s,
                u"burst"_s, u"32kbit"_s, u"latency"_s, u"50ms"_s });
    if (!limiter.ok)
        QSKIP(qPrintable(u"the kernel refused a tbf qdisc: "_s + limiter.output));

    // The reader sees what iproute2 sees for the interfaces this test owns.
    const Command shown = run(u"tc"_s, { u"-j"_s, u"qdisc"_s, u"show"_s });
    QVERIFY2(shown.ok, qPrintable(shown.output));
    const QdiscReading roots = NetlinkQdiscSource().read(QDeadlineTimer(2000));
    QVERIFY2(roots.error.isEmpty(), qPrintable(roots.error));
    for (const QString &dev : { u"lo"_s, tbf, plain }) {
        QString tcKind;
        QString tcHandle;
        for (const auto allValues = QJsonDocument::fromJson(shown.output.toUtf8()).array();
             const auto &value : allValues) {
            const QJsonObject qdisc = value.toObject();
            if (qdisc.value("dev"_L1).toString() == dev && qdisc.value("root"_L1).toBool()) {
                tcKind = qdisc.value("kind"_L1).toString();
                tcHandle = qdisc.value("handle"_L1).toString();
            }
        }
        QString kind;
        QString handle;
        for (const QdiscStats &qdisc : roots.roots) {
            if (qdisc.interfaceName == dev) {
                kind = qdisc.kind;
                handle = u"%1:"_s.arg(qdisc.handle >> 16, 0, 16);
            }
        }
        QCOMPARE(kind, tcKind);
        QCOMPARE(handle, tcHandle);
        QCOMPARE(kind, dev == tbf ? u"tbf"_s : u"noqueue"_s);
    }

    QProcess *receiver = ns.start(u"nsenter"_s, ns.enter({ u"python3"_s, u"-c"_s, Receiver }));
    QVERIFY(receiver->waitForReadyRead(10'000));
    QCOMPARE(receiver->readLine().trimmed(), QByteArray("ready"));
    const int sendSeconds = 12;
    for (const int first : { 77, 78 })
        ns.start(u"python3"_s,
                 { u"-c"_s, Sender, address(first, 2), QString::number(sendSeconds) });

    CollectorConfig config;
    config.sourceId = u"live"_s;
    config.options = QJsonObject { { u"interfaces"_s, QJsonArray { tbf, plain } } };
    QString error;
    const auto collector = NicCollector::create(config, &error);
    QVERIFY2(collector, qPrintable(error));
    Series limited;
    Series unlimited;
    QStringList warnings;
    QDeadlineTimer enough(sendSeconds * 1000 - 1000);
    for (int polls = 0; !enough.hasExpired(); ++polls) {
        const PollResult result = collector->poll(QDeadlineTimer(3000));
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        warnings << result.warnings;
        limited.take(result.batch, tbf);
        unlimited.take(result.batch, plain);
        // Enough evidence after four rates, or when the senders stop.
        if (polls >= 4 && maximum(limited.drops) > 0 && maximum(limited.overlimits) > 0)
            break;
        QThread::msleep(1000);
    }
    for (const QString &warning : std::as_const(warnings))
        QVERIFY2(!warning.contains("qdisc"_L1), qPrintable(warning));
    qInfo("tbf: drops %s overlimits %s backlog %s tx %s", qPrintable(describe(limited.drops)),
          qPrintable(describe(limited.overlimits)), qPrintable(describe(limited.backlog)),
          qPrintable(describe(limited.txBytes)));
    qInfo("noqueue: drops %s overlimits %s backlog %s tx %s", qPrintable(describe(unlimited.drops)),
          qPrintable(describe(unlimited.overlimits)), qPrintable(describe(unlimited.backlog)),
          qPrintable(describe(unlimited.txBytes)));

    // The limiter: packets dropped and held back, the queue published every poll (the
    // first included: a gauge needs no previous value), the throughput at its 1 MB/s.
    QVERIFY(limited.drops.size() >= 4);
    QVERIFY2(maximum(limited.drops) > 0, qPrintable(describe(limited.drops)));
    QVERIFY2(maximum(limited.overlimits) > 0, qPrintable(describe(limited.overlimits)));
    QCOMPARE(limited.backlog.size(), limited.drops.size() + 1);
    QVERIFY(maximum(limited.txBytes) > 0);
    QVERIFY2(maximum(limited.txBytes) < 1.25e6, qPrintable(describe(limited.txBytes)));
    // noqueue queues nothing, so it counts nothing, however fast the link runs.
    QCOMPARE(unlimited.drops.size(), limited.drops.size());
    QCOMPARE(unlimited.backlog.size(), limited.backlog.size());
    for (const QList<double> *values :
         { &unlimited.drops, &unlimited.overlimits, &unlimited.requeues, &unlimited.backlog }) {
        for (const double value : *values)
            QCOMPARE(value, 0.0);
    }
    QVERIFY2(maximum(unlimited.txBytes) > 4 * maximum(limited.txBytes),
             qPrintable(describe(unlimited.txBytes)));
}

int main(int argc, char **argv)
{
    // As root, once: the same binary again in a network and mount namespace of its own,
    // /sys mounted there. When that cannot be done, the test runs here and skips.
    if (::geteuid() == 0 && !qEnvironmentVariableIsSet(InnerVariable)) {
        ::setenv(InnerVariable, "1", 1);
        std::vector<char *> arguments { const_cast<char *>("unshare"), const_cast<char *>("--net"),
                                        const_cast<char *>("--mount"),
                                        // Inside a chroot (./dev) / is no mount
                                        // point, and unshare cannot make it private;
                                        // /sys is, and the new mount stacks on it.
                                        const_cast<char *>("--propagation"),
                                        const_cast<char *>("unchanged"), const_cast<char *>("sh"),
                                        const_cast<char *>("-c"),
                                        const_cast<char *>("mount --make-rprivate /sys && "
                                                           "mount -t sysfs sysfs /sys; "
                                                           "exec \"$0\" \"$@\""),
                                        argv[0] };
        for (int i = 1; i < argc; ++i)
            arguments.push_back(argv[i]);
        arguments.push_back(nullptr);
        ::execvp("unshare", arguments.data());
        ::unsetenv(InnerVariable); // no unshare: run here
    }
    QCoreApplication app(argc, argv);
    TestQdiscLive test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_qdisclive.moc"
