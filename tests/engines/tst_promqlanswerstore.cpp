// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// PromQL answers on disk: what is stored reads back exactly (NaN and infinities too)
// from another store on the same file; stored bytes are untrusted (every truncation,
// a wrong magic, counts the bytes cannot hold: a miss, never a crash, and the next save
// replaces a bad entry); a file at the path that is not ours is refused and left
// byte for byte; a session's cache brings its answers file, owner-only.
#include "engine/monitoringsession.h"
#include "engine/promqlanswerstore.h"

#include <QCryptographicHash>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>
#include <cmath>
#include <cstring>
#include <sqlite3.h>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {
PromqlResult sampleAnswer()
{
    PromqlResult result;
    result.warnings = { u"only the first 2 points are shown"_s };
    PromqlSeries a;
    a.labels = { { u"__name__"_s, u"up"_s }, { u"instance"_s, u"host:9100 \"ü\""_s } };
    a.points = { { 1000, 1.0 }, { 2000, std::nan("") }, { 3000, INFINITY } };
    PromqlSeries b;
    b.points = { { 1000, -0.25 } };
    PromqlSeries native; // a native histogram series
    native.labels = { { u"__name__"_s, u"req_seconds"_s } };
    native.histograms
        = { { 1000, 3, 0.25, { { 0, 0.1, 1 }, { 0.1, INFINITY, 2 } } }, { 2000, 0, 0, {} } };
    result.series = { a, b, native };
    return result;
}

bool sameAnswer(const PromqlResult &x, const PromqlResult &y)
{
    if (x.warnings != y.warnings || x.series.size() != y.series.size())
        return false;
    for (qsizetype i = 0; i < x.series.size(); ++i) {
        const auto &p = x.series[i].points, &q = y.series[i].points;
        if (x.series[i].labels != y.series[i].labels || p.size() != q.size()
            || x.series[i].histograms != y.series[i].histograms)
            return false;
        for (size_t j = 0; j < p.size(); ++j) {
            const bool bothNan = std::isnan(p[j].value) && std::isnan(q[j].value);
            if (p[j].tsMs != q[j].tsMs || (!bothNan && p[j].value != q[j].value))
                return false;
        }
    }
    return true;
}

QByteArray fileHash(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly)
        ? QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256)
        : QByteArray();
}
} // namespace

class TestPromqlAnswerStore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTrip()
    {
        const auto decoded = PromqlAnswerStore::decode(PromqlAnswerStore::encode(sampleAnswer()));
        QVERIFY(decoded);
        QVERIFY(sameAnswer(*decoded, sampleAnswer()));
    }

    void untrustedBytes()
    {
        const QByteArray good = PromqlAnswerStore::encode(sampleAnswer());
        for (qsizetype n = 0; n < good.size(); ++n)
            QVERIFY2(!PromqlAnswerStore::decode(good.left(n)), qPrintable(QString::number(n)));
        QVERIFY(!PromqlAnswerStore::decode(good + "x")); // trailing bytes
        QByteArray magic = good;
        magic[0] = char(magic[0] ^ 1);
        QVERIFY(!PromqlAnswerStore::decode(magic));
        // A point count far beyond what the bytes hold, right after the first labels.
        QByteArray huge = PromqlAnswerStore::encode(PromqlResult { { PromqlSeries {} }, {}, {} });
        std::memset(huge.data() + huge.size() - 16, 0x7f, 8);
        QVERIFY(!PromqlAnswerStore::decode(huge));
        // The same for the histograms that follow the points.
        QByteArray hugeHistograms
            = PromqlAnswerStore::encode(PromqlResult { { PromqlSeries {} }, {}, {} });
        std::memset(hugeHistograms.data() + hugeHistograms.size() - 8, 0x7f, 8);
        QVERIFY(!PromqlAnswerStore::decode(hugeHistograms));
        // A bucket whose lower bound lies above its upper one: a corrupt entry.
        PromqlResult inverted;
        PromqlSeries native;
        native.histograms = { { 1000, 1, 1, { { 2, 1, 1 } } } };
        inverted.series = { native };
        QVERIFY(!PromqlAnswerStore::decode(PromqlAnswerStore::encode(inverted)));
    }

    // Entries an older build wrote (version 1, points only) still load, but not one of a
    // range that held native histograms, which that build left out: a miss, so they
    // are fetched and drawn.
    void versionOneEntries()
    {
        const auto versionOne = [](const QString &warning) {
            QByteArray bytes;
            const auto put = [&bytes](auto value) {
                value = qToLittleEndian(value);
                bytes.append(reinterpret_cast<const char *>(&value), sizeof value);
            };
            put(quint32(0x48525051));
            put(quint8(1));
            put(quint32(1));
            put(quint32(warning.toUtf8().size()));
            bytes.append(warning.toUtf8());
            put(quint32(1)); // one series without labels and one point
            put(quint32(0));
            put(quint64(1));
            put(qint64(1000));
            const double value = 2.5;
            quint64 bits = 0;
            std::memcpy(&bits, &value, sizeof bits);
            put(bits);
            return bytes;
        };
        const auto plain = PromqlAnswerStore::decode(versionOne(u"something odd"_s));
        QVERIFY(plain);
        QCOMPARE(plain->series.size(), 1);
        QCOMPARE(plain->series[0].points, (std::vector<Sample> { { 1000, 2.5 } }));
        QVERIFY(!PromqlAnswerStore::decode(
            versionOne(u"2 native histogram series are not drawn by this build"_s)));
    }

    void storedAnswersOutliveTheStore()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"cache-promql.sqlite"_s);
        {
            PromqlAnswerStore store;
            QString error;
            QVERIFY2(store.open(path, &error), qPrintable(error));
            store.save(u"k"_s, sampleAnswer());
        }
        PromqlAnswerStore again;
        QString error;
        QVERIFY2(again.open(path, &error), qPrintable(error));
        const auto loaded = again.load(u"k"_s);
        QVERIFY(loaded && sameAnswer(*loaded, sampleAnswer()));
        QVERIFY(!again.load(u"other"_s));

        // An entry that does not decode is a miss, and the next save replaces it.
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(QFile::encodeName(path).constData(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "UPDATE promql_answers SET answer = x'00ff'", nullptr, nullptr,
                              nullptr),
                 SQLITE_OK);
        sqlite3_close(db);
        QVERIFY(!again.load(u"k"_s));
        again.save(u"k"_s, sampleAnswer());
        QVERIFY(again.load(u"k"_s));
    }

    // At most the bound: the least recently used entry goes first, where a load counts
    // as a use; the bound and the order hold across a reopen (all within milliseconds,
    // so the order cannot come from the clock alone).
    void keepsTheMostRecentlyUsed()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"cache-promql.sqlite"_s);
        const auto keysIn = [&path] {
            sqlite3 *db = nullptr;
            QStringList keys;
            if (sqlite3_open(QFile::encodeName(path).constData(), &db) == SQLITE_OK)
                sqlite3_exec(
                    db, "SELECT key FROM promql_answers ORDER BY key",
                    [](void *out, int, char **values, char **) {
                        static_cast<QStringList *>(out)->append(QString::fromUtf8(values[0]));
                        return 0;
                    },
                    &keys, nullptr);
            sqlite3_close(db);
            return keys;
        };
        {
            PromqlAnswerStore store(3);
            QString error;
            QVERIFY2(store.open(path, &error), qPrintable(error));
            for (const QString &key : { u"a"_s, u"b"_s, u"c"_s })
                store.save(key, sampleAnswer());
            QVERIFY(store.load(u"a"_s)); // a is now newer than b
            store.save(u"d"_s, sampleAnswer());
            QCOMPARE(keysIn(), (QStringList { u"a"_s, u"c"_s, u"d"_s }));
            QVERIFY(!store.load(u"b"_s));
        }
        PromqlAnswerStore again(3);
        QString error;
        QVERIFY2(again.open(path, &error), qPrintable(error));
        QVERIFY(again.load(u"c"_s)); // c after a and d
        again.save(u"e"_s, sampleAnswer());
        QCOMPARE(keysIn(), (QStringList { u"c"_s, u"d"_s, u"e"_s }));
        // A store with a larger bound keeps what the file holds.
        PromqlAnswerStore larger;
        QVERIFY2(larger.open(path, &error), qPrintable(error));
        larger.save(u"f"_s, sampleAnswer());
        QCOMPARE(keysIn().size(), 4);
    }

    void foreignFilesAreLeftAlone_data()
    {
        QTest::addColumn<QByteArray>("kind");
        QTest::newRow("not SQLite") << QByteArray("garbage");
        QTest::newRow("another SQLite file") << QByteArray("sqlite");
    }
    void foreignFilesAreLeftAlone()
    {
        QFETCH(QByteArray, kind);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"cache-promql.sqlite"_s);
        if (kind == "garbage") {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArray(8192, 'x'));
        } else {
            sqlite3 *db = nullptr;
            QCOMPARE(sqlite3_open(QFile::encodeName(path).constData(), &db), SQLITE_OK);
            QCOMPARE(sqlite3_exec(db, "CREATE TABLE precious (x); INSERT INTO precious VALUES (1)",
                                  nullptr, nullptr, nullptr),
                     SQLITE_OK);
            sqlite3_close(db);
        }
        const QByteArray before = fileHash(path);
        PromqlAnswerStore store;
        QString error;
        QVERIFY(!store.open(path, &error));
        QVERIFY2(error.startsWith(path + u": "_s), qPrintable(error));
        qInfo("%s", qPrintable(error));
        store.save(u"k"_s, sampleAnswer()); // a store that did not open keeps nothing
        QVERIFY(!store.load(u"k"_s));
        QCOMPARE(fileHash(path), before);
    }

    void aSessionsCacheBringsItsAnswers()
    {
        QTemporaryDir dir;
        MonitoringSession session;
        QString error;
        QVERIFY2(session.openCache(dir.filePath(u"cache.sqlite"_s), &error), qPrintable(error));
        const QFileInfo answers(dir.filePath(u"cache-promql.sqlite"_s));
        QVERIFY(answers.exists());
        QCOMPARE(answers.permissions() & (QFile::ReadGroup | QFile::ReadOther),
                 QFileDevice::Permissions());
        session.promqlEngines().cache(u"k"_s, sampleAnswer());
        QVERIFY(session.openCache(QString(), &error)); // closes it, as quitting does
        MonitoringSession later;
        QVERIFY2(later.openCache(dir.filePath(u"cache.sqlite"_s), &error), qPrintable(error));
        const auto loaded = later.promqlEngines().cached(u"k"_s);
        QVERIFY(loaded && sameAnswer(*loaded, sampleAnswer()));
    }
};

QTEST_GUILESS_MAIN(TestPromqlAnswerStore)
#include "tst_promqlanswerstore.moc"
