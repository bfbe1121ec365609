// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The FileSource for the "host" option of the host and nic collectors (read by
// parseHostTransport): this machine ("", "local"), or a remote host over SSH
// ("ssh://[user@]server[:port]"), whose connection is shared by all collectors of that
// host. node_exporter's http:// is refused here: it is not read through files (the
// plugins hand it to NodeExporterCollector). Creating it does not connect: the first
// poll does, so a dashboard opens at once even when a host is down.
#pragma once

#include "collector/filesource.h"

#include <QJsonObject>
#include <memory>

namespace Headroom {

std::unique_ptr<FileSource> hostFileSource(const QJsonObject &options, QString *error);

} // namespace Headroom
