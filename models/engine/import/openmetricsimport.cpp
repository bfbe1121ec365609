// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// OpenMetrics / Prometheus text exposition with a timestamp on every sample: what
// promtool backfills and Prometheus' /federate serves. `# UNIT` lines give units; other
// comments, HELP and TYPE are skipped; exemplars after " # " are left out.

#include "engine/import/importformats.h"
#include "engine/import/importvalues.h"
#include "engine/import/seriesname.h"

#include <QHash>

using namespace Qt::StringLiterals;

namespace Headroom::Import {

namespace {

QByteArrayView nextToken(QByteArrayView line, qsizetype *at)
{
    while (*at < line.size() && (line[*at] == ' ' || line[*at] == '\t'))
        ++*at;
    const qsizetype begin = *at;
    while (*at < line.size() && line[*at] != ' ' && line[*at] != '\t')
        ++*at;
    return line.sliced(begin, *at - begin);
}

} // namespace

Result readOpenMetrics(QByteArrayView data, const Options &options, Sink *sink)
{
    Result result;
    result.format = Format::OpenMetrics;
    const Limits &limits = options.limits;
    QHash<QByteArray, int> seriesOfName; // by the series' text as written
    QHash<SeriesKey, int> seriesOfKey;
    QHash<QString, QString> units; // by metric family (# UNIT)
    qsizetype pos = 0;
    qint64 line = 0;
    bool ended = false;
    while (pos < data.size()) {
        ++line;
        qsizetype end = data.indexOf('\n', pos);
        if (end < 0)
            end = data.size();
        QByteArrayView text = data.sliced(pos, end - pos);
        pos = end + 1;
        if (text.size() > limits.maxLineBytes) {
            result.error
                = lineError(options, line, u"longer than %1 bytes"_s.arg(limits.maxLineBytes));
            return result;
        }
        if (text.endsWith('\r'))
            text.chop(1);
        if (trimmed(text).isEmpty())
            continue;
        if (line > limits.maxRows) {
            result.error = lineError(options, line, u"more than %1 lines"_s.arg(limits.maxRows));
            return result;
        }
        if (ended) {
            result.error = lineError(options, line, u"text after # EOF"_s);
            return result;
        }
        result.lines = line;
        if (text.startsWith('#')) {
            qsizetype at = 1;
            const QByteArrayView keyword = nextToken(text, &at);
            if (keyword == "EOF") {
                ended = true;
            } else if (keyword == "UNIT") {
                const QByteArrayView family = nextToken(text, &at);
                const QByteArrayView unit = nextToken(text, &at);
                if (units.size() < limits.maxSeries)
                    units.insert(QString::fromUtf8(family), QString::fromUtf8(unit));
            }
            continue;
        }
        SeriesName name;
        qsizetype nameEnd = 0;
        QString why;
        if (!readSeriesName(text, limits.maxLabels, &name, &nameEnd, &why)) {
            result.error = lineError(options, line, why);
            return result;
        }
        if (name.metric.isEmpty()) {
            result.error = lineError(options, line, u"a sample line must start with a name"_s);
            return result;
        }
        qsizetype at = nameEnd;
        if (at >= text.size() || (text[at] != ' ' && text[at] != '\t')) {
            result.error = lineError(options, line, u"no space after the series"_s);
            return result;
        }
        const QByteArrayView valueText = nextToken(text, &at);
        const QByteArrayView timeText = nextToken(text, &at);
        double value;
        if (!parseNumber(valueText, &value)) {
            result.error = lineError(options, line,
                                     u"the value %1 is not a number"_s.arg(quoted(valueText)));
            return result;
        }
        if (timeText.isEmpty()) {
            result.error = lineError(options, line,
                                     u"the sample has no timestamp (only samples with one can "
                                     "be placed in time)"_s);
            return result;
        }
        qint64 ts;
        if (!parseTime(timeText, &ts)) {
            result.error = lineError(options, line,
                                     u"the timestamp %1 is not a time"_s.arg(quoted(timeText)));
            return result;
        }
        const QByteArrayView rest = trimmed(text.sliced(at));
        if (!rest.isEmpty() && !rest.startsWith('#')) {
            result.error = lineError(options, line,
                                     u"unexpected %1 after the timestamp"_s.arg(quoted(rest)));
            return result;
        }
        const QByteArray key = text.first(nameEnd).toByteArray();
        int series = seriesOfName.value(key, -1);
        if (series < 0) {
            if (result.series >= limits.maxSeries) {
                result.error = lineError(
                    options, line, u"more than %1 series (label sets)"_s.arg(limits.maxSeries));
                return result;
            }
            // A counter's or histogram's samples carry suffixes of their family's name.
            QString unit = units.value(name.metric);
            for (const char *suffix : { "_total", "_bucket", "_sum", "_count", "_created" }) {
                if (unit.isEmpty() && name.metric.endsWith(QLatin1StringView(suffix)))
                    unit = units.value(name.metric.chopped(qsizetype(qstrlen(suffix))));
            }
            const auto mapped
                = options.map ? mapColumn(*options.map, QString::fromUtf8(key)) : std::nullopt;
            const SeriesInfo info
                = describeSeries(options, options.source, name.metric, name.labels, unit, mapped);
            // The same labels in another order are the same series.
            series = seriesOfKey.value(info.key, -1);
            if (series < 0) {
                series = sink->series(info);
                seriesOfKey.insert(info.key, series);
                ++result.series;
            }
            seriesOfName.insert(key, series);
        }
        if (++result.samples > limits.maxSamples) {
            result.error
                = lineError(options, line, u"more than %1 samples"_s.arg(limits.maxSamples));
            return result;
        }
        sink->sample(series, ts, value);
    }
    if (result.series == 0) {
        result.error = options.fileName + u": holds no samples"_s;
        return result;
    }
    result.ok = true;
    return result;
}

} // namespace Headroom::Import
