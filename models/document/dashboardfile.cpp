#include "document/dashboardfile.h"

#include "core/conninfo.h"
#include "core/jsonreader.h"
#include "core/legendtemplate.h"
#include "document/alertrulejson.h"
#include "document/dashboardedit.h"
#include "document/dashboardlimits.h"
#include "document/expression.h"
#include "document/panels/paneltyperules.h"
#include "documentlogging.h"

#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>
#include <QUrl>
#include <cmath>
#include <limits>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

constexpr int GridColumns = 12;
constexpr int MaximumPercentiles = 8; // more lines than that are no longer readable
using namespace DashboardLimits;
constexpr qint64 MaximumFileSize = 16 * 1024 * 1024;

QString passwordReason()
{
    return u"passwords are not stored in dashboard files; use libpq's .pgpass, "
           "a service file or the environment"_s;
}

bool isPasswordKey(const QString &key)
{
    return key.compare(u"password", Qt::CaseInsensitive) == 0;
}

// A libpq connection string (the postgres plugin's option): keyword/value pairs or a URI.
bool isConninfoKey(const QString &key)
{
    return key.compare(u"conninfo", Qt::CaseInsensitive) == 0;
}

QJsonObject withoutPasswords(const QJsonObject &object);

// "ssh://ops:secret@db1" -> "ssh://ops@db1": a URL typed with a password (a host
// variable, a source's URL) is written without it. Other strings stay as they are.
QString stringWithoutPassword(const QString &text)
{
    if (!text.contains(u"://"))
        return text;
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || url.password().isEmpty())
        return text;
    return url.toString(QUrl::RemovePassword);
}

QJsonValue valueWithoutPasswords(const QJsonValue &value)
{
    if (value.isString())
        return stringWithoutPassword(value.toString());
    if (value.isObject())
        return withoutPasswords(value.toObject());
    if (value.isArray()) {
        QJsonArray out;
        const QJsonArray in = value.toArray();
        for (const QJsonValue &item : in)
            out.append(valueWithoutPasswords(item));
        return out;
    }
    return value;
}

QJsonObject withoutPasswords(const QJsonObject &object)
{
    QJsonObject out;
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        if (isPasswordKey(it.key()))
            continue;
        // "host=db password=secret" is no URL: the conninfo reading finds its password.
        if (isConninfoKey(it.key()) && it.value().isString())
            out.insert(it.key(), conninfoWithoutPassword(it.value().toString()));
        else
            out.insert(it.key(), valueWithoutPasswords(it.value()));
    }
    return out;
}

// The names of the variables that conninfo strings of the config refer to (${pg}): their
// values are connection strings too, and what the user typed in the toolbar becomes
// their default on Save.
void collectConninfoVariables(const QJsonValue &value, bool inConninfo, QSet<QString> *names)
{
    if (value.isString() && inConninfo) {
        const QString text = value.toString();
        // Same reading of ${name} as substituteVariables: up to the next '}'.
        for (qsizetype start = text.indexOf(u"${"); start >= 0;
             start = text.indexOf(u"${", start + 2)) {
            const qsizetype end = text.indexOf(u'}', start + 2);
            if (end < 0)
                break;
            names->insert(text.mid(start + 2, end - start - 2));
        }
    } else if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.constBegin(); it != object.constEnd(); ++it)
            collectConninfoVariables(it.value(), inConninfo || isConninfoKey(it.key()), names);
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (const QJsonValue &item : array)
            collectConninfoVariables(item, inConninfo, names);
    }
}

// A variable's default or option as written: without a URL's password, and for a
// variable that feeds a conninfo without a keyword-style or URI password either.
QString variableValueWithoutPassword(const QString &value, bool conninfo)
{
    return conninfo ? conninfoWithoutPassword(stringWithoutPassword(value))
                    : stringWithoutPassword(value);
}

class Parser : public JsonReader
{
public:
    explicit Parser(const QString &fileName)
        : JsonReader(MaximumNameLength)
        , m_fileName(fileName)
    {
    }

    DashboardLoadResult parse(const QByteArray &json);

private:
    bool parseSchemaVersion(const QJsonObject &root);
    bool parseVariables(const QJsonObject &root, Dashboard *dashboard);
    bool parseLabelValues(const QJsonObject &object, const QString &path, VariableLabelValues *out);
    bool parseRepeat(const QJsonObject &object, const QString &path, DashboardPanel *panel);
    bool checkVariableEngines(const Dashboard &dashboard);
    bool checkRepeatVariable(const QString &name, const QString &field);
    bool parseSources(const QJsonObject &root, Dashboard *dashboard);
    bool parseSource(const QJsonObject &object, const QString &path, DashboardSource *source);
    bool checkConfig(const QJsonValue &value, const QString &path);
    bool checkReferences(const QString &text, const QString &path);
    bool parseDerived(const QJsonObject &root, Dashboard *dashboard);
    bool parseApdex(const QJsonObject &object, const QString &path, DashboardDerived *derived);
    bool parsePanels(const QJsonObject &root, Dashboard *dashboard);
    bool parseAlerts(const QJsonObject &root, Dashboard *dashboard);
    bool parseSections(const QJsonObject &root, Dashboard *dashboard);
    bool parsePanel(const QJsonObject &object, const QString &path, DashboardPanel *panel,
                    bool *hasLayout);
    bool parsePercentiles(const QJsonObject &object, const QString &path,
                          QList<double> *percentiles);
    bool parseLegend(const QJsonObject &object, const QString &path, QString *legend);
    bool parsePanelQuery(const QJsonObject &object, const QString &path, const Dashboard &dashboard,
                         DashboardPanel *panel);
    bool parseYScale(const QJsonObject &object, const QString &path, YScale *scale);
    bool parseThresholds(const QJsonObject &object, const QString &path,
                         PanelThresholds *thresholds);
    bool checkPanelOptions(const DashboardPanel &panel, const QString &path);
    bool parseSelector(const QJsonObject &object, const QString &path, SeriesSelector *selector);
    bool parseLayout(const QJsonObject &object, const QString &path, PanelLayout *layout);

    QString m_fileName;
    QSet<QString> m_variableNames;
    QSet<QString> m_multiVariables;
    QHash<QString, QString> m_variableDefaults;
    QSet<QString> m_sourceIds;
};

DashboardLoadResult Parser::parse(const QByteArray &json)
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
    const QJsonObject root = *document;

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

bool Parser::parseSections(const QJsonObject &root, Dashboard *dashboard)
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

bool Parser::parseAlerts(const QJsonObject &root, Dashboard *dashboard)
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

bool Parser::parseSchemaVersion(const QJsonObject &root)
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
bool Parser::parseLabelValues(const QJsonObject &object, const QString &path,
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

bool Parser::parseVariables(const QJsonObject &root, Dashboard *dashboard)
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

bool Parser::parseSources(const QJsonObject &root, Dashboard *dashboard)
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

bool Parser::parseSource(const QJsonObject &object, const QString &path, DashboardSource *source)
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

bool Parser::parseDerived(const QJsonObject &root, Dashboard *dashboard)
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
bool Parser::parseApdex(const QJsonObject &object, const QString &path, DashboardDerived *derived)
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
bool Parser::checkConfig(const QJsonValue &value, const QString &path)
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
bool Parser::checkReferences(const QString &text, const QString &path)
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

bool Parser::parsePanels(const QJsonObject &root, Dashboard *dashboard)
{
    QJsonArray array;
    if (!readArray(root, u"panels"_s, {}, true, &array)
        || !checkCount(array.size(), MaximumPanels, u"panels"_s, u"panels"_s))
        return false;
    QHash<QString, qsizetype> ids;
    QList<qsizetype> autoPlaced, placed;
    int bottom = 0;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString path = indexPath(u"panels"_s, i);
        QJsonObject object;
        DashboardPanel panel;
        bool hasLayout = false;
        if (!elementObject(array.at(i), path, &object)
            || !parsePanel(object, path, &panel, &hasLayout)
            || !parsePanelQuery(object, path, *dashboard, &panel)
            || !parseRepeat(object, path, &panel))
            return false;
        if (ids.contains(panel.id))
            return fail(joinPath(path, u"id"_s),
                        u"duplicate panel id %1 (also panels[%2])"_s.arg(describe(panel.id))
                            .arg(ids.value(panel.id)));
        ids.insert(panel.id, i);
        if (hasLayout) {
            bottom = qMax(bottom, panel.layout.y + panel.layout.h);
            // Two panels in one cell draw over each other, on screen and in a PNG.
            for (qsizetype j : std::as_const(placed)) {
                const PanelLayout &other = dashboard->panels.at(j).layout;
                if (panelsOverlap(panel.layout, other))
                    return fail(joinPath(path, u"layout"_s),
                                u"overlaps panels[%1] (%2): both cover column %3, row %4"_s.arg(j)
                                    .arg(describe(dashboard->panels.at(j).id))
                                    .arg(qMax(panel.layout.x, other.x))
                                    .arg(qMax(panel.layout.y, other.y)));
            }
            placed.append(i);
        } else {
            autoPlaced.append(i);
        }
        dashboard->panels.append(panel);
    }
    // Panels without a layout go below the placed ones, two per row.
    const PanelLayout defaults;
    for (qsizetype n = 0; n < autoPlaced.size(); ++n) {
        PanelLayout &layout = dashboard->panels[autoPlaced.at(n)].layout;
        layout.w = defaults.w;
        layout.h = defaults.h;
        layout.x = int(n % 2) * defaults.w;
        layout.y = bottom + int(n / 2) * defaults.h;
        // Saved with this layout, the panel must load back.
        if (layout.y + layout.h > MaximumPanelRow)
            return fail(indexPath(u"panels"_s, autoPlaced.at(n)),
                        u"has no layout, and no room is left for it below the placed panels "
                        "(the grid ends at row %1); give it a layout"_s.arg(MaximumPanelRow));
    }
    return true;
}

bool Parser::parsePanel(const QJsonObject &object, const QString &path, DashboardPanel *panel,
                        bool *hasLayout)
{
    QString typeName;
    if (!readNonEmptyString(object, u"id"_s, path, &panel->id, MaximumIdLength)
        || !readNonEmptyString(object, u"type"_s, path, &typeName))
        return false;
    const std::optional<PanelType> type = panelTypeFromName(typeName);
    if (!type)
        return fail(joinPath(path, u"type"_s),
                    u"unknown panel type %1 (this build draws: %2)"_s.arg(
                        describe(typeName), panelTypeNames().join(u", ")));
    panel->type = *type;
    if (!readString(object, u"title"_s, path, false, &panel->title)
        || !readString(object, u"unit"_s, path, false, &panel->unit)
        || !parseLegend(object, path, &panel->legend)
        || !parsePercentiles(object, path, &panel->percentiles)
        || !parseYScale(object, path, &panel->yScale)
        || !parseThresholds(object, path, &panel->thresholds))
        return false;

    QJsonArray series;
    const QString seriesPath = joinPath(path, u"series"_s);
    if (!readArray(object, u"series"_s, path, false, &series)
        || !checkCount(series.size(), MaximumSelectorsPerPanel, seriesPath, u"series"_s))
        return false;
    for (qsizetype i = 0; i < series.size(); ++i) {
        const QString selectorPath = indexPath(seriesPath, i);
        QJsonObject selectorObject;
        SeriesSelector selector;
        if (!elementObject(series.at(i), selectorPath, &selectorObject)
            || !parseSelector(selectorObject, selectorPath, &selector))
            return false;
        panel->series.append(selector);
    }

    *hasLayout = object.contains(u"layout"_s);
    if (*hasLayout) {
        QJsonObject layout;
        if (!readObject(object, u"layout"_s, path, &layout)
            || !parseLayout(layout, joinPath(path, u"layout"_s), &panel->layout))
            return false;
    }
    return readObject(object, u"options"_s, path, &panel->options)
        && checkPanelOptions(*panel, path);
}

// The one place the reader tells panel types apart: each type's own check
// (document/panels/), on this reader, so its refusals name the panel's fields.
bool Parser::checkPanelOptions(const DashboardPanel &panel, const QString &path)
{
    const auto check = panelTypeRules(panel.type).checkOptions;
    return !check || check(*this, panel, path);
}

// "repeat": a multi-value variable, "repeatDirection": "h" (default) or "v", as Grafana
// spells them.
bool Parser::parseRepeat(const QJsonObject &object, const QString &path, DashboardPanel *panel)
{
    if (!readString(object, u"repeat"_s, path, false, &panel->repeat, MaximumIdLength))
        return false;
    QString direction;
    if (!readString(object, u"repeatDirection"_s, path, false, &direction, 8))
        return false;
    if (panel->repeat.isEmpty()) {
        if (!direction.isEmpty())
            return fail(joinPath(path, u"repeatDirection"_s), u"is set without repeat"_s);
        return true;
    }
    if (!checkRepeatVariable(panel->repeat, joinPath(path, u"repeat"_s)))
        return false;
    if (direction == "v"_L1)
        panel->repeatVertical = true;
    else if (!direction.isEmpty() && direction != "h"_L1)
        return fail(joinPath(path, u"repeatDirection"_s),
                    u"is %1; expected \"h\" or \"v\""_s.arg(describe(direction)));
    return true;
}

// What a panel or section repeats over: a multi-value variable (empty: no repeat).
bool Parser::checkRepeatVariable(const QString &name, const QString &field)
{
    if (name.isEmpty() || m_multiVariables.contains(name))
        return true;
    return fail(field,
                m_variableNames.contains(name)
                    ? u"variable %1 is not multi-value (\"multi\": true)"_s.arg(describe(name))
                    : u"%1 is no declared variable"_s.arg(describe(name)));
}

// A variable whose values an engine lists needs that engine among the promql sources.
bool Parser::checkVariableEngines(const Dashboard &dashboard)
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

// A PromQL panel: its query, and the promql source it is read from (named, or the
// dashboard's only one). The expression itself is the engine's to judge.
bool Parser::parsePanelQuery(const QJsonObject &object, const QString &path,
                             const Dashboard &dashboard, DashboardPanel *panel)
{
    if (!readString(object, u"query"_s, path, false, &panel->query, MaximumQueryLength)
        || !readString(object, u"querySource"_s, path, false, &panel->querySource, MaximumIdLength))
        return false;
    // A fleet USE matrix reads its options' queries (checked with its options) instead.
    const bool fleetMatrix = panel->type == PanelType::UseMatrix
        && !panel->options.value(u"queries"_s).toArray().isEmpty();
    if (panel->query.isEmpty() && !fleetMatrix) {
        const PanelTypeRules &rules = panelTypeRules(panel->type);
        if (rules.query == PanelQueryUse::Required)
            return fail(joinPath(path, u"query"_s),
                        u"is required: %1"_s.arg(QString::fromUtf16(rules.queryRequiredBecause)));
        if (!panel->querySource.isEmpty())
            return fail(joinPath(path, u"querySource"_s), u"is set without a query"_s);
        return true;
    }
    const QString queryPath
        = fleetMatrix ? joinPath(path, u"options.queries"_s) : joinPath(path, u"query"_s);
    if (!panel->query.isEmpty()) {
        // Grafana's legendFormat spells a label {{instance}}; ours is {instance} (where
        // "{{" is a literal brace), so a legend copied from Grafana means what it meant
        // there.
        static const QRegularExpression grafanaLabel(
            u"\\{\\{\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*\\}\\}"_s);
        panel->legend.replace(grafanaLabel, u"{\\1}"_s);
        if (panelTypeRules(panel->type).query == PanelQueryUse::None)
            return fail(queryPath,
                        u"only %1 panels read a PromQL query in this build, not %2 (a usematrix "
                        "panel reads options.queries)"_s.arg(panelTypesReadingQueries(u"and"),
                                                             panelTypeName(panel->type)));
        if (!panel->series.isEmpty())
            return fail(queryPath, u"a panel reads either a query or series, not both"_s);
    }
    QStringList engines;
    for (const DashboardSource &source : dashboard.sources) {
        if (source.plugin == PromqlPlugin)
            engines.append(source.id);
    }
    if (panel->querySource.isEmpty()) {
        if (engines.size() != 1)
            return fail(queryPath,
                        engines.isEmpty()
                            ? u"needs a source with plugin \"promql\" (the engine's URL)"_s
                            : u"needs \"querySource\": the dashboard has %1 promql sources (%2)"_s
                                  .arg(engines.size())
                                  .arg(engines.join(u", "_s)));
    } else if (!engines.contains(panel->querySource)) {
        return fail(
            joinPath(path, u"querySource"_s),
            u"%1 is not a source with plugin \"promql\""_s.arg(describe(panel->querySource)));
    }
    return true;
}

bool Parser::parseLegend(const QJsonObject &object, const QString &path, QString *legend)
{
    if (!readString(object, u"legend"_s, path, false, legend))
        return false;
    QString error; // readString() has bounded its length (MaximumNameLength)
    if (!LegendTemplate::parse(*legend, &error))
        return fail(joinPath(path, u"legend"_s), error);
    return true;
}

bool Parser::parsePercentiles(const QJsonObject &object, const QString &path,
                              QList<double> *percentiles)
{
    const QString key = u"percentiles"_s;
    QJsonArray array;
    if (!readArray(object, key, path, false, &array))
        return false;
    const QString field = joinPath(path, key);
    // An empty list would draw nothing at all; the default needs no field.
    if (object.contains(key) && array.isEmpty())
        return fail(field, u"must not be empty (leave it out for p50, p95, p99 and max)"_s);
    if (array.size() > MaximumPercentiles)
        return fail(field,
                    u"must list at most %1 percentiles, got %2"_s.arg(MaximumPercentiles)
                        .arg(array.size()));
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QJsonValue value = array.at(i);
        const double percentile = value.toDouble();
        if (!value.isDouble() || !(percentile > 0 && percentile <= 100))
            return failType(indexPath(field, i),
                            u"a number greater than 0 and at most 100 (100 is the maximum)"_s,
                            value);
        // Two equal lines would share one legend name.
        if (percentiles->contains(percentile))
            return fail(indexPath(field, i), u"duplicate percentile %1"_s.arg(describe(value)));
        percentiles->append(percentile);
    }
    return true;
}

bool Parser::parseYScale(const QJsonObject &object, const QString &path, YScale *scale)
{
    const QString key = u"yScale"_s;
    QString name = yScaleName(*scale);
    if (!readString(object, key, path, false, &name))
        return false;
    const auto parsed = yScaleFromName(name);
    if (!parsed)
        return fail(joinPath(path, key),
                    u"must be \"linear\" or \"log\", got %1"_s.arg(describe(name)));
    *scale = *parsed;
    return true;
}

bool Parser::parseThresholds(const QJsonObject &object, const QString &path,
                             PanelThresholds *thresholds)
{
    QJsonObject bounds;
    if (!readObject(object, u"thresholds"_s, path, &bounds))
        return false;
    const QString field = joinPath(path, u"thresholds"_s);
    for (auto it = bounds.constBegin(); it != bounds.constEnd(); ++it) {
        if (it.key() != u"warning" && it.key() != u"critical" && it.key() != u"higherIsWorse")
            return fail(joinPath(field, it.key()),
                        u"unknown field (expected warning, critical, higherIsWorse)"_s);
    }
    QJsonValue value;
    if (!readMember(bounds, u"higherIsWorse"_s, field, false, QJsonValue::Bool, u"true or false"_s,
                    &value))
        return false;
    thresholds->higherIsWorse = value.isBool() ? value.toBool() : true;
    for (const auto &[key, target] : { std::pair { u"warning"_s, &thresholds->warning },
                                       std::pair { u"critical"_s, &thresholds->critical } }) {
        if (!readMember(bounds, key, field, false, QJsonValue::Double, u"a number"_s, &value))
            return false;
        *target = value.isDouble() ? value.toDouble() : qQNaN();
    }
    const PanelThresholds &t = *thresholds;
    if (!qIsNaN(t.warning) && !qIsNaN(t.critical)
        && (t.higherIsWorse ? t.critical < t.warning : t.critical > t.warning))
        return fail(field,
                    t.higherIsWorse ? u"critical must not be below warning"_s
                                    : u"critical must not be above warning when higherIsWorse "
                                      "is false"_s);
    return true;
}

bool Parser::parseSelector(const QJsonObject &object, const QString &path, SeriesSelector *selector)
{
    if (!readNonEmptyString(object, u"source"_s, path, &selector->source, MaximumIdLength))
        return false;
    // A name must be a declared source (a typo shows at once); a pattern with '*' picks
    // among whatever sources the dashboard has, none yet included (a new dashboard's
    // USE matrix of every source).
    if (!selector->source.contains(u'*') && !m_sourceIds.contains(selector->source)) {
        QStringList declared(m_sourceIds.cbegin(), m_sourceIds.cend());
        declared.sort();
        return fail(joinPath(path, u"source"_s),
                    u"unknown source %1 (%2)"_s.arg(describe(selector->source),
                                                    declared.isEmpty()
                                                        ? u"no sources are declared"_s
                                                        : u"declared: " + declared.join(u", ")));
    }
    if (!readNonEmptyString(object, u"metric"_s, path, &selector->metric))
        return false;
    QJsonObject labels;
    if (!readObject(object, u"labels"_s, path, &labels))
        return false;
    const QString labelsPath = joinPath(path, u"labels"_s);
    for (auto it = labels.constBegin(); it != labels.constEnd(); ++it) {
        const QString labelField = joinPath(labelsPath, it.key());
        if (!it->isString())
            return failType(labelField, u"a string"_s, *it);
        if (it.key().size() > MaximumNameLength)
            return fail(
                labelsPath,
                u"label names must be at most %1 characters long, got %2"_s.arg(MaximumNameLength)
                    .arg(it.key().size()));
        if (!checkLength(it->toString(), labelField, MaximumNameLength))
            return false;
        selector->labels.insert(it.key(), it->toString());
    }
    return true;
}

bool Parser::parseLayout(const QJsonObject &object, const QString &path, PanelLayout *layout)
{
    if (!readInt(object, u"x"_s, path, 0, std::nullopt, &layout->x)
        || !readInt(object, u"y"_s, path, 0, std::nullopt, &layout->y, MaximumPanelRow)
        || !readInt(object, u"w"_s, path, 1, std::nullopt, &layout->w)
        || !readInt(object, u"h"_s, path, 1, std::nullopt, &layout->h, MaximumPanelHeight))
        return false;
    if (layout->x >= GridColumns)
        return fail(joinPath(path, u"x"_s),
                    u"must be less than %1 (the grid is %1 columns wide), got %2"_s.arg(GridColumns)
                        .arg(layout->x));
    if (layout->w > GridColumns - layout->x)
        return fail(joinPath(path, u"w"_s),
                    u"x + w must not exceed %1 (the grid is %1 columns wide), got "
                    "x %2 + w %3"_s.arg(GridColumns)
                        .arg(layout->x)
                        .arg(layout->w));
    if (layout->h > MaximumPanelRow - layout->y)
        return fail(joinPath(path, u"h"_s),
                    u"y + h must not exceed %1 (the grid's last row), got y %2 + h %3"_s
                        .arg(MaximumPanelRow)
                        .arg(layout->y)
                        .arg(layout->h));
    return true;
}

} // namespace

QString DashboardError::toString() const
{
    QStringList parts;
    if (!file.isEmpty())
        parts.append(file);
    if (!field.isEmpty())
        parts.append(field);
    parts.append(reason);
    return parts.join(u": ");
}

DashboardLoadResult parseDashboard(const QByteArray &json, const QString &fileName)
{
    return Parser(fileName).parse(json);
}

DashboardLoadResult loadDashboard(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        DashboardLoadResult result;
        result.error
            = DashboardError { path, QString(), u"cannot open: %1"_s.arg(file.errorString()) };
        return result;
    }
    if (file.size() > MaximumFileSize) {
        DashboardLoadResult result;
        result.error
            = DashboardError { path, QString(),
                               u"too large for a dashboard file (%1 bytes)"_s.arg(file.size()) };
        return result;
    }
    const QByteArray data = file.readAll();
    if (file.error() != QFileDevice::NoError) {
        DashboardLoadResult result;
        result.error
            = DashboardError { path, QString(), u"cannot read: %1"_s.arg(file.errorString()) };
        return result;
    }
    return parseDashboard(data, path);
}

QByteArray dashboardToJson(const Dashboard &dashboard)
{
    QSet<QString> conninfoVariables;
    for (const DashboardSource &source : dashboard.sources)
        collectConninfoVariables(source.config, false, &conninfoVariables);
    QJsonArray variables;
    for (const DashboardVariable &variable : dashboard.variables) {
        const bool conninfo = conninfoVariables.contains(variable.name);
        QJsonArray options;
        for (const QString &option : variable.options)
            options.append(variableValueWithoutPassword(option, conninfo));
        QJsonObject object {
            { u"name"_s, variable.name },
            { u"label"_s, variable.label },
            { u"default"_s, variableValueWithoutPassword(variable.defaultValue, conninfo) },
            { u"options"_s, options },
        };
        if (variable.multi)
            object.insert(u"multi"_s, true);
        if (const VariableLabelValues &values = variable.labelValues; !values.label.isEmpty()) {
            QJsonObject labelValues { { u"label"_s, values.label } };
            if (!values.match.isEmpty())
                labelValues.insert(u"match"_s, values.match);
            if (!values.source.isEmpty())
                labelValues.insert(u"source"_s, values.source);
            object.insert(u"labelValues"_s, labelValues);
        }
        variables.append(object);
    }

    QJsonArray sources;
    for (const DashboardSource &source : dashboard.sources) {
        sources.append(QJsonObject {
            { u"id"_s, source.id },
            { u"plugin"_s, source.plugin },
            { u"intervalMs"_s, source.intervalMs },
            { u"timeoutMs"_s, source.timeoutMs },
            { u"config"_s, withoutPasswords(source.config) },
        });
    }

    QJsonArray derived;
    for (const DashboardDerived &d : dashboard.derived) {
        QJsonObject object {
            { u"source"_s, d.source },
            { u"metric"_s, d.metric },
            { u"unit"_s, d.unit },
            { u"kind"_s, useKindName(d.kind) },
        };
        if (d.apdexHistogram.isEmpty())
            object.insert(u"expression"_s, d.expression);
        else
            object.insert(
                u"apdex"_s,
                QJsonObject { { u"histogram"_s, d.apdexHistogram }, { u"t"_s, d.apdexT } });
        derived.append(object);
    }

    QJsonArray panels;
    for (const DashboardPanel &panel : dashboard.panels) {
        QJsonArray series;
        for (const SeriesSelector &selector : panel.series) {
            QJsonObject labels;
            for (auto it = selector.labels.cbegin(); it != selector.labels.cend(); ++it)
                labels.insert(it.key(), it.value());
            series.append(QJsonObject {
                { u"source"_s, selector.source },
                { u"metric"_s, selector.metric },
                { u"labels"_s, labels },
            });
        }
        QJsonObject panelObject {
            { u"id"_s, panel.id },
            { u"type"_s, panelTypeName(panel.type) },
            { u"title"_s, panel.title },
            { u"unit"_s, panel.unit },
            { u"series"_s, series },
            { u"layout"_s,
              QJsonObject {
                  { u"x"_s, panel.layout.x },
                  { u"y"_s, panel.layout.y },
                  { u"w"_s, panel.layout.w },
                  { u"h"_s, panel.layout.h },
              } },
            { u"options"_s, panel.options },
            { u"yScale"_s, yScaleName(panel.yScale) },
        };
        if (!panel.legend.isEmpty())
            panelObject.insert(u"legend"_s, panel.legend);
        if (!panel.query.isEmpty())
            panelObject.insert(u"query"_s, panel.query);
        if (!panel.querySource.isEmpty())
            panelObject.insert(u"querySource"_s, panel.querySource);
        if (!panel.repeat.isEmpty()) {
            panelObject.insert(u"repeat"_s, panel.repeat);
            if (panel.repeatVertical)
                panelObject.insert(u"repeatDirection"_s, u"v"_s);
        }
        // No field means the default percentiles; an empty list would be refused.
        if (!panel.percentiles.isEmpty()) {
            QJsonArray percentiles;
            for (double percentile : panel.percentiles)
                percentiles.append(percentile);
            panelObject.insert(u"percentiles"_s, percentiles);
        }
        if (!panel.thresholds.isEmpty()) {
            QJsonObject thresholds { { u"higherIsWorse"_s, panel.thresholds.higherIsWorse } };
            if (!qIsNaN(panel.thresholds.warning))
                thresholds.insert(u"warning"_s, panel.thresholds.warning);
            if (!qIsNaN(panel.thresholds.critical))
                thresholds.insert(u"critical"_s, panel.thresholds.critical);
            panelObject.insert(u"thresholds"_s, thresholds);
        }
        panels.append(panelObject);
    }

    QJsonArray alerts;
    for (const AlertRule &rule : dashboard.alerts)
        alerts.append(alertRuleToJson(rule));
    QJsonObject root {
        { u"schemaVersion"_s, Dashboard::SchemaVersion },
        { u"title"_s, dashboard.title },
        { u"variables"_s, variables },
        { u"sources"_s, sources },
        { u"derived"_s, derived },
        { u"timeRange"_s, formatDuration(dashboard.rangeMs) },
        { u"refreshMs"_s, dashboard.refreshMs },
        { u"panels"_s, panels },
    };
    if (!dashboard.sections.isEmpty()) {
        QJsonArray sections;
        for (const DashboardSection &section : dashboard.sections) {
            QJsonObject object { { u"title"_s, section.title },
                                 { u"y"_s, section.y },
                                 { u"collapsed"_s, section.collapsed } };
            if (!section.repeat.isEmpty())
                object.insert(u"repeat"_s, section.repeat);
            sections.append(object);
        }
        root.insert(u"sections"_s, sections);
    }
    if (!dashboard.alertPack.isEmpty())
        root.insert(u"alertPack"_s, dashboard.alertPack);
    if (!alerts.isEmpty())
        root.insert(u"alerts"_s, alerts);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

bool saveDashboard(const Dashboard &dashboard, const QString &path, QString *error)
{
    auto failed = [&](const QString &reason) {
        const QString message = u"%1: cannot save: %2"_s.arg(path, reason);
        qCDebug(lcDashboard).noquote() << message;
        if (error)
            *error = message;
        return false;
    };
    const QByteArray data = dashboardToJson(dashboard);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return failed(file.errorString());
    if (file.write(data) != data.size()) {
        const QString reason = file.errorString();
        file.cancelWriting();
        return failed(reason);
    }
    if (!file.commit())
        return failed(file.errorString());
    if (error)
        error->clear();
    qCDebug(lcDashboard) << "saved" << path;
    return true;
}

} // namespace Headroom
