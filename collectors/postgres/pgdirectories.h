// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Where the server keeps its data: data_directory (its WAL in pg_wal below it, unless
// that is a link elsewhere), as pg.server.directory{kind=data, path} = 1, so that a host
// finding about the filesystem holding it can name the database (findings.h). Read from
// pg_settings, which shows the setting only to superusers and members of
// pg_read_all_settings (pg_monitor is one): for other roles the series is left out, with
// no warning. Asked once per session.
#pragma once

#include "pgpoll.h"

namespace Headroom {

class PgDirectoriesPart : public PgPart
{
public:
    void collect(PgPoll &poll) override;
    void resetBaselines() override { m_asked = false; }

    static inline const QString Metric = QStringLiteral("pg.server.directory");

private:
    bool m_asked = false;
    QString m_dataDirectory;
};

} // namespace Headroom
