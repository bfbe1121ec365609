// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/cache/seriescatalog.h"

#include "cachelogging.h"
#include "engine/cache/sqlitedb.h"
#include "engine/runtime/seriesregistry.h"

namespace Headroom {

bool loadSeriesCatalog(sqlite3 *db, SeriesRegistry *registry, QSet<int> *loaded, QString *error)
{
    Sqlite::Statement series(db,
                             "SELECT id, source, metric, labels, unit, resource, kind,"
                             " histogram FROM series ORDER BY id");
    bool done = false;
    while (series.step(&done)) {
        SeriesInfo info;
        const int id = int(series.columnInt64(0));
        info.key.source = series.columnText(1);
        info.key.metric = series.columnText(2);
        bool ok = false;
        info.key.labels = labelsFromString(series.columnText(3), &ok);
        if (!ok)
            qCWarning(lcCache) << "cache: series" << id << "has unreadable labels";
        info.unit = series.columnText(4);
        info.resource = series.columnText(5);
        info.kind = useKindFromName(series.columnText(6));
        info.histogram = series.columnInt64(7) != 0;
        const std::optional<int> known = registry->find(info.key);
        if (known && *known != id)
            qCWarning(lcCache) << "cache: series" << info.key.toString()
                               << "was registered before the cache was opened with id" << *known
                               << "instead of" << id;
        registry->insert(id, info);
        loaded->insert(id);
    }
    if (!done && error)
        *error = Sqlite::errorText(db);
    return done;
}

} // namespace Headroom
