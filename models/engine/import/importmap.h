// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// An import map (--import-map MAP.json, the import dialog's field): which column holds
// the time and what the others are.
//   {"time": "time",
//    "columns": [{"match": "^(.+)_cpu$", "metric": "container.cpu.utilization",
//                 "labels": {"service": "$1"}, "unit": "%", "kind": "utilization"}]}
// `match` is a regular expression over a column's header (or an exposition line's
// series name); $1 ... $9 in metric and labels are its groups. The first rule that
// matches wins; a column no rule matches keeps its header as its name.
#pragma once

#include "core/series.h"

#include <QList>
#include <QRegularExpression>
#include <optional>

namespace Headroom::Import {

struct ColumnRule
{
    QRegularExpression match;
    QString metric; // empty: the header's own name
    QList<std::pair<QString, QString>> labels; // values with $N
    QString unit;
    std::optional<UseKind> kind;
};

struct ImportMap
{
    QString timeColumn; // empty: found from the header
    QList<ColumnRule> columns;
};

// What a rule made of a header: nullopt when no rule matches.
struct MappedColumn
{
    QString metric;
    Labels labels;
    QString unit;
    std::optional<UseKind> kind;
};

// Limits on a map: it is read from a file like any other input.
constexpr int MaxMapRules = 1000;
constexpr int MaxMapPatternLength = 2000;

// The map in json; nullopt with *error ("columns[2].match: ...") when it is malformed.
std::optional<ImportMap> parseImportMap(const QByteArray &json, QString *error);
std::optional<ImportMap> loadImportMap(const QString &path, QString *error);

// The first rule matching header, applied; nullopt when none does.
std::optional<MappedColumn> mapColumn(const ImportMap &map, const QString &header);

} // namespace Headroom::Import
