// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "qdiscstats.h"

#include <QByteArrayView>
#include <QtEndian>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <linux/gen_stats.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <utility>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// Sizes as the kernel's UAPI defines them; the structs are not read through pointers
// (the bytes may be unaligned, and are untrusted), only their offsets are used.
constexpr qsizetype HeaderSize = sizeof(nlmsghdr); // 16
constexpr qsizetype TcmsgSize = sizeof(tcmsg); // 20
constexpr qsizetype AttrHeaderSize = 4; // struct rtattr / nlattr
// Shortest forms the kernel has ever sent: gnet_stats_basic without its tail padding
// (u64 bytes, u32 packets), gnet_stats_queue (five u32), tc_stats up to backlog.
constexpr qsizetype BasicSize = 12;
constexpr qsizetype QueueSize = 20;
constexpr qsizetype OldStatsSize = 36;
constexpr quint16 AttrTypeMask = quint16(~(NLA_F_NESTED | NLA_F_NET_BYTEORDER));
constexpr qsizetype MaxKindLength = 16; // IFNAMSIZ, the kernel's limit for an id

constexpr qsizetype align4(qsizetype length)
{
    return (length + 3) & ~qsizetype(3);
}

template<typename T> T readAt(QByteArrayView bytes, qsizetype offset)
{
    // Callers check the size first; this is the one place bytes become numbers.
    Q_ASSERT(offset >= 0 && offset + qsizetype(sizeof(T)) <= bytes.size());
    return qFromUnaligned<T>(bytes.data() + offset);
}

// Calls visit(type, payload) for each attribute in `bytes`; false (and *problem) when
// an attribute's length is shorter than its header or runs past the end.
template<typename Visit> bool forEachAttribute(QByteArrayView bytes, QString *problem, Visit visit)
{
    qsizetype offset = 0;
    while (bytes.size() - offset >= AttrHeaderSize) {
        const auto length = qsizetype(readAt<quint16>(bytes, offset));
        const quint16 type = readAt<quint16>(bytes, offset + 2) & AttrTypeMask;
        if (length < AttrHeaderSize || length > bytes.size() - offset) {
            *problem = u"attribute %1 of length %2 at byte %3 of %4"_s.arg(type)
                           .arg(length)
                           .arg(offset)
                           .arg(bytes.size());
            return false;
        }
        if (!visit(type, bytes.sliced(offset + AttrHeaderSize, length - AttrHeaderSize)))
            return false;
        offset = std::min(bytes.size(), offset + align4(length));
    }
    // Fewer than 4 bytes left over: only padding can be that short.
    if (offset != bytes.size()) {
        *problem = u"%1 stray bytes after the attributes"_s.arg(bytes.size() - offset);
        return false;
    }
    return true;
}

// A printable id up to its NUL ("tbf\0"); empty when it is none.
QString parseKind(QByteArrayView value)
{
    const qsizetype nul = value.indexOf('\0');
    const QByteArrayView text = nul < 0 ? value : value.first(nul);
    if (text.isEmpty() || text.size() > MaxKindLength)
        return {};
    for (const char c : text) {
        if (c <= ' ' || c > '~')
            return {};
    }
    return QString::fromLatin1(text);
}

// One RTM_NEWQDISC message's payload (after the nlmsghdr); nullopt and *problem when
// it is malformed or lacks a kind or statistics.
std::optional<QdiscStats> parseQdiscMessage(QByteArrayView payload, QString *problem)
{
    if (payload.size() < TcmsgSize) {
        *problem = u"%1 bytes, shorter than a tcmsg"_s.arg(payload.size());
        return std::nullopt;
    }
    QdiscStats qdisc;
    qdisc.ifindex = readAt<qint32>(payload, offsetof(tcmsg, tcm_ifindex));
    qdisc.handle = readAt<quint32>(payload, offsetof(tcmsg, tcm_handle));
    qdisc.parent = readAt<quint32>(payload, offsetof(tcmsg, tcm_parent));

    bool basic = false;
    bool queue = false;
    bool old = false;
    std::optional<quint64> packets64;
    QdiscStats fromOld;
    const bool ok = forEachAttribute(
        payload.sliced(std::min(payload.size(), align4(TcmsgSize))), problem,
        [&](quint16 type, QByteArrayView value) {
            switch (type) {
            case TCA_KIND:
                qdisc.kind = parseKind(value);
                if (qdisc.kind.isEmpty()) {
                    *problem = u"TCA_KIND is not an id"_s;
                    return false;
                }
                return true;
            case TCA_STATS:
                if (value.size() < OldStatsSize) {
                    *problem = u"TCA_STATS of %1 bytes"_s.arg(value.size());
                    return false;
                }
                old = true;
                fromOld.bytes = readAt<quint64>(value, offsetof(tc_stats, bytes));
                fromOld.packets = readAt<quint32>(value, offsetof(tc_stats, packets));
                fromOld.drops = readAt<quint32>(value, offsetof(tc_stats, drops));
                fromOld.overlimits = readAt<quint32>(value, offsetof(tc_stats, overlimits));
                fromOld.qlen = readAt<quint32>(value, offsetof(tc_stats, qlen));
                fromOld.backlogBytes = readAt<quint32>(value, offsetof(tc_stats, backlog));
                return true;
            case TCA_STATS2:
                return forEachAttribute(value, problem, [&](quint16 inner, QByteArrayView stats) {
                    switch (inner) {
                    case TCA_STATS_BASIC:
                        if (stats.size() < BasicSize) {
                            *problem = u"TCA_STATS_BASIC of %1 bytes"_s.arg(stats.size());
                            return false;
                        }
                        basic = true;
                        qdisc.bytes = readAt<quint64>(stats, 0);
                        qdisc.packets = readAt<quint32>(stats, 8);
                        return true;
                    case TCA_STATS_PKT64:
                        if (stats.size() < 8) {
                            *problem = u"TCA_STATS_PKT64 of %1 bytes"_s.arg(stats.size());
                            return false;
                        }
                        packets64 = readAt<quint64>(stats, 0);
                        return true;
                    case TCA_STATS_QUEUE:
                        if (stats.size() < QueueSize) {
                            *problem = u"TCA_STATS_QUEUE of %1 bytes"_s.arg(stats.size());
                            return false;
                        }
                        queue = true;
                        qdisc.qlen = readAt<quint32>(stats, offsetof(gnet_stats_queue, qlen));
                        qdisc.backlogBytes
                            = readAt<quint32>(stats, offsetof(gnet_stats_queue, backlog));
                        qdisc.drops = readAt<quint32>(stats, offsetof(gnet_stats_queue, drops));
                        qdisc.requeues
                            = readAt<quint32>(stats, offsetof(gnet_stats_queue, requeues));
                        qdisc.overlimits
                            = readAt<quint32>(stats, offsetof(gnet_stats_queue, overlimits));
                        return true;
                    default: // rate estimators, per-qdisc APP stats, padding
                        return true;
                    }
                });
            default: // options, xstats, padding, later additions
                return true;
            }
        });
    if (!ok)
        return std::nullopt;
    if (qdisc.kind.isEmpty()) {
        *problem = u"no TCA_KIND"_s;
        return std::nullopt;
    }
    // TCA_STATS2 is what kernels since 2.6 send; TCA_STATS (no requeues) is the fallback
    // for anything it lacks.
    if (!(basic && queue) && !old) {
        *problem = u"no statistics"_s;
        return std::nullopt;
    }
    if (!basic) {
        qdisc.bytes = fromOld.bytes;
        qdisc.packets = fromOld.packets;
    }
    if (!queue) {
        qdisc.drops = fromOld.drops;
        qdisc.overlimits = fromOld.overlimits;
        qdisc.qlen = fromOld.qlen;
        qdisc.backlogBytes = fromOld.backlogBytes;
        qdisc.requeues.reset();
    }
    if (packets64)
        qdisc.packets = *packets64;
    return qdisc;
}

QString errnoText(int error)
{
    return QString::fromLocal8Bit(strerror(error));
}

// Closes the socket on every way out of readQdiscDump().
struct FdCloser
{
    int fd = -1;
    ~FdCloser()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

constexpr qsizetype MaxDumpBytes = 16 * 1024 * 1024; // thousands of qdiscs fit in 1 MB
constexpr qsizetype MaxDatagramBytes = 1024 * 1024; // the kernel sends 32 KB at most

} // namespace

QdiscDump parseQdiscDump(QByteArrayView bytes, std::optional<quint32> sequence)
{
    QdiscDump dump;
    bool interrupted = false;
    qsizetype offset = 0;
    while (offset < bytes.size()) {
        if (bytes.size() - offset < HeaderSize) {
            dump.error
                = u"truncated netlink header at byte %1 of %2"_s.arg(offset).arg(bytes.size());
            return dump;
        }
        const auto length = qsizetype(readAt<quint32>(bytes, offset));
        const quint16 type = readAt<quint16>(bytes, offset + offsetof(nlmsghdr, nlmsg_type));
        const quint16 flags = readAt<quint16>(bytes, offset + offsetof(nlmsghdr, nlmsg_flags));
        const quint32 seq = readAt<quint32>(bytes, offset + offsetof(nlmsghdr, nlmsg_seq));
        if (length < HeaderSize || length > bytes.size() - offset) {
            dump.error
                = u"netlink message of length %1 at byte %2 of %3"_s.arg(length).arg(offset).arg(
                    bytes.size());
            return dump;
        }
        const QByteArrayView payload = bytes.sliced(offset + HeaderSize, length - HeaderSize);
        const qsizetype at = offset;
        offset = std::min(bytes.size(), offset + align4(length));
        if (sequence && seq != *sequence)
            continue;
        if ((flags & NLM_F_DUMP_INTR) && !std::exchange(interrupted, true))
            dump.problems << u"the dump was interrupted by a change (byte %1)"_s.arg(at);
        switch (type) {
        case NLMSG_DONE:
            // Its payload, when there is one, is the dump's own error code.
            if (payload.size() >= 4 && readAt<qint32>(payload, 0) < 0) {
                dump.kernelErrno = -readAt<qint32>(payload, 0);
                dump.error = u"the dump failed: %1"_s.arg(errnoText(dump.kernelErrno));
                return dump;
            }
            dump.complete = true;
            return dump;
        case NLMSG_ERROR: {
            if (payload.size() < 4) {
                dump.error = u"truncated NLMSG_ERROR at byte %1"_s.arg(at);
                return dump;
            }
            const qint32 error = readAt<qint32>(payload, 0);
            if (error == 0) // an acknowledgement
                continue;
            dump.kernelErrno = error < 0 ? -error : error;
            dump.error = u"the kernel refused the dump: %1"_s.arg(errnoText(dump.kernelErrno));
            return dump;
        }
        case NLMSG_OVERRUN:
            dump.error = u"netlink overrun"_s;
            return dump;
        case RTM_NEWQDISC: {
            QString problem;
            if (auto qdisc = parseQdiscMessage(payload, &problem))
                dump.qdiscs.append(std::move(*qdisc));
            else
                dump.problems << u"qdisc message at byte %1 skipped: %2"_s.arg(at).arg(problem);
            continue;
        }
        default: // NLMSG_NOOP and anything not asked for
            continue;
        }
    }
    return dump;
}

QdiscDumpReading readQdiscDump(const QDeadlineTimer &deadline)
{
    QdiscDumpReading reading;
    const auto fail = [&reading](const QString &what, int error) {
        reading.error = u"%1: %2"_s.arg(what, errnoText(error));
        return std::move(reading);
    };
    QDeadlineTimer limit(QdiscMaxWaitMs);
    if (deadline.deadline() < limit.deadline())
        limit = deadline;

    FdCloser socket { ::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK,
                               NETLINK_ROUTE) };
    if (socket.fd < 0) {
        const int error = errno;
        // A sandbox (seccomp, a container without the capability) or a kernel without
        // rtnetlink: it will not change while we run.
        reading.unavailable = error == EPERM || error == EACCES || error == EAFNOSUPPORT
            || error == EPROTONOSUPPORT;
        return fail(u"netlink socket"_s, error);
    }

    // A sequence number of our own, so that an answer to somebody else's request on a
    // reused port id cannot be taken for ours.
    static std::atomic<quint32> nextSequence { 1 };
    const quint32 sequence = nextSequence.fetch_add(1);
    struct
    {
        nlmsghdr header;
        tcmsg message;
    } request {};
    request.header.nlmsg_len = NLMSG_LENGTH(sizeof(tcmsg));
    request.header.nlmsg_type = RTM_GETQDISC;
    request.header.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    request.header.nlmsg_seq = sequence;
    request.message.tcm_family = AF_UNSPEC;
    sockaddr_nl kernel {};
    kernel.nl_family = AF_NETLINK;
    ssize_t sent = -1;
    do {
        sent = ::sendto(socket.fd, &request, request.header.nlmsg_len, 0,
                        reinterpret_cast<const sockaddr *>(&kernel), sizeof(kernel));
    } while (sent < 0 && errno == EINTR);
    if (sent < 0) {
        const int error = errno;
        reading.unavailable = error == EPERM || error == EACCES;
        return fail(u"netlink send"_s, error);
    }

    QByteArray datagram;
    while (true) {
        const qint64 remaining = limit.remainingTime();
        if (remaining == 0) {
            reading.error = u"no complete qdisc dump before the deadline (at most %1 ms)"_s.arg(
                QdiscMaxWaitMs);
            return reading;
        }
        pollfd waiting { socket.fd, POLLIN, 0 };
        const int ready = ::poll(&waiting, 1, int(std::min<qint64>(remaining, QdiscMaxWaitMs)));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready < 0)
            return fail(u"netlink poll"_s, errno);
        if (ready == 0)
            continue; // the loop's head reports the timeout
        // The next datagram's size first, so that none is ever cut short.
        ssize_t size = ::recv(socket.fd, nullptr, 0, MSG_PEEK | MSG_TRUNC);
        if (size < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (size < 0)
            return fail(u"netlink receive"_s, errno);
        if (size > MaxDatagramBytes || reading.raw.size() + size > MaxDumpBytes) {
            reading.error = u"qdisc dump larger than %1 bytes"_s.arg(MaxDumpBytes);
            return reading;
        }
        datagram.resize(std::max<qsizetype>(size, 1));
        sockaddr_nl from {};
        socklen_t fromLength = sizeof(from);
        size = ::recvfrom(socket.fd, datagram.data(), datagram.size(), MSG_TRUNC,
                          reinterpret_cast<sockaddr *>(&from), &fromLength);
        if (size < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (size < 0)
            return fail(u"netlink receive"_s, errno);
        if (size > datagram.size()) {
            reading.error = u"netlink datagram of %1 bytes cut short"_s.arg(size);
            return reading;
        }
        if (from.nl_pid != 0) // not from the kernel
            continue;
        const QByteArrayView bytes(datagram.constData(), size);
        reading.raw.append(bytes);
        QdiscDump part = parseQdiscDump(bytes, sequence);
        reading.dump.qdiscs.append(std::move(part.qdiscs));
        reading.dump.problems.append(std::move(part.problems));
        if (!part.error.isEmpty()) {
            reading.dump.error = part.error;
            reading.dump.kernelErrno = part.kernelErrno;
            reading.error = part.error;
            // Refused by permission (a user namespace without CAP_NET_ADMIN never is,
            // but a LSM may): will not change either.
            reading.unavailable = part.kernelErrno == EPERM || part.kernelErrno == EACCES;
            return reading;
        }
        if (part.complete) {
            reading.dump.complete = true;
            return reading;
        }
    }
}

QdiscReading NetlinkQdiscSource::read(const QDeadlineTimer &deadline)
{
    const QdiscDumpReading reading = readQdiscDump(deadline);
    if (!reading.error.isEmpty()) {
        QdiscReading failed;
        failed.error = reading.error;
        failed.unavailable = reading.unavailable;
        failed.problems = reading.dump.problems;
        return failed;
    }
    // All names in one netlink round trip (glibc's if_nameindex), rather than an ioctl
    // socket per qdisc; if_indextoname for anything it missed (an interface just made).
    QHash<int, QString> names;
    if (struct if_nameindex *all = ::if_nameindex()) {
        for (const struct if_nameindex *entry = all; entry->if_index != 0; ++entry) {
            if (entry->if_name)
                names.insert(int(entry->if_index), QString::fromLocal8Bit(entry->if_name));
        }
        ::if_freenameindex(all);
    }
    return rootQdiscs(reading.dump, [&names](int ifindex) {
        const auto known = names.constFind(ifindex);
        if (known != names.cend())
            return *known;
        char name[IF_NAMESIZE + 1] = {};
        if (ifindex <= 0 || !::if_indextoname(unsigned(ifindex), name))
            return QString();
        return QString::fromLocal8Bit(name);
    });
}

CapturedQdiscSource::CapturedQdiscSource(QByteArray dump, QHash<int, QString> names)
    : m_dump(std::move(dump))
    , m_names(std::move(names))
{
}

QdiscReading CapturedQdiscSource::read(const QDeadlineTimer &)
{
    QdiscDump dump = parseQdiscDump(m_dump);
    if (dump.error.isEmpty() && !dump.complete)
        dump.error = u"the captured dump ends before NLMSG_DONE"_s;
    if (!dump.error.isEmpty()) {
        QdiscReading failed;
        failed.error = dump.error;
        failed.problems = dump.problems;
        return failed;
    }
    return rootQdiscs(dump, [this](int ifindex) { return m_names.value(ifindex); });
}

} // namespace Headroom
