// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "core/statementname.h"

namespace Headroom {

using namespace Qt::StringLiterals;

QString statementShortName(const Labels &labels)
{
    const auto queryid = labels.constFind(u"queryid"_s);
    if (queryid == labels.cend())
        return {};
    const QString query = labels.value(u"query"_s).simplified();
    QString words = query;
    if (words.size() > ShortStatementChars) {
        // At the last space that keeps it within the limit; a first word longer than
        // that is cut where the limit falls (never inside a surrogate pair).
        qsizetype cut = words.lastIndexOf(u' ', ShortStatementChars);
        if (cut <= 0) {
            cut = ShortStatementChars;
            if (words.at(cut - 1).isHighSurrogate())
                --cut;
        }
        words = words.left(cut) + u'…';
    }
    const QString id = u'#' + queryid.value();
    return words.isEmpty() ? id : words + u' ' + id;
}

} // namespace Headroom
