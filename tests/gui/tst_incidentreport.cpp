// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The incident report (`--export-report`), on the real binary over a cache this test
// fills with known steps (CPU, pressure, a disk's queue, NIC errors), a hostile
// statement text and alert message, and sources whose configs carry passwords: the HTML
// is one file whose only images are data: URIs that decode to real charts, its findings
// table holds exactly the rows of --export-findings for the same run, every section is
// there, the hostile text is inert (a label naming a local image is text in the HTML and
// draws no pixel of it in the charts); the PDF is a PDF of several pages; no password
// reaches either file; bad paths are refused with the documented exit codes.
#include "engine/cache/samplecache.h"
#include "engine/runtime/seriesregistry.h"
#include "imagetestutil.h"

#include <QDateTime>
#include <QFile>
#include <QHash>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <cstring>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

constexpr int Samples = 600; // 10 minutes at 1 s
const QString HostileStatement = u"SELECT 1 /* <script>alert(1)</script> */"_s;
const QString HostileMessage = u"<img src=x onerror=alert(2)> & more"_s;
// The passwords of the sources' configs: none may reach a report.
const QStringList Passwords { u"hunter2var"_s, u"hunter2lit"_s, u"hunter2url"_s, u"hunter2tok"_s };

SeriesInfo info(const QString &source, const QString &metric, const Labels &labels,
                const QString &unit, const QString &resource, UseKind kind)
{
    return SeriesInfo { { source, metric, labels }, unit, resource, kind, false };
}

// A level that steps from `low` to `high` at sample `step`, with a little noise.
double stepAt(int i, int step, double low, double high)
{
    const double noise = 0.02 * std::max(std::abs(low), std::abs(high)) * std::sin(i * 1.7);
    return (i < step ? low : high) + noise;
}

// A minimal RFC 4180 reader (quoted cells, doubled quotes), enough for findingsCsv.
QList<QStringList> parseCsv(const QString &text)
{
    QList<QStringList> rows;
    QStringList row;
    QString cell;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quoted) {
            if (c == u'"' && i + 1 < text.size() && text.at(i + 1) == u'"') {
                cell += u'"';
                ++i;
            } else if (c == u'"') {
                quoted = false;
            } else {
                cell += c;
            }
        } else if (c == u'"') {
            quoted = true;
        } else if (c == u',') {
            row.append(cell);
            cell.clear();
        } else if (c == u'\n') {
            row.append(cell);
            cell.clear();
            rows.append(row);
            row.clear();
        } else if (c != u'\r') {
            cell += c;
        }
    }
    return rows;
}

// The text a PDF of Qt's writer shows, in drawing order: its content streams are Flate
// compressed and draw glyphs (`/F11 75 Tf ... <0001> Tj`) of fonts whose ToUnicode
// CMaps (uncompressed, `<first> <last> [<u> ...]` ranges) map glyphs back to text. A
// plain search of the file would find no text at all, password or not.
QString pdfText(const QByteArray &pdf)
{
    const auto objectBody = [&](const QByteArray &number) {
        const qsizetype at = pdf.indexOf(QByteArray("\n" + number + " 0 obj"));
        return at < 0 ? QByteArray() : pdf.mid(at, pdf.indexOf("endobj", at) - at);
    };
    const auto streamOf = [](const QByteArray &object) {
        qsizetype start = object.indexOf("stream");
        if (start < 0)
            return QByteArray();
        start += 6;
        while (start < object.size() && (object.at(start) == '\r' || object.at(start) == '\n'))
            ++start;
        return object.mid(start, object.indexOf("endstream", start) - start);
    };
    // Font resource name → glyph → text.
    QHash<QByteArray, QHash<uint, QString>> fonts;
    static const QRegularExpression fontRef(u"/(F\\d+) (\\d+) 0 R"_s);
    static const QRegularExpression toUnicode(u"/ToUnicode (\\d+) 0 R"_s);
    static const QRegularExpression hex(u"<([0-9A-Fa-f]+)>"_s);
    for (auto it = fontRef.globalMatch(QString::fromLatin1(pdf)); it.hasNext();) {
        const auto m = it.next();
        const QByteArray name = m.captured(1).toLatin1();
        if (fonts.contains(name))
            continue;
        const auto cmapRef
            = toUnicode.match(QString::fromLatin1(objectBody(m.captured(2).toLatin1())));
        if (!cmapRef.hasMatch())
            continue;
        const QString cmap
            = QString::fromLatin1(streamOf(objectBody(cmapRef.captured(1).toLatin1())));
        QHash<uint, QString> &glyphs = fonts[name];
        for (const auto allLines = cmap.split(u'\n'); const QString &line : allLines) {
            QList<uint> codes;
            for (auto h = hex.globalMatch(line); h.hasNext();)
                codes.append(h.next().captured(1).toUInt(nullptr, 16));
            if (line.contains(u'[') && codes.size() >= 2) { // <first> <last> [<u> ...]
                for (qsizetype i = 2; i < codes.size(); ++i)
                    glyphs.insert(codes[0] + uint(i - 2), QString(QChar(char16_t(codes[i]))));
            } else if (codes.size() == 3) { // <first> <last> <u>
                for (uint g = codes[0]; g <= codes[1] && g - codes[0] < 65536; ++g)
                    glyphs.insert(g, QString(QChar(char16_t(codes[2] + g - codes[0]))));
            } else if (codes.size() == 2) { // bfchar <g> <u>
                glyphs.insert(codes[0], QString(QChar(char16_t(codes[1]))));
            }
        }
    }
    QString text;
    static const QRegularExpression op(u"/(F\\d+) [0-9.]+ Tf|<([0-9A-Fa-f]+)> Tj"_s);
    qsizetype at = 0;
    while ((at = pdf.indexOf("stream", at)) >= 0) {
        const qsizetype end = pdf.indexOf("endstream", at);
        if (end < 0)
            break;
        const qsizetype object = pdf.lastIndexOf(" obj", at);
        const bool flate = object >= 0 && pdf.mid(object, at - object).contains("/FlateDecode");
        const QByteArray body = streamOf(pdf.mid(at, end + 9 - at));
        at = end + 9;
        if (!flate)
            continue;
        QByteArray sized(4, '\0');
        const quint32 hint = quint32(std::min<qsizetype>(body.size() * 40 + 4096, 64 << 20));
        for (int i = 0; i < 4; ++i)
            sized[i] = char(hint >> (24 - 8 * i));
        const QByteArray content = qUncompress(sized + body);
        if (!content.contains(" Tf"))
            continue; // an image, a font file, a CMap: not a page's drawing
        QByteArray font;
        for (auto m = op.globalMatch(QString::fromLatin1(content)); m.hasNext();) {
            const auto match = m.next();
            if (!match.captured(1).isEmpty()) {
                font = match.captured(1).toLatin1();
                continue;
            }
            const QString codes = match.captured(2);
            for (qsizetype i = 0; i + 4 <= codes.size(); i += 4)
                text += fonts.value(font).value(codes.mid(i, 4).toUInt(nullptr, 16), u"?"_s);
        }
        text += u'\n';
    }
    return text;
}

} // namespace

class TestIncidentReport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void htmlIsSelfContainedAndHoldsTheFindings();
    void pdfHasPages();
    void refusedPaths_data();
    void refusedPaths();

private:
    struct Run
    {
        int exitCode = -1;
        QString stdErr;
    };
    Run run(const QStringList &extra);
    void writeCache();
    void writeDashboard();

    QTemporaryDir m_dir;
    QString m_binary;
    QString m_cache;
    QString m_dashboard;
    QString m_red; // a local red PNG, named by a label of the CPU series
};

void TestIncidentReport::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_binary = QStringLiteral(HEADROOM_BUILD_DIR "/bin/headroom");
    QVERIFY2(QFile::exists(m_binary), qPrintable(m_binary));
    m_cache = m_dir.filePath(u"cache.sqlite"_s);
    m_dashboard = m_dir.filePath(u"incident.json"_s);
    m_red = Headroom::Test::writeRedPng(QDir(m_dir.path()));
    QVERIFY(!m_red.isEmpty());
    writeCache();
    writeDashboard();
}

void TestIncidentReport::writeCache()
{
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(m_cache, &registry, &error);
    QVERIFY2(cache, qPrintable(error));
    // An exporter's instance label that is a tag naming a local image: the CPU's
    // evidence charts name these series in their legends.
    const QString instance = u"<img src=%1>"_s.arg(m_red);
    const SeriesInfo cpu = info(u"host"_s, u"host.cpu.utilization"_s,
                                { { u"cpu"_s, u"all"_s }, { u"instance"_s, instance } }, u"%"_s,
                                u"cpu"_s, UseKind::Utilization);
    const SeriesInfo psi
        = info(u"host"_s, u"host.pressure.cpu.some"_s, { { u"instance"_s, instance } }, u"%"_s,
               u"cpu"_s, UseKind::Saturation);
    const SeriesInfo diskUtil
        = info(u"host"_s, u"host.disk.utilization"_s, { { u"disk"_s, u"vda"_s } }, u"%"_s,
               u"disk:vda"_s, UseKind::Utilization);
    const SeriesInfo diskQueue = info(u"host"_s, u"host.disk.queue"_s, { { u"disk"_s, u"vda"_s } },
                                      u""_s, u"disk:vda"_s, UseKind::Saturation);
    const SeriesInfo nicErrors
        = info(u"host"_s, u"nic.rx.errors.rate"_s, { { u"interface"_s, u"eth1"_s } }, u"1/s"_s,
               u"nic:eth1"_s, UseKind::Errors);
    const SeriesInfo statement = info(
        u"pg"_s, u"pg.statements.exec_time.rate"_s,
        { { u"datname"_s, u"app"_s }, { u"queryid"_s, u"42"_s }, { u"query"_s, HostileStatement } },
        u"ms/s"_s, u"db:app"_s, UseKind::Throughput);
    // A top process whose command name is markup (any process may name itself).
    const SeriesInfo process = info(u"host"_s, u"host.process.cpu"_s,
                                    { { u"pid"_s, u"4242"_s },
                                      { u"comm"_s, u"<b>hrhog"_s },
                                      { u"user"_s, u"ops"_s },
                                      { u"unit"_s, u"batch.service"_s } },
                                    u"%"_s, u"cpu"_s, UseKind::Info);
    const SeriesInfo shard
        = info(u"pg"_s, u"pg.shard.load"_s,
               { { u"set"_s, u"public.orders"_s }, { u"shard"_s, u"orders_3"_s } }, u"%"_s,
               u"shardset:public.orders"_s, UseKind::Utilization);

    const qint64 first = QDateTime::currentMSecsSinceEpoch() - (Samples + 5) * 1000LL;
    for (int i = 0; i < Samples; ++i) {
        for (const bool host : { true, false }) {
            SampleBatch batch;
            batch.source = host ? u"host"_s : u"pg"_s;
            batch.tsMs = first + i * 1000LL;
            if (host) {
                batch.add(cpu, stepAt(i, 360, 15, 97));
                batch.add(psi, stepAt(i, 360, 1, 45));
                batch.add(diskUtil, stepAt(i, 300, 10, 93));
                batch.add(diskQueue, stepAt(i, 300, 0.2, 9));
                batch.add(nicErrors, stepAt(i, 420, 0, 80));
                batch.add(process, stepAt(i, 360, 1, 190));
            } else {
                batch.add(statement, stepAt(i, 300, 5, 400));
                batch.add(shard, stepAt(i, 300, 20, 90));
            }
            ResolvedBatch resolved;
            resolved.batch = batch;
            for (const SeriesValue &v : std::as_const(batch.values)) {
                bool isNew = false;
                resolved.valueIds.append(registry.idFor(v.info, &isNew));
                if (isNew)
                    resolved.newSeriesIds.append(resolved.valueIds.back());
            }
            cache->consume(resolved);
        }
    }
    AlertEvent firing;
    firing.tsMs = first + 400 * 1000LL;
    firing.ruleId = u"cpu-saturated"_s;
    firing.ruleName = u"CPU saturated"_s;
    firing.series = psi.key;
    firing.state = AlertState::Firing;
    firing.value = 45;
    firing.severity = AlertSeverity::Critical;
    firing.message = HostileMessage;
    cache->recordAlertEvents({ firing });
    cache->flush();
    QVERIFY2(!cache->status().hadWriteErrors(), qPrintable(cache->status().summary()));
}

void TestIncidentReport::writeDashboard()
{
    const auto selector = [](const QString &source, const QString &metric) {
        return QJsonObject { { u"source"_s, source }, { u"metric"_s, metric } };
    };
    const auto panel = [](const QString &id, const QString &type, const QString &title,
                          const QJsonArray &series, int y) {
        return QJsonObject {
            { u"id"_s, id },
            { u"type"_s, type },
            { u"title"_s, title },
            { u"series"_s, series },
            { u"layout"_s,
              QJsonObject { { u"x"_s, 0 }, { u"y"_s, y }, { u"w"_s, 12 }, { u"h"_s, 4 } } }
        };
    };
    const QJsonObject dashboard {
        { u"schemaVersion"_s, 2 },
        { u"title"_s, u"Incident <b>drill</b>"_s },
        { u"variables"_s,
          QJsonArray { QJsonObject { { u"name"_s, u"pg"_s }, { u"default"_s, u""_s } } } },
        { u"sources"_s,
          QJsonArray {
              QJsonObject { { u"id"_s, u"host"_s }, { u"plugin"_s, u"host"_s } },
              QJsonObject { { u"id"_s, u"pg"_s },
                            { u"plugin"_s, u"postgres"_s },
                            { u"config"_s, QJsonObject { { u"conninfo"_s, u"${pg}"_s } } } },
              QJsonObject {
                  { u"id"_s, u"pg2"_s },
                  { u"plugin"_s, u"postgres"_s },
                  { u"config"_s,
                    QJsonObject {
                        { u"conninfo"_s,
                          u"host=db2.example user=app password='hunter2lit' dbname=erp"_s } } } },
              QJsonObject {
                  { u"id"_s, u"scrape"_s },
                  { u"plugin"_s, u"prometheus"_s },
                  { u"config"_s,
                    QJsonObject {
                        { u"url"_s, u"https://scraper:hunter2url@metrics.example/metrics"_s },
                        { u"bearerToken"_s, u"hunter2tok"_s } } } } } },
        { u"panels"_s,
          QJsonArray {
              panel(u"cpu"_s, u"timeseries"_s, u"CPU"_s,
                    { selector(u"host"_s, u"host.cpu.utilization"_s) }, 0),
              panel(u"statements"_s, u"timeseries"_s, u"Top statements by execution time"_s,
                    { selector(u"pg"_s, u"pg.statements.exec_time.rate"_s) }, 4),
              panel(u"use"_s, u"usematrix"_s, u"USE matrix"_s,
                    { selector(u"host"_s, u"*"_s), selector(u"pg"_s, u"pg.shard.load"_s) }, 8),
              panel(u"shards"_s, u"shardtable"_s, u"Top shards"_s,
                    { selector(u"pg"_s, u"pg.shard.load"_s) }, 12),
              panel(u"alerts"_s, u"alerts"_s, u"Alerts"_s, {}, 16),
              panel(u"processes"_s, u"timeseries"_s, u"Top processes by CPU"_s,
                    { selector(u"host"_s, u"host.process.cpu"_s) }, 20) } }
    };
    QFile file(m_dashboard);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(dashboard).toJson());
}

TestIncidentReport::Run TestIncidentReport::run(const QStringList &extra)
{
    QProcess process;
    process.start(m_binary,
                  QStringList { u"--dashboard"_s, m_dashboard, u"--cache"_s, m_cache, u"--range"_s,
                                u"15m"_s, u"--var"_s,
                                u"pg=host=db.example user=app password=hunter2var"_s }
                      + extra);
    Run result;
    if (!process.waitForFinished(120000)) {
        process.kill();
        process.waitForFinished();
        result.stdErr = u"timed out"_s;
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.stdErr = QString::fromUtf8(process.readAllStandardError());
    return result;
}

void TestIncidentReport::htmlIsSelfContainedAndHoldsTheFindings()
{
    const QString htmlPath = m_dir.filePath(u"report.html"_s);
    const QString csvPath = m_dir.filePath(u"findings.csv"_s);
    const Run r = run({ u"--export-findings"_s, csvPath, u"--export-report"_s, htmlPath });
    QVERIFY2(r.exitCode == 0, qPrintable(r.stdErr));
    QFile htmlFile(htmlPath);
    QVERIFY(htmlFile.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(htmlFile.readAll());
    QFile csvFile(csvPath);
    QVERIFY(csvFile.open(QIODevice::ReadOnly));
    const QList<QStringList> csv = parseCsv(QString::fromUtf8(csvFile.readAll()));

    // Self-contained: nothing it refers to is outside the file.
    static const QRegularExpression reference(u"\\b(src|href)\\s*=\\s*\"([^\"]*)\""_s,
                                              QRegularExpression::CaseInsensitiveOption);
    int images = 0;
    int drawnImages = 0;
    for (auto it = reference.globalMatch(html); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        QCOMPARE(m.captured(1).toLower(), u"src"_s); // no links at all
        const QString uri = m.captured(2);
        QVERIFY2(uri.startsWith(u"data:image/png;base64,"_s), qPrintable(uri.left(80)));
        ++images;
        QImage image;
        QVERIFY(image.loadFromData(
            QByteArray::fromBase64(
                uri.mid(qsizetype(std::strlen("data:image/png;base64,"))).toLatin1()),
            "PNG"));
        QVERIFY(image.width() >= 600 && image.height() >= 200);
        QSet<QRgb> colors;
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3)
                colors.insert(image.pixel(x, y));
        if (colors.size() > 8) // axes, text, lines, the onset marker
            ++drawnImages;
        // No legend or title drew the image a label names.
        QCOMPARE(Headroom::Test::countColor(image, QColor(255, 0, 0)), 0);
    }
    QVERIFY2(images >= 1, "no embedded chart");
    QCOMPARE(drawnImages, images);
    QVERIFY(!html.contains(u"<link"_s, Qt::CaseInsensitive));
    QVERIFY(!html.contains(u"url("_s, Qt::CaseInsensitive));
    QVERIFY(!html.contains(u"file://"_s, Qt::CaseInsensitive));

    // The findings table has the CSV's rows, cell for cell, in order.
    QVERIFY(csv.size() >= 4); // header and at least three findings of the steps
    QCOMPARE(
        csv.constFirst(),
        QStringList({ u"rank"_s, u"source"_s, u"resource"_s, u"kind"_s, u"signal"_s, u"since"_s,
                      u"until"_s, u"peak"_s, u"score"_s, u"summary"_s, u"caused_by"_s }));
    const qsizetype tableStart = html.indexOf(u"<table class=\"findings\""_s);
    QVERIFY(tableStart >= 0);
    const QString findingsTable
        = html.mid(tableStart, html.indexOf(u"</table>"_s, tableStart) - tableStart);
    QCOMPARE(findingsTable.count(u"<tr><td>"_s), csv.size() - 1);
    qsizetype at = 0;
    for (qsizetype i = 1; i < csv.size(); ++i) {
        QStringList cells;
        for (const QString &cell : csv[i])
            cells.append(cell.toHtmlEscaped());
        const QString row = u"<tr><td>"_s + cells.join(u"</td><td>"_s) + u"</td></tr>"_s;
        const qsizetype found = findingsTable.indexOf(row, at);
        QVERIFY2(found >= 0, qPrintable(row));
        at = found + row.size();
    }
    // The steps were found: the CPU and the disk are among them.
    QVERIFY(findingsTable.contains(u"host.cpu"_s) || findingsTable.contains(u"host.pressure"_s));
    QVERIFY(findingsTable.contains(u"host.disk"_s));

    // Every section, with what the cache holds.
    for (const QString &id : { u"watched"_s, u"findings"_s, u"alerts"_s, u"use"_s, u"statements"_s,
                               u"processes"_s, u"shards"_s })
        QVERIFY2(html.contains(u"<h2 id=\""_s + id + u'"'), qPrintable(id));
    QVERIFY(html.contains(u"orders_3"_s)); // top shards
    // The top process with its pid, user and unit, and the CPU finding naming it.
    QVERIFY2(html.contains(u"<td>1</td><td>host</td><td>&lt;b&gt;hrhog</td><td>4242</td><td>ops"
                           "</td><td>batch.service</td>"_s),
             qPrintable(html.mid(html.indexOf(u"<h2 id=\"processes\""_s), 600)));
    QVERIFY2(findingsTable.contains(u"carried by &lt;b&gt;hrhog (pid 4242, user ops)"_s),
             qPrintable(findingsTable));
    QVERIFY(html.contains(u"CPU saturated"_s)); // alert timeline
    // The USE matrix: the worst value of the range, its level and since when.
    QVERIFY2(
        QRegularExpression(
            u"<td>Disk vda</td><td>9\\d % \\(critical\\) since \\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z"_s)
            .match(html)
            .hasMatch(),
        qPrintable(html.mid(html.indexOf(u"<td>Disk vda</td>"_s), 200)));
    QVERIFY(html.contains(u"db.example"_s)); // the target, without its password
    QVERIFY(html.contains(u"metrics.example"_s));

    // Hostile text is text.
    QVERIFY(!html.contains(u"<script"_s, Qt::CaseInsensitive));
    QVERIFY(!html.contains(u"<img src=x"_s, Qt::CaseInsensitive));
    QVERIFY(!html.contains(u"<b>drill"_s));
    QVERIFY(!html.contains(u"<img src="_s + m_red));
    // The label, as text (in a series key, whose '=' are escaped).
    QVERIFY(html.contains(u"&lt;img src\\="_s + m_red.toHtmlEscaped() + u"&gt;"_s));
    QVERIFY(html.contains(HostileStatement.toHtmlEscaped()));
    QVERIFY(html.contains(HostileMessage.toHtmlEscaped()));

    for (const QString &password : Passwords)
        QVERIFY2(!html.contains(password), qPrintable(password));
}

void TestIncidentReport::pdfHasPages()
{
    const QString pdfPath = m_dir.filePath(u"report.pdf"_s);
    const Run r = run({ u"--export-report"_s, pdfPath });
    QVERIFY2(r.exitCode == 0, qPrintable(r.stdErr));
    QFile file(pdfPath);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray pdf = file.readAll();
    QVERIFY(pdf.startsWith("%PDF-"));
    static const QRegularExpression page(u"/Type\\s*/Page\\b(?!s)"_s);
    qsizetype pages = 0;
    for (auto it = page.globalMatch(QString::fromLatin1(pdf)); it.hasNext(); it.next())
        ++pages;
    QVERIFY2(pages > 1, qPrintable(QString::number(pages)));
    // The charts are in it (image XObjects), and no password in any stream.
    QVERIFY(pdf.contains("/Subtype /Image") || pdf.contains("/Subtype/Image"));
    // Its text is the report's (read back from the glyphs), without a password.
    const QString text = pdfText(pdf);
    for (const QString &shown : { u"Findings"_s, u"Alert"_s, u"orders_3"_s, u"db2.example"_s,
                                  u"metrics.example"_s, u"CPU"_s })
        QVERIFY2(text.contains(shown), qPrintable(shown + u" not in: "_s + text.left(2000)));
    for (const QString &password : Passwords) {
        QVERIFY2(!text.contains(password), qPrintable(password));
        QVERIFY(!pdf.contains(password.toLatin1()));
    }
}

void TestIncidentReport::refusedPaths_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::newRow("unwritable html") << u"/nonexistent-dir/report.html"_s << 1
                                     << u"/nonexistent-dir/report.html: cannot write"_s;
    QTest::newRow("unwritable pdf")
        << u"/nonexistent-dir/report.pdf"_s << 1 << u"/nonexistent-dir/report.pdf: cannot write"_s;
    QTest::newRow("unknown suffix")
        << m_dir.filePath(u"report.txt"_s) << 2
        << u"--export-report \"%1\": expected a file ending in .html, .htm or .pdf"_s.arg(
               m_dir.filePath(u"report.txt"_s));
}

void TestIncidentReport::refusedPaths()
{
    QFETCH(QString, path);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const Run r = run({ u"--export-report"_s, path });
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(r.stdErr.contains(message), qPrintable(r.stdErr));
    QVERIFY(!QFile::exists(path));
}

QTEST_GUILESS_MAIN(TestIncidentReport)
#include "tst_incidentreport.moc"
