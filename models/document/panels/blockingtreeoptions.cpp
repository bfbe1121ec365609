// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "document/panels/paneltyperules.h"

namespace Headroom {

// Options: none: the tree shows the blocking sessions of the range's end.
template<> const PanelTypeRules &panelTypeRulesOf<PanelType::BlockingTree>()
{
    static constexpr PanelTypeRules rules {};
    return rules;
}

} // namespace Headroom
