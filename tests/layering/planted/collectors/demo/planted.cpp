// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Planted: a plugin links only headroom_collector.
#include "document/dashboard.h"
