// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The application's icon, painted: the SVG in packaging/ needs Qt's SVG module, which
// the app does not otherwise use. Three bars rising to a red one: headroom running out.
#pragma once

#include <QIcon>

namespace Headroom {

QIcon appIcon();

} // namespace Headroom
