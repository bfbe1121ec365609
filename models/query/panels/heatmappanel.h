// The heatmap panel ("type": "heatmap"): its latency series summed into one HeatmapGrid
// (query/heatmap/heatmapquery.h; options checked by document/panels/heatmapoptions.h).
//
// CSV rows: one per non-empty cell, columns in time order, the fastest row first within
// a column. time = the column's start; source and metric = those of the panel's first
// matched series (PanelData::series); labels = {bucket=<heatmapRowLabel>,gt_ms=<lower
// bound>,le_ms=<upper bound>}, e.g. {bucket=4–8 ms,gt_ms=4,le_ms=8} (the catch-all row 0
// has gt_ms=0), so scripts read the bounds without parsing the label; value = events per
// second in that cell, unit "1/s".
#pragma once

#include "query/panels/paneldescriptor.h"

namespace Headroom {

const PanelDescriptor &heatmapPanel();

} // namespace Headroom
