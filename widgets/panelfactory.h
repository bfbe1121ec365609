// Creates the widget that draws a panel of the dashboard's type. The types it knows
// are the ones knownPanelTypes() lets a dashboard file name.
#pragma once

#include "document/dashboard.h"

class QWidget;

namespace Headroom {

class PanelWidget;

PanelWidget *createPanelWidget(const DashboardPanel &config, QWidget *parent = nullptr);

} // namespace Headroom
