// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Allowed: query may read the engine.
#include "core/sample.h"
#include "engine/seriesstore.h"
