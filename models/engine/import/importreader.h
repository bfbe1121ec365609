// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Reads a file of metrics another tool wrote into a Sink, its format found from the
// content:
//   - wide CSV: a time column and one column per series (Grafana's "Inspect → Data",
//     spreadsheets); a header may be a series in PromQL form, name{label="v"};
//   - long CSV: time, metric, labels, value and optionally unit, source and panel
//     columns (Headroom's own --export-csv);
//   - OpenMetrics or Prometheus text exposition with a timestamp on every sample.
// Everything in the file is untrusted: a malformed row is refused with its line
// ("bad.csv: line 3: ..."), and the limits (importlimits.h) bound what it may hold.
#pragma once

#include "collector/metricspec.h"
#include "engine/import/importlimits.h"
#include "engine/import/importmap.h"
#include "engine/import/importsink.h"

#include <QByteArrayView>
#include <functional>
#include <optional>

namespace Headroom::Import {

enum class Format
{
    WideCsv,
    LongCsv,
    OpenMetrics
};
QString formatName(Format format);

// A metric's catalogue entry by name (the collectors' catalogues; nullptr: none).
using Catalogue = std::function<const MetricSpec *(const QString &metric)>;

struct Options
{
    QString fileName; // how messages name the file
    QString source = QStringLiteral("import"); // the source of series the file does not give one
    std::optional<ImportMap> map;
    Catalogue catalogue;
    Limits limits;
};

struct Result
{
    bool ok = false;
    QString error; // "FILE: line N: why"
    Format format = Format::WideCsv;
    qint64 lines = 0; // records read
    qint64 samples = 0;
    int series = 0;
};

Result readImport(QByteArrayView data, const Options &options, Sink *sink);

// What a series of an imported file is: the map's rule when one matched (its labels
// over the file's own), else the
// catalogue's entry for the metric, else nothing but the resource its labels name (a
// service, host, instance, pod or container label: "service:checkout").
SeriesInfo describeSeries(const Options &options, const QString &source, const QString &metric,
                          const Labels &labels, const QString &unit,
                          const std::optional<MappedColumn> &mapped);

} // namespace Headroom::Import
