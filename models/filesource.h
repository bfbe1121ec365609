// Where collectors read /proc and /sys from. Local today; a remote transport (SSH)
// implements the same interface later, so parsers and collectors never change.
// A poll asks for all its files in one call, so a remote source can fetch them in
// one round trip.
#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <memory>

namespace Headroom {

struct FileReadResult
{
    QHash<QString, QByteArray> contents; // path -> bytes, for the files that could be read
    QHash<QString, QString> errors; // path -> reason, for those that could not
};

class FileSource
{
public:
    virtual ~FileSource() = default;
    // Human-readable location, e.g. "local" or "ssh://db1".
    virtual QString description() const = 0;
    virtual FileReadResult readFiles(const QStringList &paths) = 0;
    // Names of the entries of a directory (not recursive); empty when it cannot be read.
    virtual QStringList listDirectory(const QString &path) = 0;
};

// Reads the local file system; rootPrefix lets tests point it at a captured tree
// (tests/fixtures/...) that mirrors /proc and /sys.
class LocalFileSource : public FileSource
{
public:
    explicit LocalFileSource(QString rootPrefix = QString());
    QString description() const override;
    FileReadResult readFiles(const QStringList &paths) override;
    QStringList listDirectory(const QString &path) override;

private:
    QString m_root;
};

// The FileSource a collector's options ask for: "host" ("" or "local": this machine;
// remote hosts arrive with the SSH transport) and "root" (a path prefix, for fixture
// trees in tests). nullptr and *error when the options cannot be served.
std::unique_ptr<FileSource> fileSourceFromOptions(const QJsonObject &options, QString *error);

} // namespace Headroom
