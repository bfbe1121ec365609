// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Text handed to Qt Charts (legend names, the chart title, axis titles), cut to what a
// chart can show. Qt Charts fits a text too wide for its place (ChartPresenter::
// truncatedText) by first building every shorter prefix of it and then measuring them
// by binary search: time and memory grow with the square of the length. Names come
// from labels, units and dashboard titles, all of which a recording or a dashboard
// file sets: a legend name of 400 KB took a PNG export 69 s. No chart shows more than
// a few hundred characters on one line, so a longer text is cut here, in time linear
// in what is kept, before Qt Charts sees it; the CSV and the findings keep it whole.
#pragma once

#include <QString>

namespace Headroom {

// More than any chart line shows (a 4K screen holds about 600 narrow characters).
constexpr qsizetype MaxChartTextChars = 1000;

// text, or its first MaxChartTextChars - 1 characters and an ellipsis (a surrogate
// pair is never split).
QString chartText(const QString &text);

} // namespace Headroom
