// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "collector/processparsers.h"

#include "collector/procparseutil.h"

namespace Headroom {

using namespace Qt::StringLiterals;
using namespace ProcParse;

namespace {

constexpr quint64 KernelThreadFlag = 0x00200000; // PF_KTHREAD

// The value after "Name:" in a "Name:\tvalue..." line of content; empty when absent.
QByteArrayView valueOf(QByteArrayView content, QByteArrayView name)
{
    QByteArrayView found;
    forEachLine(content, [&](int, QByteArrayView line) {
        if (found.isEmpty() && line.size() > name.size() && line.startsWith(name)
            && line[name.size()] == ':')
            found = line.sliced(name.size() + 1).trimmed();
    });
    return found;
}

} // namespace

std::optional<PidStat> parsePidStat(QByteArrayView content, QString *problem)
{
    const auto fail = [&](const QString &why) -> std::optional<PidStat> {
        if (problem)
            *problem = why;
        return std::nullopt;
    };
    const qsizetype open = content.indexOf('(');
    const qsizetype close = content.lastIndexOf(')');
    if (open < 0 || close < open)
        return fail(u"no command name in parentheses"_s);
    PidStat stat;
    stat.comm = QString::fromUtf8(content.sliced(open + 1, close - open - 1));
    const qsizetype end = content.indexOf('\n', close);
    const auto fields
        = splitFields(content.sliced(close + 1, (end < 0 ? content.size() : end) - close - 1));
    // state is field 3 of the line, rss field 24: 22 fields after the name.
    if (fields.size() < 22)
        return fail(u"%1 fields after the command name, expected at least 22"_s.arg(fields.size()));
    if (fields[0].size() != 1)
        return fail(u"bad state %1"_s.arg(quoted(fields[0])));
    stat.state = fields[0][0];
    const auto flags = toU64(fields[6]);
    const auto utime = toU64(fields[11]);
    const auto stime = toU64(fields[12]);
    const auto threads = toU64(fields[17]);
    const auto start = toU64(fields[19]);
    const auto rss = toU64(fields[21]);
    if (!flags || !utime || !stime || !threads || !start || !rss)
        return fail(u"non-numeric field"_s);
    stat.kernelThread = (*flags & KernelThreadFlag) != 0;
    stat.utimeTicks = *utime;
    stat.stimeTicks = *stime;
    stat.threads = qint64(*threads);
    stat.startTicks = *start;
    stat.rssPages = *rss;
    return stat;
}

std::optional<PidStatus> parsePidStatus(QByteArrayView content, QString *problem)
{
    const QByteArrayView uids = valueOf(content, "Uid");
    const auto fields = splitFields(uids);
    const auto uid = fields.isEmpty() ? std::nullopt : toU64(fields[0]);
    if (!uid || *uid > 0xffffffffu) {
        if (problem)
            *problem = u"no numeric Uid line"_s;
        return std::nullopt;
    }
    PidStatus status;
    status.uid = quint32(*uid);
    const auto rss = splitFields(valueOf(content, "VmRSS"));
    if (rss.size() == 2 && rss[1] == "kB") {
        if (const auto kb = toU64(rss[0]); kb && *kb < (quint64(1) << 53))
            status.rssBytes = *kb * 1024;
    }
    return status;
}

std::optional<PidIo> parsePidIo(QByteArrayView content, QString *problem)
{
    const auto read = toU64(valueOf(content, "read_bytes"));
    const auto write = toU64(valueOf(content, "write_bytes"));
    if (!read || !write) {
        if (problem)
            *problem = u"no numeric read_bytes and write_bytes lines"_s;
        return std::nullopt;
    }
    return PidIo { *read, *write };
}

QString unitFromCgroup(QByteArrayView content)
{
    // v2 has one line "0::/path"; v1 a line per hierarchy, of which systemd's
    // ("1:name=systemd:/path") names the unit.
    QByteArrayView path;
    forEachLine(content, [&](int, QByteArrayView line) {
        const qsizetype first = line.indexOf(':');
        const qsizetype second = first < 0 ? -1 : line.indexOf(':', first + 1);
        if (second < 0)
            return;
        const QByteArrayView controllers = line.sliced(first + 1, second - first - 1);
        if (controllers.isEmpty() || controllers == "name=systemd" || path.isEmpty())
            path = line.sliced(second + 1);
    });
    QString unit;
    qsizetype end = path.size();
    while (end > 0) {
        const qsizetype slash = path.first(end).lastIndexOf('/');
        const QByteArrayView part = path.sliced(slash + 1, end - slash - 1);
        if (part.endsWith(".service") || part.endsWith(".scope"))
            return QString::fromUtf8(part);
        if (unit.isEmpty() && !part.isEmpty())
            unit = QString::fromUtf8(part);
        if (slash < 0)
            break;
        end = slash;
    }
    return unit;
}

QHash<quint32, QString> parsePasswd(QByteArrayView content)
{
    QHash<quint32, QString> users;
    forEachLine(content, [&](int, QByteArrayView line) {
        if (line.startsWith('#'))
            return;
        const qsizetype nameEnd = line.indexOf(':');
        const qsizetype passEnd = nameEnd < 0 ? -1 : line.indexOf(':', nameEnd + 1);
        const qsizetype uidEnd = passEnd < 0 ? -1 : line.indexOf(':', passEnd + 1);
        if (nameEnd <= 0 || uidEnd < 0)
            return;
        const auto uid = toU64(line.sliced(passEnd + 1, uidEnd - passEnd - 1));
        if (uid && *uid <= 0xffffffffu && !users.contains(quint32(*uid)))
            users.insert(quint32(*uid), QString::fromUtf8(line.first(nameEnd)));
    });
    return users;
}

} // namespace Headroom
