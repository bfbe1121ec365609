// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// /proc/sys/fs/file-nr: "1344	0	9223372036854775807": file handles allocated, allocated
// but unused (always 0 since Linux 2.6), and the maximum (fs.file-max).
#pragma once

#include <QStringList>
#include <optional>

class QByteArrayView;

namespace Headroom {

struct FileNr
{
    quint64 allocated = 0;
    quint64 maximum = 0;
};

std::optional<FileNr> parseFileNr(QByteArrayView content, QStringList *problems = nullptr);

} // namespace Headroom
