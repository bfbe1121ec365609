// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// MainWindow's recordings: File ▸ Open Recording… in place of the live cache, Save
// Recording As…, Close Recording, and Settings ▸ Keep History… for the live cache, over
// RecordingController (recordingcontroller.h).
#include "appdashboards.h"
#include "csvexportcontroller.h"
#include "dashboardview.h"
#include "engine/cache/samplecache.h"
#include "engine/monitoringsession.h"
#include "findings/findingsdock.h"
#include "importdialog.h"
#include "importedfile.h"
#include "literaltext.h"
#include "mainwindow.h"
#include "rangebar.h"
#include "recordingcontroller.h"
#include "recordingsummary.h"
#include "retentiondialog.h"
#include "sourcestatusbar.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLabel>
#include <QMessageBox>
#include <QStatusBar>
#include <QtConcurrentRun>

namespace Headroom {

using namespace Qt::StringLiterals;

// What a recording saved in the pool says when it is done.
void MainWindow::setUpRecordings()
{
    connect(m_recordings, &RecordingController::saved, this,
            [this](const QString &message) { statusBar()->showMessage(message, 10000); });
    connect(m_recordings, &RecordingController::saveFailed, this, [this](const QString &error) {
        QMessageBox::warning(this, tr("Recording not saved"), literalAutoText(error));
    });
}

void MainWindow::switchCache(const std::function<bool(QString *)> &open)
{
    // Everything that may be reading the old cache on a worker finishes first.
    m_csvExport->waitForFinished();
    m_recordings->waitForSave();
    m_findings->setStore(nullptr);
    m_view->setStore(nullptr);
    m_session->stop();
    QString error;
    if (!open(&error))
        QMessageBox::warning(this, tr("Cannot open"),
                             literalAutoText(error + tr("\n\nThe file was not modified.")));
    m_view->setStore(m_session->store());
    m_findings->setStore(m_session->store());
    m_statusBar->followCache(m_session->cache());
}

bool MainWindow::openRecording(const QString &path, bool useItsDashboard)
{
    bool opened = m_recordings->isOpen(path);
    if (!opened) // already open (main() opens a --recording before the window exists)
        switchCache([&](QString *error) { return opened = m_recordings->open(path, error); });
    if (!opened) {
        restartCollection();
        return false;
    }
    const auto span = m_session->cache()->span();
    const RecordingSummary summary = summarizeRecording(path, m_session->cache()->sources(), span);
    m_recordingTitle = summary.title;
    if (!m_recordingLabel) {
        m_recordingLabel = plainTextLabel({}, this); // the recording's names
        statusBar()->addWidget(m_recordingLabel);
    }
    m_recordingLabel->setText(summary.status);
    setLiteralToolTip(m_recordingLabel, m_session->cache()->readMode());
    m_recordingLabel->show();
    m_closeRecordingAction->setEnabled(true);
    m_rangeBar->setFollowingEnabled(false); // a recording has no live end to follow
    const auto held = m_session->cache()->dashboards();
    if (useItsDashboard && !held.isEmpty()) {
        QString name;
        // Saved with no file: Save asks where, never overwrites the recording.
        showDashboard(loadRecordingDashboard(QString(), held, &name), QString(), path, {});
    }
    restartCollection();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (span) // one instant (a /federate dump) shows the second up to it
        m_range.zoom(std::min(span->first, span->second - 1000), span->second, now);
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

void MainWindow::importDialog()
{
    const std::optional<ImportChoice> choice = askImport(this);
    if (!choice)
        return;
    statusBar()->showMessage(tr("Importing %1…").arg(choice->file));
    struct Outcome
    {
        std::shared_ptr<ImportedFile> imported;
        QString error;
    };
    auto *watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, choice] {
        watcher->deleteLater();
        const Outcome outcome = watcher->result();
        statusBar()->clearMessage();
        if (!outcome.imported) {
            QMessageBox::warning(this, tr("File cannot be imported"),
                                 literalAutoText(outcome.error));
            return;
        }
        // The previous import's cache goes only once this one is open in its place.
        if (openRecording(outcome.imported->cachePath()))
            m_imported = outcome.imported;
        statusBar()->showMessage(
            tr("%1: imported: %2").arg(choice->file, outcome.imported->description()), 10000);
    });
    watcher->setFuture(QtConcurrent::run([choice] {
        Outcome outcome { std::make_shared<ImportedFile>(), {} };
        if (!outcome.imported->import(choice->file, choice->map, &outcome.error))
            outcome.imported.reset();
        return outcome;
    }));
}

void MainWindow::chooseRetention()
{
    const std::optional<RetentionDays> days = askRetention(this, m_recordings->retention());
    if (!days)
        return;
    m_recordings->setRetention(*days);
    statusBar()->showMessage(tr("The cache keeps %1 days of samples, %2 of minutes, %3 of hours")
                                 .arg(days->raw)
                                 .arg(days->minute)
                                 .arg(days->hour),
                             5000);
}

void MainWindow::saveRecordingAs()
{
    if (!m_recordings->canSave()) {
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
    statusBar()->showMessage(tr("Saving the recording to %1…").arg(path));
    m_recordings->save(path, dashboards, from, to);
}

void MainWindow::closeRecording()
{
    if (!m_session->isRecording())
        return;
    switchCache([this](QString *error) { return m_recordings->close(error); });
    m_recordingTitle.clear();
    if (m_recordingLabel)
        m_recordingLabel->hide();
    m_closeRecordingAction->setEnabled(false);
    m_rangeBar->setFollowingEnabled(true);
    setFollowing(true);
    updateTitle();
    restartCollection();
}

} // namespace Headroom
