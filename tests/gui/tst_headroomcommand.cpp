// The command line contract, tested on the real binary: headless PNG/CSV export with
// live data from this host, exit codes and messages for bad input, and the GUI under
// Xvfb (tests/run-tests starts it and passes its display in HEADROOM_TEST_DISPLAY).
#include "imagetestutil.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using Headroom::Test::countColor;

class TestHeadroomCommand : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void exportsEveryPanelWithLiveData();
    void scaleDoublesPixels();
    void badInput_data();
    void badInput();
    void unusableCacheIsReportedAndUntouched();
    void guiUnderXvfb();

private:
    struct Run
    {
        int exitCode = -1;
        QString stdErr;
    };
    Run run(const QStringList &args,
            const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
            int timeoutMs = 60000);
    static QStringList panelIds(const QString &dashboardPath);

    QTemporaryDir m_dir;
    QString m_binary;
    QString m_defaultDashboard;
};

void TestHeadroomCommand::initTestCase()
{
    m_binary = QStringLiteral(HEADROOM_BUILD_DIR "/bin/headroom");
    QVERIFY2(QFile::exists(m_binary), qPrintable(m_binary));
    m_defaultDashboard
        = QStringLiteral(HEADROOM_FIXTURES_DIR "/../../resources/dashboards/host-use.json");
    QVERIFY(QFile::exists(m_defaultDashboard));
}

TestHeadroomCommand::Run TestHeadroomCommand::run(const QStringList &args,
                                                  const QProcessEnvironment &env, int timeoutMs)
{
    QProcess process;
    process.setProcessEnvironment(env);
    process.start(m_binary, args);
    Run result;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        result.stdErr = QStringLiteral("timed out");
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.stdErr = QString::fromUtf8(process.readAllStandardError());
    return result;
}

QStringList TestHeadroomCommand::panelIds(const QString &dashboardPath)
{
    QFile file(dashboardPath);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QStringList ids;
    const auto panels = QJsonDocument::fromJson(file.readAll())
                            .object()
                            .value(QStringLiteral("panels"))
                            .toArray();
    for (const auto &panel : panels)
        ids << panel.toObject().value(QStringLiteral("id")).toString();
    return ids;
}

void TestHeadroomCommand::exportsEveryPanelWithLiveData()
{
    const QString png = m_dir.filePath(QStringLiteral("report.png"));
    const QString csv = m_dir.filePath(QStringLiteral("report.csv"));
    const Run r = run({ QStringLiteral("--cache"), m_dir.filePath(QStringLiteral("cache.sqlite")),
                        QStringLiteral("--collect-for"), QStringLiteral("4"),
                        QStringLiteral("--range"), QStringLiteral("20s"),
                        QStringLiteral("--export-png"), png, QStringLiteral("--export-csv"), csv });
    QVERIFY2(r.exitCode == 0, qPrintable(r.stdErr));

    QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.width(), 1600);
    QVERIFY(image.height() > 600);
    QVERIFY2(countColor(image, QColor(0x1f77b4)) > 300, "no series lines drawn");

    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    const QList<QByteArray> lines = text.split('\n');
    // The USE matrix exports its cells as rows, told apart by use= and resource=.
    QVERIFY2(text.contains(",use-matrix,host,host.cpu.utilization,"
                           "\"{cpu=all,resource=cpu,use=utilization}\","),
             "no USE matrix row for the CPU's utilization");
    QCOMPARE(lines.first(), QByteArray("time,panel,source,metric,labels,value,unit\r"));
    QSet<QString> panelsWithRows;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        if (lines[i].isEmpty())
            continue;
        const QList<QByteArray> fields = lines[i].split(',');
        QVERIFY2(fields.size() >= 7, lines[i].constData());
        QVERIFY2(fields[0].endsWith('Z') && fields[0].contains('T'),
                 lines[i].constData()); // ISO-8601 UTC
        panelsWithRows.insert(QString::fromUtf8(fields[1]));
    }
    for (const QString &id : panelIds(m_defaultDashboard))
        QVERIFY2(panelsWithRows.contains(id),
                 qPrintable(QStringLiteral("panel %1 has no rows").arg(id)));
}

void TestHeadroomCommand::scaleDoublesPixels()
{
    const QString png = m_dir.filePath(QStringLiteral("scaled.png"));
    const Run r = run({ QStringLiteral("--no-cache"), QStringLiteral("--width"),
                        QStringLiteral("800"), QStringLiteral("--scale"), QStringLiteral("2"),
                        QStringLiteral("--export-png"), png });
    QVERIFY2(r.exitCode == 0, qPrintable(r.stdErr));
    QCOMPARE(QImage(png).width(), 1600);
}

void TestHeadroomCommand::badInput_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QStringList>("messageParts");
    const QString bad = QStringLiteral(HEADROOM_FIXTURES_DIR "/dashboards/syntax-error.json");
    const QString out = QDir::tempPath() + QStringLiteral("/headroom-never-written.png");
    QTest::newRow("malformed dashboard")
        << QStringList { QStringLiteral("--no-cache"), QStringLiteral("--dashboard"), bad,
                         QStringLiteral("--export-png"), out }
        << 2 << QStringList { QStringLiteral("syntax-error.json"), QStringLiteral("line") };
    QTest::newRow("missing dashboard")
        << QStringList { QStringLiteral("--no-cache"), QStringLiteral("--dashboard"),
                         QStringLiteral("/nonexistent/x.json"), QStringLiteral("--export-png"),
                         out }
        << 2 << QStringList { QStringLiteral("/nonexistent/x.json") };
    QTest::newRow("unknown variable")
        << QStringList { QStringLiteral("--no-cache"), QStringLiteral("--var"),
                         QStringLiteral("nosuch=1"), QStringLiteral("--export-png"), out }
        << 2 << QStringList { QStringLiteral("nosuch") };
    QTest::newRow("bad range") << QStringList { QStringLiteral("--no-cache"),
                                                QStringLiteral("--range"), QStringLiteral("soon"),
                                                QStringLiteral("--export-png"), out }
                               << 2
                               << QStringList { QStringLiteral("--range"), QStringLiteral("soon") };
    QTest::newRow("unknown option")
        << QStringList { QStringLiteral("--no-cache"), QStringLiteral("--frobnicate"),
                         QStringLiteral("--export-png"), out }
        << 2 << QStringList { QStringLiteral("frobnicate") };
    QTest::newRow("bad collect-for")
        << QStringList { QStringLiteral("--no-cache"), QStringLiteral("--collect-for"),
                         QStringLiteral("-3"), QStringLiteral("--export-png"), out }
        << 2 << QStringList { QStringLiteral("--collect-for") };
    QTest::newRow("unwritable output")
        << QStringList { QStringLiteral("--no-cache"), QStringLiteral("--export-png"),
                         QStringLiteral("/nonexistent-dir/out.png") }
        << 1 << QStringList { QStringLiteral("/nonexistent-dir/out.png") };
    QTest::newRow("unwritable csv")
        << QStringList { QStringLiteral("--no-cache"), QStringLiteral("--export-csv"),
                         QStringLiteral("/nonexistent-dir/out.csv") }
        << 1 << QStringList { QStringLiteral("/nonexistent-dir/out.csv") };
}

void TestHeadroomCommand::badInput()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QStringList, messageParts);
    const Run r = run(args);
    QCOMPARE(r.exitCode, exitCode);
    for (const QString &part : messageParts)
        QVERIFY2(r.stdErr.contains(part), qPrintable(r.stdErr));
    QVERIFY(!QFile::exists(QDir::tempPath() + QStringLiteral("/headroom-never-written.png")));
}

void TestHeadroomCommand::unusableCacheIsReportedAndUntouched()
{
    const QString cache = m_dir.filePath(QStringLiteral("not-a-cache.sqlite"));
    QFile file(cache);
    QVERIFY(file.open(QIODevice::WriteOnly));
    const QByteArray text("these are my notes, not a database\n");
    file.write(text);
    file.close();
    const QString png = m_dir.filePath(QStringLiteral("nocache.png"));
    const Run r = run({ QStringLiteral("--cache"), cache, QStringLiteral("--collect-for"),
                        QStringLiteral("2"), QStringLiteral("--export-png"), png });
    QVERIFY2(r.exitCode == 0, qPrintable(r.stdErr)); // the report still works from live data
    QVERIFY2(r.stdErr.contains(cache), qPrintable(r.stdErr));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), text);
}

void TestHeadroomCommand::guiUnderXvfb()
{
    const QString display = qEnvironmentVariable("HEADROOM_TEST_DISPLAY");
    if (display.isEmpty())
        QSKIP("no Xvfb display (run the tests through ./dev test)");
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DISPLAY"), display);
    env.remove(QStringLiteral("QT_QPA_PLATFORM")); // the real xcb platform, as users get it
    const QString snapshot = m_dir.filePath(QStringLiteral("gui.png"));
    const Run r
        = run({ QStringLiteral("--cache"), m_dir.filePath(QStringLiteral("gui-cache.sqlite")),
                QStringLiteral("--range"), QStringLiteral("5m"), QStringLiteral("--quit-after"),
                QStringLiteral("5"), QStringLiteral("--gui-snapshot"), snapshot },
              env);
    QVERIFY2(r.exitCode == 0, qPrintable(r.stdErr));
    const QImage image(snapshot);
    QVERIFY(!image.isNull());
    QVERIFY(image.width() >= 800);
    QVERIFY2(countColor(image, QColor(0x1f77b4)) > 300, "no live series drawn in the window");
    QVERIFY2(countColor(image, QColor(0x2ca02c)) > 4, "no green 'ok' collector status dot");
}

QTEST_GUILESS_MAIN(TestHeadroomCommand)
#include "tst_headroomcommand.moc"
