#include "document/alertrulejson.h"

#include "document/dashboard.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// Reads one member, recording the first problem; every reader is a no-op afterwards.
class RuleReader
{
public:
    // Keeps its own copy (shared, cheap): a reader of a temporary object must not dangle.
    RuleReader(QJsonObject object, AlertRuleProblem *problem)
        : m_object(std::move(object))
        , m_problem(problem)
    {
    }

    bool ok() const { return m_ok; }

    void fail(const QString &field, const QString &reason)
    {
        if (!m_ok)
            return;
        m_ok = false;
        if (m_problem)
            *m_problem = { field, reason };
    }

    QString string(const QString &key, bool required, const QString &fallback = {})
    {
        const QJsonValue value = m_object.value(key);
        if (value.isUndefined()) {
            if (required)
                fail(key, u"is required"_s);
            return fallback;
        }
        if (!value.isString())
            fail(key, u"must be a string"_s);
        return value.toString();
    }

    double number(const QString &key, bool required, double fallback)
    {
        const QJsonValue value = m_object.value(key);
        if (value.isUndefined()) {
            if (required)
                fail(key, u"is required"_s);
            return fallback;
        }
        if (!value.isDouble() || !std::isfinite(value.toDouble()))
            fail(key, u"must be a number"_s);
        return value.toDouble();
    }

    bool boolean(const QString &key, bool fallback)
    {
        const QJsonValue value = m_object.value(key);
        if (value.isUndefined())
            return fallback;
        if (!value.isBool())
            fail(key, u"must be true or false"_s);
        return value.toBool();
    }

    qint64 duration(const QString &key, qint64 fallback, bool zeroAllowed)
    {
        const QString text = string(key, false);
        if (!m_ok || text.isEmpty())
            return fallback;
        if (zeroAllowed && text == "0"_L1)
            return 0;
        const auto ms = parseDuration(text);
        if (!ms)
            fail(key, u"must be a duration like 30s, 5m or 1h, got \"%1\""_s.arg(text));
        return ms.value_or(fallback);
    }

    template<typename T>
    T named(const QString &key, T fallback, std::optional<T> (*from)(const QString &),
            const QString &allowed)
    {
        const QString text = string(key, false);
        if (!m_ok || text.isEmpty())
            return fallback;
        const auto value = from(text);
        if (!value)
            fail(key, u"must be one of %1, got \"%2\""_s.arg(allowed, text));
        return value.value_or(fallback);
    }

    SeriesSelector selector()
    {
        SeriesSelector selector;
        const QJsonValue value = m_object.value(u"series"_s);
        if (!value.isObject()) {
            fail(u"series"_s,
                 value.isUndefined() ? u"is required"_s
                                     : u"must be an object {source, metric, labels}"_s);
            return selector;
        }
        const QJsonObject series = value.toObject();
        RuleReader inner(series, nullptr);
        selector.source = inner.string(u"source"_s, false, u"*"_s);
        selector.metric = inner.string(u"metric"_s, true);
        if (!inner.ok())
            fail(u"series"_s, u"needs \"metric\" (a string) and an optional \"source\" string"_s);
        const QJsonValue labels = series.value(u"labels"_s);
        if (labels.isObject()) {
            const QJsonObject object = labels.toObject();
            for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
                if (!it->isString())
                    fail(u"series.labels."_s + it.key(), u"must be a string"_s);
                selector.labels.insert(it.key(), it->toString());
            }
        } else if (!labels.isUndefined()) {
            fail(u"series.labels"_s, u"must be an object"_s);
        }
        return selector;
    }

private:
    const QJsonObject m_object;
    AlertRuleProblem *m_problem;
    bool m_ok = true;
};

QString packPath(const QString &name)
{
    return u":/alerts/"_s + name + u".json"_s;
}

} // namespace

std::optional<AlertRule> alertRuleFromJson(const QJsonObject &object, AlertRuleProblem *problem)
{
    RuleReader read(object, problem);
    AlertRule rule;
    rule.id = read.string(u"id"_s, true);
    rule.name = read.string(u"name"_s, true);
    rule.enabled = read.boolean(u"enabled"_s, true);
    rule.selector = read.selector();
    const QString reducer = read.string(u"reducer"_s, false, u"last"_s);
    if (read.ok() && !parseAlertReducer(reducer, &rule.reducer, &rule.percentile))
        read.fail(u"reducer"_s,
                  u"must be last, avg, min, max, rate, change or pNN (e.g. p99), got \"%1\""_s.arg(
                      reducer));
    rule.windowMs = read.duration(u"window"_s, rule.windowMs, false);
    rule.baselineMs = read.duration(u"baseline"_s, rule.baselineMs, false);
    rule.comparison = read.named(u"comparison"_s, rule.comparison, alertComparisonFromSymbol,
                                 u">, >=, < or <="_s);
    rule.threshold = read.number(u"threshold"_s, true, 0);
    rule.recoveryThreshold = read.number(u"recoveryThreshold"_s, false, qQNaN());
    rule.forMs = read.duration(u"for"_s, 0, true);
    const QJsonValue also = object.value(u"also"_s);
    if (also.isObject()) {
        AlertRuleProblem inner;
        RuleReader guard(also.toObject(), &inner);
        rule.also.metric = guard.string(u"metric"_s, true);
        rule.also.comparison = guard.named(u"comparison"_s, rule.also.comparison,
                                           alertComparisonFromSymbol, u">, >=, < or <="_s);
        rule.also.threshold = guard.number(u"threshold"_s, true, 0);
        if (!guard.ok())
            read.fail(u"also."_s + inner.field, inner.reason);
    } else if (!also.isUndefined()) {
        read.fail(u"also"_s, u"must be an object {metric, comparison, threshold}"_s);
    }
    rule.severity = read.named(u"severity"_s, rule.severity, alertSeverityFromName,
                               u"info, warning or critical"_s);
    rule.noData = read.named(u"noData"_s, rule.noData, alertNoDataFromName, u"ok, keep or alert"_s);
    rule.noDataAfterMs = read.duration(u"noDataAfter"_s, 0, true);
    rule.description = read.string(u"description"_s, false);
    rule.hint = read.string(u"hint"_s, false);
    rule.unit = read.string(u"unit"_s, false);
    if (!read.ok())
        return std::nullopt;
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
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    const QJsonArray array = document.object().value(u"rules"_s).toArray();
    if (parseError.error != QJsonParseError::NoError || array.isEmpty()) {
        if (error)
            *error = u"%1: not a rule pack (%2)"_s.arg(file.fileName(),
                                                       parseError.error != QJsonParseError::NoError
                                                           ? parseError.errorString()
                                                           : u"no \"rules\" array"_s);
        return std::nullopt;
    }
    QList<AlertRule> rules;
    for (qsizetype i = 0; i < array.size(); ++i) {
        AlertRuleProblem problem;
        const auto rule = alertRuleFromJson(array.at(i).toObject(), &problem);
        if (!rule) {
            if (error)
                *error = u"%1: rules[%2].%3: %4"_s.arg(file.fileName())
                             .arg(i)
                             .arg(problem.field, problem.reason);
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
