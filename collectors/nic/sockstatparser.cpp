// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "sockstatparser.h"

#include "collector/procparseutil.h"

namespace Headroom {

using namespace Qt::StringLiterals;
using namespace ProcParse;

std::optional<TcpSockStat> parseTcpSockStat(QByteArrayView content, QStringList *problems)
{
    std::optional<TcpSockStat> found;
    forEachLine(content, [&](int number, QByteArrayView line) {
        const auto fields = splitFields(line);
        if (found || fields.isEmpty() || fields[0] != "TCP:")
            return;
        // Name and value pairs; the names are matched, as their set may grow.
        if (fields.size() % 2 != 1) {
            addProblem(problems, number, u"TCP line has an odd number of names and values"_s);
            return;
        }
        TcpSockStat stat;
        int known = 0;
        for (qsizetype i = 1; i + 1 < fields.size(); i += 2) {
            const auto value = toU64(fields[i + 1]);
            if (!value) {
                addProblem(problems, number, u"non-numeric value %1"_s.arg(quoted(fields[i + 1])));
                return;
            }
            const QByteArrayView name = fields[i];
            quint64 *target = name == "inuse" ? &stat.inUse
                : name == "orphan"            ? &stat.orphan
                : name == "tw"                ? &stat.timeWait
                : name == "alloc"             ? &stat.allocated
                                              : nullptr;
            if (target) {
                *target = *value;
                ++known;
            }
        }
        if (known < 4) {
            addProblem(problems, number, u"TCP line lacks inuse, orphan, tw or alloc"_s);
            return;
        }
        found = stat;
    });
    if (!found && problems && problems->isEmpty())
        problems->append(u"no TCP line"_s);
    return found;
}

} // namespace Headroom
