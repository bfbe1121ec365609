// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "filenrparser.h"

#include "collector/procparseutil.h"

namespace Headroom {

using namespace Qt::StringLiterals;
using namespace ProcParse;

std::optional<FileNr> parseFileNr(QByteArrayView content, QStringList *problems)
{
    const qsizetype end = content.indexOf('\n');
    const auto fields = splitFields(end < 0 ? content : content.first(end));
    if (fields.size() != 3) {
        addProblem(problems, 1, u"expected 3 numbers, got %1 fields"_s.arg(fields.size()));
        return std::nullopt;
    }
    const auto allocated = toU64(fields[0]);
    const auto maximum = toU64(fields[2]);
    if (!allocated || !maximum || *maximum == 0) {
        addProblem(problems, 1, u"bad file handle counts"_s);
        return std::nullopt;
    }
    return FileNr { *allocated, *maximum };
}

} // namespace Headroom
