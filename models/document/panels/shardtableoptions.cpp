// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "document/panels/shardtableoptions.h"

#include "core/jsonreader.h"
#include "document/panels/paneltyperules.h"
#include "document/panels/shardhistogramoptions.h"

namespace Headroom {

using namespace Qt::StringLiterals;

QStringList shardColumnNames()
{
    return { u"set"_s, u"shard"_s, u"load"_s, u"ops"_s, u"previous"_s, u"share"_s, u"change"_s };
}

bool checkShardTablePanel(JsonReader &reader, const DashboardPanel &panel, const QString &path)
{
    const QString optionsPath = JsonReader::joinPath(path, u"options"_s);
    const QJsonObject &options = panel.options;
    if (!checkShardOptionKeys(reader, panel, optionsPath,
                              { u"columns"_s, u"opsMetric"_s, u"overloadedPercent"_s, u"top"_s })
        || !checkShardOverloadedPercent(reader, options, optionsPath))
        return false;
    int top = 0;
    if (!reader.readInt(options, u"top"_s, optionsPath, 0, 10, &top))
        return false;
    QString opsMetric;
    if (options.contains(u"opsMetric"_s)
        && !reader.readNonEmptyString(options, u"opsMetric"_s, optionsPath, &opsMetric))
        return false;
    QJsonArray columns;
    if (!reader.readArray(options, u"columns"_s, optionsPath, false, &columns))
        return false;
    const QString columnsPath = JsonReader::joinPath(optionsPath, u"columns"_s);
    const QStringList known = shardColumnNames();
    if (options.contains(u"columns"_s) && columns.isEmpty())
        return reader.fail(columnsPath,
                           u"must name at least one column (valid: %1)"_s.arg(known.join(u", "_s)));
    QStringList seen;
    for (qsizetype i = 0; i < columns.size(); ++i) {
        const QJsonValue name = columns.at(i);
        if (!name.isString() || !known.contains(name.toString()))
            return reader.fail(JsonReader::indexPath(columnsPath, i),
                               u"unknown column %1 (valid: %2)"_s.arg(JsonReader::describe(name),
                                                                      known.join(u", "_s)));
        if (seen.contains(name.toString()))
            return reader.fail(JsonReader::indexPath(columnsPath, i),
                               u"column %1 is listed twice"_s.arg(JsonReader::describe(name)));
        seen << name.toString();
    }
    return true;
}

template<> const PanelTypeRules &panelTypeRulesOf<PanelType::ShardTable>()
{
    static constexpr PanelTypeRules rules {
        .checkOptions = checkShardTablePanel,
        .query = PanelQueryUse::None,
    };
    return rules;
}

} // namespace Headroom
