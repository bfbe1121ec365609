// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "core/naturalsort.h"

namespace Headroom {

int naturalCompare(QStringView a, QStringView b, Qt::CaseSensitivity cs)
{
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            const qsizetype si = i, sj = j;
            while (i < a.size() && a[i].isDigit())
                ++i;
            while (j < b.size() && b[j].isDigit())
                ++j;
            // Without leading zeros, a longer run is a larger number.
            QStringView da = a.sliced(si, i - si), db = b.sliced(sj, j - sj);
            while (da.size() > 1 && da.front() == u'0')
                da = da.sliced(1);
            while (db.size() > 1 && db.front() == u'0')
                db = db.sliced(1);
            if (da.size() != db.size())
                return da.size() < db.size() ? -1 : 1;
            if (const int c = da.compare(db); c != 0)
                return c;
            continue;
        }
        char16_t ca = a[i].unicode(), cb = b[j].unicode();
        if (cs == Qt::CaseInsensitive) {
            ca = a[i].toCaseFolded().unicode();
            cb = b[j].toCaseFolded().unicode();
        }
        if (ca != cb)
            return ca < cb ? -1 : 1;
        ++i;
        ++j;
    }
    if (i < a.size() || j < b.size()) // a prefix of the other comes first
        return i < a.size() ? 1 : -1;
    return a.compare(b); // equal up to leading zeros (and case): any fixed order
}

} // namespace Headroom
