// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A plugin folder that includes one of another folder, which includes it back.
#include "beta.h"
