// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Credentials for Prometheus-compatible engines, from the user's own file, never from a
// dashboard: $XDG_CONFIG_HOME/headroom/engines.json (~/.config/headroom/engines.json):
//
//   {"engines": [
//     {"url": "https://prom.example:9090", "bearerTokenFile": "/home/me/.prom-token"},
//     {"url": "http://vm.example:8428", "username": "me", "passwordFile": "/home/me/.vm-pw"}]}
//
// An entry applies to an engine whose scheme, host and port are its URL's and whose
// path starts with the entry's path, by whole segments, both read as the engine reads
// them (percent-decoded, dot segments resolved); an engine URL whose path holds a dot
// segment is refused outright (promqlPathRefusal), so that /prom/../x or
// /prom/%2e%2e/x never gets the credentials of /prom. Secrets live in files of their own (the first
// line, trimmed), so the file of entries holds none; every problem is named by file and
// entry, never with a secret in it.
#pragma once

#include "collector/httpget.h"

#include <QUrl>

namespace Headroom {

// $XDG_CONFIG_HOME/headroom/engines.json.
QString promqlCredentialsPath();
// Why an engine URL is not used: its path holds "." or ".." segments, plainly or
// percent-encoded (any number of times over). nullopt when it may be used.
std::optional<QString> promqlPathRefusal(const QUrl &engine);
// The Authorization header for engine (none when no entry applies), or nullopt with
// *error when the engine URL is refused (promqlPathRefusal), or the file or an applying
// entry cannot be used.
std::optional<HttpHeaders> promqlCredentialHeaders(const QUrl &engine, QString *error);

} // namespace Headroom
