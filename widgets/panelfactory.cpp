#include "panelfactory.h"

#include "timeseriespanel.h"

namespace Headroom {

PanelWidget *createPanelWidget(const DashboardPanel &config, QWidget *parent)
{
    // A file naming an unknown type is refused when it is read; a panel built in code
    // with one falls back to a time chart of its series.
    return new TimeSeriesPanel(config, parent);
}

} // namespace Headroom
