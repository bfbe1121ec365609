// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "document/dashboardreader.h"

#include "document/alertrulejson.h"
#include "document/dashboardsecrets.h"
#include "document/expression.h"
#include "documentlogging.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;
using namespace DashboardLimits;
using namespace DashboardSecrets;

DashboardLoadResult DashboardReader::parse(const QByteArray &json)
{
    DashboardLoadResult result;
    auto failed = [&] {
        result.error = DashboardError { m_fileName, error().field, error().reason };
        qCDebug(lcDashboard) << "refused" << result.error.toString();
        return result;
    };

    const std::optional<QJsonObject> document = parseObject(json);
    if (!document)
        return failed();
    const QJsonObject &root = *document;

    Dashboard dashboard;
    if (!parseSchemaVersion(root) || !readString(root, u"title"_s, {}, true, &dashboard.title)
        || !parseVariables(root, &dashboard) || !parseSources(root, &dashboard)
        || !checkVariableEngines(dashboard) || !parseDerived(root, &dashboard))
        return failed();

    QString timeRange = formatDuration(dashboard.rangeMs);
    if (!readString(root, u"timeRange"_s, {}, false, &timeRange))
        return failed();
    const auto rangeMs = parseDuration(timeRange);
    if (!rangeMs) {
        fail(u"timeRange"_s,
             u"must be a duration like 15m (a positive whole number with unit ms, "
             "s, m, h, d or w), got %1"_s.arg(describe(timeRange)));
        return failed();
    }
    // A longer range would give millions of axis labels and cache reads per repaint.
    if (*rangeMs > MaximumRangeMs) {
        fail(u"timeRange"_s,
             u"must be at most %1, got %2"_s.arg(formatDuration(MaximumRangeMs),
                                                 describe(timeRange)));
        return failed();
    }
    dashboard.rangeMs = *rangeMs;

    if (!readInt(root, u"refreshMs"_s, {}, MinimumIntervalMs, 1000, &dashboard.refreshMs,
                 MaximumRefreshMs)
        || !parsePanels(root, &dashboard) || !parseSections(root, &dashboard)
        || !parseAlerts(root, &dashboard))
        return failed();

    result.dashboard = std::move(dashboard);
    return result;
}

bool DashboardReader::parseSections(const QJsonObject &root, Dashboard *dashboard)
{
    QJsonArray array;
    if (!readArray(root, u"sections"_s, {}, false, &array)
        || !checkCount(array.size(), MaximumSections, u"sections"_s, u"sections"_s))
        return false;
    QHash<int, qsizetype> rows;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString path = indexPath(u"sections"_s, i);
        QJsonObject object;
        DashboardSection section;
        if (!elementObject(array.at(i), path, &object)
            || !checkKnownKeys(object, path, { u"title"_s, u"y"_s, u"collapsed"_s, u"repeat"_s },
                               u"field"_s)
            || !readString(object, u"title"_s, path, true, &section.title)
            || !readInt(object, u"y"_s, path, 0, std::nullopt, &section.y, MaximumPanelRow - 1)
            || !readBool(object, u"collapsed"_s, path, false, &section.collapsed)
            || !readString(object, u"repeat"_s, path, false, &section.repeat, MaximumIdLength)
            || !checkRepeatVariable(section.repeat, joinPath(path, u"repeat"_s)))
            return false;
        if (rows.contains(section.y))
            return fail(
                joinPath(path, u"y"_s),
                u"sections[%1] starts at row %2 too"_s.arg(rows.value(section.y)).arg(section.y));
        rows.insert(section.y, i);
        dashboard->sections.append(section);
    }
    std::sort(dashboard->sections.begin(), dashboard->sections.end(),
              [](const DashboardSection &a, const DashboardSection &b) { return a.y < b.y; });
    // A panel reaching into a section from above would lie under the section's bar,
    // and fold with neither.
    for (qsizetype p = 0; p < dashboard->panels.size(); ++p) {
        const PanelLayout &l = dashboard->panels.at(p).layout;
        for (const DashboardSection &section : std::as_const(dashboard->sections)) {
            if (l.y < section.y && l.y + l.h > section.y)
                return fail(joinPath(indexPath(u"panels"_s, p), u"layout"_s),
                            u"reaches from row %1 into section %2, which starts at row %3; "
                            "end the panel above it (give it a layout if it has none) or start "
                            "the section lower"_s.arg(l.y)
                                .arg(describe(section.title))
                                .arg(section.y));
        }
    }
    return true;
}

bool DashboardReader::parseAlerts(const QJsonObject &root, Dashboard *dashboard)
{
    if (!readString(root, u"alertPack"_s, {}, false, &dashboard->alertPack))
        return false;
    if (!dashboard->alertPack.isEmpty()) {
        QString error;
        if (!loadAlertPack(dashboard->alertPack, &error))
            return fail(u"alertPack"_s, error);
    }
    QJsonArray array;
    if (!readArray(root, u"alerts"_s, {}, false, &array)
        || !checkCount(array.size(), MaximumAlertRules, u"alerts"_s, u"rules"_s))
        return false;
    QSet<QString> ids;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString path = indexPath(u"alerts"_s, i);
        QJsonObject object;
        if (!elementObject(array.at(i), path, &object))
            return false;
        AlertRuleProblem problem;
        const auto rule = alertRuleFromJson(object, &problem);
        if (!rule)
            return fail(joinPath(path, problem.field), problem.reason);
        if (ids.contains(rule->id))
            return fail(joinPath(path, u"id"_s), u"duplicate rule id %1"_s.arg(describe(rule->id)));
        ids.insert(rule->id);
        dashboard->alerts.append(*rule);
    }
    return true;
}

bool DashboardReader::parseSchemaVersion(const QJsonObject &root)
{
    const QString field = u"schemaVersion"_s;
    const auto it = root.constFind(field);
    if (it == root.constEnd())
        return fail(field,
                    u"is required (this build reads schemaVersion 1 to %1)"_s.arg(
                        Dashboard::SchemaVersion));
    const double value = it->toDouble(std::nan(""));
    if (!it->isDouble() || !std::isfinite(value) || std::floor(value) != value)
        return failType(field, u"an integer"_s, *it);
    if (value > Dashboard::SchemaVersion)
        return fail(field,
                    u"written by a newer Headroom (schemaVersion %1; this "
                    "build reads up to %2); not opened"_s.arg(describe(*it))
                        .arg(Dashboard::SchemaVersion));
    if (value < 1)
        return fail(field, u"must be at least 1, got %1"_s.arg(describe(*it)));
    return true;
}

// {"label": "instance", "match": "node_uname_info", "source": "prom"}: the source is
// checked once the sources are read (checkVariableEngines).
bool DashboardReader::parseLabelValues(const QJsonObject &object, const QString &path,
                                       VariableLabelValues *out)
{
    if (!object.contains(u"labelValues"_s))
        return true;
    QJsonObject values;
    const QString valuesPath = joinPath(path, u"labelValues"_s);
    if (!readObject(object, u"labelValues"_s, path, &values)
        || !checkKnownKeys(values, valuesPath, { u"label"_s, u"match"_s, u"source"_s })
        || !readNonEmptyString(values, u"label"_s, valuesPath, &out->label, MaximumIdLength)
        || !readString(values, u"match"_s, valuesPath, false, &out->match, MaximumQueryLength)
        || !readString(values, u"source"_s, valuesPath, false, &out->source, MaximumIdLength))
        return false;
    return checkLabelName(out->label, joinPath(valuesPath, u"label"_s));
}

bool DashboardReader::parseVariables(const QJsonObject &root, Dashboard *dashboard)
{
    static const QRegularExpression namePattern(u"^[A-Za-z_][A-Za-z0-9_]*$"_s);
    QJsonArray array;
    if (!readArray(root, u"variables"_s, {}, false, &array)
        || !checkCount(array.size(), MaximumVariables, u"variables"_s, u"variables"_s))
        return false;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString path = indexPath(u"variables"_s, i);
        QJsonObject object;
        if (!elementObject(array.at(i), path, &object))
            return false;
        DashboardVariable variable;
        if (!readString(object, u"name"_s, path, true, &variable.name, MaximumIdLength))
            return false;
        const QString nameField = joinPath(path, u"name"_s);
        if (!namePattern.match(variable.name).hasMatch())
            return fail(nameField,
                        u"must start with a letter or _ and use only "
                        "letters, digits and _, got %1"_s.arg(describe(variable.name)));
        if (m_variableNames.contains(variable.name))
            return fail(nameField, u"duplicate variable name %1"_s.arg(describe(variable.name)));
        if (!readString(object, u"label"_s, path, false, &variable.label)
            || !readString(object, u"default"_s, path, false, &variable.defaultValue,
                           MaximumValueLength))
            return false;
        QJsonArray options;
        const QString optionsPath = joinPath(path, u"options"_s);
        if (!readArray(object, u"options"_s, path, false, &options)
            || !checkCount(options.size(), MaximumVariableOptions, optionsPath, u"options"_s))
            return false;
        for (qsizetype j = 0; j < options.size(); ++j) {
            if (!options.at(j).isString())
                return failType(indexPath(optionsPath, j), u"a string"_s, options.at(j));
            if (!checkLength(options.at(j).toString(), indexPath(optionsPath, j),
                             MaximumValueLength))
                return false;
            variable.options.append(options.at(j).toString());
        }
        if (!readBool(object, u"multi"_s, path, false, &variable.multi)
            || !parseLabelValues(object, path, &variable.labelValues))
            return false;
        if (variable.multi)
            m_multiVariables.insert(variable.name);
        m_variableNames.insert(variable.name);
        m_variableDefaults.insert(variable.name, variable.defaultValue);
        dashboard->variables.append(variable);
    }
    return true;
}

bool DashboardReader::parseSources(const QJsonObject &root, Dashboard *dashboard)
{
    QJsonArray array;
    if (!readArray(root, u"sources"_s, {}, true, &array)
        || !checkCount(array.size(), MaximumSources, u"sources"_s, u"sources"_s))
        return false;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString path = indexPath(u"sources"_s, i);
        QJsonObject object;
        DashboardSource source;
        if (!elementObject(array.at(i), path, &object) || !parseSource(object, path, &source))
            return false;
        dashboard->sources.append(source);
    }
    return true;
}

bool DashboardReader::parseSource(const QJsonObject &object, const QString &path,
                                  DashboardSource *source)
{
    static const QRegularExpression idPattern(u"^[A-Za-z0-9_.:-]+$"_s);
    if (!readString(object, u"id"_s, path, true, &source->id, MaximumIdLength))
        return false;
    const QString idField = joinPath(path, u"id"_s);
    if (!idPattern.match(source->id).hasMatch())
        return fail(idField,
                    u"must be non-empty and use only letters, digits and "
                    "_ . : -, got %1"_s.arg(describe(source->id)));
    if (m_sourceIds.contains(source->id))
        return fail(idField, u"duplicate source id %1"_s.arg(describe(source->id)));
    if (!readNonEmptyString(object, u"plugin"_s, path, &source->plugin, MaximumIdLength)
        || !readInt(object, u"intervalMs"_s, path, MinimumIntervalMs, 1000, &source->intervalMs,
                    MaximumIntervalMs)
        || !readInt(object, u"timeoutMs"_s, path, MinimumTimeoutMs, 5000, &source->timeoutMs,
                    MaximumTimeoutMs)
        || !readObject(object, u"config"_s, path, &source->config)
        || !checkConfig(source->config, joinPath(path, u"config"_s)))
        return false;
    m_sourceIds.insert(source->id);
    return true;
}

bool DashboardReader::parseDerived(const QJsonObject &root, Dashboard *dashboard)
{
    QJsonArray array;
    if (!readArray(root, u"derived"_s, {}, false, &array)
        || !checkCount(array.size(), MaximumDerived, u"derived"_s, u"derived series"_s))
        return false;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString path = indexPath(u"derived"_s, i);
        QJsonObject object;
        DashboardDerived derived;
        QString kind;
        if (!elementObject(array.at(i), path, &object)
            || !readNonEmptyString(object, u"source"_s, path, &derived.source, MaximumIdLength)
            || !readNonEmptyString(object, u"metric"_s, path, &derived.metric)
            || !readString(object, u"unit"_s, path, false, &derived.unit)
            || !readString(object, u"kind"_s, path, false, &kind))
            return false;
        if (!m_sourceIds.contains(derived.source))
            return fail(joinPath(path, u"source"_s),
                        u"no source %1 is declared"_s.arg(describe(derived.source)));
        if (object.contains(u"apdex"_s)) {
            if (object.contains(u"expression"_s))
                return fail(joinPath(path, u"expression"_s),
                            u"a derived series has an expression or an apdex, not both"_s);
            if (!parseApdex(object, path, &derived))
                return false;
        } else {
            if (!readNonEmptyString(object, u"expression"_s, path, &derived.expression,
                                    Expression::MaximumLength))
                return false;
            QString error;
            if (!Expression::parse(derived.expression, &error))
                return fail(joinPath(path, u"expression"_s), error);
        }
        bool known = true;
        if (!kind.isEmpty())
            derived.kind = useKindFromName(kind, &known);
        if (!known)
            return fail(joinPath(path, u"kind"_s),
                        u"must be one of utilization, saturation, errors, throughput, "
                        "latency, info; got %1"_s.arg(describe(kind)));
        dashboard->derived.append(derived);
    }
    return true;
}

// "apdex": {"histogram": "pg.latency.probe", "t": "50ms" or "${apdex_t}"}: T a positive
// duration, or one variable that is declared (its value is checked when the dashboard
// starts, as the user may change it).
bool DashboardReader::parseApdex(const QJsonObject &object, const QString &path,
                                 DashboardDerived *derived)
{
    static const QRegularExpression reference(u"^\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}$"_s);
    const QString apdexPath = joinPath(path, u"apdex"_s);
    QJsonObject apdex;
    if (!readObject(object, u"apdex"_s, path, &apdex)
        || !checkKnownKeys(apdex, apdexPath, { u"histogram"_s, u"t"_s })
        || !readNonEmptyString(apdex, u"histogram"_s, apdexPath, &derived->apdexHistogram)
        || !readNonEmptyString(apdex, u"t"_s, apdexPath, &derived->apdexT, MaximumValueLength))
        return false;
    const QString tPath = joinPath(apdexPath, u"t"_s);
    if (reference.match(derived->apdexT).hasMatch()) {
        if (!checkReferences(derived->apdexT, tPath))
            return false;
        // Its default must do as T: a value the user sets later is checked at start.
        const QString name = derived->apdexT.mid(2, derived->apdexT.size() - 3);
        const QString fallback = m_variableDefaults.value(name);
        if (!parseDuration(fallback.trimmed()))
            return fail(tPath,
                        u"variable ${%1} has the default %2, which is no duration like 50ms"_s.arg(
                            name, describe(fallback)));
        return true;
    }
    if (!parseDuration(derived->apdexT))
        return fail(
            tPath,
            u"must be a duration like 50ms (a positive whole number with unit ms, s, m, "
            "h, d or w) or a variable like ${apdex_t}, got %1"_s.arg(describe(derived->apdexT)));
    return true;
}

// Refuses passwords and references to undeclared variables, at any depth.
bool DashboardReader::checkConfig(const QJsonValue &value, const QString &path)
{
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            const QString field = joinPath(path, it.key());
            if (isPasswordKey(it.key()))
                return fail(field, passwordReason());
            if (!checkConfig(it.value(), field))
                return false;
        }
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            if (!checkConfig(array.at(i), indexPath(path, i)))
                return false;
        }
    } else if (value.isString()) {
        return checkReferences(value.toString(), path);
    }
    return true;
}

// Same reading of ${name} as substituteVariables: up to the next '}'.
bool DashboardReader::checkReferences(const QString &text, const QString &path)
{
    qsizetype pos = 0;
    while (true) {
        const qsizetype start = text.indexOf(u"${", pos);
        if (start < 0)
            return true;
        const qsizetype end = text.indexOf(u'}', start + 2);
        if (end < 0)
            return true;
        const QString name = text.mid(start + 2, end - start - 2);
        if (m_multiVariables.contains(name))
            return fail(
                path,
                u"${%1} is a multi-value variable, and this takes one value (a "
                "source's config, an APDEX T); repeat panels per value instead"_s.arg(name));
        if (!m_variableNames.contains(name)) {
            QStringList declared(m_variableNames.cbegin(), m_variableNames.cend());
            declared.sort();
            return fail(path,
                        u"unknown variable ${%1} (%2)"_s.arg(
                            name,
                            declared.isEmpty() ? u"no variables are declared"_s
                                               : u"declared: " + declared.join(u", ")));
        }
        pos = end + 1;
    }
}

// What a panel or section repeats over: a multi-value variable (empty: no repeat).
bool DashboardReader::checkRepeatVariable(const QString &name, const QString &field)
{
    if (name.isEmpty() || m_multiVariables.contains(name))
        return true;
    return fail(field,
                m_variableNames.contains(name)
                    ? u"variable %1 is not multi-value (\"multi\": true)"_s.arg(describe(name))
                    : u"%1 is no declared variable"_s.arg(describe(name)));
}

// A variable whose values an engine lists needs that engine among the promql sources.
bool DashboardReader::checkVariableEngines(const Dashboard &dashboard)
{
    QStringList engines;
    for (const DashboardSource &source : dashboard.sources) {
        if (source.plugin == PromqlPlugin)
            engines.append(source.id);
    }
    for (qsizetype i = 0; i < dashboard.variables.size(); ++i) {
        const VariableLabelValues &values = dashboard.variables.at(i).labelValues;
        if (values.label.isEmpty())
            continue;
        const QString path = joinPath(indexPath(u"variables"_s, i), u"labelValues"_s);
        if (values.source.isEmpty() ? engines.size() != 1 : !engines.contains(values.source))
            return fail(
                values.source.isEmpty() ? path : joinPath(path, u"source"_s),
                values.source.isEmpty()
                    ? u"needs \"source\": the dashboard has %1 promql sources"_s.arg(engines.size())
                    : u"%1 is not a source with plugin \"promql\""_s.arg(describe(values.source)));
    }
    return true;
}

DashboardLoadResult parseDashboard(const QByteArray &json, const QString &fileName)
{
    return DashboardReader(fileName).parse(json);
}

} // namespace Headroom
