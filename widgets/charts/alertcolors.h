// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The colours of alert severities, shared by chart marks, the alert list and editors.
#pragma once

#include "document/alertrule.h"

#include <QColor>

namespace Headroom {

// Critical and warning match the threshold lines of time panels; info is a calm blue.
QColor alertSeverityColor(AlertSeverity severity);

} // namespace Headroom
