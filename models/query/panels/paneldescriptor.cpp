// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/panels/paneldescriptor.h"

namespace Headroom {

const PanelDescriptor &panelDescriptor(PanelType type)
{
    return visitPanelType(type, []<PanelType Type>() -> const PanelDescriptor & {
        return panelDescriptorOf<Type>();
    });
}

} // namespace Headroom
