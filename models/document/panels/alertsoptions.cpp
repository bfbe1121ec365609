// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "document/panels/paneltyperules.h"

namespace Headroom {

// Options: states, minSeverity: read by the alert list as they are.
template<> const PanelTypeRules &panelTypeRulesOf<PanelType::Alerts>()
{
    static constexpr PanelTypeRules rules {};
    return rules;
}

} // namespace Headroom
