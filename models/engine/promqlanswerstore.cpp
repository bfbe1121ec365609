// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/promqlanswerstore.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QtEndian>
#include <algorithm>
#include <cstring>
#include <sqlite3.h>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
constexpr quint32 Magic = 0x48525051; // "HRPQ"
// 1: points only; 2: each series' native histograms follow its points.
constexpr quint8 Version = 2;
// PRAGMA user_version of a file of ours.
constexpr int FileVersion = 0x48520001;
} // namespace

QString PromqlAnswerStore::pathBesideCache(const QString &cachePath)
{
    const QFileInfo info(cachePath);
    return info.path() + u'/' + info.completeBaseName() + u"-promql.sqlite"_s;
}

bool PromqlAnswerStore::open(const QString &path, QString *error)
{
    QMutexLocker locker(&m_lock);
    const bool existed = QFileInfo::exists(path) && QFileInfo(path).size() > 0;
    QString reason;
    Sqlite::Db db = Sqlite::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &reason);
    if (!db) {
        *error = u"%1: %2"_s.arg(path, reason);
        return false;
    }
    if (existed) {
        // Ours, or left alone: a file of other tables, or no database at all.
        Sqlite::Statement version(db.get(), "PRAGMA user_version");
        Sqlite::Statement tables(db.get(),
                                 "SELECT count(*) FROM sqlite_master WHERE type = 'table' "
                                 "AND name != 'promql_answers'");
        if (!version.isValid() || !version.step() || version.columnInt64(0) != FileVersion
            || !tables.isValid() || !tables.step() || tables.columnInt64(0) != 0) {
            *error = u"%1: not a file of PromQL answers; left as it is, and no answers are "
                     "kept on disk"_s.arg(path);
            return false;
        }
    } else {
        QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    }
    if (!Sqlite::configure(db.get(), true, &reason)
        || !Sqlite::exec(db.get(),
                         "CREATE TABLE IF NOT EXISTS promql_answers (key TEXT PRIMARY KEY, "
                         "answer BLOB NOT NULL, used_ms INTEGER NOT NULL)",
                         &reason)
        // Pruning after each save finds the oldest entries by this index, not a sort.
        || !Sqlite::exec(db.get(),
                         "CREATE INDEX IF NOT EXISTS promql_answers_used ON "
                         "promql_answers (used_ms)",
                         &reason)
        || !Sqlite::exec(db.get(),
                         QByteArray("PRAGMA user_version = ") + QByteArray::number(FileVersion),
                         &reason)) {
        *error = u"%1: %2"_s.arg(path, reason);
        return false;
    }
    Sqlite::Statement newest(db.get(), "SELECT coalesce(max(used_ms), 0) FROM promql_answers");
    m_lastUseMs = newest.isValid() && newest.step() ? newest.columnInt64(0) : 0;
    m_db = std::move(db);
    return true;
}

qint64 PromqlAnswerStore::nextUse() const
{
    m_lastUseMs = std::max(QDateTime::currentMSecsSinceEpoch(), m_lastUseMs + 1);
    return m_lastUseMs;
}

std::optional<PromqlResult> PromqlAnswerStore::load(const QString &key) const
{
    QMutexLocker locker(&m_lock);
    if (!m_db)
        return std::nullopt;
    Sqlite::Statement select(m_db.get(), "SELECT answer FROM promql_answers WHERE key = ?");
    select.bind(1, key);
    if (!select.isValid() || !select.step())
        return std::nullopt;
    auto answer = decode(select.columnBlob(0));
    if (answer) {
        Sqlite::Statement touch(m_db.get(), "UPDATE promql_answers SET used_ms = ? WHERE key = ?");
        touch.bind(1, nextUse());
        touch.bind(2, key);
        touch.run();
    }
    return answer;
}

void PromqlAnswerStore::save(const QString &key, const PromqlResult &result)
{
    const QByteArray encoded = encode(result);
    QMutexLocker locker(&m_lock);
    if (!m_db)
        return;
    Sqlite::Statement insert(m_db.get(),
                             "INSERT OR REPLACE INTO promql_answers (key, answer, "
                             "used_ms) VALUES (?, ?, ?)");
    insert.bind(1, key);
    insert.bind(2, encoded);
    insert.bind(3, nextUse());
    insert.run();
    Sqlite::Statement prune(m_db.get(),
                            "DELETE FROM promql_answers WHERE key IN (SELECT key FROM "
                            "promql_answers ORDER BY used_ms DESC LIMIT -1 OFFSET ?)");
    prune.bind(1, qint64(m_maxEntries));
    prune.run();
}

namespace {
// A reader over untrusted bytes: every length is checked against what is left before
// anything is allocated for it.
class Reader
{
public:
    explicit Reader(const QByteArray &bytes)
        : m_bytes(bytes)
    {
    }
    template<typename T> bool read(T *value)
    {
        if (m_bytes.size() - m_at < qsizetype(sizeof(T)))
            return false;
        std::memcpy(value, m_bytes.constData() + m_at, sizeof(T));
        *value = qFromLittleEndian(*value);
        m_at += qsizetype(sizeof(T));
        return true;
    }
    bool readDouble(double *value)
    {
        quint64 bits = 0;
        if (!read(&bits))
            return false;
        std::memcpy(value, &bits, sizeof bits);
        return true;
    }
    bool readString(QString *text)
    {
        quint32 size = 0;
        if (!read(&size) || size > quint64(m_bytes.size() - m_at))
            return false;
        *text = QString::fromUtf8(m_bytes.constData() + m_at, qsizetype(size));
        m_at += qsizetype(size);
        return true;
    }
    qsizetype left() const { return m_bytes.size() - m_at; }

private:
    const QByteArray &m_bytes;
    qsizetype m_at = 0;
};

template<typename T> void append(QByteArray *out, T value)
{
    value = qToLittleEndian(value);
    out->append(reinterpret_cast<const char *>(&value), sizeof value);
}

void appendDouble(QByteArray *out, double value)
{
    quint64 bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    append(out, bits);
}

void appendString(QByteArray *out, const QString &text)
{
    const QByteArray utf8 = text.toUtf8();
    append(out, quint32(utf8.size()));
    out->append(utf8);
}

// A series' native histograms (version 2): each 28 bytes and 24 a bucket, counted with
// the points against PromqlResult::MaxPoints as the parser counts them.
bool readHistograms(Reader &in, std::vector<PromqlHistogramPoint> *out, qint64 *total)
{
    quint64 count = 0;
    if (!in.read(&count) || count > quint64(in.left() / 28))
        return false;
    out->resize(size_t(count));
    for (PromqlHistogramPoint &point : *out) {
        qint64 ts = 0;
        quint32 buckets = 0;
        if (!in.read(&ts) || !in.readDouble(&point.count) || !in.readDouble(&point.sum)
            || !in.read(&buckets) || buckets > quint32(PromqlResult::MaxBucketsPerHistogram)
            || buckets > quint64(in.left() / 24))
            return false;
        *total += 1 + qint64(buckets);
        if (*total > PromqlResult::MaxPoints)
            return false;
        point.tsMs = ts;
        point.buckets.resize(buckets);
        for (HistogramBucket &bucket : point.buckets) {
            if (!in.readDouble(&bucket.lower) || !in.readDouble(&bucket.upper)
                || !in.readDouble(&bucket.count) || !(bucket.lower <= bucket.upper)
                || !(bucket.count >= 0))
                return false;
        }
    }
    return true;
}
} // namespace

QByteArray PromqlAnswerStore::encode(const PromqlResult &result)
{
    QByteArray out;
    append(&out, Magic);
    append(&out, Version);
    append(&out, quint32(result.warnings.size()));
    for (const QString &warning : result.warnings)
        appendString(&out, warning);
    append(&out, quint32(result.series.size()));
    for (const PromqlSeries &series : result.series) {
        append(&out, quint32(series.labels.size()));
        for (auto it = series.labels.cbegin(); it != series.labels.cend(); ++it) {
            appendString(&out, it.key());
            appendString(&out, it.value());
        }
        append(&out, quint64(series.points.size()));
        for (const Sample &point : series.points) {
            append(&out, qint64(point.tsMs));
            appendDouble(&out, point.value);
        }
        append(&out, quint64(series.histograms.size()));
        for (const PromqlHistogramPoint &point : series.histograms) {
            append(&out, qint64(point.tsMs));
            appendDouble(&out, point.count);
            appendDouble(&out, point.sum);
            append(&out, quint32(point.buckets.size()));
            for (const HistogramBucket &bucket : point.buckets) {
                appendDouble(&out, bucket.lower);
                appendDouble(&out, bucket.upper);
                appendDouble(&out, bucket.count);
            }
        }
    }
    return out;
}

std::optional<PromqlResult> PromqlAnswerStore::decode(const QByteArray &bytes)
{
    Reader in(bytes);
    quint32 magic = 0, warnings = 0, seriesCount = 0;
    quint8 version = 0;
    if (!in.read(&magic) || magic != Magic || !in.read(&version) || version < 1 || version > Version
        || !in.read(&warnings) || warnings > 1000)
        return std::nullopt;
    PromqlResult result;
    for (quint32 i = 0; i < warnings; ++i) {
        QString warning;
        if (!in.readString(&warning))
            return std::nullopt;
        // A version 1 entry of a range that held native histograms was stored by a
        // build that left them out: a miss, so they are fetched and drawn now.
        if (version == 1 && warning.contains(u"native histogram"_s))
            return std::nullopt;
        result.warnings.append(warning);
    }
    if (!in.read(&seriesCount) || seriesCount > quint32(PromqlResult::MaxSeries))
        return std::nullopt;
    qint64 total = 0;
    for (quint32 i = 0; i < seriesCount; ++i) {
        PromqlSeries series;
        quint32 labels = 0;
        if (!in.read(&labels) || labels > quint32(in.left() / 8))
            return std::nullopt;
        for (quint32 l = 0; l < labels; ++l) {
            QString key, value;
            if (!in.readString(&key) || !in.readString(&value))
                return std::nullopt;
            series.labels.insert(key, value);
        }
        quint64 points = 0;
        // 16 bytes a point: a count the rest cannot hold is a corrupt entry.
        if (!in.read(&points) || points > quint64(in.left() / 16))
            return std::nullopt;
        total += qint64(points);
        if (total > PromqlResult::MaxPoints)
            return std::nullopt;
        series.points.resize(size_t(points));
        for (Sample &point : series.points) {
            qint64 ts = 0;
            if (!in.read(&ts) || !in.readDouble(&point.value))
                return std::nullopt;
            point.tsMs = ts;
        }
        if (version >= 2 && !readHistograms(in, &series.histograms, &total))
            return std::nullopt;
        result.series.append(std::move(series));
    }
    if (in.left() != 0)
        return std::nullopt;
    return result;
}

} // namespace Headroom
