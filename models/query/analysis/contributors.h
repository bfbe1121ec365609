// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What carries a resource's load: the series of single processes (the host collector's
// host.process.*, labelled with pid and comm) that say who uses a host's CPU, memory,
// disks and file handles. They are no signal of their own (a process is not a resource
// the USE method judges, and the top processes come and go), so the findings leave
// them out of onsets and shelves and use them to name who carries a raised finding of
// that resource on the same source: "hrburn (pid 4242, user ops) 197 % of one CPU".
// A database server on that host whose sessions' CPU the dashboard has too
// (<engine>.session.cpu, collector/sessioncpu.h) is named by its sessions instead of
// its processes: "3 PostgreSQL sessions (cpu-report, user app: `SELECT ...`) 195 % of
// one CPU".
#pragma once

#include "core/series.h"
#include "query/analysis/seriestrack.h"

#include <QList>
#include <QSet>
#include <QString>
#include <span>

namespace Headroom::Analysis {

// A series of one process (host.process.*), of the sessions one application or role
// holds on a server (pg.connections.by_application, .by_user), of what a server's
// sessions and applications use (pg.session.cpu, .session.read_bytes,
// .application.cpu; MariaDB's alike), or of a root blocker of a blocking tree
// (causefindings.h): no signal of its own.
bool isContributorSeries(const SeriesInfo &info);

struct Contributors
{
    QString text; // "carried by a (pid 1, user x) 90 % of one CPU, b (...) 5 %"; empty: none
    QList<int> seriesIds; // the processes' series of that resource, the largest first
    QList<SeriesKey> keys;
};

// The processes of `source` that carried `resource` (a SeriesInfo::resource: "cpu",
// "memory", "disk:sda" or "disk", "fd") over [fromMs, untilMs], by their mean there: at
// most `top` named, the largest first. For "cpu", the sessions of a database server on
// that host (serverProcessSeries) take the place of the server's processes, grouped by
// application, role and statement: "3 PostgreSQL sessions (cpu-report, user app:
// `SELECT count(*) FROM t`) 195 % of one CPU", one session with its pid, each group by
// the mean over the whole span of its sessions' CPU together, ranked with the processes. For
// "connections", the applications and roles whose sessions grew most against as long a time before
// fromMs, at most `top` of each, applications first: "grown: application hrleak: 15 sessions (0
// before), user app: 16 sessions (1 before)". Empty for any other resource.
Contributors contributorsOf(const QString &source, const QString &resource,
                            std::span<const SeriesTrack> tracks, qint64 fromMs, qint64 untilMs,
                            int top = 3);

// The series of host `source`'s processes (host.process.cpu) that are a database
// server's whose sessions' CPU the dashboard has as well, so that the sessions stand for
// them. A PostgreSQL source's sessions (pg.session.cpu{pid}) are that host's when one of
// their pids is a process of it named postgres (every backend is a process), and stand
// for those processes; a MariaDB or MySQL source's (mariadb.session.cpu{server_pid},
// threads of one process) when server_pid is a process of it named mariadbd or mysqld,
// and stand for that one: another server on the host stays a process of its own.
// Sessions recorded without server_pid stand for every such process of the host.
QSet<int> serverProcessSeries(const QString &source, std::span<const SeriesTrack> tracks);

// The databases whose data lies on the filesystem `mountPoint` of host source `source`:
// series <engine>.server.directory{path} (the postgres and mariadb collectors' data
// directory) of any source whose path is under that mount point and under no longer
// mount point of the same host. "the data directory of pg (/var/lib/postgresql/17/main)";
// empty when none. A database source of the dashboard is taken to run on its host when
// the paths say so: two machines with the same paths would be named alike.
QString databasesOn(const QString &source, const QString &mountPoint,
                    std::span<const SeriesTrack> tracks);

// What a raised finding of `resource` (a SeriesInfo::resource) means, when its name alone
// does not say: for WAL and checkpoints ("wal") whose checkpoints the WAL volume forced
// at least twice per checkpoint_timeout over [fromMs, untilMs] (the mean of
// *.checkpoints.wal_forced), "max_wal_size too small for this write rate" with the WAL
// rate, how often it forces a checkpoint and checkpoint_timeout (*.wal.bytes.rate,
// *.checkpoints.timeout_s of the same source). Empty otherwise.
QString findingNote(const QString &source, const QString &resource,
                    std::span<const SeriesTrack> tracks, qint64 fromMs, qint64 untilMs);

} // namespace Headroom::Analysis
