// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The resource a series is evidence about, as a finding names it: "CPU", "disk vda",
// "filesystem /var/lib/postgresql (/dev/sda3)" (its mount point and device), "file
// handles", "NIC eth1", "database orders", "shard set orders", "shard public.orders_3",
// "statement SELECT ... FROM orders WHERE id = $1", "connections" (a server's slots),
// "WAL and checkpoints", "standby replica1 (10.0.0.7)" (by its application_name and
// client address), "replication slot s1", "replication" (the server as a replica of its
// primary; "replication <name>" for one of MariaDB's named connections). A statement or
// a shard is its own resource (inside its database): a plan flip is news about one
// statement.
#pragma once

#include "core/series.h"

#include <QString>

namespace Headroom::Analysis {

QString resourceDisplayName(const SeriesInfo &info);

} // namespace Headroom::Analysis
