// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Planted: core must not reach the engine.
#pragma once
#include "engine/cache/samplecache.h"
