// False positives: every shipped dashboard collected for 10 minutes on this quiet
// machine (and its idle test PostgreSQL and MariaDB) gives no finding at or above the
// warning score. Run serially (ctest RUN_SERIAL): other tests' load would be a real change.
// HEADROOM_IDLE_SECONDS=N shortens the run for a quick local check.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
// RFC 4180 rows: quoted fields may hold commas, doubled quotes and newlines.
QList<QStringList> parseCsv(const QString &text)
{
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quoted) {
            if (c == u'"' && i + 1 < text.size() && text.at(i + 1) == u'"') {
                field += u'"';
                ++i;
            } else if (c == u'"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == u'"') {
            quoted = true;
        } else if (c == u',') {
            row.append(field);
            field.clear();
        } else if (c == u'\n') {
            row.append(field);
            field.clear();
            rows.append(row);
            row.clear();
        } else {
            field += c;
        }
    }
    if (!field.isEmpty() || !row.isEmpty()) {
        row.append(field);
        rows.append(row);
    }
    return rows;
}
// A shipped dashboard whose every source is a promql one (the fleet dashboard).
bool readsOnlyEngines(const QString &name)
{
    QFile file(QStringLiteral(HEADROOM_SOURCE_DIR "/resources/dashboards/") + name);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QJsonArray sources
        = QJsonDocument::fromJson(file.readAll()).object().value(u"sources"_s).toArray();
    return !sources.isEmpty()
        && std::all_of(sources.begin(), sources.end(), [](const QJsonValue &s) {
               return s.toObject().value(u"plugin"_s).toString() == u"promql"_s;
           });
}

} // namespace

class TestIdleFindings : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shippedDashboardsFindNothingAboveWarning();
};

void TestIdleFindings::shippedDashboardsFindNothingAboveWarning()
{
    const int seconds = qEnvironmentVariableIsSet("HEADROOM_IDLE_SECONDS")
        ? qEnvironmentVariableIntValue("HEADROOM_IDLE_SECONDS")
        : 600;
    QStringList dashboards;
    for (const QString &name : QDir(QStringLiteral(HEADROOM_SOURCE_DIR "/resources/dashboards"))
                                   .entryList({ u"*.json"_s }))
        dashboards.append(name);
    QVERIFY(dashboards.size() >= 3);
    const bool havePg = !qEnvironmentVariableIsEmpty("HEADROOM_TEST_PGHOST");
    if (havePg) {
        // The shipped dashboard's conninfo is empty: libpq's defaults, as for a user.
        qputenv("PGHOST", qgetenv("HEADROOM_TEST_PGHOST"));
        qputenv("PGPORT", qgetenv("HEADROOM_TEST_PGPORT"));
        qputenv("PGUSER", "postgres");
        qputenv("PGDATABASE", "postgres");
    }

    QTemporaryDir dir;
    std::vector<std::unique_ptr<QProcess>> runs;
    QStringList ran;
    for (const QString &name : std::as_const(dashboards)) {
        if (readsOnlyEngines(name)) {
            // Findings are made from what Headroom collects itself; such a dashboard
            // collects nothing (tst_fleetuse draws it from a real Prometheus).
            qInfo("%s reads a Prometheus-compatible engine only: no findings to judge",
                  qPrintable(name));
            continue;
        }
        if (name.startsWith(u"postgres"_s) && !havePg) {
            qWarning("no test PostgreSQL (HEADROOM_TEST_PGHOST): %s not run", qPrintable(name));
            continue;
        }
        QStringList args { u"--dashboard"_s,
                           name,
                           u"--cache"_s,
                           dir.filePath(name + u".sqlite"_s),
                           u"--collect-for"_s,
                           QString::number(seconds),
                           u"--range"_s,
                           QString::number(seconds + 5) + u's',
                           u"--explain"_s,
                           u"--export-findings"_s,
                           dir.filePath(name + u".csv"_s) };
        if (name.startsWith(u"mariadb"_s)) {
            // The test MariaDB, idle too (this test runs alone).
            const QString socket = qEnvironmentVariable("HEADROOM_TEST_MARIADB_SOCKET");
            if (socket.isEmpty()) {
                qWarning("no test MariaDB (HEADROOM_TEST_MARIADB_SOCKET): %s not run",
                         qPrintable(name));
                continue;
            }
            args << u"--var"_s << u"server=mariadb://root@localhost/?socket="_s + socket;
        }
        auto p = std::make_unique<QProcess>();
        p->setProcessChannelMode(QProcess::ForwardedErrorChannel); // stdout: --explain
        p->start(QStringLiteral(HEADROOM_BUILD_DIR "/bin/headroom"), args);
        QVERIFY(p->waitForStarted());
        runs.push_back(std::move(p));
        ran.append(name);
    }
    for (qsizetype i = 0; i < ran.size(); ++i) {
        QProcess &p = *runs[size_t(i)];
        QVERIFY2(p.waitForFinished((seconds + 90) * 1000), qPrintable(ran[i]));
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, qPrintable(ran[i]));
        // The run watched something: "Findings for ... (N series, ...".
        const QString explained = QString::fromUtf8(p.readAllStandardOutput());
        const QRegularExpressionMatch analysed
            = QRegularExpression(u"\\((\\d+) series"_s).match(explained);
        QVERIFY2(analysed.hasMatch() && analysed.captured(1).toInt() >= 10,
                 qPrintable(ran[i] + u": "_s + explained.left(300)));
        qInfo("%s: %s series analysed", qPrintable(ran[i]), qPrintable(analysed.captured(1)));
        QFile csv(dir.filePath(ran[i] + u".csv"_s));
        QVERIFY2(csv.open(QIODevice::ReadOnly), qPrintable(csv.fileName()));
        const QList<QStringList> rows = parseCsv(QString::fromUtf8(csv.readAll()));
        QVERIFY(!rows.isEmpty());
        QCOMPARE(rows.first().join(u','),
                 u"rank,source,resource,kind,signal,since,until,peak,score,summary"_s);
        int aboveWarning = 0;
        for (qsizetype r = 1; r < rows.size(); ++r) {
            qInfo("%s: %s", qPrintable(ran[i]), qPrintable(rows[r].join(u" | ")));
            QCOMPARE(rows[r].size(), 10);
            bool ok = false;
            const double score = rows[r][8].toDouble(&ok);
            QVERIFY2(ok, qPrintable(rows[r].join(u',')));
            aboveWarning += score >= 0.5 ? 1 : 0;
        }
        QVERIFY2(
            aboveWarning == 0,
            qPrintable(u"%1: %2 finding(s) at or above warning in an idle run"_s.arg(ran[i]).arg(
                aboveWarning)));
    }
}

QTEST_GUILESS_MAIN(TestIdleFindings)
#include "tst_idlefindings.moc"
