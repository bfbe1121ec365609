// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "panels/panelfactory.h"

namespace Headroom {

PanelWidget *createPanelWidget(const DashboardPanel &config, QWidget *parent)
{
    return visitPanelType(
        config.type, [&]<PanelType Type>() { return createPanelWidgetOf<Type>(config, parent); });
}

} // namespace Headroom
