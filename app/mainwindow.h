// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The main window: dashboard grid, time-range picker with live follow, variable
// selectors, collector status, open/save/recent files, PNG and CSV export, alert rules
// (Alerts menu) and their notifications in the system tray; the Findings dock (ranked
// findings, What changed) and what a finding does to the panels.
#pragma once

#include "collector/sourcestatus.h"
#include "document/dashboard.h"
#include "document/dashboardfile.h"
#include "query/analysis/findings.h"
#include "rangecontroller.h"
#include "retentionsetting.h"

#include <QHash>
#include <QMainWindow>
#include <QPointer>
#include <QTimer>
#include <functional>
#include <memory>

class QComboBox;
class QLabel;
class QAction;
class QMenu;
class QStackedWidget;
class QSystemTrayIcon;

namespace Headroom {

class AlertNotifier;
class ChartWindow;
class CsvExportController;
class DashboardView;
class FindingsDock;
class ImportedFile;
class MonitoringSession;
class RangeBar;
class RecordingController;
class RepeatExpander;
struct RepeatExpansion;
class TrustBar;
class SourceStatusBar;
class VariableBar;
class WelcomePage;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    MainWindow(MonitoringSession *session, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Opens path (empty: the shipped default) with variable overrides. Shows a message
    // and keeps the current dashboard when the file cannot be used.
    bool openDashboard(const QString &path, const QMap<QString, QString> &variables = {});
    // The welcome page (first start, Help ▸ Welcome) in place of the dashboard; a choice
    // on it opens that dashboard, "Back" returns to the open one.
    void showWelcome();
    bool isShowingWelcome() const;
    WelcomePage *welcomePage() const { return m_welcome; }
    QString dashboardTitle() const { return m_dashboard.title; }
    void setRange(qint64 rangeMs);
    // Opens the cache at path as a recording (read-only, nothing collected) and shows its
    // whole span. Shows a message and keeps what is open when it cannot be read.
    // useItsDashboard: show the dashboard the recording holds, when it holds one.
    bool openRecording(const QString &path, bool useItsDashboard = true);
    // The cache collection goes back to when a recording is closed (empty: none), and
    // the retention it was opened with.
    void setLiveCache(const QString &path, const RetentionDays &retention);
    DashboardView *view() const { return m_view; }
    FindingsDock *findingsDock() const { return m_findings; }
    QComboBox *compareCombo() const;
    std::pair<qint64, qint64> shownRange() const { return currentRange(); }

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void rebuildVariableBar();
    void restartCollection();
    // Shows the dashboard's panels, then (where panels repeat) the values they repeat
    // over, resolved in the pool (an engine may be asked), with the panels expanded.
    void showPanels();
    void expandRepeatsLater();
    void showExpansion(const RepeatExpansion &expansion);
    void trustDashboard(); // the trust bar's "Trust and connect"
    void refresh();
    void onZoom(qint64 fromMs, qint64 toMs);
    void setFollowing(bool follow);
    void showFollowing(); // the Pause/Resume action as m_range says
    void chooseCustomRange();
    void openFileDialog();
    void openRecordingDialog();
    // File ▸ Import…: a file of another tool's metrics, read on the pool into a private
    // cache that then opens as a recording.
    void importDialog();
    void closeRecording(); // back to live collection into the live cache
    void chooseRetention(); // Settings ▸ Keep History…
    void saveRecordingAs(); // the range shown, on the pool
    // Shows a loaded dashboard: path is what Save writes to (empty: ask), origin the file
    // the trust check names.
    bool showDashboard(const DashboardLoadResult &loaded, const QString &path,
                       const QString &origin, const QMap<QString, QString> &variables);
    void switchCache(const std::function<bool(QString *)> &open); // waits for readers first
    bool save();
    bool saveAs();
    bool saveTo(const QString &path);
    void openChart(const DashboardPanel &chart);
    void installPanelActions(); // per-panel context actions, after every setDashboard
    void editPanels();
    void editSources(); // Dashboard ▸ Sources…: applied live, saved with the dashboard
    void updateFindingsSources();
    void editPanelById(const QString &panelId); // not editPanel(): Headroom::editPanel exists
    void applyEditedDashboard(const Dashboard &edited);
    void editAlertRules();
    void setUpAlerts(); // tray icon, notifications, acknowledgements
    void setUpExports();
    void setUpRecordings();
    void setModified(bool modified);
    bool maybeSave(); // false: the user cancelled
    void exportCsv();
    void addRecentFile(const QString &path);
    void updateRecentMenu();
    void updateTitle();
    std::pair<qint64, qint64> currentRange() const;
    void setUpFindings();
    void focusFinding(const Analysis::Finding &finding, qint64 dataFromMs, qint64 dataToMs);
    void clearFindingFocus();
    void compareBeforeAfter(const Analysis::Finding &finding);

    MonitoringSession *m_session;
    RecordingController *m_recordings; // the live cache or a recording, saving recordings
    // The private cache of the file imported last, while it may be open.
    std::shared_ptr<ImportedFile> m_imported;
    CsvExportController *m_csvExport;
    RepeatExpander *m_repeats; // the panels as drawn and the variables' listed values
    Dashboard m_dashboard;
    QString m_file; // empty: the shipped default, "Save" asks for a name
    QString m_source; // the file or resource m_dashboard came from
    bool m_trusted = true; // its targets and SQL may be acted on (dashboardtrust.h)
    TrustBar *m_trustBar;
    QStackedWidget *m_pages;
    QWidget *m_dashboardPage;
    WelcomePage *m_welcome;
    QMenu *m_dashboardMenu = nullptr;
    QMenu *m_alertsMenu = nullptr;
    bool m_findingsShown = true; // the Findings dock's visibility behind the welcome page
    QMap<QString, QString> m_variables;
    QHash<QString, SourceStatus> m_sourceStatus; // the latest of each source, for Sources…
    DashboardView *m_view;
    SourceStatusBar *m_statusBar;
    RangeBar *m_rangeBar;
    VariableBar *m_variableBar;
    FindingsDock *m_findings = nullptr;
    QMenu *m_recentMenu;
    QTimer m_refreshTimer;
    QSystemTrayIcon *m_tray = nullptr; // null without a notification area
    AlertNotifier *m_notifier = nullptr;
    QList<QPointer<ChartWindow>> m_charts; // open USE matrix charts (they delete themselves)
    RangeController m_range; // the range shown, following live data or fixed
    bool m_modified = false; // panels edited since the last open or save
    QString m_recordingTitle; // empty: live; else what the title bar adds
    QLabel *m_recordingLabel = nullptr;
    QAction *m_closeRecordingAction = nullptr;
};

} // namespace Headroom
