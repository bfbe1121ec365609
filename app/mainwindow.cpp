// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "mainwindow.h"

#include "alertnotifier.h"
#include "appdashboards.h"
#include "appicon.h"
#include "charts/chartwindow.h"
#include "charts/zoomablechartview.h"
#include "csvexportcontroller.h"
#include "customrangedialog.h"
#include "dashboardview.h"
#include "document/alertrulejson.h"
#include "document/dashboardedit.h"
#include "document/dashboardrepeat.h"
#include "document/dashboardtrust.h"
#include "editors/alertrulesdialog.h"
#include "editors/dashboardeditor.h"
#include "editors/sourcesdialog.h"
#include "engine/monitoringsession.h"
#include "findings/findingsdock.h"
#include "firstrun.h"
#include "itemmodels/findingsmodel.h"
#include "literaltext.h"
#include "panels/timeseriespanel.h"
#include "pngexport.h"
#include "rangebar.h"
#include "recordingcontroller.h"
#include "repeatexpander.h"
#include "reportexport.h"
#include "sourcestatusbar.h"
#include "sourcetest.h"
#include "trustbar.h"
#include "variablebar.h"
#include "welcomepage.h"

#include <QAction>
#include <QCloseEvent>
#include <QDialog>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QThreadPool>
#include <QVBoxLayout>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
constexpr int MaxRecentFiles = 8;
constexpr int FindingsDockHeightPx = 200;
} // namespace

MainWindow::MainWindow(MonitoringSession *session, QWidget *parent)
    : QMainWindow(parent)
    , m_session(session)
    , m_recordings(new RecordingController(session, this))
    , m_csvExport(new CsvExportController(session, this))
    , m_repeats(new RepeatExpander(this))
{
    m_view = new DashboardView(&m_session->registry(), this);
    m_view->setStore(m_session->store());
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setWidget(m_view);
    m_trustBar = new TrustBar(this);
    connect(m_trustBar, &TrustBar::trustRequested, this, &MainWindow::trustDashboard);
    m_dashboardPage = new QWidget(this);
    auto *dashboardLayout = new QVBoxLayout(m_dashboardPage);
    dashboardLayout->setContentsMargins(0, 0, 0, 0);
    dashboardLayout->setSpacing(0);
    dashboardLayout->addWidget(m_trustBar);
    dashboardLayout->addWidget(scroll, 1);
    m_welcome = new WelcomePage(this);
    connect(m_welcome, &WelcomePage::dashboardChosen, this,
            [this](const QString &resource, const QMap<QString, QString> &variables) {
                // A shipped dashboard: Save asks for a file name (m_file stays empty).
                if (maybeSave())
                    showDashboard(loadDashboardOrDefault(resource), QString(), resource, variables);
            });
    connect(m_welcome, &WelcomePage::addSourceRequested, this, [this] {
        if (maybeSave()
            && showDashboard(loadDashboardOrDefault(NewDashboardResource), QString(),
                             NewDashboardResource, {}))
            editSources();
    });
    connect(m_welcome, &WelcomePage::openFileRequested, this, &MainWindow::openFileDialog);
    connect(m_welcome, &WelcomePage::openRecordingRequested, this, [this] {
        if (maybeSave())
            openRecordingDialog();
    });
    connect(m_welcome, &WelcomePage::backRequested, this,
            [this] { m_pages->setCurrentWidget(m_dashboardPage); });
    m_pages = new QStackedWidget(this);
    m_pages->addWidget(m_dashboardPage);
    m_pages->addWidget(m_welcome);
    setCentralWidget(m_pages);
    // The welcome page stands alone: the range, variable and findings bars speak of a
    // dashboard, and come back as they were with it.
    connect(m_pages, &QStackedWidget::currentChanged, this, [this] {
        const bool welcome = isShowingWelcome();
        if (welcome)
            m_findingsShown = m_findings->isVisible();
        m_rangeBar->setVisible(!welcome);
        m_variableBar->setVisible(!welcome && !m_dashboard.variables.isEmpty());
        m_findings->setVisible(!welcome && m_findingsShown);
        // Nothing to edit behind the page on a first start; Help ▸ Welcome returns to it.
        m_dashboardMenu->menuAction()->setEnabled(!welcome);
        m_alertsMenu->menuAction()->setEnabled(!welcome);
    });
    connect(m_view, &DashboardView::rangeSelected, this, &MainWindow::onZoom);
    connect(m_view, &DashboardView::chartRequested, this, &MainWindow::openChart);
    // A folded section is part of the dashboard: saved with it, like Grafana's rows.
    connect(m_view, &DashboardView::sectionToggled, this, [this](int drawn, bool collapsed) {
        // A repeated section's copies fold the section they repeat.
        const QList<DashboardSection> &shown = m_view->dashboard().sections;
        const int index = drawn >= 0 && drawn < shown.size() && shown.at(drawn).documentIndex >= 0
            ? shown.at(drawn).documentIndex
            : drawn;
        if (index >= 0 && index < m_dashboard.sections.size()) {
            m_dashboard.sections[index].collapsed = collapsed;
            setModified(true);
        }
    });
    // Start well: a range longer than the data present starts where the data does.
    connect(m_view, &DashboardView::refreshed, this, [this] {
        m_range.noteDataStart(m_view->earliestPointMs(), m_view->resultsFromMs(),
                              QDateTime::currentMSecsSinceEpoch());
    });

    m_statusBar = new SourceStatusBar(this);
    statusBar()->addPermanentWidget(m_statusBar, 1);
    connect(&m_session->scheduler(), &CollectorScheduler::statusChanged, m_statusBar,
            &SourceStatusBar::updateStatus);
    connect(&m_session->scheduler(), &CollectorScheduler::statusChanged, this,
            [this](const SourceStatus &status) { m_sourceStatus.insert(status.sourceId, status); });
    m_statusBar->followCache(m_session->cache()); // disk full, write errors

    setWindowIcon(appIcon());
    createActions();
    setUpAlerts();
    setUpFindings();
    setUpExports();
    setUpRecordings();
    connect(m_repeats, &RepeatExpander::expanded, this, &MainWindow::showExpansion);
    connect(&m_refreshTimer, &QTimer::timeout, this, &MainWindow::refresh);
    resize(1400, 900);
}

MainWindow::~MainWindow()
{
    // A source test left running when its editor closed reads the session's plugins.
    QThreadPool::globalInstance()->waitForDone();
    m_csvExport->waitForFinished(); // it reads the session's store
    m_recordings->waitForSave(); // it reads the session's cache
    m_findings->setStore(nullptr); // waits for an analysis in flight
    m_view->setStore(nullptr); // waits for a query in flight
    m_session->stop();
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openFileDialog);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addAction(tr("Open Recor&ding…"), this, [this] {
        if (maybeSave())
            openRecordingDialog();
    });
    file->addAction(tr("&Import…"), this, [this] {
        if (maybeSave())
            importDialog();
    });
    file->addAction(tr("Save Recording &As…"), this, &MainWindow::saveRecordingAs);
    m_closeRecordingAction
        = file->addAction(tr("&Close Recording"), this, &MainWindow::closeRecording);
    m_closeRecordingAction->setEnabled(false);
    file->addAction(tr("&Save"), QKeySequence::Save, this, &MainWindow::save);
    file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, &MainWindow::saveAs);
    file->addSeparator();
    file->addAction(tr("Export Dashboard as &PNG…"), this, [this] {
        exportPng(this, m_view, tr("Export dashboard as PNG"), u"dashboard.png"_s);
    });
    file->addAction(tr("Export Data as &CSV…"), this, &MainWindow::exportCsv);
    file->addAction(tr("Export &Incident Report…"), this, [this] {
        const auto [from, to] = currentRange();
        exportIncidentReport(this, m_dashboard, m_file, m_variables, m_session, from, to);
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    updateRecentMenu();

    QMenu *dashboardMenu = m_dashboardMenu = menuBar()->addMenu(tr("&Dashboard"));
    dashboardMenu->addAction(tr("&Edit Panels…"), this, &MainWindow::editPanels);
    dashboardMenu->addAction(tr("&Sources…"), this, &MainWindow::editSources);
    QMenu *alertsMenu = m_alertsMenu = menuBar()->addMenu(tr("&Alerts"));
    alertsMenu->addAction(tr("&Edit Rules…"), this, &MainWindow::editAlertRules);
    QMenu *settingsMenu = menuBar()->addMenu(tr("&Settings"));
    settingsMenu->addAction(tr("&Keep History…"), this, &MainWindow::chooseRetention);
    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));
    helpMenu->addAction(tr("&Welcome"), this, &MainWindow::showWelcome);

    m_rangeBar = new RangeBar(this);
    addToolBar(m_rangeBar);
    connect(m_rangeBar, &RangeBar::rangeChosen, this, [this](qint64 rangeMs) {
        setFollowing(true);
        setRange(rangeMs);
    });
    connect(m_rangeBar, &RangeBar::customRangeRequested, this, &MainWindow::chooseCustomRange);
    connect(m_rangeBar, &RangeBar::followingChosen, this, &MainWindow::setFollowing);
    connect(m_rangeBar, &RangeBar::compareOffsetChosen, this, [this](qint64 offsetMs) {
        m_view->setCompareOffset(offsetMs);
        refresh();
    });

    m_variableBar = new VariableBar(this);
    addToolBar(m_variableBar);
    connect(m_variableBar, &VariableBar::valueChosen, this,
            [this](const QString &name, const QString &value) {
                if (m_variables.value(name) == value)
                    return;
                m_variables.insert(name, value);
                restartCollection();
            });
}

void MainWindow::setLiveCache(const QString &path, const RetentionDays &retention)
{
    m_recordings->setLiveCache(path, retention);
}

QComboBox *MainWindow::compareCombo() const
{
    return m_rangeBar->compareCombo();
}

bool MainWindow::openDashboard(const QString &path, const QMap<QString, QString> &variables)
{
    return showDashboard(loadDashboardOrDefault(path), path, resolveDashboardPath(path), variables);
}

void MainWindow::showWelcome()
{
    QList<std::pair<QString, Dashboard>> offers;
    for (const auto resources = shippedDashboards(); const QString &resource : resources) {
        const DashboardLoadResult loaded = loadDashboardOrDefault(resource);
        if (loaded.ok())
            offers.append({ resource, *loaded.dashboard });
    }
    m_welcome->setDashboards(offers);
    m_welcome->setCanGoBack(!m_source.isEmpty());
    m_pages->setCurrentWidget(m_welcome);
    updateTitle();
}

void MainWindow::updateFindingsSources()
{
    QStringList sources;
    qint64 fastestPoll = 0;
    for (const DashboardSource &source : std::as_const(m_dashboard.sources)) {
        sources.append(source.id);
        fastestPoll = fastestPoll == 0 ? source.intervalMs
                                       : std::min<qint64>(fastestPoll, source.intervalMs);
    }
    m_findings->setSources(sources, fastestPoll);
}

bool MainWindow::isShowingWelcome() const
{
    return m_pages->currentWidget() == m_welcome;
}

bool MainWindow::showDashboard(const DashboardLoadResult &loaded, const QString &path,
                               const QString &origin, const QMap<QString, QString> &variables)
{
    if (!loaded.ok()) {
        QMessageBox::warning(this, tr("Cannot open dashboard"),
                             literalAutoText(loaded.error.toString())); // quotes the file
        return false;
    }
    if (const QString unknown = unknownVariable(*loaded.dashboard, variables); !unknown.isEmpty()) {
        QMessageBox::warning(
            this, tr("Cannot open dashboard"),
            literalAutoText(tr("The dashboard has no variable \"%1\".").arg(unknown)));
        return false;
    }
    m_dashboard = *loaded.dashboard;
    m_file = path;
    m_source = origin;
    m_variables = m_dashboard.resolveVariables(variables);
    m_trustBar->hide();
    m_pages->setCurrentWidget(m_dashboardPage);
    markWelcomeDone(); // a dashboard was reached, however: no welcome page at the next start
    showPanels();
    if (!path.isEmpty())
        addRecentFile(path);
    rebuildVariableBar();
    setRange(m_dashboard.rangeMs);
    setFollowing(true);
    restartCollection();
    m_refreshTimer.start(m_dashboard.refreshMs);
    m_findings->clearFindingFocus();
    updateFindingsSources();
    m_findings->setLive(true);
    m_findings->refresh();
    setModified(false);
    updateTitle();
    return true;
}

void MainWindow::installPanelActions()
{
    for (PanelWidget *panel : m_view->panels()) {
        panel->setContextMenuPolicy(Qt::ActionsContextMenu);
        auto *exportAction = new QAction(tr("Export Panel as PNG…"), panel);
        connect(exportAction, &QAction::triggered, this, [this, panel] {
            exportPng(this, panel, tr("Export panel as PNG"), panel->config().id + u".png"_s);
        });
        // Let the right click reach the panel's action menu (a chart view takes it).
        if (auto *chart = qobject_cast<TimeSeriesPanel *>(panel))
            chart->chartView()->setContextMenuPolicy(Qt::NoContextMenu);
        panel->addAction(exportAction);
        auto *editAction = new QAction(tr("Edit Panel…"), panel);
        // A repeated panel's copy edits the panel it repeats.
        const QString id
            = panel->config().repeatOf.isEmpty() ? panel->config().id : panel->config().repeatOf;
        // Queued: applying the edit replaces this panel (and the action) while it fires.
        connect(
            editAction, &QAction::triggered, this, [this, id] { editPanelById(id); },
            Qt::QueuedConnection);
        panel->addAction(editAction);
    }
}

void MainWindow::editPanels()
{
    // nullopt: cancelled or nothing changed.
    if (const auto edited = editDashboard(this, m_dashboard, m_session->registry()))
        applyEditedDashboard(*edited);
}

void MainWindow::editPanelById(const QString &panelId)
{
    const DashboardPanel *panel = m_dashboard.panel(panelId);
    if (!panel)
        return;
    const auto edited = Headroom::editPanel(this, m_dashboard, *panel, m_session->registry());
    if (!edited)
        return;
    Dashboard next = m_dashboard;
    replacePanel(next, panelId, *edited); // keeps ids unique, pushes overlapped panels down
    applyEditedDashboard(next);
}

void MainWindow::applyEditedDashboard(const Dashboard &edited)
{
    m_dashboard = edited; // sources are not edited: collection goes on
    showPanels();
    expandRepeatsLater();
    refresh();
    setModified(true);
}

void MainWindow::editSources()
{
    // A dashboard not yet trusted tests nothing (sourcetest.h).
    const SourceTest tester = sourceTest(m_dashboard, m_variables, &m_session->collectors(),
                                         m_trusted || m_session->isRecording());
    const auto status = [this](const QString &id) {
        const auto it = m_sourceStatus.constFind(id);
        return it == m_sourceStatus.cend() ? QString() : sourceStatusText(*it);
    };
    SourcesDialog dialog(m_dashboard, status, tester, this);
    if (dialog.exec() != QDialog::Accepted || dialog.dashboard() == m_dashboard)
        return;
    const bool wasTrusted = m_trusted;
    m_dashboard = dialog.dashboard(); // the sources, and references to renamed ones
    if (wasTrusted && !m_session->isRecording()) {
        // The user typed these targets here: the dashboard stays trusted with them.
        // One not yet trusted keeps asking (its file's own targets were not agreed to).
        const TrustRequest request
            = trustRequest(m_dashboard, m_session->collectors().plugins(), m_variables);
        QString error;
        if (!request.isEmpty()
            && !DashboardTrustStore().trust(request.fingerprint(), m_source, &error))
            QMessageBox::warning(this, tr("Cannot remember the trust"), literalAutoText(error));
    }
    showPanels(); // panels may read renamed sources
    restartCollection();
    updateFindingsSources();
    setModified(true);
}

void MainWindow::setUpAlerts()
{
    m_notifier = new AlertNotifier(this);
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        m_tray = new QSystemTrayIcon(appIcon(), this);
        m_tray->setToolTip(u"Headroom"_s);
        connect(m_tray, &QSystemTrayIcon::activated, this, [this] {
            showNormal();
            raise();
            activateWindow();
        });
        m_tray->show();
        m_notifier->setTrayIcon(m_tray);
    }
    // Queued: the engine emits on its own thread.
    connect(&m_session->alerts(), &AlertEngine::eventsRaised, m_notifier, &AlertNotifier::notify);
    connect(m_notifier, &AlertNotifier::notified, this,
            [this](const QString &title, const QString &message) {
                statusBar()->showMessage(title + u" — "_s + message.section(u'\n', 0, 0), 30000);
            });
    connect(m_view, &DashboardView::alertAcknowledged, this,
            [this](const QString &ruleId, const SeriesKey &series, qint64 upToMs) {
                m_session->alerts().acknowledge(ruleId, series, upToMs);
                refresh();
            });
}

// What the CSV export says when it is done.
void MainWindow::setUpExports()
{
    connect(m_csvExport, &CsvExportController::written, this, [this](const QString &path) {
        statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
    });
    connect(m_csvExport, &CsvExportController::failed, this, [this](const QString &error) {
        QMessageBox::warning(this, tr("Export failed"), literalAutoText(error));
    });
}

void MainWindow::setUpFindings()
{
    m_findings = new FindingsDock(&m_session->registry(), this);
    m_findings->setStore(m_session->store());
    // The range shown: findings of what the panels show (zooming in analyses less).
    m_findings->setRangeSource([this] { return currentRange(); });
    addDockWidget(Qt::BottomDockWidgetArea, m_findings);
    // A few findings' rows high: the dashboard keeps most of the window (an empty list
    // took half of it and hid the first charts below the USE matrix).
    resizeDocks({ m_findings }, { FindingsDockHeightPx }, Qt::Vertical);
    menuBar()->addMenu(tr("&View"))->addAction(m_findings->toggleViewAction());
    connect(m_findings, &FindingsDock::findingFocused, this, &MainWindow::focusFinding);
    connect(m_findings, &FindingsDock::findingFocusCleared, this, &MainWindow::clearFindingFocus);
    connect(m_findings, &FindingsDock::compareRequested, this, &MainWindow::compareBeforeAfter);
    // Shift+drag on a time panel: explain that window.
    connect(m_view, &DashboardView::explainRequested, this, [this](qint64 fromMs, qint64 toMs) {
        m_findings->show();
        m_findings->explain(fromMs, toMs);
    });
    auto *clear = new QAction(tr("Clear Finding Focus"), this);
    clear->setShortcut(Qt::Key_Escape);
    clear->setShortcutContext(Qt::WindowShortcut);
    connect(clear, &QAction::triggered, m_findings, &FindingsDock::clearFindingFocus);
    addAction(clear);
}

void MainWindow::focusFinding(const Analysis::Finding &finding, qint64 dataFromMs, qint64 dataToMs)
{
    const auto [from, to] = findingFocusWindow(finding, dataFromMs, dataToMs);
    m_view->setFindingFocus(finding.sinceMs, finding.evidenceKeys);
    statusBar()->showMessage(finding.summary, 10000);
    onZoom(from, to); // pauses following: the onset stays in view
}

void MainWindow::clearFindingFocus()
{
    m_view->clearFindingFocus();
    refresh();
}

void MainWindow::compareBeforeAfter(const Analysis::Finding &finding)
{
    const qint64 offset = findingCompareOffset(finding);
    m_rangeBar->showBeforeAfterOffset(offset);
    m_view->setCompareOffset(offset);
    refresh();
}

void MainWindow::editAlertRules()
{
    const auto [from, to] = currentRange();
    const auto edited
        = Headroom::editAlertRules(this, m_dashboard.alertPack, m_dashboard.alerts,
                                   m_session->registry(), m_session->store(), from, to);
    if (!edited)
        return;
    m_dashboard.alerts = *edited;
    // The engine keeps instances of unchanged rules; changed ones start over.
    m_session->alerts().setRules(effectiveAlertRules(m_dashboard.alertPack, m_dashboard.alerts));
    setModified(true);
    refresh();
}

void MainWindow::setModified(bool modified)
{
    m_modified = modified;
    setWindowModified(modified); // the "[*]" of the title
}

bool MainWindow::maybeSave()
{
    if (!m_modified)
        return true;
    const auto answer = QMessageBox::question(
        this, tr("Unsaved changes"),
        literalAutoText(
            tr("The dashboard \"%1\" has unsaved changes. Save them?").arg(m_dashboard.title)),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel)
        return false;
    return answer == QMessageBox::Discard || save();
}

void MainWindow::rebuildVariableBar()
{
    m_variableBar->setVariables(m_dashboard.variables, m_variables);
}

void MainWindow::restartCollection()
{
    m_statusBar->clear();
    m_sourceStatus.clear(); // the new sources report afresh
    m_range.forgetDataStart(); // another dashboard, other values or another cache
    if (m_session->isRecording()) { // nothing connects anywhere: no trust to ask for
        m_session->start(m_dashboard, m_variables);
        expandRepeatsLater();
        refresh();
        return;
    }
    const TrustCheck trust
        = checkDashboardTrust(m_dashboard, m_source, m_session->collectors().plugins(), m_variables,
                              DashboardTrustStore());
    m_trusted = trust.trusted;
    if (!trust.trusted)
        m_trustBar->showRequest(QFileInfo(m_source).fileName(), trust.request.describe());
    m_session->start(m_dashboard, m_variables, trust.held(),
                     tr("not started: this dashboard is not trusted yet (see the bar above the "
                        "panels)"));
    expandRepeatsLater();
    refresh();
}

void MainWindow::showPanels()
{
    m_view->setDashboard(m_dashboard);
    installPanelActions();
}

void MainWindow::expandRepeatsLater()
{
    const auto [from, to] = currentRange();
    // Only a trusted dashboard's engines are asked for its variables' values.
    m_repeats->expand(m_dashboard, m_session->store(), from, to,
                      m_trusted && !m_session->isRecording());
}

void MainWindow::showExpansion(const RepeatExpansion &expansion)
{
    for (const QString &message : expansion.messages)
        statusBar()->showMessage(message, 10000);
    m_variableBar->offerValues(m_dashboard.variables, expansion.listed);
    if (!expansion.repeats)
        return; // the panels as drawn are the dashboard's
    m_view->setDashboard(expansion.drawn);
    installPanelActions();
    refresh();
}

void MainWindow::trustDashboard()
{
    const TrustRequest request
        = trustRequest(m_dashboard, m_session->collectors().plugins(), m_variables);
    QString error;
    if (!DashboardTrustStore().trust(request.fingerprint(), m_source, &error))
        QMessageBox::warning(
            this, tr("Cannot remember the trust"),
            literalAutoText(error + tr("\n\nThe dashboard is trusted until it is closed.")));
    m_trusted = true;
    m_statusBar->clear();
    m_session->start(m_dashboard, m_variables);
    expandRepeatsLater();
    refresh();
}

std::pair<qint64, qint64> MainWindow::currentRange() const
{
    return m_range.range(QDateTime::currentMSecsSinceEpoch());
}

void MainWindow::refresh()
{
    const auto [from, to] = currentRange();
    m_view->refresh(from, to);
    // Charts opened from a USE matrix cell follow the same range; a few series each,
    // cheap enough to query here.
    m_charts.removeAll(nullptr);
    for (ChartWindow *chart : std::as_const(m_charts))
        chart->refreshNow(m_session->registry(), *m_session->store(), from, to);
}

void MainWindow::openChart(const DashboardPanel &chart)
{
    auto *window = new ChartWindow(chart, this);
    connect(window, &ChartWindow::rangeSelected, this, &MainWindow::onZoom);
    m_charts.append(window);
    window->show();
    const auto [from, to] = currentRange();
    window->refreshNow(m_session->registry(), *m_session->store(), from, to);
}

void MainWindow::setRange(qint64 rangeMs)
{
    m_rangeBar->showRange(rangeMs);
    m_range.setRangeMs(rangeMs, QDateTime::currentMSecsSinceEpoch());
    refresh();
}

void MainWindow::chooseCustomRange()
{
    const auto [from, to] = currentRange();
    if (const auto chosen = askCustomRange(this, from, to))
        onZoom(chosen->first, chosen->second);
}

void MainWindow::onZoom(qint64 fromMs, qint64 toMs)
{
    m_range.zoom(fromMs, toMs, QDateTime::currentMSecsSinceEpoch());
    showFollowing();
    refresh();
    if (m_findings)
        m_findings->refresh(); // the findings of the new range (unless one is focused)
}

void MainWindow::setFollowing(bool follow)
{
    m_range.setFollowing(follow, QDateTime::currentMSecsSinceEpoch());
    showFollowing();
    refresh();
}

void MainWindow::showFollowing()
{
    m_rangeBar->showFollowing(m_range.following());
}

void MainWindow::openFileDialog()
{
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open dashboard"), QString(),
                                                      tr("Dashboards (*.json);;All files (*)"));
    if (!path.isEmpty())
        openDashboard(path);
}

bool MainWindow::save()
{
    return m_file.isEmpty() ? saveAs() : saveTo(m_file);
}

bool MainWindow::saveAs()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save dashboard"), m_file,
                                                      tr("Dashboards (*.json)"));
    return !path.isEmpty() && saveTo(path);
}

bool MainWindow::saveTo(const QString &path)
{
    Dashboard toSave = m_dashboard;
    toSave.rangeMs = m_range.rangeMs();
    for (DashboardVariable &variable : toSave.variables) // the values in use become the defaults
        variable.defaultValue = m_variables.value(variable.name, variable.defaultValue);
    QString error;
    if (!saveDashboard(toSave, path, &error)) {
        QMessageBox::warning(this, tr("Cannot save dashboard"), literalAutoText(error));
        return false;
    }
    m_dashboard = toSave;
    m_file = path;
    m_source = path;
    // A trusted dashboard saved by the user stays trusted; saving an untrusted one does
    // not make it so (that would launder a file nobody looked at).
    if (m_trusted) {
        const TrustRequest request = trustRequest(m_dashboard, m_session->collectors().plugins(),
                                                  m_dashboard.resolveVariables({}));
        if (!request.isEmpty() && !DashboardTrustStore().trust(request.fingerprint(), path, &error))
            statusBar()->showMessage(error, 5000);
    }
    addRecentFile(path);
    setModified(false);
    updateTitle();
    statusBar()->showMessage(tr("Saved %1").arg(path), 3000);
    return true;
}

void MainWindow::exportCsv()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export data as CSV"),
                                                      u"dashboard.csv"_s, tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    const auto [from, to] = currentRange();
    m_csvExport->exportCsv(m_view->dashboard().panels, from, to, path); // as drawn
}

void MainWindow::addRecentFile(const QString &path)
{
    QSettings settings;
    QStringList files = settings.value(u"recentFiles"_s).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > MaxRecentFiles)
        files.removeLast();
    settings.setValue(u"recentFiles"_s, files);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = QSettings().value(u"recentFiles"_s).toStringList();
    for (const QString &file : files)
        m_recentMenu->addAction(file, this, [this, file] {
            if (maybeSave())
                openDashboard(file);
        });
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::updateTitle()
{
    QString name = m_file.isEmpty() ? m_dashboard.title : QFileInfo(m_file).fileName();
    if (name.isEmpty())
        name = tr("Welcome"); // nothing opened yet
    setWindowTitle(name + u"[*]"_s
                   + (m_recordingTitle.isEmpty() ? QString() : u" — "_s + m_recordingTitle)
                   + u" — Headroom"_s);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    m_refreshTimer.stop();
    m_session->stop();
    m_session->flushCache();
    event->accept();
}

} // namespace Headroom
