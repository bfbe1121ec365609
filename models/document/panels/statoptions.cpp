// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "document/panels/statoptions.h"

#include "core/jsonreader.h"
#include "document/panels/paneltyperules.h"

#include <array>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

constexpr std::array Reductions { StatReduce::Last, StatReduce::Mean, StatReduce::Min,
                                  StatReduce::Max };

bool checkStatPanel(JsonReader &reader, const DashboardPanel &panel, const QString &path)
{
    const QString optionsPath = JsonReader::joinPath(path, u"options"_s);
    if (!reader.checkKnownKeys(panel.options, optionsPath, { u"reduce"_s }, u"option"_s))
        return false;
    QString reduce;
    if (!reader.readString(panel.options, u"reduce"_s, optionsPath, false, &reduce))
        return false;
    if (!panel.options.contains(u"reduce"_s))
        return true;
    for (StatReduce r : Reductions) {
        if (reduce == statReduceName(r))
            return true;
    }
    return reader.fail(JsonReader::joinPath(optionsPath, u"reduce"_s),
                       u"must be \"last\", \"mean\", \"min\" or \"max\", got %1"_s.arg(
                           JsonReader::describe(reduce)));
}

} // namespace

StatReduce statReduce(const DashboardPanel &panel)
{
    const QString name = panel.options.value(u"reduce"_s).toString();
    for (StatReduce r : Reductions) {
        if (name == statReduceName(r))
            return r;
    }
    return StatReduce::Last;
}

QString statReduceName(StatReduce reduce)
{
    switch (reduce) {
    case StatReduce::Last:
        return u"last"_s;
    case StatReduce::Mean:
        return u"mean"_s;
    case StatReduce::Min:
        return u"min"_s;
    case StatReduce::Max:
        return u"max"_s;
    }
    return {};
}

template<> const PanelTypeRules &panelTypeRulesOf<PanelType::Stat>()
{
    // A query reads like a time chart's (series from an engine), so it may have one.
    static constexpr PanelTypeRules rules {
        .checkOptions = checkStatPanel,
        .query = PanelQueryUse::Optional,
    };
    return rules;
}

} // namespace Headroom
