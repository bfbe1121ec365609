// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Planted: a relative path that climbs out of core.
#include "../engine/seriesstore.h"
