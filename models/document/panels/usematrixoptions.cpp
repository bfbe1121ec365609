// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "document/panels/usematrixoptions.h"

#include "core/jsonreader.h"
#include "core/legendtemplate.h"
#include "document/panels/paneltyperules.h"

#include <QJsonArray>
#include <limits>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// "Every value above 0" as an inclusive PanelThresholds bound.
constexpr double AnyPositive = std::numeric_limits<double>::denorm_min();

PanelThresholds bounds(double warning, double critical)
{
    PanelThresholds t;
    t.warning = warning;
    t.critical = critical;
    return t;
}

bool isRate(const QString &unit)
{
    return unit.endsWith("/s"_L1);
}

// One column's bounds: {"warning": 70, "critical": 90, "higherIsWorse": true}, at least
// one of the two bounds set.
bool readColumnThresholds(JsonReader &reader, const QJsonValue &value, const QString &path,
                          PanelThresholds *out)
{
    QJsonObject object;
    if (!reader.elementObject(value, path, &object)
        || !reader.checkKnownKeys(object, path,
                                  { u"warning"_s, u"critical"_s, u"higherIsWorse"_s }))
        return false;
    PanelThresholds t;
    if (!reader.readBool(object, u"higherIsWorse"_s, path, false, &t.higherIsWorse)
        || !reader.readNumber(object, u"warning"_s, path, false, &t.warning)
        || !reader.readNumber(object, u"critical"_s, path, false, &t.critical))
        return false;
    if (t.isEmpty())
        return reader.fail(path, u"must set warning, critical or both"_s);
    if (!qIsNaN(t.warning) && !qIsNaN(t.critical)
        && (t.higherIsWorse ? t.critical < t.warning : t.critical > t.warning))
        return reader.fail(path,
                           t.higherIsWorse ? u"critical must not be below warning"_s
                                           : u"critical must not be above warning when "
                                             "higherIsWorse is false"_s);
    *out = t;
    return true;
}

constexpr qsizetype MaximumQueries = 64;
constexpr qsizetype MaximumQueryLength = 16 * 1024;
constexpr qsizetype MaximumLabelNameLength = 128;
constexpr qsizetype MaximumResourceLength = 256;

bool readQueries(JsonReader &reader, const QJsonObject &options, const QString &optionsPath,
                 QList<UseMatrixQuery> *out)
{
    QJsonArray array;
    const QString path = JsonReader::joinPath(optionsPath, u"queries"_s);
    if (!reader.readArray(options, u"queries"_s, optionsPath, false, &array)
        || !reader.checkCount(array.size(), MaximumQueries, path, u"queries"_s))
        return false;
    QStringList columns;
    for (int c = 0; c < UseColumnCount; ++c)
        columns.append(useColumnKey(UseColumn(c)));
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString at = JsonReader::indexPath(path, i);
        QJsonObject object;
        UseMatrixQuery query;
        QString use;
        if (!reader.elementObject(array.at(i), at, &object)
            || !reader.checkKnownKeys(object, at,
                                      { u"resource"_s, u"use"_s, u"unit"_s, u"query"_s })
            || !reader.readNonEmptyString(object, u"resource"_s, at, &query.resource,
                                          MaximumResourceLength)
            || !reader.readNonEmptyString(object, u"use"_s, at, &use, 16)
            || !reader.readString(object, u"unit"_s, at, false, &query.unit, 32)
            || !reader.readNonEmptyString(object, u"query"_s, at, &query.query, MaximumQueryLength))
            return false;
        const qsizetype column = columns.indexOf(use);
        if (column < 0)
            return reader.fail(JsonReader::joinPath(at, u"use"_s),
                               u"is %1; expected one of %2"_s.arg(JsonReader::describe(use),
                                                                  columns.join(u", "_s)));
        query.column = UseColumn(column);
        QString error;
        if (!LegendTemplate::parse(query.resource, &error))
            return reader.fail(JsonReader::joinPath(at, u"resource"_s), error);
        out->append(query);
    }
    return true;
}

} // namespace

QString useColumnTitle(UseColumn column)
{
    switch (column) {
    case UseColumn::Utilization:
        return u"Utilization"_s;
    case UseColumn::Saturation:
        return u"Saturation"_s;
    case UseColumn::Errors:
        break;
    }
    return u"Errors"_s;
}

QString useColumnKey(UseColumn column)
{
    return useColumnTitle(column).toLower();
}

std::optional<UseColumn> useColumnOf(UseKind kind)
{
    switch (kind) {
    case UseKind::Utilization:
        return UseColumn::Utilization;
    case UseKind::Saturation:
        return UseColumn::Saturation;
    case UseKind::Errors:
        return UseColumn::Errors;
    case UseKind::Throughput:
    case UseKind::Latency:
    case UseKind::Info:
        break;
    }
    return std::nullopt;
}

UseKind useKindOf(UseColumn column)
{
    switch (column) {
    case UseColumn::Utilization:
        return UseKind::Utilization;
    case UseColumn::Saturation:
        return UseKind::Saturation;
    case UseColumn::Errors:
        break;
    }
    return UseKind::Errors;
}

PanelThresholds UseMatrixOptions::thresholdsFor(UseColumn column, const QString &unit,
                                                const QString &resource) const
{
    const auto &override = thresholds.at(size_t(column));
    return override ? *override : defaultUseThresholds(column, unit, resource);
}

namespace {

// The bounds of resources that have their own (see the header), else nullopt.
std::optional<PanelThresholds> resourceThresholds(UseColumn column, const QString &unit,
                                                  const QString &resource)
{
    if (resource.isEmpty())
        return std::nullopt;
    if (resource == "connections"_L1 && column == UseColumn::Utilization && unit == "%"_L1)
        return bounds(80, 95);
    if (column != UseColumn::Saturation)
        return std::nullopt;
    const bool replica = resource.startsWith("standby:"_L1) || resource == "replica"_L1
        || resource.startsWith("replica:"_L1);
    if (replica && unit == "s"_L1)
        return bounds(10, 60);
    if (resource.startsWith("slot:"_L1) && unit == "B"_L1)
        return bounds(1024.0 * 1024 * 1024, 10.0 * 1024 * 1024 * 1024);
    if (resource == "wal"_L1 && unit == "x"_L1)
        return bounds(2, 10);
    return std::nullopt;
}

} // namespace

PanelThresholds defaultUseThresholds(UseColumn column, const QString &unit, const QString &resource)
{
    if (const auto own = resourceThresholds(column, unit, resource))
        return *own;
    switch (column) {
    case UseColumn::Utilization:
        return unit == "%"_L1 ? bounds(70, 90) : PanelThresholds {};
    case UseColumn::Saturation:
        if (unit == "%"_L1)
            return bounds(10, 25);
        if (unit.isEmpty())
            return bounds(1, 4);
        if (unit == "shards"_L1) // overloaded shards: any is one too many
            return bounds(AnyPositive, qQNaN());
        if (unit == "ms/s"_L1)
            return bounds(100, 500);
        if (unit == "h"_L1) { // a time left (a filesystem's time to full): lower is worse
            PanelThresholds t = bounds(6, 1);
            t.higherIsWorse = false;
            return t;
        }
        if (unit == "B/s"_L1)
            return bounds(AnyPositive, 100e6);
        if (isRate(unit))
            return bounds(AnyPositive, 100);
        return {};
    case UseColumn::Errors:
        break;
    }
    return unit == "%"_L1 ? bounds(1, 5) : bounds(AnyPositive, 1);
}

std::optional<UseMatrixOptions> readUseMatrixOptions(JsonReader &reader, const QJsonObject &options,
                                                     const QString &optionsPath)
{
    if (!reader.checkKnownKeys(options, optionsPath,
                               { u"thresholds"_s, u"queries"_s, u"by"_s, u"order"_s }, u"option"_s))
        return std::nullopt;
    UseMatrixOptions parsed;
    if (!readQueries(reader, options, optionsPath, &parsed.queries))
        return std::nullopt;
    if (options.contains(u"by"_s)) {
        if (parsed.queries.isEmpty()) {
            reader.fail(JsonReader::joinPath(optionsPath, u"by"_s),
                        u"names the host label of queries, and there are none"_s);
            return std::nullopt;
        }
        if (!reader.readNonEmptyString(options, u"by"_s, optionsPath, &parsed.by,
                                       MaximumLabelNameLength)
            || !reader.checkLabelName(parsed.by, JsonReader::joinPath(optionsPath, u"by"_s)))
            return std::nullopt;
    }
    QString order;
    if (!reader.readString(options, u"order"_s, optionsPath, false, &order, 16))
        return std::nullopt;
    if (order == "worst"_L1) {
        parsed.order = UseRowOrder::Worst;
    } else if (!order.isEmpty() && order != "resource"_L1) {
        reader.fail(
            JsonReader::joinPath(optionsPath, u"order"_s),
            u"is %1; expected \"resource\" or \"worst\""_s.arg(JsonReader::describe(order)));
        return std::nullopt;
    }
    QJsonObject columns;
    if (!reader.readObject(options, u"thresholds"_s, optionsPath, &columns))
        return std::nullopt;
    const QString thresholdsPath = JsonReader::joinPath(optionsPath, u"thresholds"_s);
    QStringList keys;
    for (int c = 0; c < UseColumnCount; ++c)
        keys.append(useColumnKey(UseColumn(c)));
    if (!reader.checkKnownKeys(columns, thresholdsPath, keys, u"column"_s))
        return std::nullopt;
    for (int c = 0; c < UseColumnCount; ++c) {
        const QString key = useColumnKey(UseColumn(c));
        if (!columns.contains(key))
            continue;
        PanelThresholds t;
        if (!readColumnThresholds(reader, columns.value(key),
                                  JsonReader::joinPath(thresholdsPath, key), &t))
            return std::nullopt;
        parsed.thresholds.at(size_t(c)) = t;
    }
    return parsed;
}

UseMatrixOptions useMatrixOptions(const QJsonObject &options)
{
    JsonReader reader;
    return readUseMatrixOptions(reader, options, u"options"_s).value_or(UseMatrixOptions {});
}

bool checkUseMatrixPanel(JsonReader &reader, const DashboardPanel &panel, const QString &path)
{
    const QString optionsPath = JsonReader::joinPath(path, u"options"_s);
    const auto options = readUseMatrixOptions(reader, panel.options, optionsPath);
    if (!options)
        return false;
    if (!options->queries.isEmpty() && !panel.series.isEmpty())
        return reader.fail(JsonReader::joinPath(optionsPath, u"queries"_s),
                           u"a usematrix panel reads either queries or series, not both"_s);
    if (options->queries.isEmpty() && panel.series.isEmpty())
        return reader.fail(JsonReader::joinPath(path, u"series"_s),
                           u"is required for a usematrix panel, e.g. [{\"source\": \"host\", "
                           "\"metric\": \"*\"}] (or options.queries: PromQL for a fleet)"_s);
    return true;
}

template<> const PanelTypeRules &panelTypeRulesOf<PanelType::UseMatrix>()
{
    static constexpr PanelTypeRules rules {
        .checkOptions = checkUseMatrixPanel,
        .query = PanelQueryUse::None,
    };
    return rules;
}

} // namespace Headroom
