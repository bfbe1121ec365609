// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Planted: angle brackets reach the query layer from the engine.
#include <query/panelquery.h>
