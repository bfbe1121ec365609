// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Settings ▸ Keep History…: how many days of raw samples, minute and hour rollups the
// cache keeps (retentionsetting.h). A tier is never kept shorter than the one below it.
#pragma once

#include "retentionsetting.h"

#include <optional>

class QWidget;

namespace Headroom {

// The days chosen, or nullopt when cancelled or nothing changed.
std::optional<RetentionDays> askRetention(QWidget *parent, const RetentionDays &current);

} // namespace Headroom
