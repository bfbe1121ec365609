#include "panels/panelfactory.h"

#include "panels/alertlistpanel.h"
#include "panels/blockingtreepanel.h"
#include "panels/heatmappanel.h"
#include "panels/shardhistogrampanel.h"
#include "panels/shardtablepanel.h"
#include "panels/tablepanel.h"
#include "panels/timeseriespanel.h"
#include "panels/usematrixpanel.h"

// A PanelType missing from the switch below is an error, not a warning.
#pragma GCC diagnostic error "-Wswitch"

namespace Headroom {

PanelWidget *createPanelWidget(const DashboardPanel &config, QWidget *parent)
{
    switch (config.type) {
    case PanelType::TimeSeries:
        return new TimeSeriesPanel(config, parent);
    case PanelType::Heatmap:
        return new HeatmapPanel(config, parent);
    case PanelType::UseMatrix:
        return new UseMatrixPanel(config, parent);
    case PanelType::ShardHistogram:
        return new ShardHistogramPanel(config, parent);
    case PanelType::ShardTable:
        return new ShardTablePanel(config, parent);
    case PanelType::Alerts:
        return new AlertListPanel(config, parent);
    case PanelType::BlockingTree:
        return new BlockingTreePanel(config, parent);
    case PanelType::Table:
        return new TablePanel(config, parent);
    }
    Q_UNREACHABLE_RETURN(new TimeSeriesPanel(config, parent));
}

} // namespace Headroom
