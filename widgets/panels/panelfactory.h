// Creates the widget that draws a panel of its type: one case per PanelType
// (document/paneltype.h), so a type without a widget does not build.
#pragma once

#include "document/dashboard.h"

class QWidget;

namespace Headroom {

class PanelWidget;

PanelWidget *createPanelWidget(const DashboardPanel &config, QWidget *parent = nullptr);

} // namespace Headroom
