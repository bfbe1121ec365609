// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The panels of a dashboard file: DashboardReader (dashboardreader.h) reading "panels",
// each panel's fields, series selectors and layout, and its type's options.
#include "core/legendtemplate.h"
#include "document/dashboardedit.h"
#include "document/dashboardreader.h"
#include "document/panels/paneltyperules.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace Headroom {

using namespace Qt::StringLiterals;
using namespace DashboardLimits;

namespace {

constexpr int MaximumPercentiles = 8; // more lines than that are no longer readable

} // namespace

bool DashboardReader::parsePanels(const QJsonObject &root, Dashboard *dashboard)
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

bool DashboardReader::parsePanel(const QJsonObject &object, const QString &path,
                                 DashboardPanel *panel, bool *hasLayout)
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
bool DashboardReader::checkPanelOptions(const DashboardPanel &panel, const QString &path)
{
    const auto check = panelTypeRules(panel.type).checkOptions;
    return !check || check(*this, panel, path);
}

// "repeat": a multi-value variable, "repeatDirection": "h" (default) or "v", as Grafana
// spells them.
bool DashboardReader::parseRepeat(const QJsonObject &object, const QString &path,
                                  DashboardPanel *panel)
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

// A PromQL panel: its query, and the promql source it is read from (named, or the
// dashboard's only one). The expression itself is the engine's to judge.
bool DashboardReader::parsePanelQuery(const QJsonObject &object, const QString &path,
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

bool DashboardReader::parseLegend(const QJsonObject &object, const QString &path, QString *legend)
{
    if (!readString(object, u"legend"_s, path, false, legend))
        return false;
    QString error; // readString() has bounded its length (MaximumNameLength)
    if (!LegendTemplate::parse(*legend, &error))
        return fail(joinPath(path, u"legend"_s), error);
    return true;
}

bool DashboardReader::parsePercentiles(const QJsonObject &object, const QString &path,
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

bool DashboardReader::parseYScale(const QJsonObject &object, const QString &path, YScale *scale)
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

bool DashboardReader::parseThresholds(const QJsonObject &object, const QString &path,
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

bool DashboardReader::parseSelector(const QJsonObject &object, const QString &path,
                                    SeriesSelector *selector)
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

bool DashboardReader::parseLayout(const QJsonObject &object, const QString &path,
                                  PanelLayout *layout)
{
    if (!readInt(object, u"x"_s, path, 0, std::nullopt, &layout->x)
        || !readInt(object, u"y"_s, path, 0, std::nullopt, &layout->y, MaximumPanelRow)
        || !readInt(object, u"w"_s, path, 1, std::nullopt, &layout->w)
        || !readInt(object, u"h"_s, path, 1, std::nullopt, &layout->h, MaximumPanelHeight))
        return false;
    if (layout->x >= DashboardGridColumns)
        return fail(joinPath(path, u"x"_s),
                    u"must be less than %1 (the grid is %1 columns wide), got %2"_s
                        .arg(DashboardGridColumns)
                        .arg(layout->x));
    if (layout->w > DashboardGridColumns - layout->x)
        return fail(joinPath(path, u"w"_s),
                    u"x + w must not exceed %1 (the grid is %1 columns wide), got "
                    "x %2 + w %3"_s.arg(DashboardGridColumns)
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

} // namespace Headroom
