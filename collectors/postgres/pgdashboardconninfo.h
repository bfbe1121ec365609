// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The rules for a libpq connection string written in a dashboard file (untrusted
// input): keywords that would send the user's credentials somewhere the file chose.
#pragma once

#include <QString>
#include <optional>

namespace Headroom {

// nullopt when a conninfo written in a dashboard file may be used, else why not.
// Refused: hostaddr (it connects somewhere other than the host whose ~/.pgpass entry
// libpq would send), options (server settings for the session), passfile, SSL key, certificate and
// CRL paths outside
// ~/.postgresql, sslkeylogfile, and gssdelegation=1 (it hands the user's Kerberos
// credentials to the server). Typed by the user (--var), all of these are fine.
std::optional<QString> refuseDashboardConninfo(const QString &conninfo);

} // namespace Headroom
