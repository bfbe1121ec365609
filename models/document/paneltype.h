// The panel types: what a dashboard file's "type" names, parsed once when the file is
// read (dashboardfile.h) and carried as an enum from there on. Each type has one file
// per layer that knows it (docs/ARCHITECTURE.md, "Adding a panel type"):
//   document/panels/<type>options.*  its options, checked when a file is read
//   query/panels/<type>panel.*       its query, CSV rows and capabilities
//   widgets/<type>panel.*            its view, made by widgets/panelfactory.cpp
// The switches over PanelType that reach them have no default, and the files holding
// them make -Wswitch an error, so a type half added does not build.
#pragma once

#include <QString>
#include <QStringList>
#include <array>
#include <optional>

namespace Headroom {

enum class PanelType
{
    TimeSeries,
    Heatmap,
    UseMatrix,
    ShardHistogram,
    ShardTable,
    Alerts,
    BlockingTree,
    Table,
};

// Every type in enum order (AllPanelTypes[i] == PanelType(i); paneltype.cpp checks that
// a new enumerator is listed), which is also the order the panel editor offers them in;
// the first is what a new panel is.
inline constexpr std::array AllPanelTypes {
    PanelType::TimeSeries, PanelType::Heatmap, PanelType::UseMatrix,    PanelType::ShardHistogram,
    PanelType::ShardTable, PanelType::Alerts,  PanelType::BlockingTree, PanelType::Table,
};
inline constexpr int PanelTypeCount = int(AllPanelTypes.size());

// The name a dashboard file spells the type with: "timeseries", "heatmap", "usematrix",
// "shardhistogram", "shardtable", "alerts", "blockingtree", "table".
QString panelTypeName(PanelType type);
// The type of a name as panelTypeName() spells it (case-sensitive); nullopt for any other.
std::optional<PanelType> panelTypeFromName(QStringView name);
// Every type's name, in AllPanelTypes order (the reader's "this build draws: ...").
QStringList panelTypeNames();

} // namespace Headroom
