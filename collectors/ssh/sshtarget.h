// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Where an ssh:// host value points. Parsing is strict: a value that is not a plain
// ssh://[user@]server[:port] is refused with the reason, and a password in it is refused
// without being repeated anywhere (Headroom authenticates with ssh-agent or keys only).
#pragma once

#include <QString>
#include <optional>

namespace Headroom {

struct SshTarget
{
    QString user; // empty: the User of ~/.ssh/config for this host, else the local user
    QString host; // name or address as written (IPv6 without brackets)
    int port = 0; // 0: the Port of ~/.ssh/config for this host, else 22

    // ssh://user@host:port as given, the source's description and the session key.
    QString url() const;
};

bool isSshUrl(const QString &value);

// nullopt and *error (which never contains the password) when value is not usable.
std::optional<SshTarget> parseSshTarget(const QString &value, QString *error);

} // namespace Headroom
