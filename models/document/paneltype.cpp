// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "document/paneltype.h"

namespace Headroom {

namespace {

// The names in AllPanelTypes order, from the same list as the enum.
#define HEADROOM_PANEL_NAME(Enumerator, name) u"" #name,
constexpr std::array<const char16_t *, PanelTypeCount> Names { HEADROOM_PANEL_TYPES(
    HEADROOM_PANEL_NAME) };
#undef HEADROOM_PANEL_NAME

} // namespace

QString panelTypeName(PanelType type)
{
    const int index = int(type);
    return index >= 0 && index < PanelTypeCount ? QString::fromUtf16(Names[size_t(index)])
                                                : QString();
}

std::optional<PanelType> panelTypeFromName(QStringView name)
{
    for (PanelType type : AllPanelTypes) {
        if (name == QStringView(Names[size_t(type)]))
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
