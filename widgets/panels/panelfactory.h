// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Creates the widget that draws a panel of its type. Each type's widgets/panels/<type>panel.cpp
// defines createPanelWidgetOf<PanelType::X>(); the dispatch is generated from the list of
// types (document/paneltypelist.h), so a listed type without a widget fails to link.
#pragma once

#include "document/dashboard.h"

class QWidget;

namespace Headroom {

class PanelWidget;

template<PanelType Type>
PanelWidget *createPanelWidgetOf(const DashboardPanel &config, QWidget *parent);
#define HEADROOM_PANEL_WIDGET(Enumerator, name)                                                    \
    template<>                                                                                     \
    PanelWidget *createPanelWidgetOf<PanelType::Enumerator>(const DashboardPanel &config,          \
                                                            QWidget *parent);
HEADROOM_PANEL_TYPES(HEADROOM_PANEL_WIDGET)
#undef HEADROOM_PANEL_WIDGET

PanelWidget *createPanelWidget(const DashboardPanel &config, QWidget *parent = nullptr);

} // namespace Headroom
