// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The shipped host dashboard, exported headless three times side by side: for this
// machine, for it over ssh:// (a real sshd on loopback) and over http:// (a real
// prometheus-node-exporter on loopback). Every panel is filled the same way, with the
// same series, and the figures agree.
#include "remotetestutil.h"

#include <QFile>
#include <QMap>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <numeric>

using namespace Headroom::Test;
using namespace Qt::StringLiterals;

class TestRemoteDashboard : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameDashboardOverSshAndHttp();
};

namespace {

struct Export
{
    QMap<QString, QSet<QString>> seriesByPanel; // panel -> "metric{labels}"
    QMap<QString, double> last; // "metric{labels}" -> its last value
    QMap<QString, QList<double>> values; // "metric{labels}" -> all its values, in order
};

Export readExport(const QString &path)
{
    Export result;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return result;
    for (const auto lines = file.readAll().split('\n'); const QByteArray &line : lines) {
        // time,panel,source,metric,labels,value,unit; labels with commas are quoted.
        const QString text = QString::fromUtf8(line.trimmed());
        if (text.isEmpty() || text.startsWith("time,"_L1))
            continue;
        const QStringList head = text.section(u',', 0, 3).split(u',');
        const QString rest = text.section(u',', 4);
        QString labels;
        QString tail;
        if (rest.startsWith(u'"')) {
            const qsizetype close = rest.indexOf(u'"', 1);
            labels = rest.mid(1, close - 1);
            tail = rest.mid(close + 2);
        } else {
            labels = rest.section(u',', 0, 0);
            tail = rest.section(u',', 1);
        }
        const QString series = head.at(3) + labels;
        // A USE matrix row is a cell (resource, use) showing its worst series, which
        // may be another series of the cell from one read to the next.
        QString cell;
        for (const auto allLabels = labels.mid(1, labels.size() - 2).split(u',');
             const QString &label : allLabels) {
            if (label.startsWith("resource="_L1) || label.startsWith("use="_L1))
                cell += label + u' ';
        }
        result.seriesByPanel[head.at(1)].insert(head.at(1) == "use-matrix"_L1 ? cell : series);
        result.last[series] = tail.section(u',', 0, 0).toDouble();
        result.values[series].append(result.last[series]);
    }
    return result;
}

} // namespace

void TestRemoteDashboard::sameDashboardOverSshAndHttp()
{
    SshServer sshd;
    NodeExporter exporter;
    QString error;
    QVERIFY2(sshd.start(&error), qPrintable(error));
    QVERIFY2(exporter.start(&error), qPrintable(error));

    QTemporaryDir dir;
    const QStringList hosts { u"local"_s, sshd.url(), exporter.url() };
    QList<std::shared_ptr<QProcess>> runs;
    for (int i = 0; i < hosts.size(); ++i) {
        auto headroom = std::make_shared<QProcess>();
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(u"HOME"_s, sshd.home()); // its ~/.ssh: the key and known_hosts
        headroom->setProcessEnvironment(environment);
        headroom->start(QStringLiteral(HEADROOM_BUILD_DIR "/bin/headroom"),
                        { u"--no-cache"_s, u"--dashboard"_s, u"host-use.json"_s, u"--var"_s,
                          u"host="_s + hosts.at(i), u"--collect-for"_s, u"4"_s, u"--export-csv"_s,
                          dir.filePath(u"%1.csv"_s.arg(i)) });
        runs.append(headroom);
    }
    QList<Export> exports;
    for (int i = 0; i < runs.size(); ++i) {
        QVERIFY(runs.at(i)->waitForFinished(60000));
        const QByteArray stderrText = runs.at(i)->readAllStandardError();
        qInfo("%s:\n%s", qPrintable(hosts.at(i)), stderrText.constData());
        QVERIFY2(runs.at(i)->exitCode() == 0, stderrText.constData());
        exports.append(readExport(dir.filePath(u"%1.csv"_s.arg(i))));
    }
    const Export &local = exports.at(0);
    const Export &ssh = exports.at(1);
    const Export &http = exports.at(2);
    // Every panel of the dashboard has rows locally (a panel list, not a guess).
    for (const char *panel :
         { "cpu-utilization",   "cpu-saturation",   "cpu-modes",       "memory-utilization",
           "memory-saturation", "disk-utilization", "disk-saturation", "nic-throughput",
           "nic-utilization",   "nic-errors",       "tcp-retransmits", "nic-qdisc",
           "nic-qdisc-backlog", "use-matrix",       "fs-used",         "fs-free",
           "process-cpu",       "process-memory",   "process-files",   "file-handles",
           "tcp-listen",        "tcp-connections" })
        QVERIFY2(local.seriesByPanel.contains(QString::fromLatin1(panel)), panel);

    // The qdisc panels come from netlink on this machine: neither remote way has them.
    const QSet<QString> localOnly { u"nic-qdisc"_s, u"nic-qdisc-backlog"_s };
    for (const Export *remote : { &ssh, &http }) {
        for (const QString &panel : localOnly)
            QVERIFY2(!remote->seriesByPanel.contains(panel), qPrintable(panel));
    }
    // Each run ranks its own top processes (it is one of them), and a filesystem's growth
    // and time to full show only once it has grown over a few polls: present, not equal.
    const QSet<QString> varies { u"process-cpu"_s,   u"process-memory"_s, u"process-io"_s,
                                 u"process-files"_s, u"fs-growth"_s,      u"fs-time-to-full"_s };
    for (const QString &panel : { u"process-cpu"_s, u"process-memory"_s })
        QVERIFY2(ssh.seriesByPanel.contains(panel), qPrintable(panel));
    // node_exporter has no per-process figures, and reads the mount table of pid 1, not
    // the one of ./dev's mount namespace: its filesystems are other ones.
    for (auto it = http.seriesByPanel.cbegin(); it != http.seriesByPanel.cend(); ++it)
        QVERIFY2(!it.key().startsWith("process-"_L1), qPrintable(it.key()));
    QVERIFY(http.seriesByPanel.contains(u"fs-used"_s));
    const QSet<QString> otherMounts { u"fs-used"_s, u"fs-free"_s };
    const auto withoutFilesystems = [](QSet<QString> cells) {
        cells.removeIf([](const QString &cell) { return cell.contains("resource=fs:"_L1); });
        return cells;
    };
    // node_exporter has no CPU "full" pressure and, by default, no pgscan.
    const QSet<QString> notExported { u"host.cpu.psi{kind=full}"_s, u"host.mem.page_scan{}"_s };
    QStringList localPanels;
    for (auto it = local.seriesByPanel.cbegin(); it != local.seriesByPanel.cend(); ++it) {
        if (localOnly.contains(it.key()) || varies.contains(it.key()))
            continue;
        localPanels << it.key();
        QCOMPARE(sortedText(ssh.seriesByPanel.value(it.key())), sortedText(*it));
        if (otherMounts.contains(it.key()))
            continue;
        QSet<QString> expected = it.key() == "use-matrix"_L1 ? withoutFilesystems(*it) : *it;
        expected -= notExported;
        QSet<QString> fromExporter = http.seriesByPanel.value(it.key());
        if (it.key() == "use-matrix"_L1)
            fromExporter = withoutFilesystems(fromExporter);
        fromExporter -= notExported;
        QVERIFY2(sortedText(fromExporter) == sortedText(expected),
                 qPrintable(it.key() + u": http "_s + sortedText(fromExporter) + u" local "_s
                            + sortedText(expected)));
    }
    const auto panelsOf = [&](const Export &run, const QSet<QString> &leftOut) {
        QStringList panels;
        for (auto it = run.seriesByPanel.keyBegin(); it != run.seriesByPanel.keyEnd(); ++it)
            if (!varies.contains(*it) && !leftOut.contains(*it))
                panels << *it;
        return panels;
    };
    QCOMPARE(panelsOf(ssh, {}), localPanels);
    QStringList exported = localPanels;
    exported.removeIf([&](const QString &panel) { return otherMounts.contains(panel); });
    QCOMPARE(panelsOf(http, otherMounts), exported);

    const QString memory = u"host.mem.utilization{}"_s;
    for (const Export *run : { &local, &ssh, &http })
        QVERIFY(run->last.contains(memory) && run->last.value(memory) > 0);
    qInfo("memory utilization: local %.2f %%, ssh %.2f %%, http %.2f %%", local.last.value(memory),
          ssh.last.value(memory), http.last.value(memory));
    QVERIFY(std::abs(ssh.last.value(memory) - local.last.value(memory)) < 2.0);
    QVERIFY(std::abs(http.last.value(memory) - local.last.value(memory)) < 2.0);
    // CPU over the whole run: the three runs poll at different instants of the same
    // seconds, and on a busy machine single seconds differ a lot.
    const QString cpu = u"host.cpu.utilization{cpu=all}"_s;
    const auto mean = [&](const Export &run) {
        const QList<double> all = run.values.value(cpu);
        return all.isEmpty() ? qQNaN()
                             : std::accumulate(all.cbegin(), all.cend(), 0.0) / all.size();
    };
    qInfo("cpu utilization over the run: local %.1f %%, ssh %.1f %%, http %.1f %%", mean(local),
          mean(ssh), mean(http));
    QVERIFY(std::abs(mean(ssh) - mean(local)) <= 25.0);
    QVERIFY(std::abs(mean(http) - mean(local)) <= 25.0);
}

QTEST_GUILESS_MAIN(TestRemoteDashboard)
#include "tst_remotedashboard.moc"
