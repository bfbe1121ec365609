// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A series written the PromQL way, `name{label="value",...}`: the header of a Grafana
// CSV column and the start of an exposition line. Label values take the escapes \\, \"
// and \n; a name may be absent when a __name__ label gives it.
#pragma once

#include "core/series.h"

#include <QByteArrayView>

namespace Headroom::Import {

struct SeriesName
{
    QString metric;
    Labels labels;
};

// Reads a series name from the start of text; *end is where it stopped (after the
// closing brace, or after the name when there are no labels). False with *error when
// the labels are malformed or more than maxLabels.
bool readSeriesName(QByteArrayView text, int maxLabels, SeriesName *out, qsizetype *end,
                    QString *error);

// The whole of text as a series name when it is one (a header "cpu{host=\"a\"}"), else
// the text as the metric with no labels (a header "checkout latency").
SeriesName seriesNameOfHeader(QByteArrayView header, int maxLabels);

} // namespace Headroom::Import
