// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Alert events as CSV, the contract of `headroom --export-alerts FILE`: one header row,
// one row per event, oldest first. Columns: time (ISO-8601 UTC, milliseconds), rule (its
// id), series (source/metric{labels}), state (pending, firing, resolved, ok), value
// (empty when the event was caused by missing data), severity, message.
#pragma once

#include "engine/runtime/alertevent.h"

#include <QByteArray>

namespace Headroom {

QByteArray alertCsv(const QList<AlertEvent> &events);
// Written atomically (QSaveFile); false with *error naming the file on failure.
bool writeAlertCsvFile(const QList<AlertEvent> &events, const QString &path, QString *error);

} // namespace Headroom
