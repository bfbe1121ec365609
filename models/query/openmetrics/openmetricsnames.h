// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Headroom's series under Prometheus names, for `--serve-metrics` (docs/fleet.md,
// "Serving metrics"): `headroom_` + the metric with dots as underscores, a trailing `.rate`
// dropped and the unit appended where it is not already the name's end ("ms/s" as
// `_ms_per_s`, "B" as `_bytes`, "1/s" as `_per_s`; "%" and no unit add nothing), so
// pg.statements.exec_time.rate in ms/s is headroom_pg_statements_exec_time_ms_per_s and
// pg.shard.load in % is headroom_pg_shard_load. Label names are made valid the same way.
#pragma once

#include <QString>

namespace Headroom::OpenMetrics {

// The family name of a Headroom metric with its unit.
QString metricName(const QString &metric, const QString &unit);
// A label name Prometheus accepts: [a-zA-Z_][a-zA-Z0-9_]*, not starting with "__"
// (reserved for the engine's own labels).
QString labelName(const QString &label);
// A label value or HELP text in the exposition's quoting: backslash, newline and (for
// label values) the double quote escaped.
QString escapeLabelValue(const QString &value);
QString escapeHelp(const QString &text);
// A sample value: the shortest text that reads back as the same double; NaN, +Inf, -Inf.
QByteArray formatValue(double value);

} // namespace Headroom::OpenMetrics
