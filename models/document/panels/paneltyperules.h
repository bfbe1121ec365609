// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What the document layer knows of each panel type beyond its name: its options check
// and whether it reads a PromQL query. One PanelTypeRules per type, defined by the
// type's own document/panels/<type>options.cpp as panelTypeRulesOf<PanelType::X>();
// the reader (dashboardfile.cpp) and the panel editor ask panelTypeRules() instead of
// comparing types.
#pragma once

#include "document/paneltype.h"

#include <QString>

namespace Headroom {

class JsonReader;
struct DashboardPanel;

enum class PanelQueryUse
{
    None, // it reads series (or nothing): a `query` is refused
    Optional, // series or a PromQL query
    Required, // only a PromQL query
};

struct PanelTypeRules
{
    // Checks the panel's options when a file is read; path is the panel's
    // ("panels[2]"), and a refusal names the option below it. nullptr: the type's
    // options are read by its view as they are (none is refused).
    bool (*checkOptions)(JsonReader &reader, const DashboardPanel &panel, const QString &path)
        = nullptr;
    PanelQueryUse query = PanelQueryUse::None;
    // For PanelQueryUse::Required: why, as the reader's refusal of a panel without a
    // query says it ("a table panel shows an engine's instant query").
    const char16_t *queryRequiredBecause = nullptr;
};

// Defined by each type's document/panels/<type>options.cpp; a listed type without one
// fails to link.
template<PanelType Type> const PanelTypeRules &panelTypeRulesOf();
#define HEADROOM_PANEL_RULES(Enumerator, name)                                                     \
    template<> const PanelTypeRules &panelTypeRulesOf<PanelType::Enumerator>();
HEADROOM_PANEL_TYPES(HEADROOM_PANEL_RULES)
#undef HEADROOM_PANEL_RULES

const PanelTypeRules &panelTypeRules(PanelType type);

// The names of the types that read a PromQL query, in list order, as a message says
// them: "timeseries, heatmap and table" (conjunction "and").
QString panelTypesReadingQueries(QStringView conjunction);

} // namespace Headroom
