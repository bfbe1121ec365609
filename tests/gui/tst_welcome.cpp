// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The first-run screen: when the window starts on it, what it
// offers (every shipped dashboard with fields for its variables), and that a choice on
// it opens that dashboard with the values typed, collecting for real from this host.
#include "appdashboards.h"
#include "dashboardview.h"
#include "editors/sourcesdialog.h"
#include "engine/monitoringsession.h"
#include "engine/runtime/seriesregistry.h"
#include "findings/findingsdock.h"
#include "firstrun.h"
#include "mainwindow.h"
#include "welcomepage.h"

#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {
const QString HostDashboard = u":/dashboards/host-use.json"_s;
const QString PostgresDashboard = u":/dashboards/postgres-use.json"_s;

// A window on the welcome page over a session with the built plugins.
struct WelcomeWindow
{
    MonitoringSession session;
    QStringList pluginProblems = session.loadPlugins();
    MainWindow window { &session };

    WelcomeWindow()
    {
        window.resize(1200, 800);
        window.show();
        window.showWelcome();
    }
};
} // namespace

class TestWelcome : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void shownOnTheFirstStartOnly();
    void offersEveryShippedDashboardWithItsVariables();
    void choosingOpensTheDashboardAndCollects();
    void addASourceStartsANewDashboard();
};

void TestWelcome::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // settings and recent files in a test place
}

void TestWelcome::init()
{
    QSettings().clear();
}

void TestWelcome::shownOnTheFirstStartOnly()
{
    QVERIFY(showWelcomeAtStart(QString(), QString()));
    QVERIFY(!showWelcomeAtStart(u"mine.json"_s, QString()));
    QVERIFY(!showWelcomeAtStart(QString(), u"incident.sqlite"_s));
    markWelcomeDone();
    QVERIFY(!showWelcomeAtStart(QString(), QString()));
}

void TestWelcome::offersEveryShippedDashboardWithItsVariables()
{
    const QStringList shipped = shippedDashboards();
    QCOMPARE(shipped.first(), HostDashboard); // the default first
    QVERIFY(shipped.contains(PostgresDashboard));
    WelcomePage page;
    QList<std::pair<QString, Dashboard>> offers;
    for (const QString &path : shipped) {
        const DashboardLoadResult loaded = loadDashboardOrDefault(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error.toString()));
        offers.append({ path, *loaded.dashboard });
    }
    page.setDashboards(offers);
    QCOMPARE(page.dashboardPaths(), shipped);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    // Every variable of every dashboard has a field holding its default.
    for (const auto &[path, dashboard] : std::as_const(offers)) {
        QVERIFY(page.openButton(path));
        for (const DashboardVariable &variable : dashboard.variables) {
            QComboBox *field = page.variableField(path, variable.name);
            QVERIFY2(field, qPrintable(path + u' ' + variable.name));
            QCOMPARE(field->currentText(), variable.defaultValue);
        }
    }
    QVERIFY(page.variableField(PostgresDashboard, u"pg"_s));
    QCOMPARE(page.variableField(HostDashboard, u"pg"_s), nullptr);

    // A host typed in (an ssh:// one): Enter in the field chooses with what it says.
    QSignalSpy chosen(&page, &WelcomePage::dashboardChosen);
    QComboBox *host = page.variableField(HostDashboard, u"host"_s);
    host->lineEdit()->selectAll();
    QTest::keyClicks(host->lineEdit(), u" ssh://ops@db1.example "_s);
    QTest::keyClick(host->lineEdit(), Qt::Key_Return);
    QCOMPARE(chosen.size(), 1);
    QCOMPARE(chosen.at(0).at(0).toString(), HostDashboard);
    const auto values = chosen.at(0).at(1).value<QMap<QString, QString>>();
    QCOMPARE(values.value(u"host"_s), u"ssh://ops@db1.example"_s); // trimmed
    QCOMPARE(values.value(u"nic_speed"_s), u"1000"_s);

    QSignalSpy file(&page, &WelcomePage::openFileRequested);
    QSignalSpy recording(&page, &WelcomePage::openRecordingRequested);
    page.findChild<QPushButton *>(u"openFile"_s)->click();
    page.findChild<QPushButton *>(u"openRecording"_s)->click();
    QCOMPARE(file.size(), 1);
    QCOMPARE(recording.size(), 1);
}

void TestWelcome::choosingOpensTheDashboardAndCollects()
{
    WelcomeWindow welcome;
    MonitoringSession &session = welcome.session;
    MainWindow &window = welcome.window;
    QCOMPARE(welcome.pluginProblems, QStringList());
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.isShowingWelcome());
    QVERIFY(window.windowTitle().startsWith(u"Welcome"_s));
    WelcomePage *page = window.welcomePage();
    auto *back = page->findChild<QPushButton *>(u"back"_s);
    QVERIFY(!back->isVisible()); // nothing open to go back to
    QCOMPARE(session.registry().size(), 0); // nothing collects before a choice
    QVERIFY(!window.findingsDock()->isVisible()); // it speaks of a dashboard

    QTest::mouseClick(page->openButton(HostDashboard), Qt::LeftButton);
    QVERIFY(!window.isShowingWelcome());
    QCOMPARE(window.dashboardTitle(), u"This host — USE"_s);
    QVERIFY(!window.view()->panels().isEmpty());
    QVERIFY(window.findingsDock()->isVisible());
    QVERIFY(!showWelcomeAtStart(QString(), QString())); // used once: not at the next start
    // The local host's CPU, collected from /proc by the host plugin.
    const SeriesKey cpu { u"host"_s, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } } };
    QTRY_VERIFY_WITH_TIMEOUT(session.registry().find(cpu).has_value(), 10'000);

    // Help ▸ Welcome again: the open dashboard stays behind it, one click away.
    window.showWelcome();
    QVERIFY(window.isShowingWelcome());
    QVERIFY(back->isVisible());
    back->click();
    QVERIFY(!window.isShowingWelcome());
    QCOMPARE(window.dashboardTitle(), u"This host — USE"_s);
}

// "Add a Source…": a new dashboard (a USE matrix of every source, the alert list) and
// Dashboard ▸ Sources… at once; a host added there collects and fills the matrix.
void TestWelcome::addASourceStartsANewDashboard()
{
    WelcomeWindow welcome;
    MonitoringSession &session = welcome.session;
    MainWindow &window = welcome.window;
    QCOMPARE(welcome.pluginProblems, QStringList());
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    bool scripted = false;
    // The Sources dialog is modal: script it once it shows.
    QTimer::singleShot(0, &window, [&] {
        auto *dialog = qobject_cast<SourcesDialog *>(QApplication::activeModalWidget());
        if (!dialog) { // a message instead (the template refused?): fail, do not hang
            if (QWidget *other = QApplication::activeModalWidget())
                other->close();
            return;
        }
        QCOMPARE(dialog->sources().size(), 0);
        dialog->setEditorRun([](SourceEditor *editor) {
            auto *host = editor->findChild<QLineEdit *>(u"host"_s);
            host->setText(u"local"_s);
            return editor->problem().isEmpty();
        });
        dialog->addSource(u"host"_s);
        scripted = dialog->sources().size() == 1;
        dialog->accept();
    });
    QTest::mouseClick(window.welcomePage()->findChild<QPushButton *>(u"addSource"_s),
                      Qt::LeftButton);
    QVERIFY(scripted);
    QVERIFY(!window.isShowingWelcome());
    QCOMPARE(window.dashboardTitle(), u"New dashboard"_s);
    QVERIFY(window.windowTitle().contains(u'*') || window.isWindowModified());
    QVERIFY(!showWelcomeAtStart(QString(), QString()));
    const SeriesKey cpu { u"host"_s, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } } };
    QTRY_VERIFY_WITH_TIMEOUT(session.registry().find(cpu).has_value(), 10'000);
}

QTEST_MAIN(TestWelcome)
#include "tst_welcome.moc"
