// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pressureparser.h"

#include "collector/procparseutil.h"

namespace Headroom {

using namespace Qt::StringLiterals;

using namespace ProcParse;

std::optional<Pressure> parsePressure(QByteArrayView content, QStringList *problems)
{
    Pressure pressure;
    forEachLine(content, [&](int line, QByteArrayView text) {
        const auto fields = splitFields(text);
        if (fields.isEmpty())
            return;
        const bool some = fields.front() == "some";
        if (!some && fields.front() != "full") {
            addProblem(problems, line, u"unknown line %1"_s.arg(quoted(fields.front())));
            return;
        }
        std::optional<quint64> total;
        for (const QByteArrayView field : fields) {
            if (field.startsWith("total="))
                total = toU64(field.sliced(6));
        }
        if (!total) {
            addProblem(problems, line, u"no numeric total="_s);
            return;
        }
        (some ? pressure.someTotalUs : pressure.fullTotalUs) = total;
    });
    if (!pressure.someTotalUs && !pressure.fullTotalUs) {
        if (problems)
            problems->append(u"no \"some\" or \"full\" total"_s);
        return std::nullopt;
    }
    return pressure;
}

} // namespace Headroom
