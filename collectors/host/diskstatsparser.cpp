// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "diskstatsparser.h"

#include "collector/procparseutil.h"

namespace Headroom {

using namespace Qt::StringLiterals;

using namespace ProcParse;

namespace {
constexpr int MinFields = 14; // major, minor, name and the 11 fields every 2.6+ kernel has
}

QList<DiskStat> parseDiskStats(QByteArrayView content, QStringList *problems)
{
    QList<DiskStat> disks;
    forEachLine(content, [&](int line, QByteArrayView text) {
        const auto fields = splitFields(text);
        if (fields.isEmpty())
            return;
        if (fields.size() < MinFields) {
            addProblem(problems, line,
                       u"%1 fields, expected at least %2"_s.arg(fields.size()).arg(MinFields));
            return;
        }
        quint64 values[18] = {};
        const qsizetype count = std::min<qsizetype>(fields.size(), 18);
        for (qsizetype i = 3; i < count; ++i) {
            const auto value = toU64(fields[i]);
            if (!value) {
                addProblem(problems, line, u"non-numeric field %1"_s.arg(quoted(fields[i])));
                return;
            }
            values[i] = *value;
        }
        DiskStat disk;
        disk.name = QString::fromLatin1(fields[2]);
        disk.reads = values[3];
        disk.readSectors = values[5];
        disk.writes = values[7];
        disk.writeSectors = values[9];
        disk.ioTicksMs = values[12];
        disk.weightedIoMs = values[13];
        disk.discards = values[14]; // 0 when the kernel has no discard columns
        disks.append(disk);
    });
    return disks;
}

std::optional<quint64> parseIoErrCount(QByteArrayView content)
{
    QByteArrayView text = content.trimmed();
    if (text.startsWith("0x") || text.startsWith("0X"))
        text = text.sliced(2);
    return toU64(text, 16);
}

} // namespace Headroom
