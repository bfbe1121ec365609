// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/analysis/resourcename.h"

using namespace Qt::StringLiterals;

namespace Headroom::Analysis {

QString resourceDisplayName(const SeriesInfo &info)
{
    const Labels &labels = info.key.labels;
    if (labels.contains(u"queryid"_s)) {
        const QString text = labels.value(u"query"_s);
        return u"statement "_s + (text.isEmpty() ? labels.value(u"queryid"_s) : text);
    }
    if (labels.contains(u"shard"_s))
        return u"shard "_s + labels.value(u"shard"_s);
    const QString &r = info.resource;
    const qsizetype colon = r.indexOf(u':');
    const QString kind = colon < 0 ? r : r.left(colon);
    const QString name = colon < 0 ? QString() : r.mid(colon + 1);
    const auto named
        = [&](const QString &what) { return name.isEmpty() ? what : what + u' ' + name; };
    if (kind == "cpu"_L1)
        return named(u"CPU"_s);
    if (kind == "memory"_L1)
        return named(u"memory"_s);
    if (kind == "disk"_L1)
        return name.isEmpty() ? u"disks"_s : named(u"disk"_s);
    if (kind == "fs"_L1) { // "filesystem /var/lib/postgresql (/dev/sda3)"
        const QString device = labels.value(u"device"_s);
        return named(u"filesystem"_s) + (device.isEmpty() ? QString() : u" ("_s + device + u')');
    }
    if (kind == "fd"_L1)
        return u"file handles"_s;
    if (kind == "nic"_L1)
        return name.isEmpty() ? u"NICs"_s : named(u"NIC"_s);
    if (kind == "db"_L1)
        return named(u"database"_s);
    if (kind == "shardset"_L1)
        return named(u"shard set"_s);
    if (kind == "pg"_L1)
        return named(u"PostgreSQL server"_s);
    if (kind == "connections"_L1)
        return u"connections"_s;
    if (kind == "wal"_L1)
        return u"WAL and checkpoints"_s;
    if (kind == "standby"_L1) // "standby replica1 (10.0.0.7)": the address is in the name
        return named(u"standby"_s);
    if (kind == "slot"_L1)
        return named(u"replication slot"_s);
    if (kind == "replica"_L1)
        return named(u"replication"_s);
    // Imported series name theirs by a label (import/importreader.h): "service checkout".
    for (const char *label : { "service", "host", "instance", "pod", "container" }) {
        if (kind == QLatin1StringView(label))
            return named(QLatin1StringView(label));
    }
    return r.isEmpty() ? info.key.metric : r;
}

} // namespace Headroom::Analysis
