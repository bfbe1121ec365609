// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "document/panels/heatmapoptions.h"

#include "core/jsonreader.h"
#include "document/panels/paneltyperules.h"

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// Absent, or a string among `names` (spelled out for the message as `spelled`).
bool checkOneOf(JsonReader &reader, const QJsonObject &options, const QString &path,
                const QString &key, const QStringList &names, const QString &spelled)
{
    QJsonValue value;
    if (!reader.readMember(options, key, path, false, QJsonValue::String, u"a string"_s, &value))
        return false;
    if (value.isUndefined() || names.contains(value.toString()))
        return true;
    return reader.fail(JsonReader::joinPath(path, key),
                       u"must be %1, got %2"_s.arg(spelled, JsonReader::describe(value)));
}

} // namespace

bool checkHeatmapPanel(JsonReader &reader, const DashboardPanel &panel, const QString &path)
{
    const QString options = JsonReader::joinPath(path, u"options"_s);
    return checkOneOf(reader, panel.options, options, u"colorScale"_s, { u"linear"_s, u"log"_s },
                      u"\"linear\" or \"log\""_s)
        && checkOneOf(reader, panel.options, options, u"bucketUnit"_s, { u"s"_s, u"ms"_s, u"us"_s },
                      u"\"s\", \"ms\" or \"us\""_s);
}

template<> const PanelTypeRules &panelTypeRulesOf<PanelType::Heatmap>()
{
    static constexpr PanelTypeRules rules {
        .checkOptions = checkHeatmapPanel,
        .query = PanelQueryUse::Optional,
    };
    return rules;
}

} // namespace Headroom
