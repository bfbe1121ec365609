// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/cache/spacereserve.h"

#include "cachelogging.h"

#include <QFile>
#include <QFileInfo>
#include <QStorageInfo>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

namespace Headroom {

SpaceReserve::SpaceReserve(QString path, qint64 bytes)
    : m_path(std::move(path))
    , m_bytes(bytes)
{
}

bool SpaceReserve::present() const
{
    const QFileInfo info(m_path);
    return info.exists() && info.size() >= m_bytes;
}

bool SpaceReserve::ensure()
{
    if (m_bytes <= 0)
        return false;
    if (present())
        return true;
    QStorageInfo storage(QFileInfo(m_path).absolutePath());
    storage.refresh();
    if (!storage.isValid() || storage.bytesAvailable() < FreeFactor * m_bytes)
        return false;
    const QByteArray native = QFile::encodeName(m_path);
    const int fd = ::open(native.constData(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        qCDebug(lcCache) << "cache: cannot make the space reserve" << m_path
                         << std::strerror(errno);
        return false;
    }
    // posix_fallocate allocates the blocks (a sparse file would give nothing back);
    // where the file system cannot, zeros are written.
    int result = ::posix_fallocate(fd, 0, off_t(m_bytes));
    if (result == EOPNOTSUPP || result == EINVAL) {
        const std::vector<char> zeros(64 << 10, 0);
        result = 0;
        for (qint64 written = 0; written < m_bytes && result == 0;) {
            const ssize_t n = ::pwrite(
                fd, zeros.data(), size_t(std::min<qint64>(qint64(zeros.size()), m_bytes - written)),
                off_t(written));
            if (n <= 0)
                result = n < 0 ? errno : EIO;
            else
                written += n;
        }
    }
    ::close(fd);
    if (result != 0) {
        ::unlink(native.constData()); // a half reserve only takes space
        qCDebug(lcCache) << "cache: cannot make the space reserve" << m_path
                         << std::strerror(result);
        return false;
    }
    return true;
}

bool SpaceReserve::release()
{
    return ::unlink(QFile::encodeName(m_path).constData()) == 0;
}

} // namespace Headroom
