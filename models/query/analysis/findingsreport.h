// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Findings written out: the CSV of --export-findings (columns exactly rank, source,
// resource, kind, signal, since, until, peak, score, summary, caused_by; times ISO 8601
// UTC; caused_by the rank of the finding that explains this one, empty for a lead or a
// finding on its own) and the human-readable text of --explain, where a chain reads as a
// tree (its consequences indented under their lead).
#pragma once

#include "query/analysis/analysisrun.h"

#include <QString>

namespace Headroom::Analysis {

QString findingsCsv(const std::vector<Finding> &findings);
QString explainText(const FindingsReport &report);
QString isoUtc(qint64 ms);
// "2026-12-06T23:12:11.000Z", or "before 2026-12-06T23:12:11.000Z (start of the data)".
QString sinceText(const Finding &finding);

} // namespace Headroom::Analysis
