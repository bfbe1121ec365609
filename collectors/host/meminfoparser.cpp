// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "meminfoparser.h"

#include "collector/procparseutil.h"

#include <QHash>

namespace Headroom {

using namespace Qt::StringLiterals;

using namespace ProcParse;

std::optional<MemInfo> parseMemInfo(QByteArrayView content, QStringList *problems)
{
    QHash<QByteArray, quint64> bytes;
    forEachLine(content, [&](int line, QByteArrayView text) {
        const auto fields = splitFields(text);
        if (fields.isEmpty())
            return;
        if (fields.size() < 2 || !fields[0].endsWith(':')) {
            addProblem(problems, line, u"expected \"Name: value [kB]\""_s);
            return;
        }
        const auto value = toU64(fields[1]);
        if (!value) {
            addProblem(problems, line, u"non-numeric value %1"_s.arg(quoted(fields[1])));
            return;
        }
        const bool kiB = fields.size() > 2 && fields[2] == "kB";
        bytes.insert(fields[0].chopped(1).toByteArray(), kiB ? *value * 1024 : *value);
    });
    MemInfo info;
    info.totalBytes = bytes.value("MemTotal");
    if (info.totalBytes == 0) {
        if (problems)
            problems->append(u"no MemTotal"_s);
        return std::nullopt;
    }
    const auto available = bytes.constFind("MemAvailable");
    info.availableBytes = available != bytes.cend()
        ? *available
        : bytes.value("MemFree") + bytes.value("Buffers") + bytes.value("Cached");
    info.swapTotalBytes = bytes.value("SwapTotal");
    info.swapFreeBytes = bytes.value("SwapFree");
    return info;
}

} // namespace Headroom
