// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Findings written out: the CSV of --export-findings (columns exactly rank, source,
// resource, kind, signal, since, until, peak, score, summary; times ISO 8601 UTC) and
// the human-readable text of --explain.
#pragma once

#include "query/analysis/analysisrun.h"

#include <QString>

namespace Headroom::Analysis {

QString findingsCsv(const std::vector<Finding> &findings);
QString explainText(const FindingsReport &report);
QString isoUtc(qint64 ms);

} // namespace Headroom::Analysis
