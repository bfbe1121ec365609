#include "document/panels/usematrixoptions.h"

#include "core/jsonreader.h"

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

PanelThresholds UseMatrixOptions::thresholdsFor(UseColumn column, const QString &unit) const
{
    const auto &override = thresholds.at(size_t(column));
    return override ? *override : defaultUseThresholds(column, unit);
}

PanelThresholds defaultUseThresholds(UseColumn column, const QString &unit)
{
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
    for (auto it = options.constBegin(); it != options.constEnd(); ++it) {
        if (it.key() != "thresholds"_L1) {
            reader.fail(JsonReader::joinPath(optionsPath, it.key()),
                        u"unknown option (a usematrix panel has: thresholds)"_s);
            return std::nullopt;
        }
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
    UseMatrixOptions parsed;
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
    if (panel.series.isEmpty())
        return reader.fail(JsonReader::joinPath(path, u"series"_s),
                           u"is required for a usematrix panel, e.g. [{\"source\": \"host\", "
                           "\"metric\": \"*\"}]"_s);
    return readUseMatrixOptions(reader, panel.options, JsonReader::joinPath(path, u"options"_s))
        .has_value();
}

} // namespace Headroom
