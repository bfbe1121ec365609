#include "mainwindow.h"

#include "alertnotifier.h"
#include "appdashboards.h"
#include "appicon.h"
#include "charts/chartwindow.h"
#include "charts/zoomablechartview.h"
#include "dashboardcsv.h"
#include "dashboardview.h"
#include "document/alertrulejson.h"
#include "document/dashboardedit.h"
#include "document/dashboardrepeat.h"
#include "document/dashboardtrust.h"
#include "editors/alertrulesdialog.h"
#include "editors/dashboardeditor.h"
#include "editors/sourcesdialog.h"
#include "engine/cache/recordingsaver.h"
#include "engine/cache/samplecache.h"
#include "engine/monitoringsession.h"
#include "engine/sourceprobe.h"
#include "findings/findingsdock.h"
#include "firstrun.h"
#include "imageexport.h"
#include "itemmodels/findingsmodel.h"
#include "panels/timeseriespanel.h"
#include "query/promql/repeatvalues.h"
#include "recordingsummary.h"
#include "reportexport.h"
#include "retentiondialog.h"
#include "retentionsetting.h"
#include "sourcestatusbar.h"
#include "trustbar.h"
#include "welcomepage.h"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QThreadPool>
#include <QToolBar>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
constexpr int MaxRecentFiles = 8;
constexpr int FindingsDockHeightPx = 200;
} // namespace

MainWindow::MainWindow(MonitoringSession *session, QWidget *parent)
    : QMainWindow(parent)
    , m_session(session)
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
    connect(&m_refreshTimer, &QTimer::timeout, this, &MainWindow::refresh);
    resize(1400, 900);
}

MainWindow::~MainWindow()
{
    // A source test left running when its editor closed reads the session's plugins.
    QThreadPool::globalInstance()->waitForDone();
    m_csvExport.waitForFinished(); // it reads the session's store
    m_recordingSave.waitForFinished(); // it reads the session's cache
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
    file->addAction(tr("Save Recording &As…"), this, &MainWindow::saveRecordingAs);
    m_closeRecordingAction
        = file->addAction(tr("&Close Recording"), this, &MainWindow::closeRecording);
    m_closeRecordingAction->setEnabled(false);
    file->addAction(tr("&Save"), QKeySequence::Save, this, &MainWindow::save);
    file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, &MainWindow::saveAs);
    file->addSeparator();
    file->addAction(tr("Export Dashboard as &PNG…"), this, &MainWindow::exportDashboardPng);
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

    m_rangeBar = addToolBar(tr("Time range"));
    m_rangeBar->setObjectName(u"timeRangeBar"_s);
    m_rangeBar->addWidget(new QLabel(tr("Range: "), this));
    m_rangeCombo = new QComboBox(this);
    for (const RangePreset &preset : RangeController::presets())
        m_rangeCombo->addItem(preset.name, preset.ms);
    m_rangeCombo->addItem(tr("Custom…"), qint64(0));
    connect(m_rangeCombo, &QComboBox::activated, this, &MainWindow::onRangeChosen);
    m_rangeBar->addWidget(m_rangeCombo);
    m_followAction = m_rangeBar->addAction(tr("Pause"));
    m_followAction->setCheckable(true);
    m_followAction->setToolTip(tr("Pause or resume following live data"));
    connect(m_followAction, &QAction::toggled, this,
            [this](bool paused) { setFollowing(!paused); });

    // Compare mode: overlay an earlier range on every time chart (before vs after).
    m_rangeBar->addSeparator();
    m_rangeBar->addWidget(new QLabel(tr("Compare with: "), this));
    m_compareCombo = new QComboBox(this);
    m_compareCombo->setObjectName(u"compareCombo"_s);
    m_compareCombo->addItem(tr("nothing"), qint64(0));
    m_compareCombo->addItem(tr("1 hour earlier"), 3600 * 1000LL);
    m_compareCombo->addItem(tr("1 day earlier"), 24 * 3600 * 1000LL);
    m_compareCombo->addItem(tr("1 week earlier"), 7 * 24 * 3600 * 1000LL);
    m_compareCombo->setToolTip(
        tr("Overlay the same panels over an earlier range, dashed, shifted onto this one"));
    connect(m_compareCombo, &QComboBox::activated, this, [this](int index) {
        m_view->setCompareOffset(m_compareCombo->itemData(index).toLongLong());
        refresh();
    });
    m_rangeBar->addWidget(m_compareCombo);

    m_variableBar = addToolBar(tr("Variables"));
    m_variableBar->setObjectName(u"variableBar"_s);
}

bool MainWindow::openDashboard(const QString &path, const QMap<QString, QString> &variables)
{
    return showDashboard(loadDashboardOrDefault(path), path, resolveDashboardPath(path), variables);
}

void MainWindow::showWelcome()
{
    QList<std::pair<QString, Dashboard>> offers;
    for (const QString &resource : shippedDashboards()) {
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
        QMessageBox::warning(this, tr("Cannot open dashboard"), loaded.error.toString());
        return false;
    }
    if (const QString unknown = unknownVariable(*loaded.dashboard, variables); !unknown.isEmpty()) {
        QMessageBox::warning(this, tr("Cannot open dashboard"),
                             tr("The dashboard has no variable \"%1\".").arg(unknown));
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
        connect(exportAction, &QAction::triggered, this, [this, panel] { exportPanelPng(panel); });
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
    // A test runs the source as this dashboard would, with the variables shown now, at
    // its place among the sources (a new one after them), so errors name it as the file
    // will. A dashboard not yet trusted tests nothing: its file chose the targets, the
    // SQL and the variables' defaults, and nobody has agreed to them yet.
    const Dashboard dashboard = m_dashboard;
    const QMap<QString, QString> values = m_variables;
    const CollectorRegistry *collectors = &m_session->collectors();
    const bool trusted = m_trusted || m_session->isRecording();
    const auto tester
        = [dashboard, values, collectors, trusted](
              const DashboardSource &source, std::shared_ptr<const std::atomic<bool>> cancel) {
              if (!trusted) {
                  SourceProbeResult refused;
                  refused.error = u"not tested: this dashboard is not trusted yet (the bar above "
                                  "the panels asks)"_s;
                  return refused;
              }
              Dashboard edited = dashboard;
              qsizetype index = edited.sources.size();
              for (qsizetype i = 0; i < edited.sources.size(); ++i) {
                  if (edited.sources.at(i).id == source.id)
                      index = i;
              }
              if (index == edited.sources.size())
                  edited.sources.append(source);
              else
                  edited.sources[index] = source;
              return probeSource(*collectors, edited, index, values, 2, cancel.get());
          };
    const auto status = [this](const QString &id) {
        const auto it = m_sourceStatus.constFind(id);
        if (it == m_sourceStatus.cend())
            return QString();
        QString text = sourceStateName(it->state);
        if (it->state == SourceState::Ok)
            text += tr(", %1 series").arg(it->seriesCount);
        if (!it->message.isEmpty())
            text += u": "_s + it->message;
        return text;
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
            QMessageBox::warning(this, tr("Cannot remember the trust"), error);
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
    // The combo shows the offset: a preset when it is one, else one custom entry
    // (replaced by the next "Compare before/after").
    int index = m_compareCombo->findData(offset);
    if (index < 0) {
        const int custom = m_compareCombo->findData(u"beforeAfter"_s, Qt::UserRole + 1);
        const QString text = tr("%1 earlier (before the onset)").arg(formatDuration(offset));
        if (custom >= 0) {
            m_compareCombo->setItemText(custom, text);
            m_compareCombo->setItemData(custom, offset);
            index = custom;
        } else {
            m_compareCombo->addItem(text, offset);
            index = m_compareCombo->count() - 1;
            m_compareCombo->setItemData(index, u"beforeAfter"_s, Qt::UserRole + 1);
        }
    }
    m_compareCombo->setCurrentIndex(index);
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
        tr("The dashboard \"%1\" has unsaved changes. Save them?").arg(m_dashboard.title),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel)
        return false;
    return answer == QMessageBox::Discard || save();
}

void MainWindow::rebuildVariableBar()
{
    m_variableBar->clear();
    for (const DashboardVariable &variable : std::as_const(m_dashboard.variables)) {
        m_variableBar->addWidget(new QLabel(
            (variable.label.isEmpty() ? variable.name : variable.label) + u": "_s, this));
        auto *combo = new QComboBox(this);
        combo->setObjectName(u"variable:"_s + variable.name);
        combo->setEditable(true); // any value is allowed; options are suggestions
        combo->addItems(variableChoices(variable, {}));
        if (variable.multi)
            combo->setToolTip(tr("Several values: a, b; all of them: *"));
        combo->setCurrentText(m_variables.value(variable.name));
        combo->setMinimumContentsLength(16);
        const QString name = variable.name;
        connect(combo, &QComboBox::activated, this, [this, combo, name] {
            if (m_variables.value(name) == combo->currentText())
                return;
            m_variables.insert(name, combo->currentText());
            restartCollection();
        });
        m_variableBar->addWidget(combo);
    }
    m_variableBar->setVisible(!m_dashboard.variables.isEmpty());
}

void MainWindow::offerVariableValues(const QMap<QString, QStringList> &listed)
{
    for (const DashboardVariable &variable : std::as_const(m_dashboard.variables)) {
        auto *combo = m_variableBar->findChild<QComboBox *>(u"variable:"_s + variable.name);
        if (!combo || !listed.contains(variable.name))
            continue;
        const QString text = combo->currentText(); // as shown, maybe being typed
        combo->clear();
        combo->addItems(variableChoices(variable, listed.value(variable.name)));
        combo->setCurrentText(text);
    }
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
    const int generation = ++m_repeatGeneration;
    // Repeats need their values; a variable with labelValues is offered the engine's
    // (asked only of a trusted dashboard's engines: an untrusted file chose them).
    const bool repeats = hasRepeats(m_dashboard);
    const bool lists = m_trusted && !m_session->isRecording()
        && std::any_of(m_dashboard.variables.cbegin(), m_dashboard.variables.cend(),
                       [](const DashboardVariable &v) { return !v.labelValues.label.isEmpty(); });
    if (!repeats && !lists)
        return;
    const auto [from, to] = currentRange();
    struct Expanded
    {
        Dashboard drawn;
        QMap<QString, QStringList> listed;
        QStringList messages;
    };
    auto *watcher = new QFutureWatcher<Expanded>(this);
    connect(watcher, &QFutureWatcher<Expanded>::finished, this,
            [this, watcher, generation, repeats] {
                const auto [drawn, listed, messages] = watcher->result();
                watcher->deleteLater();
                // Another dashboard, edit or value since: that one's expansion counts.
                if (generation != m_repeatGeneration)
                    return;
                for (const QString &message : messages)
                    statusBar()->showMessage(message, 10000);
                offerVariableValues(listed);
                if (!repeats)
                    return; // the panels as drawn are the dashboard's
                m_view->setDashboard(drawn);
                installPanelActions();
                refresh();
            });
    // Copies: the user may open another dashboard meanwhile.
    const Dashboard dashboard = m_dashboard;
    const SeriesStore *store = m_session->store();
    watcher->setFuture(QtConcurrent::run([dashboard, store, from, to, lists] {
        QStringList messages;
        const PromqlEngines *engines = store->promqlEngines();
        const VariableValues values = lists
            ? resolveVariableValues(dashboard, engines, from, to, &messages)
            : VariableValues { resolveRepeatValues(dashboard, engines, from, to, &messages), {} };
        return Expanded { expandRepeats(dashboard, values.repeat), values.listed, messages };
    }));
}

void MainWindow::trustDashboard()
{
    const TrustRequest request
        = trustRequest(m_dashboard, m_session->collectors().plugins(), m_variables);
    QString error;
    if (!DashboardTrustStore().trust(request.fingerprint(), m_source, &error))
        QMessageBox::warning(this, tr("Cannot remember the trust"),
                             error + tr("\n\nThe dashboard is trusted until it is closed."));
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
    int index = m_rangeCombo->findData(rangeMs);
    if (index < 0) { // a dashboard range that is not a preset: show it as such
        m_rangeCombo->insertItem(m_rangeCombo->count() - 1, formatDuration(rangeMs), rangeMs);
        index = m_rangeCombo->findData(rangeMs);
    }
    m_rangeCombo->setCurrentIndex(index);
    m_range.setRangeMs(rangeMs, QDateTime::currentMSecsSinceEpoch());
    refresh();
}

void MainWindow::onRangeChosen(int index)
{
    const qint64 ms = m_rangeCombo->itemData(index).toLongLong();
    if (ms == 0) {
        chooseCustomRange();
        return;
    }
    setFollowing(true);
    setRange(ms);
}

void MainWindow::chooseCustomRange()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Custom time range"));
    auto *form = new QFormLayout(&dialog);
    const auto [from, to] = currentRange();
    auto *fromEdit = new QDateTimeEdit(QDateTime::fromMSecsSinceEpoch(from), &dialog);
    auto *toEdit = new QDateTimeEdit(QDateTime::fromMSecsSinceEpoch(to), &dialog);
    fromEdit->setDisplayFormat(u"yyyy-MM-dd HH:mm:ss"_s);
    toEdit->setDisplayFormat(u"yyyy-MM-dd HH:mm:ss"_s);
    fromEdit->setCalendarPopup(true);
    toEdit->setCalendarPopup(true);
    form->addRow(tr("From:"), fromEdit);
    form->addRow(tr("To:"), toEdit);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const qint64 a = fromEdit->dateTime().toMSecsSinceEpoch();
    const qint64 b = toEdit->dateTime().toMSecsSinceEpoch();
    if (b <= a) {
        QMessageBox::warning(this, tr("Custom time range"), tr("The end must be after the start."));
        return;
    }
    onZoom(a, b);
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
    const bool follow = m_range.following();
    const QSignalBlocker blocker(m_followAction);
    m_followAction->setChecked(!follow);
    m_followAction->setText(follow ? tr("Pause") : tr("Resume live"));
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
        QMessageBox::warning(this, tr("Cannot save dashboard"), error);
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

void MainWindow::exportDashboardPng()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export dashboard as PNG"),
                                                      u"dashboard.png"_s, tr("PNG (*.png)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!writePng(m_view, devicePixelRatioF(), path, &error))
        QMessageBox::warning(this, tr("Export failed"), error);
}

void MainWindow::exportPanelPng(PanelWidget *panel)
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export panel as PNG"), panel->config().id + u".png"_s, tr("PNG (*.png)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!writePng(panel, devicePixelRatioF(), path, &error))
        QMessageBox::warning(this, tr("Export failed"), error);
}

void MainWindow::exportCsv()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export data as CSV"),
                                                      u"dashboard.csv"_s, tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    // A day of many series is a lot of rows: read and write in the pool, report back.
    const auto [from, to] = currentRange();
    auto *watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, path] {
        const QString error = watcher->result();
        watcher->deleteLater();
        if (!error.isEmpty())
            QMessageBox::warning(this, tr("Export failed"), error);
        else
            statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
    });
    // Copies, not the view: the user may open another dashboard meanwhile.
    const QList<DashboardPanel> panels = m_view->dashboard().panels; // as drawn
    const SeriesRegistry *registry = &m_session->registry();
    const SeriesStore *store = m_session->store();
    m_csvExport = QtConcurrent::run([panels, registry, store, from, to, path] {
        QString error;
        writeDashboardCsv(panels, *registry, *store, from, to, path, &error);
        return error;
    });
    watcher->setFuture(m_csvExport);
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

void MainWindow::switchCache(const std::function<bool(QString *)> &open)
{
    // Everything that may be reading the old cache on a worker finishes first.
    m_csvExport.waitForFinished();
    m_recordingSave.waitForFinished();
    m_findings->setStore(nullptr);
    m_view->setStore(nullptr);
    m_session->stop();
    QString error;
    if (!open(&error))
        QMessageBox::warning(this, tr("Cannot open"), error + tr("\n\nThe file was not modified."));
    m_view->setStore(m_session->store());
    m_findings->setStore(m_session->store());
    m_statusBar->followCache(m_session->cache());
}

bool MainWindow::openRecording(const QString &path, bool useItsDashboard)
{
    bool opened = m_session->isRecording() && m_session->cache()->path() == path;
    if (!opened) // already open (main() opens a --recording before the window exists)
        switchCache([&](QString *error) {
            opened = m_session->openRecording(path, error);
            // Not readable: back to what collection uses, so the window is not left empty.
            if (!opened && !m_liveCachePath.isEmpty())
                m_session->openCache(m_liveCachePath, nullptr,
                                     cacheOptionsWithRetention(m_retention));
            return opened;
        });
    if (!opened) {
        restartCollection();
        return false;
    }
    const auto span = m_session->cache()->span();
    const RecordingSummary summary = summarizeRecording(path, m_session->cache()->sources(), span);
    m_recordingTitle = summary.title;
    if (!m_recordingLabel) {
        m_recordingLabel = new QLabel(this);
        statusBar()->addWidget(m_recordingLabel);
    }
    m_recordingLabel->setText(summary.status);
    m_recordingLabel->setToolTip(m_session->cache()->readMode());
    m_recordingLabel->show();
    m_closeRecordingAction->setEnabled(true);
    m_followAction->setEnabled(false); // a recording has no live end to follow
    const auto held = m_session->cache()->dashboards();
    if (useItsDashboard && !held.isEmpty()) {
        QString name;
        // Saved with no file: Save asks where, never overwrites the recording.
        showDashboard(loadRecordingDashboard(QString(), held, &name), QString(), path, {});
    }
    restartCollection();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (span)
        m_range.zoom(span->first, span->second, now);
    else
        m_range.setFollowing(false, now);
    showFollowing();
    updateTitle();
    refresh();
    return true;
}

void MainWindow::openRecordingDialog()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open recording"), QString(),
        tr("Headroom recordings and caches (*.sqlite *.headroom);;All files (*)"));
    if (!path.isEmpty())
        openRecording(path);
}

void MainWindow::chooseRetention()
{
    const std::optional<RetentionDays> days = askRetention(this, effectiveRetention(m_retention));
    if (!days)
        return;
    saveRetentionSetting(*days);
    m_retention = *days;
    if (SampleCache *cache = m_session->cache(); cache && !cache->isReadOnly()) {
        cache->setRetentionDays(days->raw);
        cache->setTierRetentionDays(days->minute, days->hour);
    }
    statusBar()->showMessage(tr("The cache keeps %1 days of samples, %2 of minutes, %3 of hours")
                                 .arg(days->raw)
                                 .arg(days->minute)
                                 .arg(days->hour),
                             5000);
}

void MainWindow::saveRecordingAs()
{
    const SampleCache *cache = m_session->cache();
    if (!cache) {
        QMessageBox::information(this, tr("Save recording"),
                                 tr("There is no cache to save from: Headroom was started "
                                    "with --no-cache, or its cache could not be opened."));
        return;
    }
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save recording"), u"recording.sqlite"_s, tr("Headroom recordings (*.sqlite)"));
    if (path.isEmpty())
        return;
    m_session->flushCache(); // the last second too
    const auto [from, to] = currentRange();
    const QString name
        = m_file.isEmpty() ? m_dashboard.title + u".json"_s : QFileInfo(m_file).fileName();
    const QList<std::pair<QString, QByteArray>> dashboards
        = { { name, dashboardToJson(dashboardForRecording(m_dashboard, m_variables)) } };
    const SeriesRegistry *registry = &m_session->registry();
    auto *watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher] {
        const QString message = watcher->result();
        watcher->deleteLater();
        if (message.startsWith(u'!'))
            QMessageBox::warning(this, tr("Recording not saved"), message.mid(1));
        else
            statusBar()->showMessage(message, 10000);
    });
    statusBar()->showMessage(tr("Saving the recording to %1…").arg(path));
    m_recordingSave = QtConcurrent::run([cache, registry, from, to, dashboards, path]() -> QString {
        QString error;
        const auto saved = saveRecording(*cache, *registry, from, to, dashboards, path, &error);
        if (!saved)
            return u'!' + error;
        return tr("Saved %1: %2 series, %3 samples, %4 alert events, %5 KiB")
            .arg(path)
            .arg(saved->series)
            .arg(saved->samples)
            .arg(saved->alertEvents)
            .arg((saved->bytes + 1023) / 1024);
    });
    watcher->setFuture(m_recordingSave);
}

void MainWindow::closeRecording()
{
    if (!m_session->isRecording())
        return;
    switchCache([this](QString *error) {
        return m_session->openCache(m_liveCachePath, error, cacheOptionsWithRetention(m_retention));
    });
    m_recordingTitle.clear();
    if (m_recordingLabel)
        m_recordingLabel->hide();
    m_closeRecordingAction->setEnabled(false);
    m_followAction->setEnabled(true);
    setFollowing(true);
    updateTitle();
    restartCollection();
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
