// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Helpers shared by the collector tests: a FileSource whose fixture root can be swapped
// between polls, a fake clock, a harness polling a collector over both, lookups into a
// SampleBatch, and the test tables and checks every collector test has.
#pragma once

#include "collector/collector.h"
#include "collector/filesource.h"
#include "core/sample.h"

#include <QFile>
#include <QHash>
#include <QJsonObject>
#include <QSet>
#include <QString>
#include <QTest>
#include <cmath>
#include <memory>
#include <optional>

namespace Headroom::Test {

inline QString fixture(const QString &relative)
{
    return QStringLiteral(HEADROOM_FIXTURES_DIR "/") + relative;
}

inline QByteArray readFixture(const QString &relative)
{
    QFile file(fixture(relative));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read fixture %s", qPrintable(file.fileName()));
    return file.readAll();
}

// The capture scripts record when each real capture was taken.
inline qint64 captureTime(const QString &relativeDir)
{
    return readFixture(relativeDir + QStringLiteral("/captured_at_ms")).trimmed().toLongLong();
}

// Delegates to a LocalFileSource on the current root, so a test can poll t0, then t1.
class FixtureSource : public FileSource
{
public:
    explicit FixtureSource(const QString &relativeRoot) { setRoot(relativeRoot); }
    void setRoot(const QString &relativeRoot) { m_local = LocalFileSource(fixture(relativeRoot)); }
    // A tree anywhere (a test's temporary directory).
    void setRootPath(const QString &path) { m_local = LocalFileSource(path); }
    QString description() const override { return m_local.description(); }
    FileReadResult read(const FileReadRequest &request, const QDeadlineTimer &deadline) override
    {
        lastRequest = request;
        FileReadResult result = m_local.read(request, deadline);
        // What only root could read (the io and fd of another user's process).
        for (const QString &path : std::as_const(denied)) {
            if (result.contents.remove(path) > 0)
                result.errors.insert(path, QStringLiteral("Permission denied"));
            if (result.entryCounts.remove(path) > 0)
                result.entryCountErrors.insert(path, QStringLiteral("Permission denied"));
        }
        // A captured tree has no filesystems of its own: a test gives their figures.
        result.filesystems.clear();
        result.filesystemErrors.clear();
        for (const QString &mount : request.filesystems) {
            const auto it = filesystems.constFind(mount);
            if (it != filesystems.cend())
                result.filesystems.insert(mount, *it);
            else
                result.filesystemErrors.insert(mount, QStringLiteral("not in the test's figures"));
        }
        return result;
    }
    DirectoryListing listDirectory(const QString &path, const QDeadlineTimer &deadline) override
    {
        return m_local.listDirectory(path, deadline);
    }

    // statvfs figures by mount point, as the test sets them before a poll.
    QHash<QString, FilesystemFigures> filesystems;
    // Paths (files, counted directories) that read as "Permission denied".
    QSet<QString> denied;
    // What the last read asked for.
    FileReadRequest lastRequest;

private:
    LocalFileSource m_local;
};

// A clock the test sets before each poll.
struct FakeClock
{
    std::shared_ptr<qint64> now = std::make_shared<qint64>(0);
    qint64 operator()() const { return *now; }
};

// A collector reading a FixtureSource on a FakeClock; poll() moves both on first.
class FixtureHarness
{
public:
    // make(std::unique_ptr<FileSource>, FakeClock) builds the collector under test.
    template<typename Make> FixtureHarness(const QString &root, Make make)
    {
        auto owned = std::make_unique<FixtureSource>(root);
        m_source = owned.get();
        m_collector = make(std::move(owned), m_clock);
    }

    FixtureSource &source() { return *m_source; }

    PollResult poll(const QString &root, qint64 ts)
    {
        m_source->setRoot(root);
        *m_clock.now = ts;
        return m_collector->poll(QDeadlineTimer(5000));
    }

private:
    FakeClock m_clock;
    FixtureSource *m_source = nullptr;
    std::unique_ptr<Collector> m_collector;
};

inline QList<SeriesValue> findAll(const SampleBatch &batch, const QString &metric)
{
    QList<SeriesValue> found;
    for (const SeriesValue &value : batch.values) {
        if (value.info.key.metric == metric)
            found.append(value);
    }
    return found;
}

inline std::optional<SeriesValue> find(const SampleBatch &batch, const QString &metric,
                                       const Labels &labels = {})
{
    for (const SeriesValue &value : batch.values) {
        if (value.info.key.metric == metric && value.info.key.labels == labels)
            return value;
    }
    return std::nullopt;
}

inline std::optional<double> valueOf(const SampleBatch &batch, const QString &metric,
                                     const Labels &labels = {})
{
    const auto value = find(batch, metric, labels);
    return value ? std::optional<double>(value->value) : std::nullopt;
}

// Parses "{a=1,b=x}" written in test data tables.
inline Labels labels(const QString &text)
{
    return text.isEmpty() ? Labels() : labelsFromString(text);
}

inline bool nearlyEqual(double actual, double expected)
{
    return std::abs(actual - expected) <= 1e-9 * std::max(1.0, std::abs(expected));
}

// The columns of a metadata_data() table, and one row of it.
inline void addMetadataColumns()
{
    QTest::addColumn<QString>("metric");
    QTest::addColumn<QString>("labels");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<QString>("resource");
    QTest::addColumn<UseKind>("kind");
}

inline void metadataRow(const QString &metric, const QString &labels, const QString &unit,
                        const QString &resource, UseKind kind)
{
    QTest::newRow(qPrintable(metric + labels)) << metric << labels << unit << resource << kind;
}

// create_data() rows every collector reading /proc and /sys has: ssh:// hosts are
// accepted (the first poll connects), a password or a "root" prefix with them refused.
inline void addSshCreateRows()
{
    using namespace Qt::StringLiterals;
    QTest::newRow("ssh") << QJsonObject { { u"host"_s, u"ssh://x"_s } } << QString();
    QTest::newRow("ssh user port")
        << QJsonObject { { u"host"_s, u"ssh://ops@db1:2222"_s } } << QString();
    QTest::newRow("ssh password") << QJsonObject { { u"host"_s, u"ssh://ops:hunter2@db1"_s } }
                                  << u"\"host\": ssh://ops@db1: ssh:// URLs take no password; "
                                     "Headroom signs in with ssh-agent or a key file (~/.ssh/id_*, "
                                     "or IdentityFile in ~/.ssh/config)"_s;
    QTest::newRow("ssh with root")
        << QJsonObject { { u"host"_s, u"ssh://db1"_s }, { u"root"_s, u"/x"_s } }
        << u"\"root\" is for local captured trees; it cannot be used with ssh://"_s;
}

// The body of a create() test: C::create with the "options" of the current row fails
// with exactly its "error", or succeeds when that is empty.
template<typename C> void verifyCreate(const QString &sourceId)
{
    QFETCH(QJsonObject, options);
    QFETCH(QString, error);
    CollectorConfig config;
    config.sourceId = sourceId;
    config.options = options;
    QString actualError;
    const auto collector = C::create(config, &actualError);
    QCOMPARE(actualError, error);
    QCOMPARE(collector != nullptr, error.isEmpty());
}

} // namespace Headroom::Test
