#include "collector/filesource.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

LocalFileSource::LocalFileSource(QString rootPrefix)
    : m_root(std::move(rootPrefix))
{
}

QString LocalFileSource::description() const
{
    return m_root.isEmpty() ? u"local"_s : u"local:"_s + m_root;
}

FileReadResult LocalFileSource::readFiles(const QStringList &paths, const QDeadlineTimer &deadline)
{
    Q_UNUSED(deadline); // procfs and sysfs reads do not block
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

DirectoryListing LocalFileSource::listDirectory(const QString &path, const QDeadlineTimer &deadline)
{
    Q_UNUSED(deadline);
    const QDir dir(m_root + path);
    DirectoryListing listing;
    if (!dir.exists()) {
        listing.error = u"no such directory: "_s + path;
        return listing;
    }
    // Never all names at once: keep at most twice the cap, cut back to the smallest
    // MaxEntries whenever it fills up.
    QDirIterator it(dir.path(), QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System);
    qsizetype total = 0;
    while (it.hasNext()) {
        listing.entries << it.nextFileInfo().fileName();
        ++total;
        if (listing.entries.size() >= 2 * DirectoryListing::MaxEntries)
            capListing(&listing);
    }
    capListing(&listing);
    listing.totalEntries = total;
    return listing;
}

QString DirectoryListing::capWarning(const QString &path) const
{
    if (!capped())
        return {};
    return u"%1: %2 entries, only the first %3 by name are read (listing cap %4)"_s.arg(path)
        .arg(totalEntries)
        .arg(entries.size())
        .arg(MaxEntries);
}

void capListing(DirectoryListing *listing, int cap)
{
    std::sort(listing->entries.begin(), listing->entries.end());
    listing->totalEntries = std::max(listing->totalEntries, listing->entries.size());
    if (listing->entries.size() > cap)
        listing->entries.resize(cap);
}

std::unique_ptr<FileSource> localFileSource(const HostTransport &transport, QString *error)
{
    if (transport.kind != HostTransport::Kind::Local) {
        if (error)
            *error = unreadableHostMessage(transport.address);
        return nullptr;
    }
    return std::make_unique<LocalFileSource>(transport.root);
}

std::unique_ptr<FileSource> fileSourceFromOptions(const QJsonObject &options, QString *error)
{
    const auto transport = parseHostTransport(options, error);
    return transport ? localFileSource(*transport, error) : nullptr;
}

} // namespace Headroom
