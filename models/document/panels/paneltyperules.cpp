// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "document/panels/paneltyperules.h"

#include <QStringList>

namespace Headroom {

const PanelTypeRules &panelTypeRules(PanelType type)
{
    return visitPanelType(
        type, []<PanelType Type>() -> const PanelTypeRules & { return panelTypeRulesOf<Type>(); });
}

QString panelTypesReadingQueries(QStringView conjunction)
{
    QStringList names;
    for (PanelType type : AllPanelTypes) {
        if (panelTypeRules(type).query != PanelQueryUse::None)
            names.append(panelTypeName(type));
    }
    if (names.size() < 2)
        return names.join(QString());
    const QString last = names.takeLast();
    return names.join(u", ") + u' ' + conjunction + u' ' + last;
}

} // namespace Headroom
