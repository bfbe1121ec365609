// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// /proc/net/snmp: per protocol a header line and a value line with the same prefix,
//   Tcp: RtoAlgorithm RtoMin ... RetransSegs InErrs OutRsts InCsumErrors
//   Tcp: 1 200 ... 0 0 2 0
// Columns are matched by name because their set grows with kernel versions.
#pragma once

#include <QHash>
#include <QString>
#include <QStringList>
#include <optional>

class QByteArrayView;

namespace Headroom {

// Column name -> value for `protocol` ("Tcp"). nullopt when no header/value pair for
// it exists; unparsable columns are left out and described in *problems.
std::optional<QHash<QString, qint64>> parseNetSnmp(QByteArrayView content, QByteArrayView protocol,
                                                   QStringList *problems = nullptr);

} // namespace Headroom
