// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The cache's `series` table read back into a SeriesRegistry: the writer does it on open
// (so persisted ids are handed out before any collector registers a series) and so does
// a recording opened read-only (so its panels find the series they select).
#pragma once

#include <QSet>
#include <QString>

struct sqlite3;

namespace Headroom {

class SeriesRegistry;

// Inserts every series of db into registry under its stored id and adds the id to
// *loaded. A series with unreadable labels is kept (with what could be read) and
// logged. false with *error (SQLite's message) when the table cannot be read.
bool loadSeriesCatalog(sqlite3 *db, SeriesRegistry *registry, QSet<int> *loaded, QString *error);

} // namespace Headroom
