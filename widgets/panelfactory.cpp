#include "panelfactory.h"

#include "alertlistpanel.h"
#include "heatmappanel.h"
#include "shardhistogrampanel.h"
#include "shardtablepanel.h"
#include "timeseriespanel.h"
#include "usematrixpanel.h"

namespace Headroom {

PanelWidget *createPanelWidget(const DashboardPanel &config, QWidget *parent)
{
    // A file naming an unknown type is refused when it is read; a panel built in code
    // with one falls back to a time chart of its series.
    if (config.type == QLatin1StringView("alerts"))
        return new AlertListPanel(config, parent);
    if (config.type == QLatin1StringView("usematrix"))
        return new UseMatrixPanel(config, parent);
    if (config.type == QLatin1StringView("heatmap"))
        return new HeatmapPanel(config, parent);
    if (config.type == QLatin1StringView("shardhistogram"))
        return new ShardHistogramPanel(config, parent);
    if (config.type == QLatin1StringView("shardtable"))
        return new ShardTablePanel(config, parent);
    return new TimeSeriesPanel(config, parent);
}

} // namespace Headroom
