// Helpers shared by the collector tests: a FileSource whose fixture root can be swapped
// between polls, a fake clock, and lookups into a SampleBatch.
#pragma once

#include "filesource.h"
#include "sample.h"

#include <QFile>
#include <QString>
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
    QString description() const override { return m_local.description(); }
    FileReadResult readFiles(const QStringList &paths) override { return m_local.readFiles(paths); }
    QStringList listDirectory(const QString &path) override { return m_local.listDirectory(path); }

private:
    LocalFileSource m_local;
};

// A clock the test sets before each poll.
struct FakeClock
{
    std::shared_ptr<qint64> now = std::make_shared<qint64>(0);
    qint64 operator()() const { return *now; }
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

// Parses "{a=1,b=x}" written in test data tables.
inline Labels labels(const QString &text)
{
    return text.isEmpty() ? Labels() : labelsFromString(text);
}

inline bool nearlyEqual(double actual, double expected)
{
    return std::abs(actual - expected) <= 1e-9 * std::max(1.0, std::abs(expected));
}

} // namespace Headroom::Test
