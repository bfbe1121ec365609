// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "document/panels/tableoptions.h"

#include "core/jsonreader.h"
#include "document/panels/paneltyperules.h"

#include <QJsonArray>

namespace Headroom {

using namespace Qt::StringLiterals;

TableOptions tableOptions(const DashboardPanel &panel)
{
    TableOptions options;
    for (const auto allColumns = panel.options.value(u"columns"_s).toArray();
         const auto &column : allColumns)
        options.columns.append(column.toString());
    options.limit = panel.options.value(u"limit"_s).toInt(TableDefaultRows);
    options.ascending = panel.options.value(u"sort"_s).toString() == u"asc"_s;
    return options;
}

bool checkTablePanel(JsonReader &reader, const DashboardPanel &panel, const QString &path)
{
    const QString optionsPath = JsonReader::joinPath(path, u"options"_s);
    const QJsonObject &options = panel.options;
    if (!reader.checkKnownKeys(options, optionsPath, { u"columns"_s, u"limit"_s, u"sort"_s },
                               u"option"_s))
        return false;
    int limit = 0;
    if (!reader.readInt(options, u"limit"_s, optionsPath, 1, TableDefaultRows, &limit,
                        TableMaximumRows))
        return false;
    QString sort;
    if (!reader.readString(options, u"sort"_s, optionsPath, false, &sort))
        return false;
    if (options.contains(u"sort"_s) && sort != u"asc"_s && sort != u"desc"_s)
        return reader.fail(
            JsonReader::joinPath(optionsPath, u"sort"_s),
            u"must be \"asc\" or \"desc\", got %1"_s.arg(JsonReader::describe(sort)));
    QJsonArray columns;
    if (!reader.readArray(options, u"columns"_s, optionsPath, false, &columns))
        return false;
    const QString columnsPath = JsonReader::joinPath(optionsPath, u"columns"_s);
    if (options.contains(u"columns"_s) && columns.isEmpty())
        return reader.fail(columnsPath, u"must name at least one label"_s);
    QStringList seen;
    for (qsizetype i = 0; i < columns.size(); ++i) {
        const QString at = JsonReader::indexPath(columnsPath, i);
        if (!columns.at(i).isString())
            return reader.failType(at, u"a label name"_s, columns.at(i));
        const QString name = columns.at(i).toString();
        if (!reader.checkLabelName(name, at))
            return false;
        if (seen.contains(name))
            return reader.fail(at, u"label %1 is listed twice"_s.arg(JsonReader::describe(name)));
        seen << name;
    }
    return true;
}

template<> const PanelTypeRules &panelTypeRulesOf<PanelType::Table>()
{
    static constexpr PanelTypeRules rules {
        .checkOptions = checkTablePanel,
        .query = PanelQueryUse::Required,
        .queryRequiredBecause = u"a table panel shows an engine's instant query",
    };
    return rules;
}

} // namespace Headroom
