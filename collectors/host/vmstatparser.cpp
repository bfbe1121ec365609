// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "vmstatparser.h"

#include "collector/procparseutil.h"

namespace Headroom {

using namespace Qt::StringLiterals;

using namespace ProcParse;

std::optional<quint64> VmStat::pageScan() const
{
    if (!pgscanKswapd && !pgscanDirect && !pgscanKhugepaged)
        return std::nullopt;
    return pgscanKswapd.value_or(0) + pgscanDirect.value_or(0) + pgscanKhugepaged.value_or(0);
}

VmStat parseVmStat(QByteArrayView content, QStringList *problems)
{
    VmStat stat;
    const struct
    {
        const char *name;
        std::optional<quint64> VmStat::*field;
    } wanted[] = {
        { "pswpin", &VmStat::pswpin },
        { "pswpout", &VmStat::pswpout },
        { "pgscan_kswapd", &VmStat::pgscanKswapd },
        { "pgscan_direct", &VmStat::pgscanDirect },
        { "pgscan_khugepaged", &VmStat::pgscanKhugepaged },
        { "oom_kill", &VmStat::oomKill },
    };
    forEachLine(content, [&](int line, QByteArrayView text) {
        const auto fields = splitFields(text);
        if (fields.isEmpty())
            return;
        for (const auto &w : wanted) {
            if (fields[0] != QByteArrayView(w.name))
                continue;
            const auto value = fields.size() == 2 ? toU64(fields[1]) : std::nullopt;
            if (value)
                stat.*w.field = value;
            else
                addProblem(problems, line, u"malformed %1 line"_s.arg(QLatin1StringView(w.name)));
        }
    });
    return stat;
}

} // namespace Headroom
