// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Dashboard ▸ Sources… (sources without writing JSON): a PostgreSQL server and an
// ssh:// host set up through the forms give exactly the sources the same JSON gives
// (so the same collectors and series); an edit keeps what the form does not show; ids
// stay unique; "Test connection" runs the real collector off the GUI thread.
#include "collector/collectorregistry.h"
#include "document/dashboardfile.h"
#include "editors/sourceeditor.h"
#include "editors/sourcesdialog.h"
#include "engine/sourceprobe.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>
#include <QThread>
#include <QThreadPool>
#include <QToolButton>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {
// A dashboard file holding `sourcesJson` and `panelsJson`, read as any file is.
Dashboard dashboardFromJson(const QByteArray &sourcesJson, const QByteArray &panelsJson = "[]")
{
    const QByteArray file = R"({"schemaVersion": 3, "title": "t", "sources": )" + sourcesJson
        + R"(, "panels": )" + panelsJson + "}";
    const DashboardLoadResult loaded = parseDashboard(file, u"sources.json"_s);
    if (!loaded.ok())
        qFatal("%s", qPrintable(loaded.error.toString()));
    return *loaded.dashboard;
}

QList<DashboardSource> sourcesFromJson(const QByteArray &sourcesJson)
{
    return dashboardFromJson(sourcesJson).sources;
}

Dashboard withSources(const QList<DashboardSource> &sources)
{
    Dashboard dashboard;
    dashboard.title = u"t"_s;
    dashboard.sources = sources;
    return dashboard;
}

void type(QWidget *editor, const QString &field, const QString &text)
{
    auto *edit = editor->findChild<QLineEdit *>(field);
    QVERIFY2(edit, qPrintable(field));
    edit->selectAll();
    QTest::keyClicks(edit, text); // textEdited, as a user's typing
}

bool okEnabled(QWidget *editor)
{
    return editor->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->isEnabled();
}
} // namespace

class TestSourcesDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void formsGiveTheSourcesJsonGives();
    void editKeepsWhatTheFormDoesNotShow();
    void idsStayUniqueAndRemoveWorks();
    void conninfoFieldsQuoteAndStepAside();
    void testConnectionRunsTheRealCollector();
    void closingDuringATestDoesNotWait();
    void renameFollowsAndRemovalIsChecked();

private:
    CollectorRegistry m_collectors;
};

void TestSourcesDialog::initTestCase()
{
    QCOMPARE(m_collectors.loadPlugins(), QStringList());
}

void TestSourcesDialog::formsGiveTheSourcesJsonGives()
{
    SourcesDialog dialog(withSources({}), {}, {});
    QStringList seen;
    dialog.setEditorRun([&](SourceEditor *editor) {
        const QString plugin = editor->source().plugin;
        seen.append(plugin);
        if (plugin == u"postgres") {
            type(editor, u"pgHost"_s, u"db1.example"_s);
            type(editor, u"pgPort"_s, u"5433"_s);
            type(editor, u"pgDatabase"_s, u"orders"_s);
            type(editor, u"pgUser"_s, u"monitor"_s);
            auto *ssl = editor->findChild<QComboBox *>(u"pgSslMode"_s);
            ssl->setCurrentText(u"require"_s);
            Q_EMIT ssl->activated(ssl->currentIndex());
            editor->findChild<QSpinBox *>(u"interval"_s)->setValue(5);
        } else {
            type(editor, u"host"_s, u"ssh://ops@db1.example:2222"_s);
        }
        return okEnabled(editor);
    });
    // Through the Add menu, as a user would.
    auto *add = dialog.findChild<QToolButton *>(u"add"_s);
    add->menu()->findChild<QAction *>(u"add:postgres"_s)->trigger();
    add->menu()->findChild<QAction *>(u"add:host"_s)->trigger();
    QCOMPARE(seen, (QStringList { u"postgres"_s, u"host"_s }));
    const QList<DashboardSource> expected = sourcesFromJson(R"([
        {"id": "pg", "plugin": "postgres", "intervalMs": 5000,
         "config": {"conninfo": "host=db1.example port=5433 dbname=orders user=monitor sslmode=require"}},
        {"id": "host", "plugin": "host", "config": {"host": "ssh://ops@db1.example:2222"}}])");
    QCOMPARE(dialog.sources().size(), 2);
    for (int i = 0; i < 2; ++i) {
        QCOMPARE(dialog.sources().at(i).config, expected.at(i).config);
        QVERIFY(dialog.sources().at(i) == expected.at(i)); // id, plugin, interval, timeout too
    }
    QCOMPARE(dialog.table()->item(0, 2)->text(),
             u"host=db1.example port=5433 dbname=orders user=monitor sslmode=require"_s);
    QCOMPARE(dialog.table()->item(1, 2)->text(), u"ssh://ops@db1.example:2222"_s);
}

void TestSourcesDialog::editKeepsWhatTheFormDoesNotShow()
{
    const QList<DashboardSource> sources = sourcesFromJson(R"([
        {"id": "pg", "plugin": "postgres", "intervalMs": 2000, "timeoutMs": 3000,
         "config": {"conninfo": "host=db1 dbname=erp connect_timeout=4", "topStatements": 7,
                    "shardSets": [{"name": "tenants", "tables": ["t_*"]}]}}])");
    SourcesDialog dialog(withSources(sources), {}, {});
    dialog.setEditorRun([](SourceEditor *editor) {
        type(editor, u"pgPort"_s, u"6432"_s);
        return true;
    });
    dialog.editSource(0);
    const DashboardSource edited = dialog.sources().at(0);
    QCOMPARE(edited.config.value(u"conninfo"_s).toString(),
             u"host=db1 port=6432 dbname=erp connect_timeout=4"_s);
    QCOMPARE(edited.config.value(u"topStatements"_s).toInt(), 7);
    QCOMPARE(edited.config.value(u"shardSets"_s), sources.at(0).config.value(u"shardSets"_s));
    QCOMPARE(edited.timeoutMs, 3000);
    QCOMPARE(edited.intervalMs, 2000);

    // A cancelled edit changes nothing.
    dialog.setEditorRun([](SourceEditor *editor) {
        type(editor, u"pgPort"_s, u"1"_s);
        return false;
    });
    dialog.editSource(0);
    QVERIFY(dialog.sources().at(0) == edited);
}

void TestSourcesDialog::idsStayUniqueAndRemoveWorks()
{
    const QList<DashboardSource> sources = sourcesFromJson(R"([
        {"id": "host", "plugin": "host"}, {"id": "nic", "plugin": "nic"}])");
    SourcesDialog dialog(withSources(sources),
                         [](const QString &id) -> QString { return u"ok: "_s + id; }, {});
    QCOMPARE(dialog.table()->item(1, 4)->text(), u"ok: nic"_s);
    QCOMPARE(dialog.newSource(u"host"_s).id, u"host-2"_s); // a free id
    bool checked = false;
    dialog.setEditorRun([&](SourceEditor *editor) {
        type(editor, u"id"_s, u"nic"_s); // taken by the other source
        checked = !okEnabled(editor) && editor->problem().contains(u"\"nic\""_s);
        type(editor, u"id"_s, QString());
        checked = checked && !okEnabled(editor);
        return true; // even so, nothing invalid is kept
    });
    dialog.editSource(0);
    QVERIFY(checked);
    QCOMPARE(dialog.sources().at(0).id, u"host"_s);
    dialog.removeSource(0);
    QCOMPARE(dialog.sources().size(), 1);
    QCOMPARE(dialog.sources().at(0).id, u"nic"_s);
    QCOMPARE(dialog.table()->rowCount(), 1);
}

void TestSourcesDialog::conninfoFieldsQuoteAndStepAside()
{
    QCOMPARE(
        SourceEditor::conninfoFromFields(u"db"_s, QString(), u"my db"_s, u"o'neil"_s, QString()),
        uR"(host=db dbname='my db' user='o\'neil')"_s);
    // A URI (or a ${variable}) is edited as it is: the fields cannot show it.
    DashboardSource uri;
    uri.id = u"pg"_s;
    uri.plugin = u"postgres"_s;
    uri.config.insert(u"conninfo"_s, u"postgresql://monitor@db1/erp?sslmode=require"_s);
    SourceEditor editor(uri, {}, {});
    QVERIFY(!editor.findChild<QLineEdit *>(u"pgHost"_s)->isEnabled());
    QCOMPARE(editor.source().config, uri.config);
    type(&editor, u"conninfo"_s, u"host=db2 dbname=erp"_s);
    QVERIFY(editor.findChild<QLineEdit *>(u"pgHost"_s)->isEnabled());
    QCOMPARE(editor.findChild<QLineEdit *>(u"pgHost"_s)->text(), u"db2"_s);
}

void TestSourcesDialog::testConnectionRunsTheRealCollector()
{
    const auto tester = [this](const DashboardSource &source,
                               const std::shared_ptr<const std::atomic<bool>> &cancel) {
        Dashboard dashboard;
        dashboard.sources = { source };
        return probeSource(m_collectors, dashboard, 0, {}, 2, cancel.get());
    };
    SourcesDialog dialog(withSources({}), {}, tester);
    QString local, dead;
    dialog.setEditorRun([&](SourceEditor *editor) {
        if (editor->source().plugin == u"prometheus")
            type(editor, u"url"_s, u"http://127.0.0.1:1/metrics"_s);
        editor->findChild<QSpinBox *>(u"interval"_s)->setValue(1);
        QSignalSpy tested(editor, &SourceEditor::tested);
        editor->findChild<QPushButton *>(u"test"_s)->click();
        if (!tested.wait(30'000))
            return false;
        (editor->source().plugin == u"host" ? local : dead)
            = editor->findChild<QLabel *>(u"testResult"_s)->text();
        return false;
    });
    dialog.addSource(u"host"_s); // this machine's /proc, through the host plugin
    QVERIFY2(local.startsWith(u"Works: "_s) && local.contains(u"host.cpu.utilization"_s),
             qPrintable(local));
    dialog.addSource(u"prometheus"_s); // nothing listens on port 1
    QVERIFY2(dead.startsWith(u"Failed: "_s), qPrintable(dead));
    QVERIFY(dialog.sources().isEmpty()); // tests, not additions
}

// Cancel while a test polls a server that never answers: the editor closes at once
// (the probe stops by itself and its result is dropped).
void TestSourcesDialog::closingDuringATestDoesNotWait()
{
    std::atomic<bool> sawCancel = false;
    const auto tester = [&sawCancel](const DashboardSource &,
                                     const std::shared_ptr<const std::atomic<bool>> &cancel) {
        while (!cancel->load())
            QThread::msleep(10);
        sawCancel = true;
        return SourceProbeResult {};
    };
    QElapsedTimer clock;
    {
        DashboardSource source;
        source.id = u"host"_s;
        source.plugin = u"host"_s;
        SourceEditor editor(source, {}, tester);
        editor.testConnection();
        QVERIFY(editor.isTesting());
        clock.start();
    }
    QVERIFY2(clock.elapsed() < 500, qPrintable(QString::number(clock.elapsed())));
    QTRY_VERIFY(sawCancel.load());
    QThreadPool::globalInstance()->waitForDone();
}

// A renamed source takes its panels along; a removed one a panel still reads cannot be
// applied (the file would not load back), and says why; a 500 ms interval survives an
// edit that does not touch it.
void TestSourcesDialog::renameFollowsAndRemovalIsChecked()
{
    const Dashboard dashboard = dashboardFromJson(
        R"([{"id": "pg", "plugin": "postgres", "intervalMs": 500}, {"id": "host", "plugin": "host"}])",
        R"([{"id": "p", "type": "timeseries", "series": [{"source": "pg", "metric": "pg.up"}]}])");
    SourcesDialog dialog(dashboard, {}, {});
    dialog.setEditorRun([](SourceEditor *editor) {
        type(editor, u"id"_s, u"orders-db"_s);
        return true;
    });
    dialog.editSource(0);
    QCOMPARE(dialog.sources().at(0).id, u"orders-db"_s);
    QCOMPARE(dialog.sources().at(0).intervalMs, 500);
    QCOMPARE(dialog.dashboard().panels.at(0).series.at(0).source, u"orders-db"_s);
    QCOMPARE(dialog.problem(), QString());
    dialog.removeSource(0);
    QVERIFY2(dialog.problem().startsWith(u"panels[0].series[0].source: unknown source"_s),
             qPrintable(dialog.problem()));
}

QTEST_MAIN(TestSourcesDialog)
#include "tst_sourcesdialog.moc"
