// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The panel types: what a dashboard file's "type" names, parsed once when the file is
// read (dashboardfile.h) and carried as an enum from there on. The types are listed in
// paneltypelist.h, one line each; each type has one file per layer that knows it
// (docs/ARCHITECTURE.md, "Adding a panel type"):
//   document/panels/<type>options.cpp  its options check and whether it reads a query
//   query/panels/<type>payload.h        what its query returns beyond series and alerts
//   query/panels/<type>panel.cpp        its query, CSV rows and capabilities
//   widgets/panels/<type>panel.*        its view
// and the dispatch in each layer is generated from the list.
#pragma once

#include "document/paneltypelist.h"

#include <QString>
#include <QStringList>
#include <array>
#include <optional>

namespace Headroom {

#define HEADROOM_PANEL_ENUMERATOR(Enumerator, name) Enumerator,
enum class PanelType
{
    HEADROOM_PANEL_TYPES(HEADROOM_PANEL_ENUMERATOR)
};

// Every type in enum order (AllPanelTypes[i] == PanelType(i)), which is also the order
// the panel editor offers them in; the first is what a new panel is.
#define HEADROOM_PANEL_LISTED(Enumerator, name) PanelType::Enumerator,
inline constexpr std::array AllPanelTypes { HEADROOM_PANEL_TYPES(HEADROOM_PANEL_LISTED) };
#undef HEADROOM_PANEL_LISTED
#undef HEADROOM_PANEL_ENUMERATOR
inline constexpr int PanelTypeCount = int(AllPanelTypes.size());

// Calls visitor.template operator()<Type>() for the type given, with the type as a
// template argument: how each layer's dispatch reaches the function that a type's own
// file defines for it (panelTypeRulesOf<Type>, panelDescriptorOf<Type>,
// createPanelWidgetOf<Type>). The switch is generated from the list, so it has every type.
template<typename Visitor> decltype(auto) visitPanelType(PanelType type, Visitor &&visitor)
{
    switch (type) {
#define HEADROOM_PANEL_VISIT(Enumerator, name)                                                     \
    case PanelType::Enumerator:                                                                    \
        return visitor.template operator()<PanelType::Enumerator>();
        HEADROOM_PANEL_TYPES(HEADROOM_PANEL_VISIT)
#undef HEADROOM_PANEL_VISIT
    }
    Q_UNREACHABLE_RETURN(visitor.template operator()<AllPanelTypes.front()>());
}

// The name a dashboard file spells the type with: "timeseries", "heatmap", "usematrix",
// "shardhistogram", "shardtable", "alerts", "blockingtree", "table".
QString panelTypeName(PanelType type);
// The type of a name as panelTypeName() spells it (case-sensitive); nullopt for any other.
std::optional<PanelType> panelTypeFromName(QStringView name);
// Every type's name, in AllPanelTypes order (the reader's "this build draws: ...").
QStringList panelTypeNames();

} // namespace Headroom
