// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Repeated panels in the window: a dashboard whose panel repeats over a multi-value
// variable shows a copy per value once the values are resolved (in the pool), side by
// side, and a new value in the variable bar redraws the copies and moves what lies
// below.
#include "dashboardview.h"
#include "document/dashboardtrust.h"
#include "engine/monitoringsession.h"
#include "mainwindow.h"
#include "panels/panelwidget.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

QStringList panelIds(MainWindow &window)
{
    QStringList ids;
    for (PanelWidget *panel : window.view()->panels())
        ids << panel->config().id;
    ids.sort();
    return ids;
}

} // namespace

class TestRepeatedPanels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void copiesPerValueAndRedrawnOnANewValue()
    {
        QSettings().clear();
        QFile::remove(DashboardTrustStore::defaultPath()); // test mode: not the user's
        QTemporaryDir dir;
        const QString path = dir.filePath(u"repeat.json"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        // The engine is not asked until the file is trusted: the values are given.
        file.write("{\"schemaVersion\": 4, \"title\": \"Repeat\", \"variables\": [{\"name\": "
                   "\"host\", \"multi\": true, \"default\": \"a, b\", \"labelValues\": "
                   "{\"label\": \"instance\"}}], \"sources\": [{\"id\": "
                   "\"prom\", \"plugin\": \"promql\", \"config\": {\"url\": "
                   "\"http://127.0.0.1:9\"}}], \"panels\": [{\"id\": \"mem\", \"type\": "
                   "\"timeseries\", \"title\": \"Memory of $host\", \"repeat\": \"host\", "
                   "\"query\": \"up{instance=~\\\"$host\\\"}\", \"layout\": {\"x\": 0, \"y\": 0, "
                   "\"w\": 6, \"h\": 3}}, {\"id\": \"all\", \"type\": \"timeseries\", \"query\": "
                   "\"up\", \"layout\": {\"x\": 0, \"y\": 3, \"w\": 12, \"h\": 3}}]}");
        file.close();

        MonitoringSession session;
        session.loadPlugins();
        MainWindow window { &session };
        window.resize(1200, 800);
        window.show();
        QVERIFY(window.openDashboard(path));
        QTRY_COMPARE(panelIds(window), (QStringList { u"all"_s, u"mem/a"_s, u"mem/b"_s }));
        PanelWidget *b = nullptr;
        for (PanelWidget *panel : window.view()->panels()) {
            if (panel->config().id == u"mem/b"_s)
                b = panel;
        }
        QVERIFY(b);
        QCOMPARE(b->config().title, u"Memory of b"_s);
        QCOMPARE(b->config().layout.x, 6); // side by side
        QCOMPARE(window.view()->dashboard().panel(u"all"_s)->layout.y, 3); // one row: no shift

        // The variable bar offers "*" (all the engine lists); an untrusted file's engine
        // is not asked for the list.
        auto *hosts = window.findChild<QComboBox *>(u"variable:host"_s);
        QVERIFY(hosts);
        QCOMPARE(hosts->currentText(), u"a, b"_s);
        QCOMPARE(hosts->count(), 1);
        QCOMPARE(hosts->itemText(0), u"*"_s);
        QVERIFY2(!window.statusBar()->currentMessage().contains(u"variable host"_s),
                 qPrintable(window.statusBar()->currentMessage()));

        // A third value: three copies, the panel below moved down by a row of copies.
        hosts->setCurrentText(u"a, b, c"_s);
        Q_EMIT hosts->activated(0);
        QTRY_COMPARE(panelIds(window),
                     (QStringList { u"all"_s, u"mem/a"_s, u"mem/b"_s, u"mem/c"_s }));
        QCOMPARE(window.view()->dashboard().panel(u"mem/c"_s)->layout.y, 3);
        QCOMPARE(window.view()->dashboard().panel(u"all"_s)->layout.y, 6);

        // Trusted, the engine is asked for the list; this one is down, and says so while
        // the given values are still drawn and typed text stays.
        hosts->setEditText(u"a, b, c, d"_s);
        QTest::mouseClick(window.findChild<QPushButton *>(u"trustButton"_s), Qt::LeftButton);
        QTRY_VERIFY2(window.statusBar()->currentMessage().startsWith(u"variable host: "_s)
                         && window.statusBar()->currentMessage().contains(u"127.0.0.1:9"_s),
                     qPrintable(window.statusBar()->currentMessage()));
        QCOMPARE(hosts->currentText(), u"a, b, c, d"_s);
        QCOMPARE(panelIds(window), (QStringList { u"all"_s, u"mem/a"_s, u"mem/b"_s, u"mem/c"_s }));
    }
};

QTEST_MAIN(TestRepeatedPanels)
#include "tst_repeatedpanels.moc"
