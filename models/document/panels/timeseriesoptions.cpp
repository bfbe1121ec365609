// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "document/panels/timeseriesoptions.h"

#include "core/jsonreader.h"
#include "document/panels/paneltyperules.h"

namespace Headroom {

using namespace Qt::StringLiterals;

bool checkTimeSeriesPanel(JsonReader &reader, const DashboardPanel &panel, const QString &path)
{
    const QString options = JsonReader::joinPath(path, u"options"_s);
    const QJsonValue display = panel.options.value(u"legendDisplay"_s);
    if (!display.isUndefined() && display != u"list"_s && display != u"table"_s)
        return reader.fail(JsonReader::joinPath(options, u"legendDisplay"_s),
                           u"must be \"list\" (the names above the chart) or \"table\" (the "
                           "names with last, min, max and mean below it), got %1"_s.arg(
                               JsonReader::describe(display)));
    const QJsonValue apdex = panel.options.value(u"apdex"_s);
    if (apdex.isUndefined())
        return true;
    const QString field = JsonReader::joinPath(options, u"apdex"_s);
    if (!apdex.isString() || !parseDuration(apdex.toString()))
        return reader.fail(
            field,
            u"must be a duration like 50ms (the APDEX T: satisfied within it, "
            "tolerated within 4 times it), got %1"_s.arg(JsonReader::describe(apdex)));
    return true;
}

LegendDisplay timeSeriesLegendDisplay(const DashboardPanel &panel)
{
    return panel.options.value(u"legendDisplay"_s) == u"table"_s ? LegendDisplay::Table
                                                                 : LegendDisplay::List;
}

std::optional<qint64> timeSeriesApdexTMs(const DashboardPanel &panel)
{
    return parseDuration(panel.options.value(u"apdex"_s).toString());
}

template<> const PanelTypeRules &panelTypeRulesOf<PanelType::TimeSeries>()
{
    static constexpr PanelTypeRules rules {
        .checkOptions = checkTimeSeriesPanel,
        .query = PanelQueryUse::Optional,
    };
    return rules;
}

} // namespace Headroom
