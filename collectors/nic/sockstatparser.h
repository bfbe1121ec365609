// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// /proc/net/sockstat's TCP line: "TCP: inuse 27 orphan 0 tw 3 alloc 29 mem 4": sockets in
// use (listening ones too), orphaned (closed by their program, still in a FIN state), in
// TIME_WAIT, allocated. Counted over the IPv4 and IPv6 sockets of the host's network
// namespace (sockstat6 repeats only "inuse" for IPv6).
#pragma once

#include <QStringList>
#include <optional>

class QByteArrayView;

namespace Headroom {

struct TcpSockStat
{
    quint64 inUse = 0;
    quint64 orphan = 0;
    quint64 timeWait = 0;
    quint64 allocated = 0;
};

std::optional<TcpSockStat> parseTcpSockStat(QByteArrayView content,
                                            QStringList *problems = nullptr);

} // namespace Headroom
