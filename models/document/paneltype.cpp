#include "document/paneltype.h"

// A PanelType missing from a switch of this file is an error, not a warning.
#pragma GCC diagnostic error "-Wswitch"

namespace Headroom {

namespace {

// The one switch that names the types: a new enumerator needs its name here, and once
// it has one the static_assert below asks for it in AllPanelTypes.
constexpr const char16_t *nameOf(PanelType type)
{
    switch (type) {
    case PanelType::TimeSeries:
        return u"timeseries";
    case PanelType::Heatmap:
        return u"heatmap";
    case PanelType::UseMatrix:
        return u"usematrix";
    case PanelType::ShardHistogram:
        return u"shardhistogram";
    case PanelType::ShardTable:
        return u"shardtable";
    case PanelType::Alerts:
        return u"alerts";
    case PanelType::BlockingTree:
        return u"blockingtree";
    case PanelType::Table:
        return u"table";
    }
    return nullptr; // not an enumerator
}

constexpr bool listedInOrder()
{
    for (int i = 0; i < PanelTypeCount; ++i) {
        if (AllPanelTypes[size_t(i)] != PanelType(i) || !nameOf(PanelType(i)))
            return false;
    }
    return true;
}

static_assert(listedInOrder(), "AllPanelTypes lists every PanelType in enum order");
static_assert(nameOf(PanelType(PanelTypeCount)) == nullptr,
              "a PanelType has a name but is missing from AllPanelTypes");

} // namespace

QString panelTypeName(PanelType type)
{
    const char16_t *name = nameOf(type);
    return name ? QString::fromUtf16(name) : QString();
}

std::optional<PanelType> panelTypeFromName(QStringView name)
{
    for (PanelType type : AllPanelTypes) {
        if (name == QStringView(nameOf(type)))
            return type;
    }
    return std::nullopt;
}

QStringList panelTypeNames()
{
    QStringList names;
    names.reserve(PanelTypeCount);
    for (PanelType type : AllPanelTypes)
        names.append(panelTypeName(type));
    return names;
}

} // namespace Headroom
