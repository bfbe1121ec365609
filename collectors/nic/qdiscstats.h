// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Per-interface queueing discipline (qdisc) statistics from the kernel over rtnetlink:
// what a `tc tbf` rate limiter or a full transmit queue drops, throttles and holds back,
// which /sys/class/net/<if>/statistics does not count (a packet the qdisc drops never
// reached the driver).
//
// Two parts: parseQdiscDump() reads the bytes of an RTM_GETQDISC dump (nlmsghdr, tcmsg
// and rtattrs; TCA_KIND, TCA_STATS2 with TCA_STATS_BASIC/QUEUE/PKT64, or the old
// TCA_STATS struct) and checks every length, so that captured or hostile bytes can be
// fed to it; readQdiscDump() asks the kernel over an AF_NETLINK socket, with a timeout.
// No libnl, no `tc` process.
//
// Only root qdiscs (parent TC_H_ROOT) are what an interface's series are made of. An
// mq or mqprio root needs no summing here: the kernel fills the root's statistics with
// the sum of its per-queue children when it dumps it (mq_dump, mqprio_dump).
#pragma once

#include <QByteArray>
#include <QDeadlineTimer>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

class QByteArrayView;

namespace Headroom {

struct QdiscStats
{
    static constexpr quint32 RootParent = 0xFFFFFFFF; // TC_H_ROOT

    int ifindex = 0;
    QString interfaceName; // filled by a QdiscSource; the dump only has the index
    QString kind; // "noqueue", "fq_codel", "tbf", "mq"...
    quint32 handle = 0; // major:minor in the upper and lower 16 bits
    quint32 parent = 0;
    quint64 bytes = 0; // sent
    quint64 packets = 0; // sent (32 bits unless the kernel sends TCA_STATS_PKT64)
    quint64 drops = 0;
    quint64 overlimits = 0; // times the qdisc held a packet back (tbf: no tokens)
    std::optional<quint64> requeues; // not in the old TCA_STATS struct
    quint64 backlogBytes = 0; // queued now
    quint64 qlen = 0; // packets queued now

    bool isRoot() const { return parent == RootParent; }
};

struct QdiscDump
{
    QList<QdiscStats> qdiscs; // every qdisc message, in the dump's order
    bool complete = false; // the NLMSG_DONE that ends a dump was seen
    // The dump as a whole is unusable (bad framing, the kernel's error): a reason.
    QString error;
    int kernelErrno = 0; // the errno of an NLMSG_ERROR, if that was the reason
    QStringList problems; // qdisc messages skipped as malformed, one reason each
};

// Parses concatenated netlink messages (one recv() or a whole captured dump). With
// `sequence`, messages of another request are skipped. Stops at NLMSG_DONE or at the
// first framing error; never reads outside `bytes`.
QdiscDump parseQdiscDump(QByteArrayView bytes, std::optional<quint32> sequence = std::nullopt);

struct QdiscDumpReading
{
    QByteArray raw; // every datagram received, concatenated (what fixtures capture)
    QdiscDump dump;
    // Why the reading failed (socket refused, timeout, the dump's own error); empty
    // when it succeeded.
    QString error;
    // The socket itself was refused (EPERM in a sandbox, no AF_NETLINK): asking again
    // will not help.
    bool unavailable = false;
};

// Dumps every qdisc of this network namespace. Waits at most until `deadline`, and
// never longer than MaxWaitMs even with a forever deadline.
QdiscDumpReading readQdiscDump(const QDeadlineTimer &deadline);
inline constexpr int QdiscMaxWaitMs = 2000;

// What the nic collector reads qdiscs from: the kernel, or captured dumps in tests.
struct QdiscReading
{
    QList<QdiscStats> roots; // the root qdisc of each interface, named
    QString error; // empty when the reading succeeded
    bool unavailable = false; // see QdiscDumpReading::unavailable
    QStringList problems; // malformed messages skipped
};

class QdiscSource
{
public:
    virtual ~QdiscSource() = default;
    virtual QdiscReading read(const QDeadlineTimer &deadline) = 0;
};

// The roots of `dump`, each named by `nameOf(ifindex)`; a qdisc whose interface has no
// name (gone since the dump) is left out. A root seen twice (a dump interrupted by a
// change and restarted) counts once, the later one.
template<typename NameOf> QdiscReading rootQdiscs(const QdiscDump &dump, NameOf nameOf)
{
    QdiscReading reading;
    reading.error = dump.error;
    reading.problems = dump.problems;
    QHash<int, qsizetype> seen;
    for (const QdiscStats &qdisc : dump.qdiscs) {
        if (!qdisc.isRoot())
            continue;
        QdiscStats named = qdisc;
        named.interfaceName = nameOf(qdisc.ifindex);
        if (named.interfaceName.isEmpty())
            continue;
        const auto it = seen.constFind(qdisc.ifindex);
        if (it != seen.cend()) {
            reading.roots[*it] = named;
            continue;
        }
        seen.insert(qdisc.ifindex, reading.roots.size());
        reading.roots.append(named);
    }
    return reading;
}

// This machine's qdiscs over rtnetlink, interfaces named by if_nameindex().
class NetlinkQdiscSource : public QdiscSource
{
public:
    QdiscReading read(const QDeadlineTimer &deadline) override;
};

// Captured dump bytes, replayed; the interface names the capture recorded. For tests
// and for trees captured from other machines.
class CapturedQdiscSource : public QdiscSource
{
public:
    CapturedQdiscSource(QByteArray dump, QHash<int, QString> names);
    void setDump(QByteArray dump) { m_dump = std::move(dump); }
    void setNames(QHash<int, QString> names) { m_names = std::move(names); }
    QdiscReading read(const QDeadlineTimer &deadline) override;

private:
    QByteArray m_dump;
    QHash<int, QString> m_names;
};

} // namespace Headroom
