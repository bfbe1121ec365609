#include "query/panels/paneldescriptor.h"

#include "query/panels/alertlistpanel.h"
#include "query/panels/blockingtreepanel.h"
#include "query/panels/heatmappanel.h"
#include "query/panels/shardhistogrampanel.h"
#include "query/panels/shardtablepanel.h"
#include "query/panels/tablepanel.h"
#include "query/panels/timeseriespanel.h"
#include "query/panels/usematrixpanel.h"

// A PanelType missing from the switch below is an error, not a warning.
#pragma GCC diagnostic error "-Wswitch"

namespace Headroom {

const PanelDescriptor &panelDescriptor(PanelType type)
{
    switch (type) {
    case PanelType::TimeSeries:
        return timeSeriesPanel();
    case PanelType::Heatmap:
        return heatmapPanel();
    case PanelType::UseMatrix:
        return useMatrixPanel();
    case PanelType::ShardHistogram:
        return shardHistogramPanel();
    case PanelType::ShardTable:
        return shardTablePanel();
    case PanelType::Alerts:
        return alertListPanel();
    case PanelType::BlockingTree:
        return blockingTreePanel();
    case PanelType::Table:
        return tablePanel();
    }
    Q_UNREACHABLE_RETURN(timeSeriesPanel());
}

} // namespace Headroom
