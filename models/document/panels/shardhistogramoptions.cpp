// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "document/panels/shardhistogramoptions.h"

#include "core/jsonreader.h"
#include "document/panels/paneltyperules.h"

#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

bool checkShardOptionKeys(JsonReader &reader, const DashboardPanel &panel,
                          const QString &optionsPath, const QStringList &keys)
{
    for (auto it = panel.options.constBegin(); it != panel.options.constEnd(); ++it) {
        if (!keys.contains(it.key()))
            return reader.fail(JsonReader::joinPath(optionsPath, it.key()),
                               u"unknown option (a %1 panel takes: %2)"_s.arg(
                                   panelTypeName(panel.type), keys.join(u", "_s)));
    }
    return true;
}

bool checkShardOverloadedPercent(JsonReader &reader, const QJsonObject &options,
                                 const QString &optionsPath)
{
    const QJsonValue overloaded = options.value(u"overloadedPercent"_s);
    if (!overloaded.isUndefined()
        && (!overloaded.isDouble() || !std::isfinite(overloaded.toDouble())
            || overloaded.toDouble() < 0))
        return reader.failType(JsonReader::joinPath(optionsPath, u"overloadedPercent"_s),
                               u"a number of at least 0"_s, overloaded);
    return true;
}

bool checkShardHistogramPanel(JsonReader &reader, const DashboardPanel &panel, const QString &path)
{
    const QString options = JsonReader::joinPath(path, u"options"_s);
    return checkShardOptionKeys(reader, panel, options, { u"overloadedPercent"_s })
        && checkShardOverloadedPercent(reader, panel.options, options);
}

template<> const PanelTypeRules &panelTypeRulesOf<PanelType::ShardHistogram>()
{
    static constexpr PanelTypeRules rules {
        .checkOptions = checkShardHistogramPanel,
        .query = PanelQueryUse::None,
    };
    return rules;
}

} // namespace Headroom
