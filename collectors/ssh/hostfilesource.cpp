// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "hostfilesource.h"

#include "sshfilesource.h"
#include "sshtarget.h"

namespace Headroom {

std::unique_ptr<FileSource> hostFileSource(const QJsonObject &options, QString *error)
{
    const auto transport = parseHostTransport(options, error);
    if (!transport)
        return nullptr;
    if (transport->kind != HostTransport::Kind::Ssh)
        return localFileSource(*transport, error);
    const auto target = parseSshTarget(transport->address, error);
    if (!target)
        return nullptr;
    return std::make_unique<SshFileSource>(SshConnection::shared(*target));
}

} // namespace Headroom
