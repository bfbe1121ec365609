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
    return QDir(m_root + path)
        .entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System, QDir::Name);
}

std::unique_ptr<FileSource> fileSourceFromOptions(const QJsonObject &options, QString *error)
{
    const QJsonValue host = options.value(QLatin1StringView("host"));
    if (!host.isUndefined() && !host.isNull() && !host.isString()) {
        if (error)
            *error = QStringLiteral("\"host\" must be a string");
        return nullptr;
    }
    const QString hostName = host.toString();
    if (!hostName.isEmpty() && hostName != QLatin1StringView("local")) {
        if (error)
            *error = QStringLiteral("remote hosts need the SSH transport (not yet available): ")
                + hostName;
        return nullptr;
    }
    return std::make_unique<LocalFileSource>(options.value(QLatin1StringView("root")).toString());
}

} // namespace Headroom
