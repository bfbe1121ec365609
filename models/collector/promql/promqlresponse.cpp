// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "collector/promql/promqlresponse.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
// A value as the API writes it: a string ("1.5", "NaN", "+Inf", "-Inf").
bool readValue(const QJsonValue &value, double *out)
{
    const QString text = value.toString();
    if (text == u"NaN"_s)
        *out = std::nan("");
    else if (text == u"+Inf"_s || text == u"Inf"_s)
        *out = INFINITY;
    else if (text == u"-Inf"_s)
        *out = -INFINITY;
    else {
        bool ok = false;
        *out = text.toDouble(&ok);
        return ok;
    }
    return true;
}

// [1712345678.123, "42"]: seconds with a fraction, and the value.
bool readPoint(const QJsonValue &pair, Sample *out)
{
    const QJsonArray array = pair.toArray();
    if (array.size() != 2 || !array.at(0).isDouble())
        return false;
    const double seconds = array.at(0).toDouble();
    if (!std::isfinite(seconds) || std::abs(seconds) > 1e11)
        return false;
    out->tsMs = qint64(std::llround(seconds * 1000));
    return readValue(array.at(1), &out->value);
}

// [1712345678.123, {"count": "5", "sum": "0.2", "buckets": [[0, "0.1", "0.2", "3"], ...]}];
// false when it is not one, or holds more than MaxBucketsPerHistogram buckets.
bool readHistogramPoint(const QJsonValue &pair, PromqlHistogramPoint *out)
{
    const QJsonArray array = pair.toArray();
    Sample time;
    if (array.size() != 2 || !readPoint(QJsonArray { array.at(0), u"0"_s }, &time))
        return false;
    out->tsMs = time.tsMs;
    const QJsonObject histogram = array.at(1).toObject();
    if (!readValue(histogram.value(u"count"_s), &out->count)
        || !readValue(histogram.value(u"sum"_s), &out->sum))
        return false;
    const QJsonArray buckets = histogram.value(u"buckets"_s).toArray();
    if (buckets.size() > PromqlResult::MaxBucketsPerHistogram)
        return false;
    out->buckets.clear();
    out->buckets.reserve(size_t(buckets.size()));
    for (const auto &entry : buckets) {
        const QJsonArray bucket = entry.toArray();
        HistogramBucket b;
        if (bucket.size() != 4 || !bucket.at(0).isDouble() || !readValue(bucket.at(1), &b.lower)
            || !readValue(bucket.at(2), &b.upper) || !readValue(bucket.at(3), &b.count)
            || std::isnan(b.lower) || std::isnan(b.upper) || !(b.lower <= b.upper)
            || !(b.count >= 0))
            return false;
        out->buckets.push_back(b);
    }
    std::stable_sort(
        out->buckets.begin(), out->buckets.end(),
        [](const HistogramBucket &a, const HistogramBucket &b) { return a.upper < b.upper; });
    return true;
}

Labels readLabels(const QJsonObject &metric)
{
    Labels labels;
    for (auto it = metric.constBegin(); it != metric.constEnd(); ++it)
        labels.insert(it.key(), it.value().toString());
    return labels;
}
} // namespace

namespace {

// The root of a successful answer; nullopt with *error (the engine's own errorType and
// message where it sent them). The warnings are read either way.
std::optional<QJsonObject> successfulAnswer(QByteArrayView body, int httpStatus, QString *error,
                                            QStringList *warnings)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body.toByteArray(), &parseError);
    QJsonObject root = document.object();
    if (parseError.error != QJsonParseError::NoError || !document.isObject()
        || !root.contains(u"status"_s)) {
        *error = httpStatus != 200
            ? u"HTTP %1 without a query API answer"_s.arg(httpStatus)
            : u"not a Prometheus query API answer (%1)"_s.arg(
                  parseError.error != QJsonParseError::NoError ? parseError.errorString()
                                                               : u"no \"status\""_s);
        return std::nullopt;
    }
    for (const auto allWarnings = root.value(u"warnings"_s).toArray();
         const auto &warning : allWarnings)
        warnings->append(warning.toString().left(500));
    if (root.value(u"status"_s).toString() != u"success"_s) {
        const QString type = root.value(u"errorType"_s).toString().left(100);
        const QString message = root.value(u"error"_s).toString().left(2000);
        *error = (type.isEmpty() ? QString() : type + u": "_s)
            + (message.isEmpty() ? u"the engine reported an error without a message"_s : message);
        return std::nullopt;
    }
    return root;
}

} // namespace

PromqlLabelValues parsePromqlLabelValues(QByteArrayView body, int httpStatus)
{
    PromqlLabelValues result;
    const auto root = successfulAnswer(body, httpStatus, &result.error, &result.warnings);
    if (!root)
        return result;
    const QJsonValue data = root->value(u"data"_s);
    if (!data.isArray()) {
        result.error = u"label values are no list"_s;
        return result;
    }
    int skipped = 0;
    for (const auto allValues = data.toArray(); const auto &value : allValues) {
        if (!value.isString() || value.toString().size() > PromqlLabelValues::MaxValueLength
            || result.values.size() >= PromqlLabelValues::MaxValues)
            ++skipped;
        else
            result.values.append(value.toString());
    }
    if (skipped > 0)
        result.warnings.append(u"%1 label values left out (no string, longer than %2 "
                               "characters, or beyond the first %3)"_s.arg(skipped)
                                   .arg(PromqlLabelValues::MaxValueLength)
                                   .arg(PromqlLabelValues::MaxValues));
    return result;
}

PromqlResult parsePromqlResponse(QByteArrayView body, int httpStatus)
{
    PromqlResult result;
    const auto root = successfulAnswer(body, httpStatus, &result.error, &result.warnings);
    if (!root)
        return result;
    const QJsonObject data = root->value(u"data"_s).toObject();
    const QString type = data.value(u"resultType"_s).toString();
    const QJsonValue resultValue = data.value(u"result"_s);
    if (type == u"scalar"_s || type == u"string"_s) {
        PromqlSeries one;
        Sample point;
        if (type == u"scalar"_s && readPoint(resultValue, &point))
            one.points.push_back(point);
        result.series.append(std::move(one));
        return result;
    }
    if (type != u"matrix"_s && type != u"vector"_s) {
        result.error = u"unknown resultType \"%1\""_s.arg(type.left(40));
        return result;
    }
    const QJsonArray array = resultValue.toArray();
    qint64 points = 0;
    int skipped = 0;
    int badHistograms = 0;
    for (const auto &entry : array) {
        if (result.series.size() >= PromqlResult::MaxSeries) {
            result.warnings.append(
                u"only the first %1 of %2 series are shown"_s.arg(PromqlResult::MaxSeries)
                    .arg(array.size()));
            break;
        }
        const QJsonObject object = entry.toObject();
        PromqlSeries series;
        series.labels = readLabels(object.value(u"metric"_s).toObject());
        if (object.contains(u"histograms"_s) || object.contains(u"histogram"_s)) {
            const QJsonArray histograms = type == u"matrix"_s
                ? object.value(u"histograms"_s).toArray()
                : QJsonArray { object.value(u"histogram"_s) };
            for (const auto &pair : histograms) {
                PromqlHistogramPoint point;
                if (!readHistogramPoint(pair, &point)) {
                    ++badHistograms;
                    continue;
                }
                if (points + 1 + qint64(point.buckets.size()) > PromqlResult::MaxPoints) {
                    points = PromqlResult::MaxPoints;
                    break;
                }
                points += 1 + qint64(point.buckets.size());
                series.histograms.push_back(std::move(point));
            }
        }
        // A native histogram series has no "value": no point, and none left out.
        const bool noValue = (object.contains(u"histograms"_s) || object.contains(u"histogram"_s))
            && !object.contains(u"value"_s);
        const QJsonArray values = type == u"matrix"_s ? object.value(u"values"_s).toArray()
            : noValue                                 ? QJsonArray {}
                                                      : QJsonArray { object.value(u"value"_s) };
        series.points.reserve(size_t(values.size()));
        for (const auto &pair : values) {
            Sample point;
            if (!readPoint(pair, &point)) {
                ++skipped;
                continue;
            }
            if (points >= PromqlResult::MaxPoints)
                break;
            series.points.push_back(point);
            ++points;
        }
        result.series.append(std::move(series));
        if (points >= PromqlResult::MaxPoints) {
            result.warnings.append(
                u"only the first %1 points are shown"_s.arg(PromqlResult::MaxPoints));
            break;
        }
    }
    if (skipped > 0)
        result.warnings.append(
            u"%1 points that were not [time, \"value\"] pairs left out"_s.arg(skipped));
    if (badHistograms > 0)
        result.warnings.append(u"%1 native histogram values that were not [time, {count, sum, "
                               "buckets}] (at most %2 buckets) left out"_s.arg(badHistograms)
                                   .arg(PromqlResult::MaxBucketsPerHistogram));
    return result;
}

} // namespace Headroom
