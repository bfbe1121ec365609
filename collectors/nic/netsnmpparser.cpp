// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "netsnmpparser.h"

#include "collector/procparseutil.h"

#include <QByteArrayView>
#include <QList>

namespace Headroom {

using namespace ProcParse;
using namespace Qt::StringLiterals;

std::optional<QHash<QString, qint64>> parseNetSnmp(QByteArrayView content, QByteArrayView protocol,
                                                   QStringList *problems)
{
    const QByteArray prefix = protocol.toByteArray() + ':';
    QList<QByteArrayView> header;
    int headerLine = 0;
    int number = 0;
    while (!content.isEmpty()) {
        const qsizetype end = content.indexOf('\n');
        const QByteArrayView line = end < 0 ? content : content.first(end);
        content = end < 0 ? QByteArrayView() : content.sliced(end + 1);
        ++number;
        const auto fields = splitFields(line);
        if (fields.isEmpty() || fields.front() != prefix)
            continue;
        if (headerLine == 0) {
            header = fields;
            headerLine = number;
            continue;
        }
        if (fields.size() != header.size()) {
            addProblem(problems, number,
                       u"%1 values for %2 columns of line %3"_s.arg(fields.size() - 1)
                           .arg(header.size() - 1)
                           .arg(headerLine));
            return std::nullopt;
        }
        QHash<QString, qint64> values;
        for (qsizetype i = 1; i < fields.size(); ++i) {
            bool ok = false;
            const qint64 value = fields[i].toLongLong(&ok);
            if (ok)
                values.insert(QString::fromLatin1(header[i]), value);
            else
                addProblem(problems, number,
                           u"non-numeric %1 \"%2\""_s.arg(QString::fromLatin1(header[i]),
                                                          QString::fromLatin1(fields[i].left(32))));
        }
        return values;
    }
    if (headerLine != 0)
        addProblem(problems, headerLine,
                   u"%1 header without a value line"_s.arg(QString::fromLatin1(protocol)));
    else if (problems)
        problems->append(u"no %1 lines"_s.arg(QString::fromLatin1(protocol)));
    return std::nullopt;
}

} // namespace Headroom
