// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "loadavgparser.h"

#include "collector/procparseutil.h"

namespace Headroom {

using namespace Qt::StringLiterals;

using namespace ProcParse;

std::optional<LoadAvg> parseLoadAvg(QByteArrayView content, QStringList *problems)
{
    const qsizetype end = content.indexOf('\n');
    const auto fields = splitFields(end < 0 ? content : content.first(end));
    if (fields.size() < 3) {
        addProblem(problems, 1, u"expected 3 load averages, got %1 fields"_s.arg(fields.size()));
        return std::nullopt;
    }
    double loads[3] = {};
    for (int i = 0; i < 3; ++i) {
        const auto value = toDouble(fields[i]);
        if (!value || *value < 0) {
            addProblem(problems, 1, u"bad load average %1"_s.arg(quoted(fields[i])));
            return std::nullopt;
        }
        loads[i] = *value;
    }
    return LoadAvg { loads[0], loads[1], loads[2] };
}

} // namespace Headroom
