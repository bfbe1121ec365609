// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Secrets that libraries would read from the process environment on their own.
// libpq sends PGPASSWORD to whatever host a connection names, dashboard files
// included, so Headroom takes it out of the environment before any thread starts and
// hands it to libpq explicitly, only for a connection string the user typed.
#pragma once

#include <QByteArray>

namespace Headroom {

// Moves PGPASSWORD out of the environment (once; later calls do nothing). main()
// calls it first thing; environmentPgPassword() calls it too, for tests and embedders.
void takeEnvironmentSecrets();

// The PGPASSWORD the process started with; empty when there was none.
QByteArray environmentPgPassword();

} // namespace Headroom
