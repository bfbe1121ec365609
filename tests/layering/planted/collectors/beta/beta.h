// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Includes back into collectors/alpha: the two folders form a cycle.
#include "alpha.h"
