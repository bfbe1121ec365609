// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/import/importreader.h"

#include "engine/import/csvrecords.h"
#include "engine/import/importformats.h"

using namespace Qt::StringLiterals;

namespace Headroom::Import {

QString formatName(Format format)
{
    switch (format) {
    case Format::WideCsv:
        return u"wide CSV"_s;
    case Format::LongCsv:
        return u"long CSV"_s;
    case Format::OpenMetrics:
        return u"OpenMetrics text"_s;
    }
    return {};
}

SeriesInfo describeSeries(const Options &options, const QString &source, const QString &metric,
                          const Labels &labels, const QString &unit,
                          const std::optional<MappedColumn> &mapped)
{
    SeriesInfo info;
    info.key.source = source;
    info.key.metric = mapped ? mapped->metric : metric;
    info.key.labels = labels; // the file's own, then the rule's over them
    if (mapped)
        info.key.labels.insert(mapped->labels);
    info.unit = mapped && !mapped->unit.isEmpty() ? mapped->unit : unit;
    const MetricSpec *spec = options.catalogue ? options.catalogue(info.key.metric) : nullptr;
    if (spec) {
        if (info.unit.isEmpty())
            info.unit = spec->unit;
        info.resource = spec->resourceFor(info.key.labels);
    }
    if (info.resource.isEmpty()) {
        for (const char *name : { "service", "host", "instance", "pod", "container" }) {
            const QString value = info.key.labels.value(QLatin1StringView(name));
            if (!value.isEmpty()) {
                info.resource = QLatin1StringView(name) + u':' + value;
                break;
            }
        }
    }
    // The rule's kind, else the catalogue's (a plain enum, not an optional local copy:
    // GCC's -O2 reports such a copy as maybe uninitialized).
    if (mapped && mapped->kind)
        info.kind = *mapped->kind;
    else
        info.kind = spec ? spec->kind : UseKind::Info;
    return info;
}

namespace {

bool looksLikeExposition(QByteArrayView data)
{
    qsizetype at = 0;
    while (at < data.size() && (data[at] == ' ' || data[at] == '\n' || data[at] == '\r'))
        ++at;
    if (at < data.size() && data[at] == '#')
        return true;
    // "name{...} value time" or "name value time": a series name, then a brace or a space
    // (a CSV header has a comma or a quote there).
    const auto nameChar = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
            || c == '_' || c == ':' || c == '.';
    };
    const qsizetype begin = at;
    while (at < data.size() && nameChar(data[at]))
        ++at;
    return at > begin && at < data.size()
        && (data[at] == '{' || data[at] == ' ' || data[at] == '\t');
}

} // namespace

Result readImport(QByteArrayView data, const Options &options, Sink *sink)
{
    if (looksLikeExposition(data))
        return readOpenMetrics(data, options, sink);
    CsvRecords records(data, options.limits.maxLineBytes);
    Result result;
    if (!records.next()) {
        result.error = options.fileName
            + (records.error().isEmpty()
                   ? u": holds nothing to import"_s
                   : u": line %1: %2"_s.arg(records.line()).arg(records.error()));
        return result;
    }
    if (isLongCsvHeader(records.fields()))
        return readLongCsv(records, options, sink);
    return readWideCsv(records, options, sink);
}

} // namespace Headroom::Import
