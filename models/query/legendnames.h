// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What a panel's legend says about each of its series: the name, from the panel's
// legend template or a default, and last / min / max / mean over the range.
#pragma once

#include "core/sample.h"
#include "engine/cache/rollup.h"
#include "query/panelquery.h"

#include <span>

namespace Headroom {

// Names every series: by the template when the panel has one (core/legendtemplate.h),
// otherwise seriesDisplayName() without the metric when every series of the panel
// shares it ("eth0 rx" on a panel of nic.rx.bytes lines, not "rx.bytes eth0 rx").
// A template that expands to nothing for a series falls back to the default name.
void nameSeries(QList<PanelSeriesData> *series, const QString &legendTemplate);

// last, min, max and mean over the samples (NaN skipped); count 0 when none is a number.
SeriesStats seriesStats(std::span<const Sample> samples);
// The same from aggregates (rollup.h), oldest first: the mean is their sum over their
// count; the last value is the newest aggregate's mean (a raw sample's own value).
SeriesStats seriesStats(std::span<const Aggregate> aggregates);

} // namespace Headroom
