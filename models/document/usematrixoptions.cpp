#include "document/usematrixoptions.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <cmath>
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

QString describeJson(const QJsonValue &value)
{
    if (value.isObject())
        return u"an object"_s;
    if (value.isArray())
        return u"an array"_s;
    const QByteArray json = QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(json.mid(1, json.size() - 2));
}

bool parseColumnThresholds(const QJsonValue &value, const QString &path, PanelThresholds *out,
                           QString *field, QString *reason)
{
    const auto failed = [&](const QString &f, const QString &r) {
        *field = f;
        *reason = r;
        return false;
    };
    if (!value.isObject())
        return failed(path, u"must be an object, got %1"_s.arg(describeJson(value)));
    const QJsonObject object = value.toObject();
    PanelThresholds t;
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        const QString member = path + u'.' + it.key();
        if (it.key() == "higherIsWorse"_L1) {
            if (!it->isBool())
                return failed(member,
                              u"must be true or false, got %1"_s.arg(describeJson(it.value())));
            t.higherIsWorse = it->toBool();
        } else if (it.key() == "warning"_L1 || it.key() == "critical"_L1) {
            if (!it->isDouble() || !std::isfinite(it->toDouble()))
                return failed(member, u"must be a number, got %1"_s.arg(describeJson(it.value())));
            (it.key() == "warning"_L1 ? t.warning : t.critical) = it->toDouble();
        } else {
            return failed(member, u"unknown field (expected warning, critical, higherIsWorse)"_s);
        }
    }
    if (t.isEmpty())
        return failed(path, u"must set warning, critical or both"_s);
    if (!qIsNaN(t.warning) && !qIsNaN(t.critical)
        && (t.higherIsWorse ? t.critical < t.warning : t.critical > t.warning))
        return failed(path,
                      t.higherIsWorse ? u"critical must not be below warning"_s
                                      : u"critical must not be above warning when higherIsWorse "
                                        "is false"_s);
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

std::optional<UseMatrixOptions> parseUseMatrixOptions(const QJsonObject &options, QString *field,
                                                      QString *reason)
{
    UseMatrixOptions parsed;
    for (auto it = options.constBegin(); it != options.constEnd(); ++it) {
        if (it.key() != "thresholds"_L1) {
            *field = it.key();
            *reason = u"unknown option (a usematrix panel has: thresholds)"_s;
            return std::nullopt;
        }
    }
    const QJsonValue thresholds = options.value("thresholds"_L1);
    if (thresholds.isUndefined())
        return parsed;
    if (!thresholds.isObject()) {
        *field = u"thresholds"_s;
        *reason = u"must be an object, got %1"_s.arg(describeJson(thresholds));
        return std::nullopt;
    }
    const QJsonObject columns = thresholds.toObject();
    for (auto it = columns.constBegin(); it != columns.constEnd(); ++it) {
        const QString path = u"thresholds."_s + it.key();
        std::optional<UseColumn> column;
        for (int c = 0; c < UseColumnCount; ++c) {
            if (it.key() == useColumnKey(UseColumn(c)))
                column = UseColumn(c);
        }
        if (!column) {
            *field = path;
            *reason = u"unknown column (expected utilization, saturation, errors)"_s;
            return std::nullopt;
        }
        PanelThresholds t;
        if (!parseColumnThresholds(it.value(), path, &t, field, reason))
            return std::nullopt;
        parsed.thresholds.at(size_t(*column)) = t;
    }
    return parsed;
}

} // namespace Headroom
