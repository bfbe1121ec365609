// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "document/alertrulejson.h"

#include "core/duration.h"
#include "core/jsonreader.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

const QString ComparisonSymbols = u">, >=, < or <="_s;

// The rule's fields on top of the document reader: paths are relative to the rule
// object ("also.threshold"), which the dashboard reader prefixes with "alerts[3]".
class RuleReader : public JsonReader
{
public:
    // An empty string, like an absent member, leaves *out at its default.
    bool readDuration(const QJsonObject &object, const QString &key, bool zeroAllowed, qint64 *out)
    {
        QString text;
        if (!readString(object, key, {}, false, &text))
            return false;
        if (text.isEmpty())
            return true;
        if (zeroAllowed && text == "0"_L1) {
            *out = 0;
            return true;
        }
        const auto ms = parseDuration(text);
        if (!ms)
            return failType(key, u"a duration like 30s, 5m or 1h"_s, text);
        *out = *ms;
        return true;
    }

    // A name from a fixed list (severity, comparison...); empty or absent keeps *out.
    template<typename T>
    bool readNamed(const QJsonObject &object, const QString &key, const QString &path,
                   std::optional<T> (*from)(const QString &), const QString &allowed, T *out)
    {
        QString text;
        if (!readString(object, key, path, false, &text))
            return false;
        if (text.isEmpty())
            return true;
        const auto value = from(text);
        if (!value)
            return failType(joinPath(path, key), u"one of "_s + allowed, text);
        *out = *value;
        return true;
    }

    bool readSelector(const QJsonObject &rule, SeriesSelector *out)
    {
        QJsonValue value;
        QJsonObject series;
        if (!readMember(rule, u"series"_s, {}, true, QJsonValue::Object,
                        u"an object {source, metric, labels}"_s, &value))
            return false;
        series = value.toObject();
        const QString path = u"series"_s;
        out->source = u"*"_s;
        if (!readString(series, u"source"_s, path, false, &out->source)
            || !readString(series, u"metric"_s, path, true, &out->metric))
            return false;
        QJsonObject labels;
        if (!readObject(series, u"labels"_s, path, &labels))
            return false;
        for (auto it = labels.constBegin(); it != labels.constEnd(); ++it) {
            QString label;
            if (!readString(labels, it.key(), joinPath(path, u"labels"_s), true, &label))
                return false;
            out->labels.insert(it.key(), label);
        }
        return true;
    }

    bool readGuard(const QJsonObject &rule, AlertGuard *out)
    {
        QJsonValue value;
        if (!readMember(rule, u"also"_s, {}, false, QJsonValue::Object,
                        u"an object {metric, comparison, threshold}"_s, &value))
            return false;
        if (value.isUndefined())
            return true;
        const QJsonObject also = value.toObject();
        const QString path = u"also"_s;
        return readString(also, u"metric"_s, path, true, &out->metric)
            && readNamed(also, u"comparison"_s, path, alertComparisonFromSymbol, ComparisonSymbols,
                         &out->comparison)
            && readNumber(also, u"threshold"_s, path, true, &out->threshold);
    }
};

QString packPath(const QString &name)
{
    return u":/alerts/"_s + name + u".json"_s;
}

} // namespace

std::optional<AlertRule> alertRuleFromJson(const QJsonObject &object, AlertRuleProblem *problem)
{
    RuleReader read;
    AlertRule rule;
    QString reducer = u"last"_s;
    // In the order the fields are documented: the first problem is the one reported.
    const bool ok = read.readString(object, u"id"_s, {}, true, &rule.id)
        && read.readString(object, u"name"_s, {}, true, &rule.name)
        && read.readBool(object, u"enabled"_s, {}, false, &rule.enabled)
        && read.readSelector(object, &rule.selector)
        && read.readString(object, u"reducer"_s, {}, false, &reducer)
        && (parseAlertReducer(reducer, &rule.reducer, &rule.percentile)
            || read.failType(u"reducer"_s, u"last, avg, min, max, rate, change or pNN (e.g. p99)"_s,
                             reducer))
        && read.readDuration(object, u"window"_s, false, &rule.windowMs)
        && read.readDuration(object, u"baseline"_s, false, &rule.baselineMs)
        && read.readNamed(object, u"comparison"_s, {}, alertComparisonFromSymbol, ComparisonSymbols,
                          &rule.comparison)
        && read.readNumber(object, u"threshold"_s, {}, true, &rule.threshold)
        && read.readNumber(object, u"recoveryThreshold"_s, {}, false, &rule.recoveryThreshold)
        && read.readDuration(object, u"for"_s, true, &rule.forMs)
        && read.readGuard(object, &rule.also)
        && read.readNamed(object, u"severity"_s, {}, alertSeverityFromName,
                          u"info, warning or critical"_s, &rule.severity)
        && read.readNamed(object, u"noData"_s, {}, alertNoDataFromName, u"ok, keep or alert"_s,
                          &rule.noData)
        && read.readDuration(object, u"noDataAfter"_s, true, &rule.noDataAfterMs)
        && read.readString(object, u"description"_s, {}, false, &rule.description)
        && read.readString(object, u"hint"_s, {}, false, &rule.hint)
        && read.readString(object, u"unit"_s, {}, false, &rule.unit);
    if (!ok) {
        if (problem)
            *problem = { read.error().field, read.error().reason };
        return std::nullopt;
    }
    if (const auto invalid = validateAlertRule(rule)) {
        if (problem)
            *problem = *invalid;
        return std::nullopt;
    }
    return rule;
}

QJsonObject alertRuleToJson(const AlertRule &rule)
{
    QJsonObject series { { u"source"_s, rule.selector.source },
                         { u"metric"_s, rule.selector.metric } };
    if (!rule.selector.labels.isEmpty()) {
        QJsonObject labels;
        for (auto it = rule.selector.labels.cbegin(); it != rule.selector.labels.cend(); ++it)
            labels.insert(it.key(), it.value());
        series.insert(u"labels"_s, labels);
    }
    QJsonObject object {
        { u"id"_s, rule.id },
        { u"name"_s, rule.name },
        { u"series"_s, series },
        { u"reducer"_s, alertReducerName(rule) },
        { u"window"_s, formatDuration(rule.windowMs) },
        { u"comparison"_s, alertComparisonSymbol(rule.comparison) },
        { u"threshold"_s, rule.threshold },
        { u"severity"_s, alertSeverityName(rule.severity) },
        { u"noData"_s, alertNoDataName(rule.noData) },
    };
    if (!rule.enabled)
        object.insert(u"enabled"_s, false);
    if (rule.also.isSet())
        object.insert(
            u"also"_s,
            QJsonObject { { u"metric"_s, rule.also.metric },
                          { u"comparison"_s, alertComparisonSymbol(rule.also.comparison) },
                          { u"threshold"_s, rule.also.threshold } });
    if (rule.reducer == AlertReducer::Change)
        object.insert(u"baseline"_s, formatDuration(rule.baselineMs));
    if (!qIsNaN(rule.recoveryThreshold))
        object.insert(u"recoveryThreshold"_s, rule.recoveryThreshold);
    if (rule.forMs > 0)
        object.insert(u"for"_s, formatDuration(rule.forMs));
    if (rule.noDataAfterMs > 0)
        object.insert(u"noDataAfter"_s, formatDuration(rule.noDataAfterMs));
    for (const auto &[key, text] :
         { std::pair { u"description"_s, rule.description }, std::pair { u"hint"_s, rule.hint },
           std::pair { u"unit"_s, rule.unit } })
        if (!text.isEmpty())
            object.insert(key, text);
    return object;
}

QStringList alertPackNames()
{
    QStringList names;
    const auto entries = QDir(u":/alerts"_s).entryList({ u"*.json"_s }, QDir::Files, QDir::Name);
    for (const QString &entry : entries)
        names.append(entry.chopped(5));
    return names;
}

std::optional<QList<AlertRule>> loadAlertPack(const QString &name, QString *error)
{
    QFile file(packPath(name));
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = u"unknown alert rule pack \"%1\" (known: %2)"_s.arg(
                name, alertPackNames().join(u", "_s));
        return std::nullopt;
    }
    JsonReader reader;
    const auto root = reader.parseObject(file.readAll());
    QJsonArray array; // stays empty unless the pack has a "rules" array
    if (root)
        reader.readArray(*root, u"rules"_s, {}, false, &array);
    if (array.isEmpty()) {
        if (error)
            *error = u"%1: not a rule pack (%2)"_s.arg(
                file.fileName(), root ? u"no \"rules\" array"_s : reader.error().reason);
        return std::nullopt;
    }
    QList<AlertRule> rules;
    for (qsizetype i = 0; i < array.size(); ++i) {
        AlertRuleProblem problem;
        const auto rule = alertRuleFromJson(array.at(i).toObject(), &problem);
        if (!rule) {
            const QString path = JsonReader::indexPath(u"rules"_s, i);
            if (error)
                *error = file.fileName() + u": "_s
                    + JsonReadError { JsonReader::joinPath(path, problem.field), problem.reason }
                          .toString();
            return std::nullopt;
        }
        rules.append(*rule);
    }
    return rules;
}

QList<AlertRule> effectiveAlertRules(const QString &pack, const QList<AlertRule> &own)
{
    QList<AlertRule> rules;
    if (!pack.isEmpty())
        rules = loadAlertPack(pack, nullptr).value_or(QList<AlertRule> {});
    for (const AlertRule &rule : own) {
        const auto same = std::find_if(rules.begin(), rules.end(),
                                       [&](const AlertRule &r) { return r.id == rule.id; });
        if (same != rules.end())
            *same = rule;
        else
            rules.append(rule);
    }
    return rules;
}

} // namespace Headroom
