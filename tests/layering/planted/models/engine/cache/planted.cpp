// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Planted: the cache sits below the alert engine.
#include "engine/alerts/alertengine.h"
