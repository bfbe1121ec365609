#include "filesource.h"

#include <QDir>
#include <QFile>

namespace Headroom {

LocalFileSource::LocalFileSource(QString rootPrefix)
    : m_root(std::move(rootPrefix))
{
}

QString LocalFileSource::description() const
{
    return m_root.isEmpty() ? QStringLiteral("local") : QStringLiteral("local:") + m_root;
}

FileReadResult LocalFileSource::readFiles(const QStringList &paths)
{
    FileReadResult result;
    for (const QString &path : paths) {
        QFile file(m_root + path);
        // /proc and /sys files report size 0: read until EOF, not size() bytes.
        if (!file.open(QIODevice::ReadOnly)) {
            result.errors.insert(path, file.errorString());
            continue;
        }
        QByteArray data = file.readAll();
        if (file.error() != QFileDevice::NoError) {
            result.errors.insert(path, file.errorString());
            continue;
        }
        result.contents.insert(path, std::move(data));
    }
    return result;
}

QStringList LocalFileSource::listDirectory(const QString &path)
{
    return QDir(m_root + path).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System,
                                         QDir::Name);
}

} // namespace Headroom
